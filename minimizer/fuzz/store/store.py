"""The findings corpus, one directory per bucket (``<corpus>/<bucket id>/``), and the ``Store`` that files into it.

A bucket is one root cause as far as fmin can tell: its key (``key.BucketKey``, made by
``judging.keys``) is a failure's root cause (where the error is raised and its message's
template) with the backend and status, or for a wrong result the kind of difference and the
program's ops, or for a segmentation change the schedulers it moves. The id is a hash of the
key's text, so the same bug gets the same directory on every machine and shard, and merging
corpora from a CI matrix is a union of directories followed by a re-key (``merge.union``, then
``judging.today.merge``).

A bucket directory holds ``finding.json`` (key, kind, owner, backend, first example id, every
example id seen and the count, the dtypes and ranks of its examples' inputs, the keys it absorbed
in ``old_keys``, and ``layout_dependent``/``order_dependent`` where some of its examples fail only
with the inputs relayouted or permuted), ``original.py`` (the first program that showed it,
runnable: for such a failure the failing variant), ``outcome.json``, and once minimized
``reduced.py`` (the reducer's result), ``repro.min.py`` (the attachment filed from it,
``filing``: what a maintainer runs), ``report.md`` and ``report.json``, and ``outcome.min.json``
(the reduced script's own run); ``finding.json`` then also records the attachment and its
standalone run. A bucket that absorbed buckets of other op paths keeps their attachments under
``examples/<n>/`` (``examples``). A known bucket is counted, never re-minimized. A bucket whose original no longer
shows the finding when the reducer replays it (fixed in the backend, or a rule of fmin's
reference corrected since) is marked ``stale`` with the reason and the environment of that
replay, and kept: its history is part of the record. A stale bucket that a campaign meets again
is not stale any more (``recurred`` says when).

Keys change when fmin learns what makes two findings one bug, and when a bucket is minimized (a
wrong result's key names the minimized program's ops). A bucket keeps its identity through that:
its id (its directory) is its first key's, and the keys it had since are its aliases
(``old_keys``, texts), so a bucket minimized is the bucket it was, not a new one. Re-keying
(``rekey``, with judging's rules) moves a bucket to its new key (``Store.move``) and merges the
buckets whose keys coincide (``Store.absorb``); a merge keeps the id of the bucket seen first. A
bucket answers to the keys it absorbed too (``Store.resolve``), so a campaign that meets a
finding under an old key counts it in the bucket that holds it now.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from dataclasses import replace

from ...oracle.rootcause import particulars
from . import examples, record
from .files import read_stored, reduced_path, reduced_script, rename_bucket, write_stored
from .finding import Finding
from .key import BucketKey
from .record import Bucket, Recurred, Recheck, Reduction, Stale


def bucket_id(key: str | BucketKey) -> str:
    """A bucket's directory name: a hash of its first key's text."""
    return hashlib.sha256(str(key).encode()).hexdigest()[:12]


#: files of a bucket that a reduction writes (and a merge keeps together)
REDUCTION_FILES = ("repro.min.py", "reduced.py", "report.md", "report.json", "outcome.min.json", "state.json",
                   "cache.json")


class Store:
    """The buckets under ``root``. A bucket is named by a key: a ``BucketKey`` or a key's text (its
    key now or one it absorbed, ``old_keys``); either answers alike (``str(key)``)."""

    def __init__(self, root: str):
        self.root = root
        os.makedirs(root, exist_ok=True)
        self._held: dict[str, tuple[str, str]] | None = None   # key or alias -> (bucket id, its key now): texts

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
            self._held = {str(m.key): (name, str(m.key)) for name, m in reversed(metas)}
            for name, m in metas:
                for k in m.old_keys or ():
                    self._held.setdefault(k, (name, str(m.key)))
            held = self._held.get(key)
        return held

    def _forget(self) -> None:
        self._held = None

    def resolve(self, key: str | BucketKey) -> str:
        """The text of the key of the bucket that answers to ``key`` now: its own, or the key the
        bucket that had it (first, or absorbed) has now."""
        key = str(key)
        if self._first(key):
            m = record.load_dir(os.path.join(self.root, bucket_id(key)))
            return str(m.key) if m is not None else key
        held = self._holder(key)
        return held[1] if held else key

    def _first(self, key: str | BucketKey) -> bool:
        """Is there a bucket whose first key is ``key`` (its directory is that key's id)?"""
        return record.exists(os.path.join(self.root, bucket_id(key)))

    def dir(self, key: str | BucketKey) -> str:
        """The bucket directory that answers to ``key``; a new key's own id where none does."""
        if self._first(key):
            return os.path.join(self.root, bucket_id(key))
        held = self._holder(str(key))
        return os.path.join(self.root, held[0] if held else bucket_id(key))

    def known(self, key: str | BucketKey) -> bool:
        return record.exists(self.dir(key))

    def meta(self, key: str | BucketKey) -> Bucket | None:
        return record.load_dir(self.dir(key))

    def dir_of(self, m: Bucket) -> str:
        """The directory of bucket ``m``: the one named by its id where that holds it, else the one
        that answers to its key (a record read from elsewhere)."""
        d = os.path.join(self.root, m.id) if m.id else None
        return d if d is not None and record.exists(d) else self.dir(m.key)

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
            write_stored(os.path.join(d, "original.py"), f.text if f.text is not None else text)
            if f.outcome is not None:
                write_stored(os.path.join(d, "outcome.json"), json.dumps(f.outcome.to_json(), indent=1, default=str))
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
        self.save(m)
        return d, new

    def mark_minimized(self, key: str | BucketKey, summary: dict) -> None:
        m = self.meta(key)
        if m is None:
            return
        m.minimized = True
        m.reduction = Reduction.from_json(summary)
        self.save(m)

    def mark_stale(self, key: str | BucketKey, reason: str, environment: dict | None = None) -> None:
        m = self.meta(key)
        if m is None:
            return
        m.stale = Stale(reason, time.strftime("%Y-%m-%dT%H:%M:%S"), environment or {})
        self.save(m)

    def mark_filed(self, key: str | BucketKey, attachment: dict | None, standalone: dict) -> None:
        """What filing the bucket recorded (``filing``): its attachment (what ``repro.min.py`` must
        show; None keeps the one recorded) and its standalone run (ran, reproduced, why, exit code,
        the tail of its output, the environment it was given, when)."""
        m = self.meta(key)
        if m is None:
            return
        if attachment is not None:
            m.attachment = record.AttachmentRecord.from_json(attachment)
        m.standalone = record.StandaloneRun.from_json(standalone)
        self.save(m)

    def save(self, m: Bucket) -> None:
        """``m`` into its bucket (the one that answers to its key)."""
        record.save_dir(self.dir(m.key), m)

    def mark_recheck(self, key: str | BucketKey, reproduces: bool | None, reason: str, script: str,
                     environment: dict | None = None, undefined: list | None = None) -> None:
        """The result of ``fmin fuzz --recheck``: a bucket that no longer reproduces is stale, one
        that reproduces again is not, one not rechecked (``reproduces`` None: its replay failed in
        fmin's code or the machine's) keeps its stale mark as it was, the reason recorded;
        ``undefined``, the value rules the reference's run of its script broke (a program no
        result is right for: ``fuzz.classes`` files it under missing checks, whatever the
        compiler did)."""
        m = self.meta(key)
        if m is None:
            return
        at = time.strftime("%Y-%m-%dT%H:%M:%S")
        m.recheck = Recheck(reproduces, reason, script, at, environment or {})
        if reproduces is None:
            self.save(m)
            return
        m.undefined = list(undefined) if undefined else None
        if reproduces:
            m.stale = None
        else:
            m.stale = Stale(f"recheck of {script}: {reason}", at, environment or {})
        self.save(m)

    def rekey_on(self, key: str | BucketKey, found: Finding, new_key: BucketKey, script: str) -> str:
        """The bucket of ``key``, whose replay of its ``script`` showed another bug of its backend
        (``found``, keyed ``new_key`` by judging's rules of today), re-keyed on that bug: its kind,
        owner, words, flags and key are the finding's, and the replay's outcome is what it is held
        to now (``outcome.json``, and ``outcome.min.json`` where the replayed script is its minimal
        repro: a re-key reads them, so it stays where it is put). It moves as a re-key moves it
        (``move``): its id kept, the old key an alias, merged into a bucket that has the new key
        already. Returns the text of the key it answers to now."""
        m = self.meta(key)
        if m is None:
            return str(key)
        d = self.dir(key)
        if found.outcome is not None:
            text = json.dumps(found.outcome.to_json(), indent=1, default=str)
            write_stored(os.path.join(d, "outcome.json"), text)
            if script != "original.py":
                write_stored(os.path.join(d, "outcome.min.json"), text)
        changed = replace(m, kind=found.kind, owner=found.owner, key=new_key, words=found.words,
                          flags=dict(found.flags), particulars=particulars(found.outcome) or None)
        if self.move(key, changed) == "same":
            self.save(changed)
        return self.resolve(new_key)

    def outcome(self, key: str | BucketKey) -> dict | None:
        p = os.path.join(self.dir(key), "outcome.json")
        if not os.path.exists(p):
            return None
        with open(p, encoding="utf-8") as f:
            return json.load(f)

    def move(self, key: str | BucketKey, changed: Bucket, directory: str | None = None) -> str:
        """Give the bucket of ``key`` the record ``changed`` (with a key of another text). It keeps
        its id and directory, the old key's text recorded in ``old_keys``; where another bucket
        answers to the new key already, the two merge (``absorb``). Returns "moved", "merged",
        "refused" (the merge would lose an op path: the bucket stays as it was) or "same" (a key
        of the same text: nothing is done). ``directory``: the bucket's, where ``key`` alone may
        name another (two buckets of one key text, before they re-key apart or merge)."""
        d = directory or self.dir(key)
        m = record.load_dir(d)
        if m is None or str(changed.key) == str(m.key):
            return "same"
        m = replace(changed, id=os.path.basename(d), old_keys=_union(changed.old_keys or [], [str(key)]))
        other = self.dir(m.key)
        if os.path.abspath(other) == os.path.abspath(d) or not record.exists(other):
            record.save_dir(d, m)
            self._forget()
            return "moved"
        return "merged" if self.absorb(d, other, m) is not None else "refused"

    def absorb(self, a: str, b: str, ma: Bucket | None = None) -> str | None:
        """Merge the buckets in directories ``a`` and ``b`` (``ma``: ``a``'s record as it is to be,
        with the key the merge keeps) into one: counts added, example ids, marks, dtypes, ranks,
        particulars and absorbed keys joined, stale only when both are (``joined``), the files of
        the better bucket kept (``better``: one that reproduces, one minimized, the smaller
        minimal repro, then the first seen), under the id of the bucket seen first. The other's
        attachment is kept under ``examples/<n>/`` where its op path is not the kept one's
        (``examples.keep``). Returns the directory it is in, or None: the other has an op path of
        its own and no script to keep, and nothing was merged."""
        ma = ma or record.load_dir(a)
        mb = record.load_dir(b)
        files = a if better(ma, mb) else b
        other = b if files == a else a
        if not examples.attachable(other, files):
            return None
        examples.keep(other, files)
        keep = joined(ma, mb) if better(ma, mb) else joined(mb, ma)
        home, gone = (a, b) if (ma.first_seen, a) <= (mb.first_seen, b) else (b, a)
        keep.key = (ma if home == a else mb).key
        keep.old_keys = [k for k in _union(keep.old_keys or [], [str(ma.key), str(mb.key)]) if k != str(keep.key)]
        if files != home:   # the better bucket's files, under the first one's id
            shutil.rmtree(home)
            os.replace(files, home)
        else:
            shutil.rmtree(gone)
        rename_bucket(home, os.path.basename(home))
        keep.id = os.path.basename(home)
        record.save_dir(home, keep)
        self._forget()
        return home

    def buckets(self) -> list[Bucket]:
        return [b for name in sorted(os.listdir(self.root))
                if (b := record.load_dir(os.path.join(self.root, name))) is not None]


def better(a: Bucket, b: Bucket) -> bool:
    """Is bucket ``a``'s program the one to keep rather than ``b``'s? One that reproduces (not
    stale), then one minimized, then one whose attachment was shown to reproduce standalone (what a
    maintainer runs first, worth more than an op or two fewer), with fewer ops, then the first seen."""
    def rank(m: Bucket):
        ops_after = m.reduction.ops_after if m.reduction is not None and m.reduction.ops_after is not None \
            else 10 ** 9
        return (bool(m.stale), not m.minimized, not m.reproduced_standalone, ops_after, m.first_seen)
    return rank(a) < rank(b)


def joined(keep: Bucket, other: Bucket) -> Bucket:
    """``keep``'s record with ``other``'s occurrences added: count, example ids (50 at most),
    marks, dtypes, ranks and seeds, particulars, absorbed keys; stale only when both are. The
    bucket was opened by whichever of the two was seen first: its first example, with the
    generation settings, ancestry and machine that replay it, and its date."""
    old = _union(keep.old_keys or [], other.old_keys or [])
    if str(other.key) and str(other.key) != str(keep.key):
        old = _union(old, [str(other.key)])
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
