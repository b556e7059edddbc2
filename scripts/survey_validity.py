"""Which buckets of a findings corpus hold programs that break a validity rule
(``minimizer.program.validity``): one row per bucket (id, kind, owner, the rules its scripts
break, script by script), then the count of buckets per rule.

    python3 scripts/survey_validity.py [corpus/findings] [--values]

Static rules are read from each script (``original.py``, ``reduced.py``, ``repro.min.py``)
without running it. ``--values`` also runs each script once on the reference backend, on the
CPU in fmin's worker, for the rules that need values (integer overflow, shift amounts of
tensors, division by zero, float-to-int casts): the inputs are those the script draws with fmin's
seed 0, as a campaign's run drew them.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from minimizer.program.validity import violations  # noqa: E402

SCRIPTS = ("original.py", "reduced.py", "repro.min.py")


def static_rules(path: str) -> list[str] | str:
    """The static rules the script breaks, or why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return sorted({v.rule for v in violations(f.read())})
    except Exception as e:   # noqa: BLE001 - an unreadable script is a row, not the end
        return f"unreadable: {type(e).__name__}"


def value_rules(paths: list[str]) -> dict[str, list[str]]:
    """Script -> the value rules its reference run broke (runs each in a reference worker)."""
    from minimizer.backends import RunOptions
    from minimizer.oracle.pool import Pool, Request
    out = {}
    pool = Pool("reference", "cpu", jobs=1, timeout=120)
    try:
        for p in paths:
            with open(p, encoding="utf-8") as f:
                text = f.read()
            o = pool.run(Request(text, p, RunOptions(seed=0)))
            out[p] = sorted({d["rule"] for d in (o.undefined or [])})
    finally:
        pool.close()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", default="corpus/findings")
    ap.add_argument("--values", action="store_true", help="also run each script on the reference (CPU)")
    args = ap.parse_args(argv)
    rows, per_rule = [], Counter()
    dirs = sorted(d for d in glob.glob(os.path.join(args.corpus, "*")) if os.path.isfile(os.path.join(d, "finding.json")))
    scripts = {d: [os.path.join(d, s) for s in SCRIPTS if os.path.isfile(os.path.join(d, s))] for d in dirs}
    values = value_rules([p for ps in scripts.values() for p in ps]) if args.values else {}
    for d in dirs:
        with open(os.path.join(d, "finding.json"), encoding="utf-8") as f:
            rec = json.load(f)
        found = {}
        for p in scripts[d]:
            got = static_rules(p)
            if isinstance(got, list):
                got = sorted(set(got) | set(values.get(p, [])))
            found[os.path.basename(p)] = got
        rules = sorted({r for v in found.values() if isinstance(v, list) for r in v})
        per_rule.update(rules)
        stale = " (stale)" if rec.get("stale") else ""
        rows.append((os.path.basename(d), rec.get("kind", "?") + stale, rec.get("owner", "?"), rules, found))
    print("| bucket | kind | owner | rules broken | by script |")
    print("|---|---|---|---|---|")
    for b, kind, owner, rules, found in rows:
        by = "; ".join(f"{k}: {', '.join(v) if isinstance(v, list) else v}" for k, v in found.items()
                       if v and (not isinstance(v, list) or v))
        print(f"| {b} | {kind} | {owner} | {', '.join(rules) or '-'} | {by or '-'} |")
    invalid = sum(1 for r in rows if r[3])
    print(f"\n{len(rows)} buckets, {invalid} with a program that breaks a rule")
    for rule, n in per_rule.most_common():
        print(f"  {rule}: {n} buckets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
