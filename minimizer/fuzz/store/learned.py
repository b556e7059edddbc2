"""What feedback campaigns learned, kept in their findings corpus (``DIR/feedback.json``): the
compiler decisions their programs showed and their seed-queue entries.

A nightly campaign under ``--feedback`` starts from it, so that a decision an earlier night showed
is not new again and the queue's mutants are explored further rather than found anew (the next
night starts where this one stopped). It is counted as the buckets are: a campaign adds what it
learned to what its corpus holds, and ``merge-findings`` adds each source's to the target's — so a
CI matrix's shards, each starting from the known corpus's state and writing only their own into an
empty shard corpus, merge into the known corpus without counting a night twice.
"""
from __future__ import annotations

import json
import os

FILE = "feedback.json"
#: queue entries kept at most, the heaviest (``seedqueue.weight``) first: the queue a night starts
#: from stays small enough to read in a moment, and its most novel, cheapest entries are the ones
#: a night draws on most anyway
MAX_QUEUE = 256


def empty() -> dict:
    return {"features": {}, "signatures": {}, "queue": []}


def load(root: str) -> dict:
    """The state ``root``'s campaigns left (empty where none did, or where it cannot be read)."""
    try:
        with open(os.path.join(root, FILE), encoding="utf-8") as f:
            got = json.load(f)
    except (OSError, ValueError):
        return empty()
    return {**empty(), **{k: got[k] for k in empty() if isinstance(got.get(k), type(empty()[k]))}}


def added(a: dict, b: dict) -> dict:
    """``a`` and ``b`` together: decision counts summed, queue entries joined by id (``a``'s
    first), the ``MAX_QUEUE`` heaviest kept."""
    out = empty()
    for k in ("features", "signatures"):
        out[k] = dict(a[k])
        for name, n in b[k].items():
            out[k][name] = out[k].get(name, 0) + n
    seen, queue = set(), []
    for e in [*a["queue"], *b["queue"]]:
        if e.get("id") not in seen:
            seen.add(e.get("id"))
            queue.append(e)
    queue.sort(key=lambda e: -e.get("weight", 0))   # stable: equal weights keep the order learned
    out["queue"] = queue[:MAX_QUEUE]
    return out


def add(root: str, state: dict) -> None:
    """``state`` added to what ``root`` holds, written whole (a reader never sees half a file)."""
    os.makedirs(root, exist_ok=True)
    path = os.path.join(root, FILE)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(added(load(root), {**empty(), **state}), f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def union(sources: list[str], into: str) -> int:
    """Each source's state added to ``into``'s (``merge-findings``); returns how many had one."""
    n = 0
    for src in sources:
        if os.path.abspath(src) != os.path.abspath(into) and os.path.exists(os.path.join(src, FILE)):
            add(into, load(src))
            n += 1
    return n


__all__ = ["FILE", "MAX_QUEUE", "empty", "load", "added", "add", "union"]
