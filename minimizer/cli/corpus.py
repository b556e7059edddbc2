"""``fmin merge-findings`` and ``fmin new-bugs``: the commands on findings corpora, no runs.

A CI matrix's shards are merged into one corpus, re-keyed; the nightly gate compares the bug
lists of the corpus before and after and fails on a root cause the known one does not have.
"""
from __future__ import annotations

import argparse
import os

from ..errors import UsageError
from .paths import require_out_dir, require_out_file


def add_merge(m: argparse.ArgumentParser) -> None:
    """fmin merge-findings."""
    m.add_argument("sources", nargs="*", metavar="DIR")
    m.add_argument("--into", required=True, metavar="DIR")


def add_new_bugs(g: argparse.ArgumentParser) -> None:
    """fmin new-bugs KNOWN AFTER: the nightly CI gate."""
    g.add_argument("known", metavar="KNOWN", help="the findings corpus before the campaign (a copy)")
    g.add_argument("after", metavar="AFTER", help="the same corpus after the shards were merged into it")
    g.add_argument("--junit", metavar="FILE", help="JUnit XML: one test per Bugs row of AFTER, a new one fails")


def cmd_merge(args) -> int:
    from ..fuzz.judging.today import merge
    from ..fuzz.store.store import bucket_id
    for d in args.sources:
        if not os.path.isdir(d):
            raise UsageError(f"{d}: no such directory")
    from ..fuzz.buglist import page as buglist
    require_out_dir(args.into, "--into")
    r = merge(args.sources, args.into)
    k = r["rekey"]
    learned = f"; what the feedback campaigns of {r['learned']} source(s) learned added" if r.get("learned") else ""
    print(f"merged into {args.into}: {r['new']} new bucket(s), {r['merged']} known bucket(s) updated{learned}; re-keyed: "
          f"{k['buckets_before']} -> {k['buckets_after']} bucket(s), {k['merged']} merged into another, "
          f"{k['moved']} moved to a new key")
    for key, ids in sorted(k["groups"].items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"  {len(ids)} -> {k.get('ids', {}).get(key) or bucket_id(key)}: {key}")
        print(f"       from {' '.join(ids)}")
    print(f"bug list: {buglist.write(args.into)}")
    return 0


def cmd_new_bugs(args) -> int:
    """The gate of a nightly campaign (``fuzz.buglist.gate``): exit 1 on a new Bugs row, else 0."""
    from ..fuzz.buglist import gate
    for d in (args.known, args.after):
        if not os.path.isdir(d):
            raise UsageError(f"{d}: no such directory")
    require_out_file(args.junit, "--junit")
    new, lines = gate.report(args.known, args.after, args.junit)
    print("\n".join(lines))
    return 1 if new else 0
