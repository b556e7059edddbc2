"""Generative vs seeded campaigns side by side (issue 25's done-when): programs and programs per
minute of each, the distinct root causes (bucket keys) of each, and the ones only the seeded
campaign found, with their attachments and seeds.

    python3 scripts/compare_seeded.py GEN_SUMMARY.json GEN_CORPUS SEEDED_SUMMARY.json SEEDED_CORPUS
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from minimizer.fuzz.store import record   # noqa: E402


def keys(corpus: str, fmins: bool = False) -> dict[str, tuple]:
    """Bucket key -> (record, directory) of every bucket of the compilers under test, or with
    ``fmins`` of fmin's own (a mutant or generated program the reference rejects is the mutator's
    or the generator's fault, not a compiler's root cause); stale ones left out: not a root cause
    today."""
    out = {}
    for d in sorted(os.listdir(corpus)) if os.path.isdir(corpus) else ():
        m = record.load_dir(os.path.join(corpus, d))
        if m is not None and not m.stale and (m.owner == "fmin") == fmins:
            out[str(m.key)] = (m, os.path.join(corpus, d))
    return out


def rate(summary: dict) -> str:
    n, s = summary.get("programs", 0), summary.get("judge_seconds") or summary.get("seconds") or 0
    return f"{n} programs, {60 * n / s:.1f}/min over {s:.0f} s judging" if s else f"{n} programs"


def main(gen_summary, gen_corpus, seeded_summary, seeded_corpus) -> int:
    sums = []
    for p in (gen_summary, seeded_summary):
        try:
            with open(p, encoding="utf-8") as f:
                sums.append(json.load(f))
        except (OSError, ValueError) as e:
            print(f"{p}: no summary ({e})")
            sums.append({})
    g, s = keys(gen_corpus), keys(seeded_corpus)
    print(f"generative: {rate(sums[0])}; {len(g)} root causes")
    print(f"seeded:     {rate(sums[1])}; {len(s)} root causes"
          + (f"; {sums[1].get('seeded_programs')} seeded programs from {len(sums[1].get('per_seed', {}))} seeds"
             if sums[1].get("per_seed") else ""))
    if sums[0].get("programs") and sums[1].get("programs") and sums[0].get("judge_seconds") and sums[1].get("judge_seconds"):
        ratio = (sums[0]["programs"] / sums[0]["judge_seconds"]) / (sums[1]["programs"] / sums[1]["judge_seconds"])
        print(f"generative/seeded programs per minute: {ratio:.2f}x (done-when: within 2x)")
    secs, per = sums[1].get("per_seed_seconds") or {}, sums[1].get("per_seed") or {}
    if secs:   # where a seeded campaign's slot time went, by seed
        print("seeded slot time by seed: " + ", ".join(
            f"{os.path.basename(k)} {v:.0f} s / {per.get(k, 0)} programs"
            for k, v in sorted(secs.items(), key=lambda kv: -kv[1])[:8]))
    large = sums[1].get("large_seeds") or {}
    if large:   # seeds over the trim budget: their trimmed programs and those at the real sizes
        print("large seeds' programs: " + ", ".join(
            f"{k} {v['count']} in {v['seconds']:.0f} s" for k, v in sorted(large.items())))
    for name, ks in (("generative", g), ("seeded", s)):
        print(f"\n{name} root causes:")
        for k in sorted(ks):
            print(f"  {ks[k][0].id} {k[:160]}")
    only = sorted(set(s) - set(g))
    print(f"\nonly seeded found ({len(only)}):")
    for k in only:
        m, d = s[k]
        att = os.path.join(d, "repro.min.py")
        att = att if os.path.exists(att) else os.path.join(d, "original.py") + " (not minimized)"
        seeds = ", ".join(sorted(m.seeds or {})) or "?"
        alone = m.standalone.reproduced if m.standalone is not None else None
        print(f"  {m.id} [{m.kind}] {k[:140]}\n      attachment {att}; seed {seeds}; "
              f"reproduces standalone: {alone}")
    print(f"\nonly generative found: {len(set(g) - set(s))}; both: {len(set(g) & set(s))}")
    for name, corpus in (("generative", gen_corpus), ("seeded", seeded_corpus)):
        own = keys(corpus, fmins=True)
        print(f"fmin's own findings of the {name} campaign (not compiler bugs): {len(own)}"
              + "".join(f"\n  {m.id} {k[:140]}" for k, (m, _) in sorted(own.items())))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
