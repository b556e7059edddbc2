"""The union of findings corpora (a CI matrix's shards) into one, bucket directory by bucket directory.

Only the union: a bucket new to the target is copied, a known one gets the other's occurrences
added. Re-keying the result with today's rules is judging's (``judging.today.merge`` does both),
since what a key is today is not the store's to say.
"""
from __future__ import annotations

import os
import shutil

from . import examples, learned, record
from .store import REDUCTION_FILES, better, joined


def union(sources: list[str], into: str) -> dict:
    """Every bucket of ``sources`` into ``into``: new buckets are copied, known ones (the same
    directory) get their counts added and example ids joined, and the better reduction's files
    (``store.better``: minimized, shown standalone) kept; the other copy's attachment, where its
    op path differs, is kept under ``examples/<n>/`` (``examples``); what feedback campaigns
    learned (``learned``) is added up as well. Returns {"new": n, "merged": n, "learned": sources
    with a feedback state}."""
    os.makedirs(into, exist_ok=True)
    new = merged = 0
    for src in sources:
        if os.path.abspath(src) == os.path.abspath(into) or not os.path.isdir(src):
            continue
        for name in sorted(os.listdir(src)):
            sm = record.load_dir(os.path.join(src, name))
            if sm is None:
                continue
            dm = record.load_dir(os.path.join(into, name))
            if dm is None:
                shutil.copytree(os.path.join(src, name), os.path.join(into, name))
                new += 1
                continue
            if sm.minimized and better(sm, dm):   # keep the better attachment: minimized, shown standalone
                if dm.minimized:   # its reduction is replaced: kept aside where its ops differ
                    examples.set_aside(os.path.join(into, name), os.path.join(src, name))
                for fname in REDUCTION_FILES:
                    s = os.path.join(src, name, fname)
                    if os.path.exists(s):
                        shutil.copy(s, os.path.join(into, name, fname))
                dm.minimized, dm.reduction = True, sm.reduction
                dm.attachment = sm.attachment if sm.attachment is not None else dm.attachment
                dm.standalone = sm.standalone if sm.standalone is not None else dm.standalone
                examples.keep(os.path.join(src, name), os.path.join(into, name), own=False)
            else:
                examples.keep(os.path.join(src, name), os.path.join(into, name))
            record.save_dir(os.path.join(into, name), joined(dm, sm))
            merged += 1
    return {"new": new, "merged": merged, "learned": learned.union(sources, into)}


__all__ = ["union"]
