"""Re-keying a corpus: moving and merging its buckets to the keys a rule set gives them.

The mechanics are the store's (a bucket keeps its id when its key changes, the old key's text
becomes an alias; buckets whose keys coincide merge, the first seen's id kept); what a bucket's
key is today is judging's, handed in as ``Rules`` (``judging.today.TODAY``). So the store re-keys
without knowing a rule, and a rule changes without touching how buckets move.
"""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Callable, Protocol

from . import record
from .key import BucketKey
from .record import Bucket
from .store import Store, read_stored, reduced_path


class Rules(Protocol):
    """What re-keying asks of judging about a stored bucket."""

    def today(self, store: Store, m: Bucket) -> Bucket | None:
        """The bucket brought to today's key (and owner, particulars), or None: nothing changes."""

    def as_failure(self, store: Store, m: Bucket) -> str | BucketKey | None:
        """An order/layout bucket whose stored variant fails, made that failure's bucket (its
        key), or None: it is no such bucket."""

    def form(self, script: str | None) -> str | None:
        """What a minimal repro must share with another to be one bug (with the bucket's kind,
        backend and owner): its program up to names, sizes and dtypes of one class, and the
        validity rules it breaks (None: it cannot be read)."""

    def traits(self, script: str | None) -> dict:
        """The dtypes and ranks of a program's inputs (``judging.keys.traits``)."""


def rekey(root: str, rules: Rules) -> dict:
    """Every bucket of the corpus at ``root`` keyed by ``rules`` from what it stores. An
    order/layout bucket whose stored variant *fails* becomes that failure's bucket first
    (``Rules.as_failure``). Buckets whose keys coincide merge (``Store.move``), and so do
    minimized ones whose repros are one program up to names, sizes and dtypes of one class, that
    break the same validity rules (``merge_equal_programs``); every bucket keeps its id, a merge the first seen's. A bucket of
    an older fmin, which did not count its examples' dtypes and ranks, counts its original's (one
    example; a merge adds them up).
    Returns ``{"buckets_before": n, "buckets_after": n, "moved": n (re-keyed alone), "merged": n,
    "groups": {key: [ids]}, "ids": {key: id}}`` (keys as texts; ``groups``: every bucket id that
    now answers to a key shared by several; ``ids``: the id each of those keys is filed under)."""
    store = Store(root)
    before = store.buckets()
    for b in before:
        _rekey_one(store, b.id, rules)
    merge_equal_keys(store)
    merge_equal_programs(store, rules.form)
    after = store.buckets()
    groups, ids, moved = {}, {}, 0
    for a in after:
        answers = {str(a.key), *(a.old_keys or ())}
        held = [b.id for b in before if str(b.key) in answers]
        if len(held) > 1:
            groups[str(a.key)], ids[str(a.key)] = held, a.id
        moved += len(held) == 1 and str(a.key) not in {str(b.key) for b in before if b.id == held[0]}
    return {"buckets_before": len(before), "buckets_after": len(after), "moved": moved,
            "merged": len(before) - len(after), "groups": groups, "ids": ids}


def _rekey_one(store: Store, bucket_id: str, rules: Rules) -> None:
    """The bucket filed under ``bucket_id`` (as it is now: an earlier move may have merged it away
    or into it) brought to today's key. It is found by its directory, not its key: two buckets of
    one key text (a shard's, filed under the id of the key it met) may re-key apart."""
    d = os.path.join(store.root, bucket_id)
    m = record.load_dir(d)
    if m is None:
        return
    if m.kind in ("order-dependent", "layout-dependent"):
        failing = rules.as_failure(store, m)
        m = record.load_dir(d) if failing is not None else m
    changed = rules.today(store, m) or m
    t = rules.traits(read_stored(os.path.join(d, "original.py"))) if m.dtypes is None else {}
    if t:   # a bucket of an older fmin: its original's, counted once
        changed = replace(changed, **{k: {str(v): 1 for v in vs} for k, vs in t.items()})
    if str(changed.key) != str(m.key):
        store.move(m.key, changed, directory=d)
    elif changed is not m:
        record.save_dir(d, changed)


def rekey_minimized(store: Store, key: str | BucketKey, rules: Rules) -> str:
    """A bucket just minimized, keyed by ``rules`` from its minimal repro and its run: it keeps
    its id (the new key's text is an alias of it); a bucket whose key this makes equal to
    another's, or whose repro has another minimized bucket's ``Rules.form``, merges with it. Returns the text of the bucket's key now."""
    m = store.meta(key)
    if m is None:
        return str(key)
    changed = rules.today(store, m)
    if changed is not None and str(changed.key) != str(m.key):
        store.move(m.key, changed)
        key = changed.key
    elif changed is not None:
        store.save(changed)
    merge_equal_programs(store, rules.form, only=key)
    return store.resolve(key)


def merge_equal_keys(store: Store) -> list[tuple[str, str]]:
    """Merge buckets that answer to one key under different ids: a shard or campaign corpus files
    a bucket under the id of the key it met (``bucket_id``), where the known corpus has the same
    root cause under the id of the key it was first seen with (ids are stable across re-keys),
    so ``merge`` copies it in as new and no re-key moves either. A key another bucket once had
    (``old_keys``) is no reason: two buckets first keyed alike may have been told apart by their
    reductions since. Returns (absorbed id, id it is in now) pairs."""
    return _merge_alike(store, lambda m, d: str(m.key))


def merge_equal_programs(store: Store, form: Callable[[str | None], str | None],
                         only: str | BucketKey | None = None) -> list[tuple[str, str]]:
    """Merge minimized buckets of one kind, backend and owner whose minimal repros have one
    ``form`` (``Rules.form``: one program up to names, sizes and dtypes of one class, breaking the
    same validity rules): one bug met in other sizes and dtypes, however the backend worded it.
    Owner, dtype classes and broken rules keep apart what only looks alike: fmin's finding and
    the backend's, a Half bug and a Float one, an ill-defined program and its well-defined twin. ``only``: a key whose bucket alone is
    compared with the others (a bucket just minimized). Returns (absorbed id, id it is in now)
    pairs."""
    def form_of(m: Bucket, d: str):
        if not m.minimized or m.kind not in ("failure", "mismatch"):
            return None
        reduced = reduced_path(d)
        program = form(read_stored(reduced)) if reduced else None
        return None if program is None else (m.kind, m.backend, m.owner, program)
    return _merge_alike(store, form_of, store.dir(only) if only is not None else None)


def _merge_alike(store: Store, form_of, target: str | None = None) -> list[tuple[str, str]]:
    """Absorb every bucket into the first one of the same ``form_of(bucket, dir)`` (None: leave it
    alone); with ``target`` (a directory), only merges that involve it."""
    homes: dict = {}
    merged = []
    for m in store.buckets():
        d = os.path.join(store.root, m.id)
        found = form_of(m, d) if os.path.isdir(d) else None
        if found is None:
            continue
        home = homes.get(found)
        if home is None or not os.path.isdir(home):
            homes[found] = d
            continue
        if target is not None and target not in (home, d):
            continue
        into = store.absorb(home, d)
        if into is None:   # it would lose an op path: the two stay apart
            continue
        homes[found] = into
        merged.append((os.path.basename(d if into == home else home), os.path.basename(into)))
    return merged


__all__ = ["Rules", "rekey", "rekey_minimized", "merge_equal_keys", "merge_equal_programs"]
