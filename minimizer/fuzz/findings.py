"""The findings corpus: one directory per bucket, ``<corpus>/<bucket id>/``.

A bucket is one bug as far as fmin can tell: its key is the failure signature (rebuild-stable,
see ``backends.signature``) with the backend and status, or for a wrong result the op producing the
first differing output and its dtype, or for metamorphic findings the pair of outcomes. The id is
a hash of the key, so the same bug gets the same directory on every machine and shard, and
merging corpora from a CI matrix is a union of directories (``merge``).

A bucket directory holds ``finding.json`` (key, kind, owner, backend, first example id, every
example id seen and the count), ``original.py`` (the first program that showed it, runnable),
``outcome.json``, and once minimized ``reduced.py`` (the reducer's result), ``repro.min.py``
(the attachment filed from it, ``filing``: what a maintainer runs), ``report.md`` and
``report.json``; ``finding.json`` then also records the attachment and its standalone run. A known bucket is counted, never re-minimized. A bucket whose original no
longer shows the finding when the reducer replays it (fixed in the backend, or a rule of fmin's
reference corrected since) is marked ``stale`` with the reason and the environment of that
replay, and kept: its history is part of the record. A stale bucket that a campaign meets again
is not stale any more (``recurred`` says when).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time

from ..errors import UsageError
from ..oracle.session import text_key
from .oracles import Finding


def bucket_id(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:12]


class Store:
    def __init__(self, root: str):
        self.root = root
        os.makedirs(root, exist_ok=True)

    def dir(self, key: str) -> str:
        return os.path.join(self.root, bucket_id(key))

    def known(self, key: str) -> bool:
        return os.path.exists(os.path.join(self.dir(key), "finding.json"))

    def meta(self, key: str) -> dict | None:
        p = os.path.join(self.dir(key), "finding.json")
        if not os.path.exists(p):
            return None
        with open(p, encoding="utf-8") as f:
            return json.load(f)

    def add(self, f: Finding, text: str, example_id: str, backend: str, environment: dict | None = None,
            generator: dict | None = None) -> tuple[str, bool]:
        """Record one occurrence; returns (bucket dir, new?). A new bucket gets its original.
        ``generator``: the generation settings (frontend, max_ops) that ``--replay`` needs."""
        d = self.dir(f.key)
        m = self.meta(f.key)
        new = m is None
        if new:
            os.makedirs(d, exist_ok=True)
            _write(os.path.join(d, "original.py"), text)
            if f.outcome is not None:
                _write(os.path.join(d, "outcome.json"), json.dumps(f.outcome.to_json(), indent=1, default=str))
            m = {"id": bucket_id(f.key), **f.to_json(), "backend": backend, "first_example": example_id,
                 "examples": [], "count": 0, "first_seen": time.strftime("%Y-%m-%dT%H:%M:%S"),
                 "environment": environment or {}, "generator": generator or {}, "minimized": False}
        m["count"] += 1
        if example_id not in m["examples"] and len(m["examples"]) < 50:
            m["examples"].append(example_id)
        if m.pop("stale", None) is not None:   # seen again: whatever made it stale did not last
            m["recurred"] = {"example": example_id, "at": time.strftime("%Y-%m-%dT%H:%M:%S")}
        self._save(f.key, m)
        return d, new

    def mark_minimized(self, key: str, summary: dict) -> None:
        m = self.meta(key)
        if m is None:
            return
        m["minimized"] = True
        m["reduction"] = summary
        self._save(key, m)

    def mark_stale(self, key: str, reason: str, environment: dict | None = None) -> None:
        m = self.meta(key)
        if m is None:
            return
        m["stale"] = {"reason": reason, "at": time.strftime("%Y-%m-%dT%H:%M:%S"), "environment": environment or {}}
        self._save(key, m)

    def mark_filed(self, key: str, attachment: dict | None, standalone: dict) -> None:
        """What filing the bucket recorded (``filing``): its attachment (what ``repro.min.py`` must
        show; None keeps the one recorded) and its standalone run (ran, reproduced, why, exit code,
        the tail of its output, the environment it was given, when)."""
        m = self.meta(key)
        if m is None:
            return
        if attachment is not None:
            m["attachment"] = attachment
        m["standalone"] = standalone
        self._save(key, m)

    def _save(self, key: str, m: dict) -> None:
        _write(os.path.join(self.dir(key), "finding.json"), json.dumps(m, indent=1, default=str))

    def mark_recheck(self, key: str, reproduces: bool, reason: str, script: str,
                     environment: dict | None = None) -> None:
        """The result of ``fmin fuzz --recheck``: a bucket that no longer reproduces is stale, one
        that reproduces again is not."""
        m = self.meta(key)
        if m is None:
            return
        at = time.strftime("%Y-%m-%dT%H:%M:%S")
        m["recheck"] = {"reproduces": reproduces, "reason": reason, "script": script, "at": at,
                        "environment": environment or {}}
        if reproduces:
            m.pop("stale", None)
        else:
            m["stale"] = {"reason": f"recheck of {script}: {reason}", "at": at, "environment": environment or {}}
        self._save(key, m)

    def outcome(self, key: str) -> dict | None:
        p = os.path.join(self.dir(key), "outcome.json")
        if not os.path.exists(p):
            return None
        with open(p, encoding="utf-8") as f:
            return json.load(f)

    def rekey(self, fn) -> dict:
        """Re-derive bucket keys after a change to how keys are made: ``fn(meta, outcome)``
        returns None (leave the bucket alone) or ``(changes, outcome)``: the finding.json fields
        to change (``key`` among them) and the outcome to store. A bucket moves to its new id;
        buckets that now share a key are merged: counts added, example ids joined, and the files
        of the one with the smaller minimal repro kept (then the first seen). Returns
        {"moved": n, "merged": n}."""
        def size(b):
            return ((b.get("reduction") or {}).get("ops_after", 10 ** 9), b.get("first_seen", ""))

        moved = merged = 0
        for m in self.buckets():
            old = self.dir(m["key"])
            r = fn(m, self.outcome(m["key"]))
            if r is None or r[0].get("key", m["key"]) == m["key"]:
                continue
            changes, outcome = r
            if outcome is not None:
                _write(os.path.join(old, "outcome.json"), json.dumps(outcome, indent=1, default=str))
            m = {**m, **changes, "id": bucket_id(changes["key"])}
            new = self.dir(m["key"])
            other = self.meta(m["key"])
            if other is None:
                _write(os.path.join(old, "finding.json"), json.dumps(m, indent=1, default=str))
                os.replace(old, new)
                moved += 1
                continue
            mine_better = size(m) < size(other)
            keep, drop = (m, other) if mine_better else (other, m)
            keep = {**keep, "count": m.get("count", 0) + other.get("count", 0),
                    "examples": (keep.get("examples", []) + [e for e in drop.get("examples", [])
                                                             if e not in keep.get("examples", [])])[:50]}
            if mine_better:   # this bucket's files replace the other's
                shutil.rmtree(new)
                os.replace(old, new)
            else:
                shutil.rmtree(old)
            _write(os.path.join(new, "finding.json"), json.dumps(keep, indent=1, default=str))
            merged += 1
        return {"moved": moved, "merged": merged}

    def buckets(self) -> list[dict]:
        out = []
        for name in sorted(os.listdir(self.root)):
            p = os.path.join(self.root, name, "finding.json")
            if os.path.exists(p):
                with open(p, encoding="utf-8") as f:
                    out.append(json.load(f))
        return out


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


def differs(meta: dict) -> str:
    """For a wrong result: what differs ("dtype", "shape" or "values"), from the key, or for
    buckets recorded before keys said so, from the recorded comparison words; "" otherwise."""
    if meta.get("kind") != "mismatch":
        return ""
    k = meta["key"].split(" mismatch ", 1)[-1]
    if k.startswith(("dtype ", "shape ")):
        return k.split()[0]
    g = re.search(r": (\w+)\[([\d, ]*)\] vs reference (\w+)\[([\d, ]*)\]", meta.get("words", ""))
    if g:
        return "dtype" if g.group(2) == g.group(4) else "shape"
    return "values"


def reduction_flags(meta: dict) -> dict:
    """The property flags a bucket is reduced under. A wrong result is held to its kind of
    difference (``--mismatch-in dtype`` ...), also for buckets stored before flags said so."""
    flags = dict(meta.get("flags") or {})
    if flags.get("mismatch") is True and meta.get("kind") == "mismatch":
        flags["mismatch"] = differs(meta)
    if isinstance(flags.get("mismatch"), str):   # stored as the kind of difference: ``--mismatch-in``
        flags["mismatch_in"] = flags.pop("mismatch")
    return flags


def bucket_property(meta: dict, outcome: dict | None):
    """The property a bucket's programs must show (for reducing and rechecking it): its flags
    (``reduction_flags``), or for a failure the recorded status and signature — never "whatever
    the replay shows", which for a failure that no longer happens would be a passing run."""
    from ..oracle.property import Failure, Property
    flags = reduction_flags(meta)
    if flags:
        return Property.from_flags(**flags)
    if meta.get("kind") == "failure" and outcome and outcome.get("status") not in (None, "ok"):
        return Property((Failure(outcome["status"], outcome.get("signature")),))
    return None


