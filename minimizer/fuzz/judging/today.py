"""Today's key of a stored bucket: the judging half of re-keying a corpus.

The store moves and merges buckets (``store.rekey``); what a bucket's key, owner and
particulars are by today's rules is judged here, from what the bucket stores — its minimized
outcome and repro where it has them, else its original's; a failure's signature first brought to
today's rules (``oracle.rootcause.refreshed``, with the program that ran: it decides whose an
input mismatch is). An order/layout bucket of an older fmin whose stored variant *fails* is made
that failure's bucket, marked, with the failing variant as its program. ``TODAY`` hands these
rules to the store; ``rekey``, ``rekey_minimized`` and ``merge`` are the store's mechanics with
them.
"""
from __future__ import annotations

import json
import os
from dataclasses import replace

from ...oracle.rootcause import particulars
from ..store import merge as store_merge, rekey as store_rekey
from ..store.finding import Finding
from ..store.key import BucketKey
from ..store.record import Bucket
from ..store.store import REDUCTION_FILES, Store, joined_particulars, read_stored, reduced_path, write_stored
from .keys import bucket_key, merge_form, traits
from .oracles import failure_owner


def _program(text: str | None):
    if text is None:
        return None
    from ...program import parse
    try:
        return parse(text)
    except Exception:
        return None


class TodaysRules:
    """Today's keys of stored buckets (``store.rekey.Rules``)."""

    def today(self, store: Store, m: Bucket) -> Bucket | None:
        """The bucket brought to today's key, owner and particulars (and, for a failure, the
        refreshed outcome written back), or None when none of them changes."""
        d = store.dir_of(m)
        reduced = reduced_path(d)
        minimized = m.minimized and reduced is not None
        if m.kind == "failure":
            return _failure_today(m, d, reduced)
        program = _program(read_stored(reduced)) if minimized else None
        original = program or _program(read_stored(os.path.join(d, "original.py")))
        key = bucket_key(m, None, original, bool(program))
        return replace(m, key=key) if key is not None and key != m.key else None

    def as_failure(self, store: Store, m: Bucket) -> BucketKey | None:
        return _variant_to_failure(store, m)

    def form(self, script: str | None) -> str | None:
        program = _program(script)
        return None if program is None else merge_form(program)

    def traits(self, script: str | None) -> dict:
        return traits(_program(script))


TODAY = TodaysRules()


def rekey(root: str) -> dict:
    """Every bucket of the corpus at ``root`` keyed by today's rules (``store.rekey.rekey``)."""
    return store_rekey.rekey(root, TODAY)


def rekey_minimized(store: Store, key: str | BucketKey) -> str:
    """A bucket just minimized, keyed by today's rules from its minimal repro and its run
    (``outcome.min.json``): a wrong result's key names the ops the bug needs, not the op that
    happened to produce the first differing output of a generated program
    (``store.rekey.rekey_minimized``). Returns the text of the bucket's key now."""
    return store_rekey.rekey_minimized(store, key, TODAY)


def replay_key(m: Bucket, found: Finding, script: str | None, minimized: bool) -> BucketKey:
    """The key bucket ``m`` has today when the replay of its program ``script`` (its minimal repro
    where ``minimized``) shows ``found`` — a campaign's finding on that program, keyed as the
    oracles key a generated one (a wrong result by the op of its first differing output): the
    bucket as that finding's, keyed by ``keys.bucket_key`` as a re-key would (a minimal repro's
    wrong result names every op of the repro). ``--recheck`` compares it with the bucket's key:
    the same bug, or another one to re-key the bucket on."""
    as_found = replace(m, kind=found.kind, key=found.key, words=found.words, owner=found.owner)
    outcome = found.outcome.to_json() if found.outcome is not None else None
    return bucket_key(as_found, outcome, _program(script), minimized) or found.key


