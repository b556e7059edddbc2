"""One worker slot on a Ray cluster (an ``oracle.runners.Slot``): an actor that owns warm fmin
pools (one worker of the backend under test, one of the reference that judges it:
``RunContext.judging_pools``) and runs the campaign's units of work on them — the same functions
the local runner calls (``campaign.local.judge_example``, ``reduce_bucket``,
``recheck_bucket``, ``property.verdict_for_script``), so what a program's verdict is never
depends on where it ran.

This module does not import Ray: ``runner`` wraps ``SlotActor`` with ``ray.remote``. Nothing here
writes the findings corpus: a reduction runs in a scratch directory of the actor's node and its
files travel back to the driver, which alone writes the corpus.
"""
from __future__ import annotations

import os
import shutil
import socket
import tempfile
from dataclasses import replace

from ..fuzz.campaign.local import judge_example, recheck_bucket, reduce_bucket
from ..fuzz.campaign.options import CampaignOptions
from ..oracle.pool import Request
from ..oracle.property import verdict_for_script

#: files of a bucket directory that a reduction reads to resume (besides the original)
RESUME_FILES = ("repro.min.py", "state.json", "cache.json")
#: files a reduction leaves that do not belong in the corpus
_SCRATCH = {"original.py", ".fmin.lock"}


class SlotActor:
    def __init__(self, opt: CampaignOptions):
        self.opt = replace(opt, ctx=opt.ctx.replace(jobs=1))
        self._pools = self.opt.ctx.judging_pools()
        self.pool, self.ref = self._pools.__enter__()
        self.pools = self.opt.ctx.pools(given={self.opt.ctx.backend: self.pool, "reference": self.ref})
        self.workdir = tempfile.mkdtemp(prefix="fmin-ray-")

    def ready(self) -> dict:
        """Start the workers (the slow part: torch, the backend) so that the first program does
        not wait for them; say where this slot is."""
        for p in {id(self.pool): self.pool, id(self.ref): self.ref}.values():
            for w in p.workers:
                if not w.running:
                    w.start()
        node = ""
        try:
            import ray
            node = ray.get_runtime_context().get_node_id()
        except Exception:
            pass
        return {"host": socket.gethostname(), "pid": os.getpid(), "node": node,
                "gpus": os.environ.get("CUDA_VISIBLE_DEVICES", ""),
                "code": os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                "environment": self.pool.workers[0].environment}

    def judge_example(self, e, text: str):
        return judge_example(e, text, os.path.join(self.workdir, f"fuzz_{e.id.replace('.', '_')}.py"),
                             self.pool, self.ref, self.opt)

    def reduce(self, job: dict) -> dict:
        """``job``: ``meta``, ``outcome``, ``files`` (the bucket's original and what resumes a
        reduction) and ``bucket_dir`` (where the driver keeps the bucket: the files' own mentions
        of this scratch directory are rewritten to it). Returns ``reduce_bucket``'s result with
        ``files``: every file the reduction wrote, relative path -> text."""
        d = tempfile.mkdtemp(prefix="bucket-", dir=self.workdir)
        try:
            for name, text in job["files"].items():
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
            result = reduce_bucket(os.path.join(d, "original.py"), d, job["meta"], job["outcome"], self.opt,
                                   self.pool, self.ref)
            files = {}
            for root, _, names in os.walk(d):
                for name in names:
                    rel = os.path.relpath(os.path.join(root, name), d)
                    if rel in _SCRATCH:
                        continue
                    with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                        files[rel] = f.read().replace(d, job["bucket_dir"])
            return {**result, "files": files}
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def recheck(self, job: dict) -> dict:
        return recheck_bucket(job, self.opt, self.pool, self.ref)

    def check(self, req: Request, prop, seed: int):
        o = self.pool.run(req)
        v = verdict_for_script(prop, req, o, self.pools, seed=seed) if prop is not None else None
        return o, v

    def close(self) -> None:
        self.pools.close()
        self._pools.__exit__(None, None, None)
        shutil.rmtree(self.workdir, ignore_errors=True)
