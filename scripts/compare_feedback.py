"""Campaigns of equal time side by side by what they covered (docs/fuzz.md "Feedback"): per
campaign the programs judged, the decision signatures and features it covered, its new buckets
and root causes, and the ones only it found; with ``--feedback``, its queue.

    python3 scripts/compare_feedback.py NAME=SUMMARY.json:CORPUS [NAME=SUMMARY.json:CORPUS ...]

(``bash scripts/gpu.sh feedback`` runs it on a generative, a seeded and a seeded-with-feedback
campaign.) A campaign whose summary is missing (killed, crashed) is a row of dashes, not an error.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_seeded import keys  # noqa: E402


def load(spec: str) -> tuple[str, dict, str]:
    name, _, rest = spec.partition("=")
    summary, _, corpus = rest.partition(":")
    try:
        with open(summary, encoding="utf-8") as f:
            return name, json.load(f), corpus
    except (OSError, ValueError) as e:
        print(f"{name}: no summary ({e})")
        return name, {}, corpus


def row(name: str, s: dict, roots: dict, only: int) -> str:
    if not s:
        return f"| {name} | - | - | - | - | - | {len(roots)} | {only} | - |"
    cov = s.get("decision_coverage") or {}
    secs = s.get("judge_seconds") or s.get("seconds") or 0
    fb = s.get("feedback") or {}
    queue = f"{len(fb.get('queue') or ())} entries, {fb.get('derived_programs', 0)} derived" if fb else "-"
    return (f"| {name} | {s.get('programs', 0)} | {60 * s.get('programs', 0) / secs:.0f} | "
            f"{cov.get('signatures', '-')} | {cov.get('features', '-')} | {len(s.get('new_buckets') or ())} | "
            f"{len(roots)} | {only} | {queue} |" if secs else f"| {name} | {s.get('programs', 0)} | - | - | - | - | "
            f"{len(roots)} | {only} | {queue} |")


def main(specs: list[str]) -> int:
    runs = [load(x) for x in specs]
    roots = {name: keys(corpus) if corpus else {} for name, _, corpus in runs}
    feats = {name: set((s.get("decision_coverage") or {}).get("feature_counts") or ()) for name, s, _ in runs}
    print("| campaign | programs | per min | decision signatures | decision features | new buckets | "
          "root causes | only it found | feedback queue |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, s, _ in runs:
        others = set().union(*(set(roots[n]) for n in roots if n != name))
        print(row(name, s, roots[name], len(set(roots[name]) - others)))
    for name, _, _ in runs:
        others = set().union(*(feats[n] for n in feats if n != name))
        own = sorted(feats[name] - others)
        print(f"\ndecision features only {name} covered ({len(own)}):" + "".join(f"\n  {f}" for f in own[:40])
              + ("\n  ..." if len(own) > 40 else ""))
    for name, _, _ in runs:
        others = set().union(*(set(roots[n]) for n in roots if n != name))
        only = sorted(set(roots[name]) - others)
        print(f"\nroot causes only {name} found ({len(only)}):")
        for k in only:
            m, d = roots[name][k]
            anc = " <- " + " + ".join(x["id"] for x in m.ancestry["chain"]) if m.ancestry else ""
            print(f"  {m.id} [{m.kind}] {k[:140]}  ({d}){anc}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or any("=" not in a for a in sys.argv[1:]):
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
