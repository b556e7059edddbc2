"""The CI gate of a nightly fuzz campaign: which rows of the bug list's *Bugs* section are new.

    python3 scripts/ci_new_bugs.py KNOWN AFTER [--junit FILE]

KNOWN is the findings corpus before the night (a copy), AFTER the same corpus once the shards are
merged into it (``fmin merge-findings``) and minimized. A Bugs row of AFTER is new when no Bugs row
of KNOWN answers to its root cause: neither its key nor a key it absorbed (a bucket re-keyed by a
newer fmin keeps its old keys) is among theirs. fmin's own findings (the generator or the reference
was wrong), stale buckets and the bug list's other classes (missing checks, segmentation, by design,
debug-dump failures) are not Bugs rows, so they never fail the run; a stale bug that shows
again is a new row (a regression). Prints the new rows as a Markdown table, writes a JUnit file
with one test per Bugs row of AFTER (a new one fails), and exits 1 when there is a new row.
"""
from __future__ import annotations

import argparse
import os
import sys
from xml.etree import ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from minimizer.fuzz.buglist import page as buglist   # noqa: E402


def bug_rows(root: str) -> list[dict]:
    """The rows of the bug list's Bugs section (``buglist.classified``: live buckets owned by the
    compiler under test that are no missing check, segmentation difference, by-design difference
    or debug-dump failure)."""
    return buglist.classified(root, buglist.rows_of(root))["bug"]


def _keys(row: dict) -> set[str]:
    m = row["_m"]
    return {k for k in [str(m.key), *(m.old_keys or [])] if k}


def new_bug_rows(known: str, after: str) -> list[dict]:
    seen = set().union(*(_keys(r) for r in bug_rows(known)))
    return [r for r in bug_rows(after) if not _keys(r) & seen]


def write_junit(path: str, rows: list[dict], new: list[dict]) -> None:
    new_ids = {r["bucket"] for r in new}
    suite = ET.Element("testsuite", name="fmin new bugs", tests=str(len(rows)), failures=str(len(new_ids)))
    for r in rows:
        case = ET.SubElement(suite, "testcase", classname=f"fmin.{r['backend']}", name=r["bucket"])
        if r["bucket"] in new_ids:
            fail = ET.SubElement(case, "failure", message=f"new bug: {r['kind']}: {r['message']}"[:500])
            fail.text = f"{r['where raised']}\n{r['message']}\nattachment: {r['attachment']}"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="list the bug list's new Bugs rows; exit 1 when there is one")
    ap.add_argument("known", metavar="KNOWN", help="the findings corpus before the campaign")
    ap.add_argument("after", metavar="AFTER", help="the same corpus after the shards were merged into it")
    ap.add_argument("--junit", metavar="FILE", help="JUnit XML: one test per Bugs row of AFTER, a new one fails")
    args = ap.parse_args(argv)
    for d in (args.known, args.after):
        if not os.path.isdir(d):
            print(f"ci_new_bugs: {d}: no such directory", file=sys.stderr)
            return 2
    new = new_bug_rows(args.known, args.after)
    if args.junit:
        write_junit(args.junit, bug_rows(args.after), new)
    print(f"{len(new)} new bug(s) in {args.after} since {args.known}")
    if new:
        print("", *buglist.table(new), sep="\n")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
