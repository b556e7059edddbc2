"""The findings corpus: one directory per bucket, ``<corpus>/<bucket id>/``.

A bucket is one bug as far as fmin can tell: its key is the failure signature (rebuild-stable,
see ``oracle.signature``) with the backend and status, or for a wrong result the op producing the
first differing output and its dtype, or for metamorphic findings the pair of outcomes. The id is
a hash of the key, so the same bug gets the same directory on every machine and shard, and
merging corpora from a CI matrix is a union of directories (``merge``).

A bucket directory holds ``finding.json`` (key, kind, owner, backend, first example id, every
example id seen and the count), ``original.py`` (the first program that showed it, runnable),
``outcome.json``, and once minimized ``repro.min.py``, ``report.md`` and ``report.json`` (the
reducer's own files). A known bucket is counted, never re-minimized.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time

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
        _write(os.path.join(d, "finding.json"), json.dumps(m, indent=1, default=str))
        return d, new

    def mark_minimized(self, key: str, summary: dict) -> None:
        m = self.meta(key)
        if m is None:
            return
        m["minimized"] = True
        m["reduction"] = summary
        _write(os.path.join(self.dir(key), "finding.json"), json.dumps(m, indent=1, default=str))

    def buckets(self) -> list[dict]:
        out = []
        for name in sorted(os.listdir(self.root)):
            p = os.path.join(self.root, name, "finding.json")
            if os.path.exists(p):
                with open(p, encoding="utf-8") as f:
                    out.append(json.load(f))
        return out


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
                for fname in ("repro.min.py", "report.md", "report.json"):
                    s = os.path.join(src, name, fname)
                    if os.path.exists(s):
                        shutil.copy(s, os.path.join(into, name, fname))
                dm["minimized"], dm["reduction"] = True, sm.get("reduction")
            _write(dp, json.dumps(dm, indent=1, default=str))
            merged += 1
    return {"new": new, "merged": merged}


def _write(path: str, text: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
