"""A campaign's work on this machine: ``LocalRunner``, and the units of work that it and the Ray
actors (``cluster.actor``) run where the pools are — judging an example, reducing and filing a
bucket, rechecking one.

The units of work are plain functions of their inputs and a pool pair, so the same code judges a
program whichever runner hands it out; what their results do to the corpus is the driver's
(``run``, ``recheck``)."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor

from ...oracle.context import RunContext
from ...oracle.pool import Pools, start_workers
from ...phases import Phases, recording
from ...progress import ProgressLine
from ..filing.filing import failed, file_bucket_dir, refile
from ..filing.standalone import local_paths
from ..judging.oracles import Judged, run_oracles
from ..sources import generate
from ..judging.property import bucket_property
from ..store.record import Bucket
from .options import CampaignOptions, window_for


class LocalRunner:
    """A ``Runner`` (``oracle.runners``; ``cluster.RayRunner`` is the other one) on this machine:
    the run context's warm pools of ``jobs`` workers for the backend and the reference
    (``RunContext.judging_pools``), ``jobs`` programs judged at a time, one bucket reduced at a
    time (the reducer's own parallel windows use the ``jobs`` workers); ``describe()`` is ""."""

    def __init__(self, opt: CampaignOptions):
        self.opt = opt
        self.window = window_for(opt.ctx.jobs)
        self.reduce_slots = 1
        self.n = max(1, opt.ctx.jobs)   # slots: programs judged at once
        self.phases = Phases()          # the start-up's (``warm_up``), merged into the campaign's

    def __enter__(self):
        from ...backends import get as get_backend
        ProgressLine(self.opt.ctx.quiet).starting(
            get_backend(self.opt.ctx.backend), self.opt.ctx.device, self.n,
            f"(+ as many reference workers) for {self.n} judging slot(s)"
            if self.opt.ctx.backend != "reference" else f"for {self.n} judging slot(s)")
        self._pools = self.opt.ctx.judging_pools()
        self.pool, self.ref = self._pools.__enter__()
        self.warm_up()
        self._ex = ThreadPoolExecutor(max_workers=max(1, self.opt.ctx.jobs))
        self.workdir = tempfile.mkdtemp(prefix="fmin-fuzz-")
        return self

    def __exit__(self, *exc):
        try:
            self._ex.shutdown(wait=True, cancel_futures=True)
        finally:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self._pools.__exit__(*exc)
        return False

    def warm_up(self) -> None:
        """Every worker of both pools started at once, before the campaign's clock starts
        (``run_campaign``): started lazily, they started in front of the first programs while
        the clock ran, and a short campaign at many slots spent its time importing torch."""
        with recording(self.phases):
            start_workers([self.pool] if self.ref is self.pool else [self.pool, self.ref])

    def judge_example(self, e, text: str) -> Future:
        return self._ex.submit(judge_example, e, text, _script_path(self.workdir, e.id), self.pool, self.ref, self.opt)

    def reduce(self, key: str, meta: Bucket, outcome: dict | None, bucket_dir: str) -> Future:
        """In place (the reducer writes the bucket directory as it goes, and resumes from it) and
        in this thread, one at a time."""
        f: Future = Future()
        f.set_running_or_notify_cancel()
        f.set_result(reduce_bucket(os.path.join(bucket_dir, "original.py"), bucket_dir, meta, outcome, self.opt,
                                   self.pool, self.ref))
        return f

    def recheck(self, job: dict) -> Future:
        return self._ex.submit(recheck_bucket, job, self.opt, self.pool, self.ref)

    def describe(self) -> str:
        return ""


def _script_path(workdir: str, example_id: str) -> str:
    return os.path.join(workdir, f"fuzz_{example_id.replace('.', '_')}.py")


def judge_example(e, text: str, path: str, pool, ref, opt: CampaignOptions):
    """Every oracle on one generated example (``oracles.run_oracles``), with its own metamorphic seed;
    where its time went (``Judged.phases``: each run, each oracle, the whole) comes back with it."""
    rec = Phases()
    with recording(rec), rec.timed("slot judge"):
        j = run_oracles(e.program, text, path, pool, ref, backend=opt.ctx.backend, oracles=opt.oracles, seed=opt.ctx.seed,
                  example_seed=generate.example_seed(e.id))
    j.phases = rec
    return j


def reduce_bucket(original: str, out: str, meta: Bucket, outcome: dict | None, opt: CampaignOptions, pool,
                  ref) -> dict:
    """Reduce a bucket's program (``original``, a file) into ``out`` under the bucket's own
    property, on warm pools. Returns what the corpus should record: ``{"minimized": summary}``,
    ``{"stale": reason, "environment": ...}`` (the original no longer shows it) or
    ``{"error": ...}`` (a reduction that breaks must not lose the campaign's other findings)."""
    from ...oracle.original import Original
    from ...reduce.reduction import PropertyDoesNotHold, ReduceOptions, reduce_script
    # the corpus travels: its reports name no directory of this machine (``--corpus /tmp/x`` -> ``x``)
    ctx = opt.ctx.replace(quiet=True, command=local_paths(opt.ctx.command) if opt.ctx.command else None)
    ropt = ReduceOptions(out=out, replays=2, max_seconds=opt.minimize_seconds, say_how_to_see=False)
    try:
        given = {name: p for name, p in ((ctx.backend, pool), ("reference", ref)) if p is not None}
        read = Original.read(original, backend=ctx.backend, keep_frontend=ropt.keep_frontend)   # once, for both
        rep = reduce_script(original, bucket_property(meta, outcome, read.program), ctx, ropt, pools=given,
                            original=read)
        minimized_outcome(out, pool, ctx)   # the reduced script's own run, before filing makes the attachment
        result = {"minimized": {k: rep.get(k) for k in ("ops_before", "ops_after", "inputs_before", "inputs_after",
                                                        "oracle_calls", "seconds", "property", "interrupted")}}
        return {**result, **file_bucket_dir(out, meta, outcome, ctx, pool, ref)}
    except PropertyDoesNotHold as e:
        return {"stale": f"not reproduced when replayed: {e}", "environment": getattr(pool, "environment", None)}
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}


