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
wrong result's key names the minimized program's ops). A bucket keeps its identity through that:
its id (its directory) is its first key's, and the keys it had since are its aliases
(``old_keys``), so a bucket minimized is the bucket it was, not a new one. ``rekey`` re-derives
every bucket's key from what the corpus stores and merges the buckets whose keys coincide, and
the minimized buckets whose repros are one program up to names, sizes and dtypes
(``keys.canonical_form``); a merge keeps the id of the bucket seen first. A bucket answers to
the keys it absorbed too (``Store.resolve``), so a campaign that meets a finding under an old
key counts it in the bucket that holds it now.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import replace

from ...errors import UsageError
from ...oracle.session import text_key
from ...oracle.rootcause import particulars
from . import record
from ..judging.keys import bucket_key, canonical_form, difference, traits
from ..judging.oracles import Finding, failure_owner
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
        self._held: dict[str, tuple[str, str]] | None = None   # key or alias -> (bucket id, its key now)

    def _holder(self, key: str) -> tuple[str, str] | None:
        """(id, key now) of the bucket that answers to ``key`` (its key or one of its aliases). The
        index is read again where it does not know ``key`` or names a bucket gone since (another
        process, ``merge-findings``, may have changed the corpus). A bucket's key now comes before
        any bucket's alias: a key one bucket had once may be another's today (a re-key told them
        apart), and the bucket that has it today is the one that answers."""
        held = self._held.get(key) if self._held is not None else None
        if held is None or not record.exists(os.path.join(self.root, held[0])):
            metas = [(name, record.load_dir(os.path.join(self.root, name))) for name in sorted(os.listdir(self.root))]
            metas = [(name, m) for name, m in metas if m is not None]
            self._held = {m.key: (name, m.key) for name, m in reversed(metas)}
            for name, m in metas:
                for k in m.old_keys or ():
                    self._held.setdefault(k, (name, m.key))
            held = self._held.get(key)
        return held

    def _forget(self) -> None:
        self._held = None

    def resolve(self, key: str) -> str:
        """The key of the bucket that answers to ``key`` now: itself, or the key the bucket that
        had it (first, or absorbed) has now."""
        if self._first(key):
            m = record.load_dir(os.path.join(self.root, bucket_id(key)))
            return m.key if m is not None else key
        held = self._holder(key)
        return held[1] if held else key

    def _first(self, key: str) -> bool:
        """Is there a bucket whose first key is ``key`` (its directory is that key's id)?"""
        return record.exists(os.path.join(self.root, bucket_id(key)))

    def dir(self, key: str) -> str:
        """The bucket directory that answers to ``key``; a new key's own id where none does."""
        if self._first(key):
            return os.path.join(self.root, bucket_id(key))
        held = self._holder(key)
        return os.path.join(self.root, held[0] if held else bucket_id(key))

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
            self._forget()
            os.makedirs(d, exist_ok=True)
            _write(os.path.join(d, "original.py"), f.text if f.text is not None else text)
            if f.outcome is not None:
                _write(os.path.join(d, "outcome.json"), json.dumps(f.outcome.to_json(), indent=1, default=str))
            m = Bucket(id=bucket_id(f.key), kind=f.kind, owner=f.owner, key=f.key, words=f.words, flags=f.flags,
                       backend=backend, first_example=example_id, examples=[], count=0,
                       first_seen=time.strftime("%Y-%m-%dT%H:%M:%S"), environment=environment or {},
                       generator=generator or {}, minimized=False)
        m.mark(f.marks)
        m.particulars = joined_particulars(m.particulars, particulars(f.outcome))
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
        """``m`` into its bucket (the one that answers to its key)."""
        record.save_dir(self.dir(m.key), m)

    def mark_recheck(self, key: str, reproduces: bool, reason: str, script: str,
                     environment: dict | None = None, undefined: list | None = None) -> None:
        """The result of ``fmin fuzz --recheck``: a bucket that no longer reproduces is stale, one
        that reproduces again is not; ``undefined``, the value rules the reference's run of its
        script broke (a program no result is right for: ``fuzz.classes`` files it under missing
        checks, whatever the compiler did)."""
        m = self.meta(key)
        if m is None:
            return
        at = time.strftime("%Y-%m-%dT%H:%M:%S")
        m.recheck = Recheck(reproduces, reason, script, at, environment or {})
        m.undefined = list(undefined) if undefined else None
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
        """Give the bucket of ``key`` the record ``changed`` (with a new ``key``). It keeps its id
        and directory, the old key recorded in ``old_keys``; where another bucket answers to the
        new key already, the two merge (``absorb``). Returns "moved", "merged" or "same"."""
        m = self.meta(key)
        if m is None or changed.key == m.key:
            return "same"
        d = self.dir(key)
        m = replace(changed, id=os.path.basename(d), old_keys=_union(changed.old_keys or [], [key]))
        other = self.dir(m.key)
        if os.path.abspath(other) == os.path.abspath(d) or not record.exists(other):
            record.save_dir(d, m)
            self._forget()
            return "moved"
        self.absorb(d, other, m)
        return "merged"

    def absorb(self, a: str, b: str, ma: Bucket | None = None) -> str:
        """Merge the buckets in directories ``a`` and ``b`` (``ma``: ``a``'s record as it is to be,
        with the key the merge keeps) into one: counts added, example ids, marks, dtypes, ranks,
        particulars and absorbed keys joined, stale only when both are (``_joined``), the files of
        the better bucket kept (``_better``: one that reproduces, one minimized, the smaller
        minimal repro, then the first seen), under the id of the bucket seen first. Returns the
        directory it is in."""
        ma = ma or record.load_dir(a)
        mb = record.load_dir(b)
        keep = _joined(ma, mb) if _better(ma, mb) else _joined(mb, ma)
        home, gone = (a, b) if (ma.first_seen, a) <= (mb.first_seen, b) else (b, a)
        keep.key = key = (ma if home == a else mb).key
        keep.old_keys = [k for k in _union(keep.old_keys or [], [ma.key, mb.key]) if k != key]
        files = a if _better(ma, mb) else b
        if files != home:   # the better bucket's files, under the first one's id
            shutil.rmtree(home)
            os.replace(files, home)
            rename_bucket(home, os.path.basename(home))
        else:
            shutil.rmtree(gone)
        keep.id = os.path.basename(home)
        record.save_dir(home, keep)
        self._forget()
        return home

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
    from ...oracle.property import Failure, Property
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
    the program that ran: it decides whose an input mismatch is), and its owner and particulars
    with it. An order/layout bucket whose stored variant *fails* becomes that failure's bucket,
    marked, with the failing variant as its program (``_variant_to_failure``). Buckets whose keys
    coincide merge (``Store.move``), and so do minimized ones whose repros are one program up to
    names, sizes and dtypes (``merge_equal_programs``); every bucket keeps its id, a merge the
    first seen's. A bucket of an older fmin, which did not count its examples' dtypes and ranks,
    counts its original's (one example; a merge adds them up).
    Returns ``{"buckets_before": n, "buckets_after": n, "moved": n (re-keyed alone), "merged": n,
    "groups": {key: [ids]}, "ids": {key: id}}`` (``groups``: every bucket id that now answers to
    a key shared by several; ``ids``: the id each of those keys is filed under)."""
    store = Store(root)
    before = store.buckets()
    for b in before:
        _rekey_one(store, b.key)
    merge_equal_keys(store)
    merge_equal_programs(store)
    after = store.buckets()
    groups, ids, moved = {}, {}, 0
    for a in after:
        answers = {a.key, *(a.old_keys or ())}
        held = [b.id for b in before if b.key in answers]
        if len(held) > 1:
            groups[a.key], ids[a.key] = held, a.id
        moved += len(held) == 1 and a.key not in {b.key for b in before if b.id == held[0]}
    return {"buckets_before": len(before), "buckets_after": len(after), "moved": moved,
            "merged": len(before) - len(after), "groups": groups, "ids": ids}


def _rekey_one(store: Store, key: str) -> None:
    m = store.meta(key)   # as it is now: an earlier move may have merged it
    if m is None:
        return
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


def merge_equal_keys(store: Store) -> list[tuple[str, str]]:
    """Merge buckets that answer to one key under different ids: a shard or campaign corpus files
    a bucket under the id of the key it met (``bucket_id``), where the known corpus has the same
    root cause under the id of the key it was first seen with (ids are stable across re-keys),
    so ``merge`` copies it in as new and no re-key moves either. A key another bucket once had
    (``old_keys``) is no reason: two buckets first keyed alike may have been told apart by their
    reductions since. Returns (absorbed id, id it is in now) pairs."""
    return _merge_alike(store, lambda m, d: m.key)


def merge_equal_programs(store: Store, only: str | None = None) -> list[tuple[str, str]]:
    """Merge minimized buckets of one kind, backend and owner whose minimal repros are one
    program up to names, sizes and dtypes (``keys.canonical_form``): one bug met in other sizes
    and dtypes, however the backend worded it. ``only``: a key whose bucket alone is compared
    with the others (a bucket just minimized). Returns (absorbed id, id it is in now) pairs."""
    def form(m: Bucket, d: str):
        if not m.minimized or m.kind not in ("failure", "mismatch"):
            return None
        program = _program(_read(_reduced(d)) if _reduced(d) else None)
        return None if program is None else (m.kind, m.backend, m.owner, canonical_form(program))
    return _merge_alike(store, form, store.dir(only) if only is not None else None)


def _merge_alike(store: Store, form_of, target: str | None = None) -> list[tuple[str, str]]:
    """Absorb every bucket into the first one of the same ``form_of(bucket, dir)`` (None: leave it
    alone); with ``target`` (a directory), only merges that involve it."""
    homes: dict = {}
    merged = []
    for m in store.buckets():
        d = os.path.join(store.root, m.id)
        form = form_of(m, d) if os.path.isdir(d) else None
        if form is None:
            continue
        home = homes.get(form)
        if home is None or not os.path.isdir(home):
            homes[form] = d
            continue
        if target is not None and target not in (home, d):
            continue
        homes[form] = store.absorb(home, d)
        merged.append((os.path.basename(d if homes[form] == home else home), os.path.basename(homes[form])))
    return merged


def reduced_script(bucket_dir: str) -> str | None:
    """The file a bucket's replays run: ``reduced.py`` once filed; before filing (a corpus made
    by an older fmin) ``repro.min.py`` is the reducer's; unminimized, the original."""
    for name in ("reduced.py", "repro.min.py", "original.py"):
        if os.path.exists(os.path.join(bucket_dir, name)):
            return name
    return None