def merge(sources: list[str], into: str) -> dict:
    """Union of findings corpora (a CI matrix's shards): new buckets are copied, known ones get
    their counts added and example ids joined. Returns {"new": n, "merged": n}."""
    os.makedirs(into, exist_ok=True)
    new = merged = 0
    for src in sources:
        if os.path.abspath(src) == os.path.abspath(into) or not os.path.isdir(src):
            continue
        for name in sorted(os.listdir(src)):
            sp = os.path.join(src, name, "finding.json")
            if not os.path.exists(sp):
                continue
            dp = os.path.join(into, name, "finding.json")
            with open(sp, encoding="utf-8") as f:
                sm = json.load(f)
            if not os.path.exists(dp):
                shutil.copytree(os.path.join(src, name), os.path.join(into, name))
                new += 1
                continue
            with open(dp, encoding="utf-8") as f:
                dm = json.load(f)
            dm["count"] = dm.get("count", 0) + sm.get("count", 0)
            dm["examples"] = (dm.get("examples", []) + [e for e in sm.get("examples", [])
                                                        if e not in dm.get("examples", [])])[:50]
            if sm.get("minimized") and not dm.get("minimized"):   # keep the minimized copy
                for fname in ("repro.min.py", "reduced.py", "report.md", "report.json"):
                    s = os.path.join(src, name, fname)
                    if os.path.exists(s):
                        shutil.copy(s, os.path.join(into, name, fname))
                dm["minimized"], dm["reduction"] = True, sm.get("reduction")
                dm.update({k: sm[k] for k in ("attachment", "standalone") if k in sm})
            _write(dp, json.dumps(dm, indent=1, default=str))
            merged += 1
    return {"new": new, "merged": merged}


def _write(path: str, text: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