def minimized_outcome(out: str, pool, ctx: RunContext) -> None:
    """The minimal repro's own run, as ``outcome.min.json`` beside it: what the attached script
    does as written, and what the bucket is re-keyed from (``findings.rekey_minimized``)."""
    path = os.path.join(out, "repro.min.py")
    if pool is None or not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        o = pool.run(ctx.request(f.read(), path))
    with open(os.path.join(out, "outcome.min.json"), "w", encoding="utf-8") as f:
        json.dump(o.to_json(), f, indent=1, default=str)


def recheck_bucket(job: dict, opt: CampaignOptions, pool, ref) -> dict:
    """One bucket's script (``job``: ``text``, ``path``, ``prop``, ``kind``, ``meta``, ``outcome``,
    ``filed``: the stored attachment and its expectation, if any) replayed under its property,
    once more if it does not show it; a failure whose program the reference now rejects too is no
    longer a finding. A reduced script that reproduces is filed again (its attachment rebuilt from
    this replay, and run standalone); one that does not keeps its attachment, which is run
    standalone all the same. A replay that does not show the property is judged as a campaign
    judges a program (``replay_judged``), for the driver to tell another bug from none. Returns
    ``reproduces``, ``reason``, ``environment``, ``replay`` (that judgement, or None) and ``filed``
    or ``standalone``."""
    from ...oracle.property import Mismatch, evaluate
    text, path, prop = job["text"], job["path"], job["prop"]
    pools = Pools.of(pool, reference=ref)
    v = evaluate(prop, text, path, pools, seed=opt.ctx.seed)
    if not v.holds:
        v = evaluate(prop, text, path, pools, seed=opt.ctx.seed)
    holds, reason = v.holds, v.reason
    ev = v.get(Mismatch)
    undefined = getattr(getattr(ev, "reference", None), "undefined", None)
    if holds and job["kind"] == "failure" and ref is not pool:
        r = ref.run(opt.ctx.request(text, path))
        undefined = r.undefined
        if not r.ok and not r.undefined:   # a rule the reference has learnt since: the program was never valid
            holds, reason = False, (f"no longer a finding: the reference rejects the program too "
                                    f"(`{r.signature}`), so it is not a valid program")
    out = {"reproduces": holds, "reason": reason, "environment": getattr(pool, "environment", None),
           "undefined": undefined or None, "replay": None}
    if not v.holds:
        try:
            out["replay"] = replay_judged(text, path, opt, pool, ref)
        except Exception as e:   # fmin's own error: the bucket is not rechecked, never stale for it
            out["replay_error"] = f"judging the replay failed: {type(e).__name__}: {e}"
    try:
        out.update(refile(job, v if holds else None, opt.ctx, pool, ref))
    except Exception as e:   # the replay's verdict stands whatever happens to the attachment
        out["standalone"] = failed(e)
    return out


def replay_judged(text: str, path: str, opt: CampaignOptions, pool, ref) -> Judged:
    """What a bucket's program shows when it no longer shows its property: judged by the failure
    and differential oracles as a campaign judges a generated program (``run_oracles``), so its
    finding, if any, is keyed and owned as a new one would be (a program fmin cannot read is
    judged for failures only: the differential oracle reads the program)."""
    from ...program import parse
    try:
        program = parse(text)
    except Exception:
        program = None
    chosen = ("failure", "differential") if program is not None else ("failure",)
    return run_oracles(program, text, path, pool, ref, backend=opt.ctx.backend, oracles=chosen, seed=opt.ctx.seed)
