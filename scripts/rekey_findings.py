#!/usr/bin/env python3
"""Bring a findings corpus made by an older fmin up to today's failure signatures, merging the
buckets that now coincide (``Store.rekey``), by ``nvfuser_log.refresh_signature``: NVRTC compile
errors no longer name the scheduler whose kernel failed, and kernel IR tensor names (``t29``) are
masked.

    python scripts/rekey_findings.py corpus/findings
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from minimizer.fuzz.findings import Store  # noqa: E402
from minimizer.backends.nvfuser_log import refresh_signature  # noqa: E402


def today(meta: dict, outcome: dict | None):
    if meta.get("kind") != "failure" or not outcome or not outcome.get("signature"):
        return None
    old = outcome["signature"]
    sig = refresh_signature(old)
    if sig == old:
        return None
    changes = {"key": meta["key"].replace(old, sig), "words": meta.get("words", "").replace(old, sig)}
    return changes, {**outcome, "signature": sig}


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else "corpus/findings"
    r = Store(root).rekey(today)
    print(f"{root}: {r['moved']} bucket(s) moved to new keys, {r['merged']} merged into another")
    return 0


if __name__ == "__main__":
    sys.exit(main())
