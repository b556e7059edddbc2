"""The attachments a merged bucket keeps: one runnable repro for each op path it absorbed.

When buckets merge (a re-key makes their keys equal, ``Store.absorb``; two shards' copies of one
bucket meet, ``merge.union``), the better bucket's files become the row's attachment and the
other's used to be deleted. That was harmless while a key named the minimal repro's ops: equal
keys, equal ops. A key that names a cause instead — a mechanism (``var`` over ``max`` and over
``welford``), a lost extent — joins repros of other ops, and a maintainer fixing the cause needs
each of them: the fix for one path may not fix the other. So the other bucket's attachment is kept
under ``examples/<n>/`` wherever its op path (the ops of its replayed script, in order) is one the
row does not hold yet, with an ``example.json`` saying which key, examples and ops it came with.
A bucket whose op path is new and which has no script to keep cannot be merged: the caller
refuses the merge (``attachable``), and the two stay apart.

The op path is read from the script itself (``program.parse``): a fact of the program, not a
judging rule, so the store needs nothing from judging here.
"""
from __future__ import annotations

import json
import os
import shutil

from . import record
from .files import EXAMPLES, reduced_script

#: what an example keeps of an absorbed bucket: its program, its run and its reduction
_KEPT = ("original.py", "outcome.json", "repro.min.py", "reduced.py", "report.md", "report.json", "outcome.min.json")
#: what else the reduction of an absorbed bucket found (programs of other failures), kept with it
_ALSO = "also-interesting"
#: an example's own record: the key, example ids and op path it came with
ABOUT = "example.json"


def op_path(directory: str) -> tuple[str, ...] | None:
    """The ops, in program order, of the script a bucket (or kept example) directory's replays
    run; None where it has none or it cannot be read."""
    from ...program import parse
    name = reduced_script(directory)
    if name is None:
        return None
    try:
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            return tuple(s.op for s in parse(f.read()).op_stmts())
    except Exception:
        return None


def kept_dirs(directory: str) -> list[str]:
    """The kept examples' directories of a bucket directory, in order."""
    root = os.path.join(directory, EXAMPLES)
    if not os.path.isdir(root):
        return []
    return [os.path.join(root, n) for n in sorted(os.listdir(root), key=lambda n: (len(n), n))
            if os.path.isdir(os.path.join(root, n))]


def held(directory: str, own: bool = True) -> list:
    """The op paths a bucket directory holds an attachment for: its own (unless not ``own``),
    then its kept examples'."""
    return [op_path(d) for d in ([directory] if own else []) + kept_dirs(directory)]


def attachable(other: str, into: str) -> bool:
    """Can bucket directory ``other`` merge into ``into`` without losing an op path: its own is
    one ``into`` holds, or it has a script to keep?"""
    mine = op_path(other)
    return (mine is not None and mine in held(into)) or reduced_script(other) is not None


def keep(other: str, into: str, own: bool = True, nested: bool = True, against: list | None = None) -> int:
    """Copy into ``into/examples/<n>/`` the attachment of bucket directory ``other`` (if ``own``)
    and of each example it keeps (if ``nested``), where its op path is not among ``against``
    (default: those ``into`` holds, ``held``); an unreadable path is never taken for a held one.
    Returns how many were kept."""
    paths = list(held(into) if against is None else against)
    sources = ([other] if own else []) + (kept_dirs(other) if nested else [])
    kept = 0
    for src in sources:
        path = op_path(src)
        if (path is not None and path in paths) or reduced_script(src) is None:
            continue
        _copy(src, into, path)
        paths.append(path)
        kept += 1
    return kept


def set_aside(directory: str, incoming: str) -> int:
    """Before bucket directory ``directory`` takes ``incoming``'s attachment in its place (two
    copies of one bucket, ``merge.union``): its own attachment kept under its ``examples/<n>/``
    where its op path is neither ``incoming``'s nor one it keeps already. Returns 1 if kept."""
    return keep(directory, directory, nested=False, against=[op_path(incoming), *held(directory, own=False)])


def _copy(src: str, into: str, path) -> None:
    existing = [int(os.path.basename(d)) for d in kept_dirs(into) if os.path.basename(d).isdigit()]
    dest = os.path.join(into, EXAMPLES, str(max(existing, default=0) + 1))
    os.makedirs(dest)
    for name in _KEPT:
        if os.path.exists(os.path.join(src, name)):
            shutil.copy(os.path.join(src, name), os.path.join(dest, name))
    if os.path.isdir(os.path.join(src, _ALSO)):
        shutil.copytree(os.path.join(src, _ALSO), os.path.join(dest, _ALSO))
    about = _about(src)
    about["ops"] = list(path) if path is not None else None
    with open(os.path.join(dest, ABOUT), "w", encoding="utf-8") as f:
        json.dump(about, f, indent=1)
        f.write("\n")


def _about(src: str) -> dict:
    """What an example says of where it came from: its bucket's key (and the keys it had before),
    first example, example ids and whether it was minimized (a kept example's own record, as it
    was)."""
    m = record.load_dir(src)
    if m is None:
        path = os.path.join(src, ABOUT)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        return {}
    return {"key": str(m.key), "old_keys": list(m.old_keys or []), "bucket": m.id, "first_example": m.first_example,
            "examples": list(m.examples), "minimized": bool(m.minimized)}


__all__ = ["EXAMPLES", "ABOUT", "op_path", "kept_dirs", "held", "attachable", "keep", "set_aside"]