def _reduced(d: str) -> str | None:
    """The path of the reducer's result in bucket directory ``d``; None before a reduction."""
    name = reduced_script(d)
    return os.path.join(d, name) if name not in (None, "original.py") else None


def rekey_minimized(store: Store, key: str) -> str:
    """A bucket just minimized, keyed by today's rules from its minimal repro and its run
    (``outcome.min.json``): a wrong result's key names the ops the bug needs, not the op that
    happened to produce the first differing output of a generated program. It keeps its id (the
    new key is an alias of it); a bucket whose key this makes equal to another's, or whose repro
    is another minimized bucket's program up to names, sizes and dtypes, merges with it. Returns
    the bucket's key now."""
    m = store.meta(key)
    if m is None:
        return key
    changed = _today(store, m)
    if changed is not None and changed.key != m.key:
        store.move(m.key, changed)
        key = changed.key
    elif changed is not None:
        store._save(changed)
    merge_equal_programs(store, only=key)
    return store.resolve(key)


def _read(path: str):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f) if path.endswith(".json") else f.read()


def _program(text: str | None):
    if text is None:
        return None
    from ...program import parse
    try:
        return parse(text)
    except Exception:
        return None


def _today(store: Store, m: Bucket) -> Bucket | None:
    """The bucket brought to today's key, owner and particulars (and, for a failure, the
    refreshed outcome written back), or None when none of them changes."""
    d = store.dir(m.key)
    reduced = _reduced(d)
    minimized = m.minimized and reduced is not None
    if m.kind == "failure":
        return _failure_today(m, d, reduced)
    program = _program(_read(reduced)) if minimized else None
    original = program or _program(_read(os.path.join(d, "original.py")))
    key = bucket_key(m, None, original, bool(program))
    return replace(m, key=key) if key is not None and key != m.key else None


