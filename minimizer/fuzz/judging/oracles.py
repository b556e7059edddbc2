"""What counts as a finding, for one generated program.

Three oracles, cheapest first, each a question the rest of fmin already knows how to ask:

* **failure**: the backend errors, crashes or hangs on a program the generator made valid. The
  reference backend then runs it too: if the reference also fails, the generator or the catalog
  produced an invalid program, which is fmin's bug. A failure of the script or of the machine
  (``oracle.triage``: no compiler, no Triton, out of memory) is never a finding.
* **differential**: outputs against the reference (``property.Mismatch``: dtype-aware tolerance,
  confirmed against the fp64 reference; programs with random ops excluded). On Inductor a
  mismatch is triaged by running fmin's translation *eagerly*: if that already disagrees with the
  reference, the translation (fmin) is wrong, else Inductor is.
* **metamorphic**: the same program with its inputs permuted (one seeded permutation; only where
  the backend split it into kernels: ``order_can_matter``) and with its plain inputs in another
  memory layout must keep status, segment count and schedulers (``order.permute_inputs``,
  ``layout.relayout``). Values of those variants are not compared with the original's (the
  inputs list draws them in another order); their own outputs are checked by the same
  differential oracle whenever they are generated as programs.

A ``Finding`` carries the bucket key (what "the same bug" means: ``keys``), the owner (``fmin``
or the backend) and the property flags under which the reducer minimizes it. A permutation or
relayout whose variant *fails* is a failure finding (the variant's program, its failure's key)
marked ``order_dependent``/``layout_dependent``: the bucket is the bug the variant shows, and
what gets reduced and attached fails as written.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ... import phases
from ...backends import RunOptions
from ...oracle.checks.layout import gather_layout
from ...oracle.checks.base import Trial
from ...oracle.checks.mismatch import MismatchEvidence, drop_values
from ...oracle.outcome import Outcome, confirmed, outcome_key, outcome_words
from ...oracle.pool import Pools, Request
from ...oracle.property import Mismatch, Property, evaluate
from ...oracle.triage import category, judgeable
from ...program.variants import permute_inputs
from ...model import Program, Ref, is_input_decl
from ..store.finding import Finding
from .keys import broken_rules, change_key, dimension_error, failure_key, mismatch_key, traits

ORACLES = ("failure", "differential", "order", "layout")
#: error kinds that mean "fmin's own code is wrong", whatever the backend
FMIN_KINDS = {"fmin-translation", "fmin-harness", "fmin-internal", "no-execute"}


def _not_the_fusions(o: Outcome) -> bool:
    """The script's or the machine's failure (``oracle.triage``): never a finding."""
    return not judgeable(o)


@dataclass
class Judged:
    outcome: Outcome
    findings: list[Finding]
    skipped: str | None = None   # why the program was not judged (a script or environment failure)
    phases: phases.Phases | None = None   # where its time went, where it was judged (``campaign.judge_example``)


def run_oracles(program: Program, text: str, path: str, pool, ref_pool, *, backend: str, oracles=ORACLES,
                seed: int = 0, example_seed: int = 0) -> Judged:
    """Run every oracle on one program. ``pool`` runs the backend under test, ``ref_pool`` the
    reference (the same pool when the backend is the reference)."""
    diff = "differential" in oracles and backend != "reference"
    pools = Pools.of(pool, reference=ref_pool)
    rec = phases.current() or phases.Phases()   # each oracle's share of a program's time (runs included)
    with rec.timed("oracle run"):
        o = pool.run(Request(text, path, RunOptions(seed=seed, want_values=diff)))
    found: list[Finding] = []
    skipped = None
    try:
        if not o.ok:
            with rec.timed("oracle failure"):
                f = _failure(o, text, path, seed, ref_pool, backend, program)
            if f is None:
                return Judged(o, [], skipped=f"{category(o)}: {o.signature}")
            return Judged(o, [f] if "failure" in oracles else [])
        if diff:
            with rec.timed("oracle differential"):
                f, skipped = _differential(program, o, text, path, seed, pools, backend)
            if f:
                found.append(f)
    finally:
        drop_values(o)
    if "order" in oracles:
        with rec.timed("oracle order"):
            f = _order(program, o, path, seed, pool, ref_pool, backend, example_seed)
        if f:
            found.append(f)
    if "layout" in oracles:
        with rec.timed("oracle layout"):
            f = _layout(program, text, o, path, seed, pools, backend)
        if f:
            found.append(f)
    for f in found:
        f.traits = f.traits or traits(program)
    return Judged(o, found, skipped=skipped)


def _failure(o: Outcome, text, path, seed, ref_pool, backend, program=None) -> Finding | None:
    if _not_the_fusions(o):
        return None
    if backend != "reference":
        r = ref_pool.run(Request(text, path, RunOptions(seed=seed)))
        # the generator made something its own reference rejects; not where the reference fails
        # on values no rule defines (``Outcome.undefined``: torch raises on an integer division
        # by zero): the program is well formed, and the backend's failure is the backend's
        if not r.ok and not r.undefined:
            return Finding("failure", "fmin", failure_key("reference", r),
                           f"the generated program fails on the reference backend too: {r.signature}", {}, r,
                           traits=traits(program))
    return Finding("failure", failure_owner(backend, o, program), failure_key(backend, o),
                   f"{backend} {o.status}: {o.signature}", {}, o, traits=traits(program))


def failure_owner(backend: str, o, program: Program | None = None) -> str:
    """Whose a failure is: fmin's for the reference, for fmin's own error kinds, and for inputs
    that do not match the program's own definition (``user-input`` on a tensor known to be a
    fusion input, ``nvfuser_log.names_fusion_input``: the generator or a mutation wrote inputs its
    definition rejects — an expanded dim given a tensor that is not expanded); else the backend's.
    ``o``: an ``Outcome`` or its stored JSON."""
    from ...backends.nvfuser_log import names_fusion_input
    get = o.get if isinstance(o, dict) else lambda k, d=None: getattr(o, k, d)
    kind = get("error_kind") or ""
    if backend == "reference" or kind in FMIN_KINDS:
        return "fmin"
    if kind == "user-input" and program is not None and names_fusion_input(get("message"), program):
        return "fmin"
    return backend


def _variant_fails(kind: str, variant: Program, text: str, o2: Outcome, words: str, path, seed, ref_pool,
                   backend) -> Finding | None:
    """A permutation or relayout whose program fails: that failure's finding (its key, its
    program), marked as needing the variant (``<kind>_dependent``)."""
    f = _failure(o2, text, path, seed, ref_pool, backend, variant)
    if f is None:
        return None
    f.found_as, f.text, f.words = f"{kind}-dependent", text, words
    f.marks = {f"{kind}_dependent": True}
    return f


def _producer(program: Program, output_index: int) -> str:
    """The op whose value is the ``output_index``-th (non-aliasing) output."""
    outs = [s for s in program.stmts if s.is_output and s.arg("alias_input") is None]
    if output_index >= len(outs):
        return "?"
    ref = outs[output_index].arg("output")
    if isinstance(ref, Ref):
        for s in reversed(program.stmts):
            if ref.name in s.outs:
                return "input" if is_input_decl(s) else s.op
    return "?"


def _differential(program, o: Outcome, text, path, seed, pools: Pools, backend) -> tuple[Finding | None, str | None]:
    """The mismatch finding, if any, and why the outputs were not judged: a program whose reference
    run breaks a value rule (``program.validity``: an integer overflow, a shift out of range ...)
    has no single right result, so no difference of its outputs is a finding."""
    v = evaluate(Property((Mismatch(),)), text, path, pools, seed=seed, outcome=o, program=program)
    ev = v.get(Mismatch)
    ref = ev.reference if isinstance(ev, MismatchEvidence) else None
    if ref is not None and ref.undefined:
        first = ref.undefined[0]
        return None, f"invalid: {first.get('rule')}: {first.get('message')}"
    return _mismatch(program, v, ev, o, text, path, seed, pools, backend), None


def _mismatch(program, v, ev, o: Outcome, text, path, seed, pools: Pools, backend) -> Finding | None:
    if not v.holds:
        return None
    comp = ev.comparison if isinstance(ev, MismatchEvidence) else None
    outs = comp.outputs if comp else []
    bads = [k for k, d in enumerate(outs) if not d.ok and not _index_typed(program, d, k)]
    if outs and not bads:
        return None
    bad = bads[0] if bads else 0
    label = comp.outputs[bad].label if comp and comp.outputs else "output 0"
    dtype = comp.outputs[bad].dtype if comp and comp.outputs else "?"
    differs = comp.outputs[bad].what if comp and comp.outputs else "values"
    op = _producer(program, bad) if label.startswith("output") else "aliased input"
    owner = backend
    if differs == "dtype":
        # a result dtype is a typing rule, not a wrong value: the reference's rules are fmin's
        # (nvFuser computes Half/BFloat16 arithmetic in Float and returns Float, for one)
        owner = "fmin"
    elif _translation_disagrees(program, text, path, seed, pools, backend):
        owner = "fmin"
    what = "aliasing" if op == "aliased input" else differs
    got = comp.outputs[bad].got if comp and comp.outputs else None
    dimension = dimension_error(v.reason, program) if what == "shape" else None
    return Finding("mismatch", owner, mismatch_key(backend, what, [op], got, dtype, dimension, broken_rules(program)),
                   f"{backend} outputs differ from the reference: {v.reason}",
                   {"mismatch": differs if differs in Mismatch.WHATS else True}, o)


def _index_typed(program: Program, d, k: int) -> bool:
    """Output ``k`` (compared as ``d``) is welford's count and differs only as Int32 vs Int64: its
    dtype is nvFuser's Index type, which a kernel resolves as it indexes (Int32 in a reduction
    kernel, Int64 after a ``cat``: docs/benchmarks.md), so neither is wrong."""
    return (d.what == "dtype" and d.label.startswith("output") and {d.got, d.dtype} == {"int32", "int64"}
            and _producer(program, k) == "welford")


def _translation_disagrees(program, text, path, seed, pools: Pools, backend: str) -> bool:
    """Does fmin's translation, run without the backend's compiler (``Backend.translation_only``:
    Inductor's eager mode), already differ from the reference? Then the wrong result is fmin's.
    A backend that runs scripts as written has no translation to suspect."""
    from ...backends import get
    options = get(backend).translation_only
    if options is None:
        return False
    v = evaluate(Property((Mismatch(),)), text, path, pools, seed=seed, program=program, options=options)
    return v.holds


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
    from ...backends import get
    return not get(backend).reports_segments or (o.segments or 1) > 1


def _order(program, o: Outcome, path, seed, pool, ref_pool, backend, example_seed) -> Finding | None:
    from ...program import to_source
    if not order_can_matter(o, backend):
        return None
    v = order_variant(program, example_seed)
    if v is None:
        return None
    variant, perm = v
    text2 = to_source(variant)
    req = Request(text2, path, RunOptions(seed=seed))
    o2 = confirmed(lambda: pool.run(req), o)
    if outcome_key(o2) == outcome_key(o) or _not_the_fusions(o2):
        return None
    words = f"permuting the inputs as {perm} gives {outcome_words(o2)} instead of {outcome_words(o)}"
    if not o2.ok:
        return _variant_fails("order", variant, text2, o2, words, path, seed, ref_pool, backend)
    return Finding("order-dependent", backend, change_key(backend, "order-dependent", o, o2), words,
                   {"order_dependent": True}, o2)


def _layout(program, text, o: Outcome, path, seed, pools: Pools, backend) -> Finding | None:
    r = gather_layout(Trial(text, path, seed, o, pools, program_=program))
    if not hasattr(r, "found") or not r.found or _not_the_fusions(r.outcome):
        return None
    if not r.outcome.ok:
        return _variant_fails("layout", r.program, r.text, r.outcome, r.words(), path, seed, pools.get("reference"),
                              backend)
    return Finding("layout-dependent", backend, change_key(backend, "layout-dependent", o, r.outcome),
                   r.words(), {"layout_dependent": True}, r.outcome)
