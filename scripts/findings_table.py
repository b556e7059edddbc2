#!/usr/bin/env python3
"""A Markdown table of a findings corpus (``fmin fuzz --corpus DIR``): one row per bucket with
its backend, kind (with "also via a relayout/permutation" where some of its failures needed
one), owner, occurrences, the input dtypes its examples showed, what differs (for wrong results:
the dtype, the shape, the values or an aliased input), the reduction (ops before -> after, or
"stale" for a finding that no longer reproduces) and the key.

    python scripts/findings_table.py corpus/findings > corpus/findings/README.md
"""
from __future__ import annotations

import os
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from minimizer.fuzz.store import record   # noqa: E402
from minimizer.fuzz.judging.property import differs   # noqa: E402


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else "corpus/findings"
    rows = [m for name in sorted(os.listdir(root)) if (m := record.load_dir(os.path.join(root, name))) is not None]
    rows.sort(key=lambda m: (bool(m.stale), m.backend, m.kind, differs(m), -m.count))
    live = [m for m in rows if not m.stale]
    print(f"# Findings ({len(rows)} buckets: {len(live)} reproduce, {len(rows) - len(live)} stale)\n")
    print("Made by `fmin fuzz` (see docs/fuzz.md); regenerate with "
          "`python scripts/findings_table.py corpus/findings`. A *stale* bucket no longer shows its finding "
          "when replayed (`fmin fuzz --recheck`, or a reduction's first replay): fixed in the backend since, "
          "or a typing rule of fmin's reference corrected since, or the reference now rejects the program "
          "(never a valid one); it is kept, with the reason, in its `finding.json`.\n")
    c = Counter((m.backend, m.kind + (f" ({differs(m)})" if differs(m) else ""), bool(m.stale),
                 bool(m.minimized and m.reduction is not None and m.reduction.ops_after is not None)) for m in rows)
    keys = sorted({(b, k) for b, k, _, _ in c})
    print("| backend | kind | reproduce | of which minimized | stale |\n|---|---|---:|---:|---:|")
    for b, k in keys:
        rep = c[(b, k, False, True)] + c[(b, k, False, False)]
        print(f"| {b} | {k} | {rep} | {c[(b, k, False, True)]} | {c[(b, k, True, True)] + c[(b, k, True, False)]} |")
    print("\n| bucket | backend | kind | differs | owner | seen | dtypes | minimized | key |\n"
          "|---|---|---|---|---|---:|---|---|---|")
    for m in rows:
        r = m.reduction or record.Reduction()
        sized = r.ops_after is not None
        red = f"{r.ops_before} → {r.ops_after} ops" if sized else ("error" if r.error is not None else "no")
        if m.stale:
            red = "**stale**" + (f" ({red})" if sized else "")
        key = str(m.key).replace("|", "\\|")
        key = key if len(key) <= 140 else key[:139] + "…"
        kind = m.kind + "".join(f" (also via {w})" for w, marked in (("a relayout", m.layout_dependent),
                                                                        ("a permutation", m.order_dependent))
                                  if marked and m.kind == "failure")
        dtypes = ", ".join(f"{d}×{n}" if n > 1 else d for d, n in sorted((m.dtypes or {}).items()))
        print(f"| [{m.id}]({m.id}/) | {m.backend} | {kind} | {differs(m)} | {m.owner} | {m.count} | "
              f"{dtypes} | {red} | `{key}` |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