def merge(sources: list[str], into: str) -> dict:
    """Union of findings corpora (a CI matrix's shards, ``store.merge.union``), then ``rekey``:
    buckets whose keys coincide under today's rules merge. Returns {"new": n, "merged": n} of the
    union and the re-key's report under "rekey"."""
    return {**store_merge.union(sources, into), "rekey": rekey(into)}


def _failure_today(m: Bucket, d: str, reduced: str | None) -> Bucket | None:
    from ...oracle.rootcause import refreshed
    outcome, o_min = read_stored(os.path.join(d, "outcome.json")), read_stored(os.path.join(d, "outcome.min.json"))
    if o_min is not None and outcome is not None and o_min.get("status") == outcome.get("status") and reduced:
        o, text, name = o_min, read_stored(reduced), "outcome.min.json"
    else:
        o, text, name = outcome, read_stored(os.path.join(d, "original.py")), "outcome.json"
    if o is None:
        return None
    program = _program(text)
    fresh = refreshed(o, program)
    if fresh != o:
        write_stored(os.path.join(d, name), json.dumps(fresh, indent=1, default=str))
    fmins = m.key.label == "reference"
    changed = replace(m, particulars=joined_particulars(m.particulars, particulars(fresh)),
                      owner=failure_owner("reference" if fmins else m.backend, fresh, program,
                                          reference_took_inputs=not fmins))
    key = bucket_key(m, fresh, None, False)
    if key is not None and key != m.key:
        changed.key = key
        if str(key) != str(m.key) and not fmins:   # fmin's: the words say the reference rejects it
            changed.words = f"{m.backend} {fresh.get('status')}: {fresh.get('signature')}"
    return None if changed == m else changed


def _variant_to_failure(store: Store, m: Bucket) -> BucketKey | None:
    """An order/layout bucket of an older corpus whose stored outcome (the variant's) is a
    failure: made that failure's bucket — kind ``failure``, marked ``<kind>_dependent``, its
    program the failing variant (rebuilt from its original: ``relayout`` and the example's own
    permutation are deterministic), the unvaried original kept as ``original.unvaried.py`` and
    the files of its metamorphic reduction under ``unvaried/`` (that reduction held another
    property; the bucket is minimized again as a failure). Returns its key (unchanged:
    ``TodaysRules.today`` re-keys it), or None when it is not such a bucket or the variant cannot
    be rebuilt."""
    from ...program import to_source
    from ...program.variants import relayout
    from ..sources import generate
    from .oracles import order_variant
    d = store.dir_of(m)
    outcome = read_stored(os.path.join(d, "outcome.json"))
    original = read_stored(os.path.join(d, "original.py"))
    program = _program(original)
    if not outcome or outcome.get("status") in (None, "ok") or program is None:
        return None
    which = m.kind.split("-")[0]
    try:
        if which == "layout":
            r = relayout(program)
            variant = r[0] if r else None
        else:
            v = order_variant(program, generate.example_seed(m.first_example))
            variant = v[0] if v else None
    except Exception:
        variant = None
    if variant is None:
        return None
    write_stored(os.path.join(d, "original.unvaried.py"), original)
    write_stored(os.path.join(d, "original.py"), to_source(variant))
    aside = [f for f in REDUCTION_FILES if os.path.exists(os.path.join(d, f))]
    if aside:
        os.makedirs(os.path.join(d, "unvaried"), exist_ok=True)
        for f in aside:
            os.replace(os.path.join(d, f), os.path.join(d, "unvaried", f))
    flags = dict(m.flags or {})
    flags.pop(f"{which}_dependent", None)
    m = replace(m, kind="failure", flags=flags, minimized=False, **{f"{which}_dependent": True})
    if m.reduction is not None:
        m.unvaried_reduction, m.reduction = m.reduction, None
    store.save(m)
    return m.key


__all__ = ["TODAY", "TodaysRules", "rekey", "rekey_minimized", "replay_key", "merge"]
