"""The differential oracle: outputs against the reference.

``property.Mismatch`` compares them (dtype-aware tolerance, confirmed against the fp64 reference;
programs with random ops excluded). On Inductor a mismatch is triaged by running fmin's
translation *eagerly*: if that already disagrees with the reference, the translation (fmin) is
wrong, else Inductor is. A program whose reference run breaks a value rule (``program.validity``:
an integer overflow, a shift out of range ...) has no single right result, so no difference of
its outputs is a finding.
"""
from __future__ import annotations

from ....model import Program
from ....oracle.checks.mismatch import MismatchEvidence
from ....oracle.outcome import Outcome
from ....oracle.pool import Pools
from ....oracle.property import Mismatch, Property, evaluate
from ..keys import broken_rules, dimension_error, mismatch_key, producer
from .base import Example, Finding, NotJudged, register


@register("differential", order=10, reads_values=True, applies=lambda backend: backend != "reference")
def judge(ex: Example) -> Finding | NotJudged | None:
    """The mismatch finding, if any, or why the outputs were not judged."""
    v = evaluate(Property((Mismatch(),)), ex.text, ex.path, ex.pools, seed=ex.seed, outcome=ex.outcome,
                 program=ex.program)
    ev = v.get(Mismatch)
    ref = ev.reference if isinstance(ev, MismatchEvidence) else None
    if ref is not None and ref.undefined:
        first = ref.undefined[0]
        return NotJudged(f"invalid: {first.get('rule')}: {first.get('message')}")
    return _mismatch(v, ev, ex)


def _mismatch(v, ev, ex: Example) -> Finding | None:
    """The wrong result's finding: its kind of difference, the op it names, its dtypes and its
    words all read from one output — the first one the deciding comparison (``ev.final``: the
    judgement against the exact result where one was made) found wrong. Reading the kind from the
    comparison with eager and the words from the judgement filed a shape difference under
    ``values`` where eager's comparison also flagged an earlier output that the exact result then
    cleared as rounding."""
    if not v.holds:
        return None
    program, backend = ex.program, ex.backend
    final = ev.final if isinstance(ev, MismatchEvidence) else None
    outs = final.outputs if final else []
    bads = [(k, d) for k, d in enumerate(outs) if not d.ok and not _index_typed(program, d, k)]
    if outs and not bads:
        return None
    k, d = bads[0] if bads else (0, None)
    differs = ("values" if d.what == "scalar" else d.what) if d else "count"   # none wrong: their number is
    reason = (d.reason if d else None) or (final.first_mismatch if final else None) or v.reason
    op = producer(program, k) if d is None or d.label.startswith("output") else "aliased input"
    owner = backend
    if differs == "dtype":
        # a result dtype is a typing rule, not a wrong value: the reference's rules are fmin's
        # (nvFuser computes Half/BFloat16 arithmetic in Float and returns Float, for one)
        owner = "fmin"
    elif _translation_disagrees(program, ex.text, ex.path, ex.seed, ex.pools, backend):
        owner = "fmin"
    what = "aliasing" if op == "aliased input" and differs == "values" else differs
    dimension = dimension_error(reason, program) if what == "shape" else None
    key = mismatch_key(backend, what, [op], d.got if d else None, d.dtype if d else "?", dimension,
                       broken_rules(program))
    return Finding("mismatch", owner, key, f"{backend} outputs differ from the reference: {reason}",
                   {"mismatch": differs if differs in Mismatch.WHATS else True}, ex.outcome)


def _index_typed(program: Program, d, k: int) -> bool:
    """Output ``k`` (compared as ``d``) is welford's count and differs only as Int32 vs Int64: its
    dtype is nvFuser's Index type, which a kernel resolves as it indexes (Int32 in a reduction
    kernel, Int64 after a ``cat``: docs/benchmarks.md), so neither is wrong."""
    return (d.what == "dtype" and d.label.startswith("output") and {d.got, d.dtype} == {"int32", "int64"}
            and producer(program, k) == "welford")


def _translation_disagrees(program, text, path, seed, pools: Pools, backend: str) -> bool:
    """Does fmin's translation, run without the backend's compiler (``Facts.translation_only``:
    Inductor's eager mode), already differ from the reference? Then the wrong result is fmin's.
    A backend that runs scripts as written has no translation to suspect."""
    from ....backends import get
    options = get(backend).facts.translation_only
    if options is None:
        return False
    v = evaluate(Property((Mismatch(),)), text, path, pools, seed=seed, program=program, options=options)
    return v.holds