def _failure_today(m: Bucket, d: str, reduced: str | None) -> Bucket | None:
    from ...oracle.rootcause import refreshed
    outcome, o_min = _read(os.path.join(d, "outcome.json")), _read(os.path.join(d, "outcome.min.json"))
    if o_min is not None and outcome is not None and o_min.get("status") == outcome.get("status") and reduced:
        o, text, name = o_min, _read(reduced), "outcome.min.json"
    else:
        o, text, name = outcome, _read(os.path.join(d, "original.py")), "outcome.json"
    if o is None:
        return None
    program = _program(text)
    fresh = refreshed(o, program)
    if fresh != o:
        _write(os.path.join(d, name), json.dumps(fresh, indent=1, default=str))
    fmins = m.key.startswith("reference ")
    changed = replace(m, particulars=joined_particulars(m.particulars, particulars(fresh)),
                      owner=failure_owner("reference" if fmins else m.backend, fresh, program))
    key = bucket_key(m, fresh, None, False)
    if key is not None and key != m.key:
        changed.key = key
        if not fmins:   # fmin's: the words say the reference rejects it
            changed.words = f"{m.backend} {fresh.get('status')}: {fresh.get('signature')}"
    return None if changed == m else changed


def _variant_to_failure(store: Store, m: Bucket) -> str | None:
    """An order/layout bucket of an older corpus whose stored outcome (the variant's) is a
    failure: made that failure's bucket — kind ``failure``, marked ``<kind>_dependent``, its
    program the failing variant (rebuilt from its original: ``relayout`` and the example's own
    permutation are deterministic), the unvaried original kept as ``original.unvaried.py`` and
    the files of its metamorphic reduction under ``unvaried/`` (that reduction held another
    property; the bucket is minimized again as a failure). Returns its key (unchanged: ``_today``
    re-keys it), or None when it is not such a bucket or the variant cannot be rebuilt."""
    from ...program import to_source
    from ...program.variants import relayout
    from ..sources import generate
    from ..judging.oracles import order_variant
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
    marks, dtypes, ranks and seeds, particulars, absorbed keys; stale only when both are. The
    bucket was opened by whichever of the two was seen first: its first example, with the
    generation settings, ancestry and machine that replay it, and its date."""
    old = _union(keep.old_keys or [], other.old_keys or [])
    if other.key and other.key != keep.key:
        old = _union(old, [other.key])
    first = other if (other.first_seen or "~") < (keep.first_seen or "~") else keep
    keep = replace(keep, first_seen=first.first_seen, first_example=first.first_example, generator=first.generator,
                   ancestry=first.ancestry, environment=first.environment, seeds=_added(keep.seeds, other.seeds))
    return replace(keep, count=keep.count + other.count, examples=_union(keep.examples, other.examples)[:50],
                   layout_dependent=True if other.layout_dependent else keep.layout_dependent,
                   order_dependent=True if other.order_dependent else keep.order_dependent,
                   dtypes=_added(keep.dtypes, other.dtypes), ranks=_added(keep.ranks, other.ranks),
                   particulars=joined_particulars(keep.particulars, other.particulars),
                   old_keys=old or keep.old_keys, stale=keep.stale if other.stale else None)


def _added(mine: dict | None, theirs: dict | None) -> dict | None:
    """Two counts of a trait (value -> examples) added up."""
    if not theirs:
        return mine
    t = dict(mine or {})
    for k, n in theirs.items():
        t[k] = t.get(k, 0) + n
    return t


def joined_particulars(mine: dict | None, new: dict | None) -> dict | None:
    """A bucket's particulars (``mine``: ``oracle.rootcause.particulars``, the functions one cause
    met ...) with the lists of ``new`` joined in; ``mine`` as it is when ``new`` has none."""
    if not new:
        return mine
    out = {k: list(v) for k, v in (mine or {}).items()}
    for k, vs in new.items():
        out[k] = _union(out.get(k, []), list(vs))
    return out


def _union(a: list, b: list) -> list:
    return list(a) + [x for x in b if x not in a]


def _write(path: str, text: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
