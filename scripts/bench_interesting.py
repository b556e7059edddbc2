#!/usr/bin/env python3
"""The interestingness test shared by every reducer in bench_reduce.py: the candidate ($1) must
still be a well-formed fusion script (fmin's reader and static check: right arguments, shapes,
dtypes, inputs list) and still contain PATTERN. Each call appends a line to $BENCH_COUNTER."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> int:
    path, pattern = sys.argv[1], sys.argv[2]
    if os.environ.get("BENCH_COUNTER"):
        with open(os.environ["BENCH_COUNTER"], "a") as f:
            f.write("x\n")
    try:
        text = open(path, encoding="utf-8").read()
        if not re.search(pattern, text):
            return 1
        from minimizer.program import parse
        from minimizer.program import static
        prog = parse(text, path)
        static.check(prog)
    except Exception:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
