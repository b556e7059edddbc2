"""One judging slot: a process of its own that owns warm pools (one worker of the backend under
test, one of the reference that judges it) and runs a campaign's units of work on them — the
functions of ``campaign`` (``judge_example``, ``reduce_bucket``, ``recheck_bucket``) and
``property.verdict_for_script`` for ``fmin check``.

Why a process: judging a program is not only the workers' time. Comparing outputs, building the
permuted and relayouted variants, printing them and reading the workers' answers run in fmin's
own Python, and in threads of one process they share its GIL — on the H200, 6 and 16 threads
judged the same 711 programs in 100 s. Each slot has its own interpreter, so they do not.

The same ``Slot`` serves both runners: ``campaign.LocalRunner`` starts ``jobs`` of them as local
processes (``serve``, in a ``ProcessPoolExecutor`` whose initializer builds one per process),
``cluster.RayRunner`` as Ray actors (``cluster.actor.SlotActor``). Nothing here writes the
findings corpus: a reduction runs in a scratch directory and its files travel back to the
driver, which alone writes the corpus.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import replace

from ..oracle.pool import Request
from ..oracle.property import verdict_for_script
from ..phases import Phases, recording

#: files of a bucket directory that a reduction reads to resume (besides the original)
RESUME_FILES = ("repro.min.py", "state.json", "cache.json")
#: files a reduction leaves that do not belong in the corpus
_SCRATCH = {"original.py", ".fmin.lock"}


class Slot:
    def __init__(self, opt):
        from .campaign import backend_pools
        self.opt = replace(opt, ctx=opt.ctx.replace(jobs=1))
        self._pools = backend_pools(self.opt.ctx)
        self.pool, self.ref = self._pools.__enter__()
        self.pools = self.opt.ctx.pools(given={self.opt.ctx.backend: self.pool, "reference": self.ref})
        self.workdir = tempfile.mkdtemp(prefix="fmin-slot-")
        self.startup = Phases()   # the workers' start, reported with the first program judged here

    def start(self) -> dict:
        """Start the workers (the slow part: torch, the backend) so that the first program does
        not wait for them; the backend worker's environment."""
        with recording(self.startup):
            for p in {id(self.pool): self.pool, id(self.ref): self.ref}.values():
                for w in p.workers:
                    if w.proc is None or w.proc.poll() is not None:
                        w.start()
        return self.pool.workers[0].environment

    def judge(self, e, text: str):
        from .campaign import judge_example
        j = judge_example(e, text, os.path.join(self.workdir, f"fuzz_{e.id.replace('.', '_')}.py"),
                          self.pool, self.ref, self.opt)
        if self.startup.data:
            j.phases.merge(self.startup)
            self.startup = Phases()
        return j

    def reduce(self, job: dict) -> dict:
        """``job``: ``meta``, ``outcome``, ``files`` (the bucket's original and what resumes a
        reduction) and ``bucket_dir`` (where the driver keeps the bucket: the files' own mentions
        of this scratch directory are rewritten to it). Returns ``reduce_bucket``'s result with
        ``files``: every file the reduction wrote, relative path -> text."""
        from .campaign import reduce_bucket
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
        from .campaign import recheck_bucket
        return recheck_bucket(job, self.opt, self.pool, self.ref)

    def check(self, req: Request, prop, seed: int):
        o = self.pool.run(req)
        v = verdict_for_script(prop, req, o, self.pools, seed=seed) if prop is not None else None
        return o, v

    def close(self) -> None:
        self.pools.close()
        self._pools.__exit__(None, None, None)
        shutil.rmtree(self.workdir, ignore_errors=True)


# ---------------------------------------------------------------- a local slot process
_here: Slot | None = None


def serve(opt) -> None:
    """A ``ProcessPoolExecutor``'s initializer: this process becomes one slot, its workers
    started now, closed when the process ends (``multiprocessing``'s finalizers run on a normal
    exit; a killed slot's workers see their stdin close and exit)."""
    import multiprocessing.util
    global _here
    _here = Slot(opt)
    multiprocessing.util.Finalize(None, _here.close, exitpriority=10)
    _here.start()


def call(method: str, *args):
    """One unit of work on this process's slot."""
    return getattr(_here, method)(*args)


def pid() -> int:
    """The slot process's id (tests: slots are processes)."""
    return os.getpid()
