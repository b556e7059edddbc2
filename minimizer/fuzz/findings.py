"""The findings corpus: one directory per bucket, ``<corpus>/<bucket id>/``.

A bucket is one root cause as far as fmin can tell: its key (``keys``) is a failure's root cause
(where the error is raised and its message's template) with the backend and status, or for a
wrong result the kind of difference and the program's ops, or for a segmentation change the
schedulers it moves. The id is a hash of the key, so the same bug gets the same directory on
every machine and shard, and merging corpora from a CI matrix is a union of directories
followed by a re-key (``merge``).

A bucket directory holds ``finding.json`` (key, kind, owner, backend, first example id, every
example id seen and the count, the dtypes and ranks of its examples' inputs, the keys it absorbed
in ``old_keys``, and ``layout_dependent``/``order_dependent`` where some of its examples fail only
with the inputs relayouted or permuted), ``original.py`` (the first program that showed it,
runnable: for such a failure the failing variant), ``outcome.json``, and once minimized
``reduced.py`` (the reducer's result), ``repro.min.py`` (the attachment filed from it,
``filing``: what a maintainer runs), ``report.md`` and ``report.json``, and ``outcome.min.json``
(the reduced script's own run); ``finding.json`` then also records the attachment and its
standalone run. A known bucket is counted, never
re-minimized. A bucket whose original no longer shows the finding when the reducer replays it
(fixed in the backend, or a rule of fmin's reference corrected since) is marked ``stale`` with the
reason and the environment of that replay, and kept: its history is part of the record. A stale
bucket that a campaign meets again is not stale any more (``recurred`` says when).

Keys change when fmin learns what makes two findings one bug, and when a bucket is minimized (a
wrong result's key names the minimized program's ops). ``rekey`` re-derives every bucket's key
from what the corpus stores and merges the buckets whose keys coincide; a bucket answers to the
keys it absorbed too (``Store.resolve``), so a campaign that meets a finding under an old key
counts it in the bucket that holds it now.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import replace

from ..errors import UsageError
from ..oracle.session import text_key
from . import record
from .keys import bucket_key, difference, traits
from .oracles import Finding
from .record import Bucket, Recurred, Recheck, Reduction, Stale


def bucket_id(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:12]


#: files of a bucket that a reduction writes (and a merge keeps together)
REDUCTION_FILES = ("repro.min.py", "reduced.py", "report.md", "report.json", "outcome.min.json", "state.json",
                   "cache.json")


_FINDING_LINE = re.compile(r"^(# finding: [^\n]*?, bucket )[0-9a-f]{12}:", re.M)


def rename_bucket(directory: str, new_id: str) -> None:
    """A filed ``repro.min.py`` names its bucket on its ``# finding:`` line (written by
    ``attachment._header_lines``); when the corpus re-keys the bucket (``Store.move``: its
    minimal repro gave another key, or it merged into another) the line names the id it is
    filed under now, not the one it was minimized under."""
    path = os.path.join(directory, "repro.min.py")
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        text = f.read()
    new = _FINDING_LINE.sub(lambda m: f"{m.group(1)}{new_id}:", text, count=1)
    if new != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)


class Store:
    def __init__(self, root: str):
        self.root = root
        os.makedirs(root, exist_ok=True)
        self._aliases: dict[str, str] | None = None   # absorbed key -> key of the bucket holding it

    def resolve(self, key: str) -> str:
        """The key of the bucket that holds ``key``: itself, or the bucket that absorbed it."""
        if record.exists(os.path.join(self.root, bucket_id(key))):
            return key
        if self._aliases is None:
            self._aliases = {old: m.key for m in self.buckets() for old in m.old_keys or ()}
        return self._aliases.get(key, key)

    def dir(self, key: str) -> str:
        return os.path.join(self.root, bucket_id(self.resolve(key)))

    def known(self, key: str) -> bool:
        return record.exists(self.dir(key))

    def meta(self, key: str) -> Bucket | None:
        return record.load_dir(self.dir(key))

    def add(self, f: Finding, text: str, example_id: str, backend: str, environment: dict | None = None,
            generator: dict | None = None) -> tuple[str, bool]:
        """Record one occurrence; returns (bucket dir, new?). A new bucket gets its original (the
        finding's own program where it has one: a failing variant). ``generator``: the
        generation settings (frontend, max_ops) that ``--replay`` needs."""
        d = self.dir(f.key)
        m = self.meta(f.key)
        new = m is None
        if new:
            os.makedirs(d, exist_ok=True)
            _write(os.path.join(d, "original.py"), f.text if f.text is not None else text)
            if f.outcome is not None:
                _write(os.path.join(d, "outcome.json"), json.dumps(f.outcome.to_json(), indent=1, default=str))
            m = Bucket(id=bucket_id(f.key), kind=f.kind, owner=f.owner, key=f.key, words=f.words, flags=f.flags,
                       backend=backend, first_example=example_id, examples=[], count=0,
                       first_seen=time.strftime("%Y-%m-%dT%H:%M:%S"), environment=environment or {},
                       generator=generator or {}, minimized=False)
        m.mark(f.marks)
        m.count += 1
        if example_id not in m.examples and len(m.examples) < 50:
            m.examples.append(example_id)
        m.count_traits(f.traits or {})
        if m.stale is not None:   # seen again: whatever made it stale did not last
            m.stale = None
            m.recurred = Recurred(example_id, time.strftime("%Y-%m-%dT%H:%M:%S"))
        self._save(m)
        return d, new

    def mark_minimized(self, key: str, summary: dict) -> None:
        m = self.meta(key)
        if m is None:
            return
        m.minimized = True
        m.reduction = Reduction.from_json(summary)
        self._save(m)

    def mark_stale(self, key: str, reason: str, environment: dict | None = None) -> None:
        m = self.meta(key)
        if m is None:
            return
        m.stale = Stale(reason, time.strftime("%Y-%m-%dT%H:%M:%S"), environment or {})
        self._save(m)

    def mark_filed(self, key: str, attachment: dict | None, standalone: dict) -> None:
        """What filing the bucket recorded (``filing``): its attachment (what ``repro.min.py`` must
        show; None keeps the one recorded) and its standalone run (ran, reproduced, why, exit code,
        the tail of its output, the environment it was given, when)."""
        m = self.meta(key)
        if m is None:
            return
        if attachment is not None:
            m.attachment = record.AttachmentRecord.from_json(attachment)
        m.standalone = record.StandaloneRun.from_json(standalone)
        self._save(m)

    def _save(self, m: Bucket) -> None:
        """``m`` into its bucket (the one of its key)."""
        record.save_dir(os.path.join(self.root, bucket_id(m.key)), m)

    def mark_recheck(self, key: str, reproduces: bool, reason: str, script: str,
                     environment: dict | None = None) -> None:
        """The result of ``fmin fuzz --recheck``: a bucket that no longer reproduces is stale, one
        that reproduces again is not."""
        m = self.meta(key)
        if m is None:
            return
        at = time.strftime("%Y-%m-%dT%H:%M:%S")
        m.recheck = Recheck(reproduces, reason, script, at, environment or {})
        if reproduces:
            m.stale = None
        else:
            m.stale = Stale(f"recheck of {script}: {reason}", at, environment or {})
        self._save(m)

    def outcome(self, key: str) -> dict | None:
        p = os.path.join(self.dir(key), "outcome.json")
        if not os.path.exists(p):
            return None
        with open(p, encoding="utf-8") as f:
            return json.load(f)

    def move(self, key: str, changed: Bucket) -> str:
        """Give the bucket of ``key`` the record ``changed`` (with a new ``key``):
        it moves to the new key's directory, or, where a bucket has that key already, the two
        merge — counts added, example ids, marks, dtypes, ranks and absorbed keys joined, and the
        files of the better bucket kept (``_better``: one that reproduces, one minimized, the
        smaller minimal repro, then the first seen). The old key is recorded in ``old_keys``.
        Returns "moved", "merged" or "same"."""
        m = self.meta(key)
        if m is None or changed.key == m.key:
            return "same"
        old_dir = self.dir(key)
        m = replace(changed, id=bucket_id(changed.key), old_keys=_union(changed.old_keys or [], [key]))
        new_dir = os.path.join(self.root, m.id)
        other = self.meta(m.key) if record.exists(new_dir) else None
        self._aliases = None
        if other is None:
            record.save_dir(old_dir, m)
            os.replace(old_dir, new_dir)
            rename_bucket(new_dir, m.id)
            return "moved"
        mine = _better(m, other)
        keep = _joined(m, other) if mine else _joined(other, m)
        if mine:   # this bucket's files replace the other's
            shutil.rmtree(new_dir)
            os.replace(old_dir, new_dir)
            rename_bucket(new_dir, m.id)
        else:
            shutil.rmtree(old_dir)
        record.save_dir(new_dir, keep)
        return "merged"

    def buckets(self) -> list[Bucket]:
        return [b for name in sorted(os.listdir(self.root))
                if (b := record.load_dir(os.path.join(self.root, name))) is not None]


class Progress:
    """Which examples of one campaign were judged, so that a killed campaign resumes where it
    stopped: ``<corpus>/campaign-<backend>-<device>-<seed>-<i>of<n>.jsonl``. Its first line holds
    the generation settings (an example id means a program only under them); then one line per
    judged example (``{"id": ..., "h": the text's key}``, ``oracle.session.text_key``: a resumed
    campaign's ``Session`` knows them, so a duplicate of a judged program is skipped), written after the example's findings are
    stored, and one per chunk whose every program was judged (``{"chunk": k}``: a resumed
    campaign does not even regenerate it). Lines are appended as the campaign goes: a killed
    driver loses at most the line it was writing (a torn last line is cut off), so an example is
    judged again only if it was killed between storing its findings and recording it.

    ``resume=False`` starts the record over. Bucket directories never look at this file, and
    ``merge-findings`` and ``Store.buckets`` ignore it."""

    def __init__(self, root: str, backend: str, device: str, seed: int, shard: tuple[int, int],
                 settings: dict, resume: bool = True):
        os.makedirs(root, exist_ok=True)
        self.path = os.path.join(root, f"campaign-{backend}-{device}-{seed}-{shard[0]}of{shard[1]}.jsonl")
        self.settings = {"backend": backend, "device": device, "seed": seed, "shard": list(shard), **settings}
        self.judged: set[str] = set()
        self.seen: set[str] = set()
        self.chunks: set[int] = set()
        if resume and os.path.exists(self.path):
            self._read()
        else:
            with open(self.path, "w", encoding="utf-8") as f:
                f.write(json.dumps({"campaign": self.settings}) + "\n")
        self._f = open(self.path, "a", encoding="utf-8")

    def _read(self) -> None:
        with open(self.path, "rb") as f:
            raw = f.read()
        if raw and not raw.endswith(b"\n"):   # torn by a kill while it was written: cut it off
            raw = raw[:raw.rfind(b"\n") + 1]
            os.truncate(self.path, len(raw))
        for n, line in enumerate(raw.decode().splitlines()):
            try:
                d = json.loads(line)
            except ValueError:
                raise UsageError(f"{self.path}:{n + 1}: not a line of a campaign's progress record") from None
            if "campaign" in d:
                if d["campaign"] != self.settings:
                    raise UsageError(f"{self.path} records a campaign with other settings "
                                     f"({json.dumps(d['campaign'], sort_keys=True)}); its example ids mean other "
                                     f"programs: start over with --no-resume or use another --corpus")
            elif "chunk" in d:
                self.chunks.add(int(d["chunk"]))
            elif "id" in d:
                self.judged.add(d["id"])
                self.seen.add(d.get("h", ""))

    def judged_one(self, example_id: str, text: str) -> None:
        self._line({"id": example_id, "h": text_key(text)})
        self.judged.add(example_id)

    def chunk_done(self, k: int) -> None:
        self._line({"chunk": k})
        self.chunks.add(k)

    def _line(self, d: dict) -> None:
        self._f.write(json.dumps(d) + "\n")
        self._f.flush()

    def close(self) -> None:
        self._f.close()


def differs(meta: Bucket) -> str:
    """For a wrong result: what ``--mismatch-in`` holds it to ("dtype", "shape" or "values": an
    input written in place compares its values), from its key or words (``keys.difference``);
    "" for another kind."""
    if meta.kind != "mismatch":
        return ""
    what = difference(meta)
    return "values" if what == "aliasing" else what


def reduction_flags(meta: Bucket) -> dict:
    """The property flags a bucket is reduced under. A wrong result is held to its kind of
    difference (``--mismatch-in dtype`` ...), also for buckets stored before flags said so."""
    flags = dict(meta.flags or {})
    if flags.get("mismatch") is True and meta.kind == "mismatch":
        flags["mismatch"] = differs(meta)
    if isinstance(flags.get("mismatch"), str):   # stored as the kind of difference: ``--mismatch-in``
        flags["mismatch_in"] = flags.pop("mismatch")
    return flags


def bucket_property(meta: Bucket, outcome: dict | None):
    """The property a bucket's programs must show (for reducing and rechecking it): its flags
    (``reduction_flags``), or for a failure the recorded status and signature — never "whatever
    the replay shows", which for a failure that no longer happens would be a passing run."""
    from ..oracle.property import Failure, Property
    flags = reduction_flags(meta)
    if flags:
        return Property.from_flags(**flags)
    if meta.kind == "failure" and outcome and outcome.get("status") not in (None, "ok"):
        return Property((Failure.of(outcome),))
    return None


def merge(sources: list[str], into: str) -> dict:
    """Union of findings corpora (a CI matrix's shards), then ``rekey``: new buckets are
    copied, known ones get their counts added and example ids joined, and buckets whose keys
    coincide under today's rules merge. Returns {"new": n, "merged": n} of the union and the
    re-key's report under "rekey"."""
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
            if sm.minimized and _better(sm, dm):   # keep the better attachment: minimized, shown standalone
                for fname in REDUCTION_FILES:
                    s = os.path.join(src, name, fname)
                    if os.path.exists(s):
                        shutil.copy(s, os.path.join(into, name, fname))
                dm.minimized, dm.reduction = True, sm.reduction
                dm.attachment = sm.attachment if sm.attachment is not None else dm.attachment
                dm.standalone = sm.standalone if sm.standalone is not None else dm.standalone
            record.save_dir(os.path.join(into, name), _joined(dm, sm))
            merged += 1
    return {"new": new, "merged": merged, "rekey": rekey(into)}


# ---------------------------------------------------------------------------------------------
# re-keying a corpus with today's rules (offline: nothing runs)

def rekey(root: str) -> dict:
    """Every bucket of the corpus at ``root`` keyed by today's rules (``keys.bucket_key``), from
    what it stores: its minimized outcome and repro where it has them, else its original's; a
    failure's signature first brought to today's rules (``oracle.rootcause.refreshed``, with
    the program that ran: it decides whose an input mismatch is). An order/layout bucket whose
    stored variant *fails* becomes that failure's bucket, marked, with the failing variant as
    its program (``_variant_to_failure``). Buckets whose keys coincide merge (``Store.move``).
    A bucket of an older fmin, which did not count its examples' dtypes and ranks, counts its
    original's (one example; a merge adds them up).
    Returns ``{"buckets_before": n, "buckets_after": n, "moved": n, "merged": n, "groups": {key:
    [ids]}}`` (``groups``: every bucket id that now answers to a key shared by several)."""
    store = Store(root)
    before = store.buckets()
    for b in before:
        m = store.meta(b.key)   # as it is now: an earlier move may have merged it
        if m is None:
            continue
        if m.kind in ("order-dependent", "layout-dependent"):
            m = store.meta(_variant_to_failure(store, m) or m.key)
        changed = _today(store, m) or m
        t = traits(_program(_read(os.path.join(store.dir(m.key), "original.py")))) if m.dtypes is None else {}
        if t:   # a bucket of an older fmin: its original's, counted once
            changed = replace(changed, **{k: {str(v): 1 for v in vs} for k, vs in t.items()})
        if changed.key != m.key:
            store.move(m.key, changed)
        elif changed is not m:
            store._save(changed)
    after = store.buckets()
    groups, moved = {}, 0
    for a in after:
        held = [b.id for b in before if b.key == a.key or b.key in (a.old_keys or ())]
        if len(held) > 1:
            groups[a.key] = held
        moved += len(held) == 1 and held[0] != a.id
    return {"buckets_before": len(before), "buckets_after": len(after), "moved": moved,
            "merged": len(before) - len(after), "groups": groups}


def rekey_minimized(store: Store, key: str) -> str:
    """A bucket just minimized, keyed by today's rules from its minimal repro and its run
    (``outcome.min.json``): a wrong result's key names the ops the bug needs, not the op that
    happened to produce the first differing output of a generated program. A bucket whose key
    this makes equal to another's merges with it. Returns the bucket's key now."""
    m = store.meta(key)
    if m is None:
        return key
    changed = _today(store, m)
    if changed is not None and changed.key != m.key:
        store.move(m.key, changed)
        return changed.key
    return m.key


def _read(path: str):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f) if path.endswith(".json") else f.read()


def _program(text: str | None):
    if text is None:
        return None
    from ..program import parse
    try:
        return parse(text)
    except Exception:
        return None


def _today(store: Store, m: Bucket) -> Bucket | None:
    """The bucket brought to today's key (and, for a failure, the refreshed outcome written
    back), or None when its key stays."""
    from ..oracle.rootcause import refreshed
    d = store.dir(m.key)
    # the reducer's result: ``reduced.py`` once filed (``repro.min.py`` is then the attachment)
    reduced = next((os.path.join(d, n) for n in ("reduced.py", "repro.min.py") if os.path.exists(os.path.join(d, n))),
                   None)
    minimized = m.minimized and reduced is not None
    outcome, o_min = _read(os.path.join(d, "outcome.json")), _read(os.path.join(d, "outcome.min.json"))
    if m.kind == "failure":
        if o_min is not None and outcome is not None and o_min.get("status") == outcome.get("status"):
            o, text, name = o_min, _read(reduced), "outcome.min.json"
        else:
            o, text, name = outcome, _read(os.path.join(d, "original.py")), "outcome.json"
        if o is None:
            return None
        fresh = refreshed(o, _program(text))
        if fresh != o:
            _write(os.path.join(d, name), json.dumps(fresh, indent=1, default=str))
        key = bucket_key(m, fresh, None, False)
        if key is None or key == m.key:
            return None
        if m.key.startswith("reference "):   # fmin's: the words say the reference rejects it
            return replace(m, key=key)
        return replace(m, key=key, words=f"{m.backend} {fresh.get('status')}: {fresh.get('signature')}")
    program = _program(_read(reduced)) if minimized else None
    key = bucket_key(m, None, program, bool(program))
    return replace(m, key=key) if key is not None and key != m.key else None


def _variant_to_failure(store: Store, m: Bucket) -> str | None:
    """An order/layout bucket of an older corpus whose stored outcome (the variant's) is a
    failure: made that failure's bucket — kind ``failure``, marked ``<kind>_dependent``, its
    program the failing variant (rebuilt from its original: ``relayout`` and the example's own
    permutation are deterministic), the unvaried original kept as ``original.unvaried.py`` and
    the files of its metamorphic reduction under ``unvaried/`` (that reduction held another
    property; the bucket is minimized again as a failure). Returns its key (unchanged: ``_today``
    re-keys it), or None when it is not such a bucket or the variant cannot be rebuilt."""
    from ..program import to_source
    from ..program.variants import relayout
    from . import generate
    from .oracles import order_variant
    d = store.dir(m.key)
    outcome = _read(os.path.join(d, "outcome.json"))
    original = _read(os.path.join(d, "original.py"))
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
    _write(os.path.join(d, "original.unvaried.py"), original)
    _write(os.path.join(d, "original.py"), to_source(variant))
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
    store._save(m)
    return m.key


def _better(a: Bucket, b: Bucket) -> bool:
    """Is bucket ``a``'s program the one to keep rather than ``b``'s? One that reproduces (not
    stale), then one minimized, then one whose attachment was shown to reproduce standalone (what a
    maintainer runs first, worth more than an op or two fewer), with fewer ops, then the first seen."""
    def rank(m: Bucket):
        ops_after = m.reduction.ops_after if m.reduction is not None and m.reduction.ops_after is not None \
            else 10 ** 9
        return (bool(m.stale), not m.minimized, not m.reproduced_standalone, ops_after, m.first_seen)
    return rank(a) < rank(b)


def _joined(keep: Bucket, other: Bucket) -> Bucket:
    """``keep``'s record with ``other``'s occurrences added: count, example ids (50 at most),
    marks, dtypes and ranks, absorbed keys; stale only when both are."""
    old = _union(keep.old_keys or [], other.old_keys or [])
    if other.key and other.key != keep.key:
        old = _union(old, [other.key])
    return replace(keep, count=keep.count + other.count, examples=_union(keep.examples, other.examples)[:50],
                   layout_dependent=True if other.layout_dependent else keep.layout_dependent,
                   order_dependent=True if other.order_dependent else keep.order_dependent,
                   dtypes=_added(keep.dtypes, other.dtypes), ranks=_added(keep.ranks, other.ranks),
                   old_keys=old or keep.old_keys, stale=keep.stale if other.stale else None)


def _added(mine: dict | None, theirs: dict | None) -> dict | None:
    """Two counts of a trait (value -> examples) added up."""
    if not theirs:
        return mine
    t = dict(mine or {})
    for k, n in theirs.items():
        t[k] = t.get(k, 0) + n
    return t


def _union(a: list, b: list) -> list:
    return list(a) + [x for x in b if x not in a]


def _write(path: str, text: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
