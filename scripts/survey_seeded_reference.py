#!/usr/bin/env python3
"""Which seeded programs the reference cannot run, and why: every program of chunks
``[--from, --to)`` of a seeded campaign, run on the reference backend (CPU, worker processes),
counted by triage category, seed file and error signature, with one example id each.

A mutant the static check passes but eager torch refuses is fmin's fault (its static check or a
mutation), never a compiler's: on the GPU it costs a program and files a bucket of fmin's own.
This is the survey that found the causes listed in docs/fuzz.md ("Mutants eager torch would
refuse"); a clean run prints only the program count.

    python3 scripts/survey_seeded_reference.py --seed 2031 --from 0 --to 120 corpus/*.py corpus/seeds
"""
from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from minimizer.backends import RunOptions  # noqa: E402
from minimizer.fuzz.sources import seeded   # noqa: E402
from minimizer.oracle.pool import Pool, Request  # noqa: E402
from minimizer.oracle.triage import category  # noqa: E402
from minimizer.program import to_source  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seeds", nargs="+", help="seed files and folders, as for fmin fuzz --seeds")
    ap.add_argument("--seed", type=int, default=2031, help="the campaign seed")
    ap.add_argument("--from", dest="start", type=int, default=0)
    ap.add_argument("--to", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    dirs = tuple(a.seeds)
    bad, first, n = collections.Counter(), {}, 0
    with Pool("reference", "cpu", jobs=a.jobs, timeout=120) as pool:
        for k in range(a.start, a.to):
            for e in seeded.chunk(a.seed, k, dirs):
                n += 1
                o = pool.run(Request(to_source(e.program), e.id, RunOptions(seed=0)))
                if not o.ok:
                    key = (category(o), os.path.basename(e.seed_file), (o.signature or "")[:100])
                    bad[key] += 1
                    first.setdefault(key, f"{e.id} {'+'.join(e.mutations)}")
    print(f"{n} programs of chunks {a.start}..{a.to - 1} of seed {a.seed}; {sum(bad.values())} fail on the reference")
    if bad:
        print("\n| count | category | seed | signature | first example (mutations) |\n|---:|---|---|---|---|")
        for (cat, seed, sig), c in bad.most_common():
            print(f"| {c} | {cat} | {seed} | {sig.replace('|', '/')} | {first[(cat, seed, sig)]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
