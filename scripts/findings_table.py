#!/usr/bin/env python3
"""A Markdown table of a findings corpus (``fmin fuzz --corpus DIR``): one row per bucket with
its backend, kind, owner, occurrences, what differs (for wrong results: the dtype, the shape or
the values, read from the recorded comparison), the reduction (ops before -> after) and the key.

    python scripts/findings_table.py corpus/findings > corpus/findings/README.md
"""
from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter


def differs(m: dict) -> str:
    if m["kind"] != "mismatch":
        return ""
    k = m["key"].split(" mismatch ", 1)[-1]
    if k.startswith(("dtype ", "shape ")):
        return k.split()[0]
    w = m.get("words", "")
    g = re.search(r": (\w+)\[([\d, ]*)\] vs reference (\w+)\[([\d, ]*)\]", w)
    if g:
        return "dtype" if g.group(2) == g.group(4) else "shape"
    return "values"


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else "corpus/findings"
    rows = []
    for name in sorted(os.listdir(root)):
        p = os.path.join(root, name, "finding.json")
        if os.path.exists(p):
            with open(p) as f:
                rows.append(json.load(f))
    rows.sort(key=lambda m: (m["backend"], m["kind"], differs(m), -m["count"]))
    print(f"# Findings ({len(rows)} buckets)\n")
    print("Made by `fmin fuzz` (see docs/fuzz.md); regenerate with "
          "`python scripts/findings_table.py corpus/findings`.\n")
    c = Counter((m["backend"], m["kind"] + (f" ({differs(m)})" if differs(m) else "")) for m in rows)
    print("| backend | kind | buckets |\n|---|---|---:|")
    for (b, k), n in sorted(c.items()):
        print(f"| {b} | {k} | {n} |")
    print("\n| bucket | backend | kind | differs | owner | seen | minimized | key |\n|---|---|---|---|---|---:|---|---|")
    for m in rows:
        r = m.get("reduction") or {}
        red = f"{r['ops_before']} → {r['ops_after']} ops" if "ops_after" in r else ("error" if "error" in r else "no")
        key = m["key"].replace("|", "\\|")
        key = key if len(key) <= 140 else key[:139] + "…"
        print(f"| [{m['id']}]({m['id']}/) | {m['backend']} | {m['kind']} | {differs(m)} | {m['owner']} | {m['count']} | "
              f"{red} | `{key}` |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
