"""The gate of a nightly CI campaign (``fmin new-bugs KNOWN AFTER``): which rows of the bug list's
*Bugs* section are new since the last night.

KNOWN is the findings corpus before the night (a copy), AFTER the same corpus once the shards are
merged into it (``fmin merge-findings``) and minimized. A Bugs row of AFTER is new when no Bugs row
of KNOWN answers to its root cause: neither its key nor a key it absorbed (a bucket re-keyed by a
newer fmin keeps its old keys) is among theirs. fmin's own findings (the generator or the reference
was wrong), stale buckets and the bug list's other classes (missing checks, segmentation, by design,
debug-dump failures) are not Bugs rows, so they never fail the run; a stale bug that shows
again is a new row (a regression). Part of the package, not a script of fmin's repository, so that
a project's workflow runs it from the fmin it installed (docs/ci.md).
"""
from __future__ import annotations

import os
from xml.etree import ElementTree as ET

from . import page as buglist


def bug_rows(root: str) -> list[dict]:
    """The rows of the bug list's Bugs section (``buglist.classified``: live buckets owned by the
    compiler under test that are no missing check, segmentation difference, by-design difference
    or debug-dump failure)."""
    return buglist.classified(root, buglist.rows_of(root))["bug"]


def _keys(row: dict) -> set[str]:
    m = row["_m"]
    return {k for k in [str(m.key), *(m.old_keys or [])] if k}


def _answers_to(row: dict) -> set[str]:
    """The keys a known row answers to: its own and those it absorbed — but for a row keyed by a
    known mechanism (``BucketKey.mechanism``), its own only: the op lists it was keyed by before
    say nothing of its cause, and another repro of those ops (``var`` over an expanded dim, beside
    the row of ``var`` over a reduction's output) may well be another bug."""
    m = row["_m"]
    return {str(m.key)} if m.key.mechanism else _keys(row)


def new_bug_rows(known: str, after: str) -> list[dict]:
    seen = set().union(*(_answers_to(r) for r in bug_rows(known)))
    return [r for r in bug_rows(after) if not _keys(r) & seen]


def write_junit(path: str, rows: list[dict], new: list[dict]) -> None:
    """JUnit XML with one test per Bugs row of ``rows``; those of ``new`` fail."""
    new_ids = {r["bucket"] for r in new}
    suite = ET.Element("testsuite", name="fmin new bugs", tests=str(len(rows)), failures=str(len(new_ids)))
    for r in rows:
        case = ET.SubElement(suite, "testcase", classname=f"fmin.{r['backend']}", name=r["bucket"])
        if r["bucket"] in new_ids:
            fail = ET.SubElement(case, "failure", message=f"new bug: {r['kind']}: {r['message']}"[:500])
            fail.text = f"{r['where raised']}\n{r['message']}\nattachment: {r['attachment']}"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


def report(known: str, after: str, junit: str | None = None) -> tuple[list[dict], list[str]]:
    """The new Bugs rows of ``after`` since ``known`` and the lines that say so (a count, then the
    rows as the bug list's table); with ``junit``, that file written too."""
    new = new_bug_rows(known, after)
    if junit:
        write_junit(junit, bug_rows(after), new)
    lines = [f"{len(new)} new bug(s) in {after} since {known}"]
    if new:
        lines += ["", *buglist.table(new)]
    return new, lines


__all__ = ["bug_rows", "new_bug_rows", "write_junit", "report"]
