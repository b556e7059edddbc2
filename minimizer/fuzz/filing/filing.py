"""Filing a reduced bucket: the reducer's script becomes ``reduced.py``, its attachment
(``attachment.build``) becomes ``repro.min.py``, ``report.md`` says what is filed (the passing
variant of an order/layout finding), and the attachment is run standalone
(``standalone.standalone``) so that ``finding.json`` records whether it shows the bug.

``file_reduced`` runs where the pools are (``campaign.reduce_bucket`` after a reduction,
``campaign.recheck_bucket`` after a replay, on this machine or a Ray actor) and returns texts;
``write_filed`` puts them into a bucket directory (the reduction's own, or the corpus's on the
driver after a recheck).

``reduced.py`` is what fmin replays (``--recheck``) and what a later reduction would start from;
``repro.min.py`` is no longer the reducer's best-so-far, so the reducer's resume state
(``state.json``) is dropped: a reduction in that directory starts over rather than resume from
an attachment.
"""
from __future__ import annotations

import os
import time

from ...oracle.checks import LayoutDependent, OrderDependent
from ...oracle.pool import Pools
from ...oracle.property import evaluate
from . import attachment, standalone
from ..judging.property import bucket_property
from ..store.record import Bucket

SECTION = "\n" + attachment.SECTION_TITLE


def file_reduced(reduced: str, path: str, meta: Bucket, outcome: dict | None, ctx, pool, ref, verdict=None) -> dict:
    """The attachment of ``reduced`` (the reducer's script, at ``path``) and its standalone run.
    ``verdict``: a replay of the bucket's property on it, when the caller has one (recheck);
    else an order/layout bucket's property is evaluated here, once, to learn which variant
    fails. Returns {"reduced", "text", "section", "attachment", "standalone"}."""
    prop = bucket_property(meta, outcome)
    if verdict is None and prop is not None and any(isinstance(c, (LayoutDependent, OrderDependent))
                                                    for c in prop.checks):
        verdict = evaluate(prop, reduced, path, Pools.of(pool, reference=ref), seed=ctx.seed)
    att = attachment.build(reduced, path, meta, outcome, verdict, seed=ctx.seed)
    if att.expect.get("kind") == "none":   # nothing it must show (a --test property, no variant known)
        record = {"ran": False, "reproduced": None, "at": time.strftime("%Y-%m-%dT%H:%M:%S"),
                  "why": "nothing to show: " + ("; ".join(att.notes) or "the bucket's property is not one fmin files")}
    else:
        record = standalone.standalone(att.text, att.expect, backend=ctx.backend, device=ctx.device,
                                       timeout=ctx.timeout)
    return {"reduced": reduced, "text": att.text, "section": attachment.passing_section(att),
            "attachment": att.to_json(), "standalone": record}


def write_filed(bucket_dir: str, filed: dict) -> None:
    """``file_reduced``'s texts into ``bucket_dir``: ``reduced.py``, ``repro.min.py``, the
    section of ``report.md`` (replacing an earlier one); the reducer's resume state goes."""
    for name, text in (("reduced.py", filed["reduced"]), ("repro.min.py", filed["text"])):
        with open(os.path.join(bucket_dir, name), "w", encoding="utf-8") as f:
            f.write(text)
    md = os.path.join(bucket_dir, "report.md")
    before = ""
    if os.path.exists(md):
        with open(md, encoding="utf-8") as f:
            before = f.read().split(SECTION, 1)[0]
    with open(md, "w", encoding="utf-8") as f:
        f.write(before.rstrip("\n") + "\n" + filed["section"])
    state = os.path.join(bucket_dir, "state.json")
    if os.path.exists(state):
        os.remove(state)


def file_bucket_dir(out: str, meta: Bucket, outcome: dict | None, ctx, pool, ref) -> dict:
    """The bucket just reduced into ``out`` filed in place (``campaign.reduce_bucket``): returns
    the ``attachment`` and ``standalone`` records for ``finding.json``. A filing that breaks
    leaves the reduction as it is and says why in the standalone record."""
    repro = os.path.join(out, "repro.min.py")
    if not os.path.exists(repro):
        return {}
    with open(repro, encoding="utf-8") as f:
        reduced = f.read()
    try:
        filed = file_reduced(reduced, os.path.join(out, "reduced.py"), meta, outcome, ctx, pool, ref)
    except Exception as e:
        return {"standalone": failed(e)}
    write_filed(out, filed)
    return {"attachment": filed["attachment"], "standalone": filed["standalone"]}


def refile(job: dict, verdict, ctx, pool, ref) -> dict:
    """A recheck's filing (``campaign.recheck_bucket``): a reduced script whose replay held
    (``verdict``) is filed again — ``{"filed": ...}``, which the driver writes —; otherwise the
    stored attachment (``job["filed"]``), if any, is run standalone as it is."""
    if verdict is not None and job["script"] != "original.py":
        return {"filed": file_reduced(job["text"], job["path"], job["meta"], job["outcome"], ctx, pool, ref, verdict)}
    filed = job.get("filed")
    if filed:
        return {"standalone": standalone.standalone(filed["text"], filed["expect"], backend=ctx.backend,
                                                    device=ctx.device, timeout=ctx.timeout)}
    return {}


def failed(e: Exception) -> dict:
    """The standalone record of a filing that broke (fmin's own error, said as such)."""
    return {"ran": False, "reproduced": None, "at": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "why": f"filing failed: {type(e).__name__}: {e}"}
