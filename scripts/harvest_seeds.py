"""Print what ``fmin fuzz --seeds CHECKOUT`` would read from an nvFuser checkout's Python tests,
without running a campaign: the fusion functions found, read as seeds and left out by reason.

    python scripts/harvest_seeds.py CHECKOUT [--frontend nvfuser_direct] [-v]

``--frontend``: the campaign's (legacy seeds are upgraded to it, as ``fmin fuzz --frontend``
does); ``-v``: every fusion function left out, with its reason. The tests run in a worker process
(``minimizer/harvest/worker.py``), never in this one.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from minimizer.harvest import nvfuser_tests
from minimizer.fuzz.sources import seeded   # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout")
    ap.add_argument("--frontend", choices=("nvfuser", "nvfuser_direct"))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if not nvfuser_tests.is_checkout(args.checkout):
        print(f"fmin: {args.checkout}: not an nvFuser checkout (expected csrc/ and tests/python/)", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    got = seeded.load([args.checkout], args.frontend)
    for report in got.harvests:
        print(report.block(top=30))
        if args.verbose:
            print("\n".join("  " + line for line in report.lines))
    print(f"({len(got.seeds)} seeds, {time.monotonic() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
