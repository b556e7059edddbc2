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
* **metamorphic**: the same program with its inputs permuted (one seeded permutation) and with its
  plain inputs in another memory layout must keep status, segment count and schedulers
  (``order.permute_inputs``, ``layout.relayout``). Values of those variants are not compared
  with the original's (the inputs list draws them in another order); their own outputs are
  checked by the same differential oracle whenever they are generated as programs.

A ``Finding`` carries the bucket key (what "the same bug" means), the owner (``fmin`` or the
backend) and the property flags under which the reducer minimizes it.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..backends import RunOptions
from ..oracle.checks.layout import gather_layout
from ..oracle.checks.base import Trial
from ..oracle.checks.mismatch import MismatchEvidence, drop_values
from ..oracle.outcome import Outcome, confirmed, outcome_key, outcome_words
from ..oracle.pool import Pools, Request
from ..oracle.property import Mismatch, Property, evaluate
from ..oracle.triage import category, judgeable
from ..program.variants import permute_inputs
from ..model import Program, Ref, is_input_decl

ORACLES = ("failure", "differential", "order", "layout")
#: error kinds that mean "fmin's own code is wrong", whatever the backend
FMIN_KINDS = {"fmin-translation", "fmin-harness", "fmin-internal", "no-execute"}


def _not_the_fusions(o: Outcome) -> bool:
    """The script's or the machine's failure (``oracle.triage``): never a finding."""
    return not judgeable(o)


@dataclass
class Finding:
    kind: str                    # failure | mismatch | order-dependent | layout-dependent
    owner: str                   # "fmin" or the backend's name
    key: str                     # bucket: the same key is the same bug
    words: str                   # one line for people
    flags: dict = field(default_factory=dict)   # reduce property flags (empty: the default property)
    outcome: Outcome | None = None

    def to_json(self) -> dict:
        return {"kind": self.kind, "owner": self.owner, "key": self.key, "words": self.words, "flags": self.flags}


@dataclass
class Judged:
    outcome: Outcome
    findings: list[Finding]
    skipped: str | None = None   # why the program was not judged (a script or environment failure)


def judge(program: Program, text: str, path: str, pool, ref_pool, *, backend: str, oracles=ORACLES,
          seed: int = 0, example_seed: int = 0) -> Judged:
    """Run every oracle on one program. ``pool`` runs the backend under test, ``ref_pool`` the
    reference (the same pool when the backend is the reference)."""
    diff = "differential" in oracles and backend != "reference"
    pools = Pools.of(pool, reference=ref_pool)
    o = pool.run(Request(text, path, RunOptions(seed=seed, want_values=diff)))
    found: list[Finding] = []
    try:
        if not o.ok:
            f = _failure(o, text, path, seed, ref_pool, backend)
            if f is None:
                return Judged(o, [], skipped=f"{category(o)}: {o.signature}")
            return Judged(o, [f] if "failure" in oracles else [])
        if diff:
            f = _differential(program, o, text, path, seed, pools, backend)
            if f:
                found.append(f)
    finally:
        drop_values(o)
    if "order" in oracles:
        f = _order(program, o, path, seed, pool, backend, example_seed)
        if f:
            found.append(f)
    if "layout" in oracles:
        f = _layout(program, text, o, path, seed, pools, backend)
        if f:
            found.append(f)
    return Judged(o, found)


def _failure(o: Outcome, text, path, seed, ref_pool, backend) -> Finding | None:
    if _not_the_fusions(o):
        return None
    if backend != "reference":
        r = ref_pool.run(Request(text, path, RunOptions(seed=seed)))
        if not r.ok:   # the generator made something its own reference rejects
            return Finding("failure", "fmin", f"reference {r.status} {r.signature}",
                           f"the generated program fails on the reference backend too: {r.signature}", {}, r)
    owner = "fmin" if backend == "reference" or (o.error_kind or "") in FMIN_KINDS else backend
    return Finding("failure", owner, f"{backend} {o.status} {o.signature}",
                   f"{backend} {o.status}: {o.signature}", {}, o)


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


def _differential(program, o: Outcome, text, path, seed, pools: Pools, backend) -> Finding | None:
    v = evaluate(Property((Mismatch(),)), text, path, pools, seed=seed, outcome=o, program=program)
    if not v.holds:
        return None
    ev = v.get(Mismatch)
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
    elif backend == "inductor" and _translation_disagrees(program, text, path, seed, pools):
        owner = "fmin"
    kind = "" if differs == "values" else f"{differs} "
    return Finding("mismatch", owner, f"{backend} mismatch {kind}{op} -> {dtype}",
                   f"{backend} outputs differ from the reference: {v.reason}",
                   {"mismatch": differs if differs in Mismatch.WHATS else True}, o)


def _index_typed(program: Program, d, k: int) -> bool:
    """Output ``k`` (compared as ``d``) is welford's count and differs only as Int32 vs Int64: its
    dtype is nvFuser's Index type, which a kernel resolves as it indexes (Int32 in a reduction
    kernel, Int64 after a ``cat`` on the H200: buckets 39e607c526d6 and 8fd78ea008f0), so neither
    is wrong."""
    return (d.what == "dtype" and d.label.startswith("output") and {d.got, d.dtype} == {"int32", "int64"}
            and _producer(program, k) == "welford")


def _translation_disagrees(program, text, path, seed, pools: Pools) -> bool:
    """Inductor triage: does fmin's translation, run eagerly, already differ from the reference?"""
    v = evaluate(Property((Mismatch(),)), text, path, pools, seed=seed, program=program,
                 options=RunOptions(eager=True))
    return v.holds


def _order(program, o: Outcome, path, seed, pool, backend, example_seed) -> Finding | None:
    from ..program import to_source
    n = sum(1 for s in program.stmts if is_input_decl(s))
    if n < 2:
        return None
    rng = random.Random(example_seed)
    perm = list(range(n))
    while perm == list(range(n)):
        rng.shuffle(perm)
    try:
        text2 = to_source(permute_inputs(program, perm))
    except ValueError:
        return None
    req = Request(text2, path, RunOptions(seed=seed))
    o2 = confirmed(lambda: pool.run(req), o)
    if outcome_key(o2) == outcome_key(o) or _not_the_fusions(o2):
        return None
    return Finding("order-dependent", backend, f"{backend} order-dependent {_change(o, o2)}",
                   f"permuting the inputs as {perm} gives {outcome_words(o2)} instead of {outcome_words(o)}",
                   {"order_dependent": True}, o2)


def _change(a: Outcome, b: Outcome) -> str:
    """A metamorphic bucket: what kind of change, not its exact counts (2 vs 4 pointwise kernels
    and 3 vs 5 are one behaviour): a status change names both outcomes, a segmentation change
    the schedulers whose counts differ."""
    if a.status != b.status or a.signature != b.signature:
        return f"status {a.status} `{a.signature}` -> {b.status} `{b.signature}`"
    ca, cb = Counter(a.schedulers or ()), Counter(b.schedulers or ())
    names = sorted(k for k in set(ca) | set(cb) if ca[k] != cb[k])
    return "segmentation changes (" + (", ".join(names) or "count") + ")"


def _layout(program, text, o: Outcome, path, seed, pools: Pools, backend) -> Finding | None:
    r = gather_layout(Trial(text, path, seed, o, pools, program_=program))
    if not hasattr(r, "found") or not r.found or _not_the_fusions(r.outcome):
        return None
    return Finding("layout-dependent", backend, f"{backend} layout-dependent {_change(o, r.outcome)}",
                   r.words(), {"layout_dependent": True}, r.outcome)
