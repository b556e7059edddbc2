"""The layout oracle (metamorphic): the same program with its plain inputs in another memory
layout must keep status, segment count and schedulers (``oracle.checks.layout``: the relayouts it
tries). A variant that fails is a failure finding marked ``layout_dependent``."""
from __future__ import annotations

from ....oracle.checks.base import Trial
from ....oracle.checks.layout import gather_layout
from ..keys import change_key
from .base import Example, Finding, not_the_fusions, register
from .failure import variant_fails


@register("layout", order=30)
def judge(ex: Example) -> Finding | None:
    o = ex.outcome
    r = gather_layout(Trial(ex.text, ex.path, ex.seed, o, ex.pools, program_=ex.program))
    if not hasattr(r, "found") or not r.found or not_the_fusions(r.outcome):
        return None
    if not r.outcome.ok:
        return variant_fails("layout", r.program, r.text, r.outcome, r.words(), ex)
    return Finding("layout-dependent", ex.backend, change_key(ex.backend, "layout-dependent", o, r.outcome),
                   r.words(), {"layout_dependent": True}, r.outcome)
