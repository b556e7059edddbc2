"""A key string of a schema-1 (or older) ``finding.json`` read into a ``BucketKey``, once, on migration.

Before schema 2 a record held its key as text only. ``record``'s migration to schema 2 calls
``key_of`` — the one place fmin reads a key's text back into parts; everything else reads the
record's fields. Every form fmin has written is read: today's (a failure, a wrong result, a
segmentation change as a campaign and as a seeded campaign word it, the generator's) and the
older ones the frozen corpora of ``tests/data`` hold (a wrong result named by the op of its
first differing output and that output's dtype, ``nvfuser mismatch cat -> bool``; a variant
whose outcome changed, ``... layout-dependent status ok `None` -> error `<signature>` ``). A text
the parts do not say back exactly keeps its text (``BucketKey.verbatim``): a bucket's id is a
hash of its key, so a migrated key is always its old string.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ...oracle.rootcause import site_and_message
from .key import FAILURE, GENERATOR, MISMATCH, OUTCOME_CHANGE, SEGMENTATION, BucketKey

#: a wrong result's key, its ``(breaks ...)`` and `` -> dtype`` ends taken off (``_ENDS``)
_MISMATCH = re.compile(r"^(?P<label>\S+) mismatch (?:(?P<what>dtype|shape|values|aliasing)"
                       r"(?: \((?P<detail>[^)]*)\))?(?::\s*|\s+|$))?(?P<ops>.*)$")
_ENDS = re.compile(r"(?: \(breaks (?P<rules>[^)]*)\))?(?: -> (?P<dtype>\S+))?$")
_CHANGES = re.compile(r"^(?P<label>\S+) (?P<variant>order|layout)-dependent segmentation changes \((?P<names>[^)]*)\)$")
_SEEDED = re.compile(r"^(?P<label>\S+) segmentation depends on the input (?P<variant>order|layout) "
                     r"\((?P<names>[^)]*)\)$")
_OUTCOME_CHANGE = re.compile(r"^(?P<label>\S+) (?P<variant>order|layout)-dependent .* "
                             r"-> (?P<status>\w+) `(?P<sig>.*)`$")
_GENERATOR = re.compile(r"^(?P<label>\S+) generator (?P<cause>.*)$", re.S)


def key_of(text: str, kind: str = "") -> BucketKey:
    """The key a schema-1 record of ``kind`` (its ``kind`` field) held as ``text``: its parts,
    and its text kept (``verbatim``) where they do not say it back exactly."""
    key = _parts(text or "", kind)
    return key if key.text == text else replace(key, verbatim=text)


def _parts(text: str, kind: str) -> BucketKey:
    if kind == "failure":
        label, status, cause = (text.split(" ", 2) + [None, None])[:3]
        site, message = site_and_message(cause)
        return BucketKey(FAILURE, label, status, cause, site, message)
    if kind == "generator" and (g := _GENERATOR.match(text)):
        return BucketKey(GENERATOR, g["label"], cause=g["cause"])
    if kind in ("mismatch", "") and " mismatch " in text:
        ends = _ENDS.search(text)
        if m := _MISMATCH.match(text[:ends.start()]):
            return _mismatch(m, ends)
    for pattern, seeded in ((_CHANGES, False), (_SEEDED, True)):
        if g := pattern.match(text):
            names = tuple(n.strip() for n in g["names"].split(",") if n.strip() and g["names"] != "count")
            return BucketKey(SEGMENTATION, g["label"], variant=g["variant"], schedulers=names, seeded=seeded)
    if g := _OUTCOME_CHANGE.match(text):
        site, message = site_and_message(g["sig"])
        return BucketKey(OUTCOME_CHANGE, g["label"], g["status"], g["sig"], site, message, variant=g["variant"])
    return BucketKey(kind, text.split(" ", 1)[0])


def _mismatch(m: re.Match, ends: re.Match) -> BucketKey:
    ops = () if m["ops"] in ("", "no op") else tuple(op.strip() for op in m["ops"].split(","))
    rules = tuple(r.strip() for r in ends["rules"].split(",")) if ends["rules"] else ()
    return BucketKey(MISMATCH, m["label"], difference=m["what"], detail=m["detail"], ops=ops,
                     output_dtype=ends["dtype"], rules=rules)


__all__ = ["key_of"]
