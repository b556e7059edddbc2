"""The order oracle (metamorphic): the same program with its inputs permuted must keep status,
segment count and schedulers.

One seeded permutation (``program.variants.permute_inputs``: the input declarations and the inputs
list reordered together), only where the backend split the program (``order_can_matter``). Values
of the variant are not compared with the original's (the inputs list draws them in another
order). A variant that fails is a failure finding marked ``order_dependent``.
"""
from __future__ import annotations

import random

from ....backends import RunOptions
from ....model import Program, is_input_decl
from ....oracle.outcome import Outcome, confirmed, outcome_key, outcome_words
from ....oracle.pool import Request
from ....program.variants import permute_inputs
from ..keys import change_key
from .base import Example, Finding, not_the_fusions, register
from .failure import variant_fails


@register("order", order=20)
def judge(ex: Example) -> Finding | None:
    from ....program import to_source
    o = ex.outcome
    if not order_can_matter(o, ex.backend):
        return None
    v = order_variant(ex.program, ex.example_seed)
    if v is None:
        return None
    variant, perm = v
    text2 = to_source(variant)
    req = Request(text2, ex.path, RunOptions(seed=ex.seed))
    o2 = confirmed(lambda: ex.pool.run(req), o)
    if outcome_key(o2) == outcome_key(o) or not_the_fusions(o2):
        return None
    words = f"permuting the inputs as {perm} gives {outcome_words(o2)} instead of {outcome_words(o)}"
    if not o2.ok:
        return variant_fails("order", variant, text2, o2, words, ex)
    return Finding("order-dependent", ex.backend, change_key(ex.backend, "order-dependent", o, o2), words,
                   {"order_dependent": True}, o2)


def order_variant(program: Program, example_seed: int) -> tuple[Program, list[int]] | None:
    """The one input permutation the order oracle tries on an example (seeded by it), or None
    for a program with fewer than two inputs or one the model cannot permute."""
    n = sum(1 for s in program.stmts if is_input_decl(s))
    if n < 2:
        return None
    rng = random.Random(example_seed)
    perm = list(range(n))
    while perm == list(range(n)):
        rng.shuffle(perm)
    try:
        return permute_inputs(program, perm), perm
    except ValueError:
        return None


def order_can_matter(o: Outcome, backend: str) -> bool:
    """Is the permuted variant worth its run? Only where the backend split the program: input
    order reaches a fusing compiler's decisions through its partition (nvFuser's segmenter merges
    groups in definition order — the seed issue, nvFuser #1473 —, Inductor fuses nodes in graph
    order); a program it ran as one kernel made no such decision. Order dependence is symmetric:
    where one order fuses and another splits, the permutation of the split one finds it, and a
    campaign judges split programs as their own (a generated one, or a seed's ``order``
    mutation). On the GPU the permuted run cost 38 % of a seeded program's time and no campaign
    has found an order-dependent bucket yet (corpus/findings). A backend that reports no
    segments (the reference) is always permuted: nothing says it made no decision."""
    from ....backends import get
    return not get(backend).facts.reports_segments or (o.segments or 1) > 1
