"""``fmin fuzz --recheck``: every bucket of a backend in the corpus replayed under its property and
marked as reproducing, re-keyed on another bug it shows now, stale, or not rechecked (after an
nvFuser upgrade: which findings are fixed).

The replays run on a runner (``local.LocalRunner`` or ``cluster.RayRunner``, its
``recheck_bucket``); the corpus is read and written here, in the driver."""
from __future__ import annotations

import json
import os

from ...oracle.runners import Runner
from ...oracle.session import Candidate, Session, Verdict, chain
from ...progress import ProgressLine
from ..buglist import page as buglist
from ..filing.filing import write_filed
from ..judging.property import bucket_property
from ..judging.today import rekey_minimized
from ..store.store import Store, reduced_script
from ..store.record import Bucket, StandaloneRun
from .local import LocalRunner
from .options import CampaignOptions
from .replayed import replayed


def recheck(opt: CampaignOptions, runner: Runner | None = None) -> list[dict]:
    """Replay every bucket of the context's backend in the corpus under its property — its minimal
    repro when it has one, else its original — and record whether it still reproduces (after an
    nvFuser upgrade: which findings are fixed; after a change to fmin's reference: which were
    fmin's). A replay that does not show the property is run once more, then judged as a
    campaign judges a program (``replayed``): stale only where it shows no failure at all, re-keyed
    where it shows another bug of the backend, left as it was where it fails in fmin's code, the
    script or the machine. ``runner``: where the replays run (default: this machine's pools); the corpus
    is read and written here. Returns one row per bucket rechecked, in corpus order."""
    store = Store(opt.corpus)
    # a bucket found on another device (Triton on a GPU vs C++ on the CPU) is another compiler
    todo = [m for m in store.buckets() if m.backend == opt.ctx.backend and m.kind != "generator"
            and (m.environment or {}).get("device", opt.ctx.device) == opt.ctx.device]
    rows: list[dict] = []
    if not todo:
        buglist.write(opt.corpus)
        return rows
    status = ProgressLine(opt.ctx.quiet, every=5)

    def job(m: Bucket) -> dict:
        d = store.dir(m.key)
        name = reduced_script(d)
        path = os.path.join(d, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        filed = None
        if name == "reduced.py" and m.attachment is not None and m.attachment.expects != "none":
            with open(os.path.join(d, "repro.min.py"), encoding="utf-8") as f:
                filed = {"text": f.read(), "expect": m.attachment.expect}
        outcome = store.outcome(m.key)
        return {"id": m.id, "key": str(m.key), "script": name, "text": text, "path": path, "kind": m.kind,
                "prop": bucket_property(m, outcome), "meta": m, "outcome": outcome, "filed": filed}

    runner = runner if runner is not None else LocalRunner(opt)
    with runner:
        jobs = [job(m) for m in todo]
        session = Session(submit=lambda c: chain(runner.recheck(c.context),
                                                 lambda r: Verdict(r["reproduces"], r["reason"], detail=r)))
        futs = [None if j["prop"] is None else
                session.submit(Candidate(j["text"] + f"\n# {json.dumps(j['prop'].to_json())}", context=j))
                for j in jobs]
        for j, fut in zip(jobs, futs):
            if fut is None:
                rows.append({"id": j["id"], "key": j["key"], "script": j["script"], "reproduces": None,
                             "reason": "no property recorded for this bucket"})
            else:
                rows.append(_record(store, j, fut.result().detail))
            status.show(f"rechecked {len(rows)}/{len(todo)}  stale {sum(x['reproduces'] is False for x in rows)}")
    status.show(f"rechecked {len(rows)}/{len(todo)}  stale {sum(x['reproduces'] is False for x in rows)}", True)
    buglist.write(opt.corpus)
    return rows


def _record(store: Store, j: dict, r: dict) -> dict:
    """One bucket's replay ``r`` (``local.recheck_bucket``'s result for job ``j``) into the corpus:
    what it makes of the bucket (``replayed``: re-keyed on another bug of the backend, by the
    store's move and today's rules, merging where that bug has a bucket; stale; not rechecked),
    the recheck, and the filing it did. Returns the bucket's row."""
    rep = replayed(j["meta"], r, j["script"], j["text"])
    key = j["key"]
    if rep.key is not None:
        key = rekey_minimized(store, store.rekey_on(key, rep.found, rep.key, j["script"]))
    store.mark_recheck(key, rep.reproduces, rep.reason, j["script"], r["environment"], r.get("undefined"))
    if r.get("filed"):
        write_filed(store.dir(key), r["filed"])
        store.mark_filed(key, r["filed"]["attachment"], r["filed"]["standalone"])
    elif r.get("standalone"):
        store.mark_filed(key, None, r["standalone"])
    ran = (r.get("filed") or r).get("standalone")
    sa = StandaloneRun.from_json(ran) if ran else None
    return {"id": j["id"], "key": j["key"], "script": j["script"], "reproduces": rep.reproduces,
            "reason": rep.reason, "rekeyed": str(key) if rep.key is not None else None,
            "standalone": sa.reproduced if sa else None, "standalone_why": sa.why if sa else None}
