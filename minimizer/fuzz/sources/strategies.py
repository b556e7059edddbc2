"""Hypothesis strategies that generate fusion programs as fmin ``Program`` values.

Design (see docs/inductor-and-fuzzers.md §4):

* A program is its input declarations plus a sequence of *steps* (at least one, at most
  ``max_ops``). Each step is one span of choices: a "go on" draw, a family, then the choices the
  family needs, each ``integers(0, n - 1)`` over what is legal right now (an operand index among
  the values so far, a dim, a dtype ...). Every choice is legal for the current state, so every
  program is valid by construction (no ``assume``/``filter``), and the shrinker can delete whole
  steps or lower choices towards 0 (= the simplest alternative: the earliest value, the first op
  of the family, no keepdim, ...).
* No tensor values are drawn: inputs are ``TensorArg`` specs (``specs``); the printed script
  builds them with ``torch.testing.make_tensor`` (or ``randn(...).as_strided`` for permuted layouts).
* Which ops a step can write, and how each is written, comes from the op catalog
  (``OpSpec.generate``: the step family, the operand categories, the order among the family's
  ops, and ``Gen.write``, defined beside the op): this module keeps no op table and no per-op
  branch. What a writer works with, the ``Builder`` of the program, its ``Value``s and the
  ``Picks`` every choice is drawn from, is ``builder``'s.
* Shapes, dtypes and broadcasts of every value are computed on ``meta`` tensors while building
  (``builder``), so dtype promotion is never guessed and operands pair as nvFuser broadcasts them.

Legacy programs (``nvfuser``) define every constant with ``define_scalar``; direct ones
(``nvfuser_direct``) write numbers inline.
"""
from __future__ import annotations

from hypothesis import strategies as st

from ...ops import CATALOG, GEN_CATEGORIES, Gen, bind, lookup
from ...ops.spec import STEP_FAMILIES
from ...model import DIRECT, LEGACY, OUTPUT, Program, Ref, Stmt
from .builder import Builder, Picks, Value, new_builder
from .specs import CATEGORY_DTYPES, TensorSpec, tensor_specs


# ---- the op tables, derived from the catalog (``OpSpec.generate``) ----
def _generated() -> dict[str, Gen]:
    """op name -> its ``Gen``, for every ``fd.ops`` op the generator writes."""
    return {s.name: s.generate for key, s in CATALOG.items()
            if key.startswith("ops.") and s.generate is not None and s.generate.step is not None}


def _op_tables(gens: dict[str, Gen]) -> dict[str, dict[str, list[str]]]:
    """step family -> operand category -> the ops the family draws from for such an operand,
    simplest first (by the op's rank there, then catalog order)."""
    rows: dict[str, dict[str, list[tuple[int, int, str]]]] = {}
    for order, (name, g) in enumerate(gens.items()):
        table = rows.setdefault(g.step, {c: [] for c in GEN_CATEGORIES})
        for c in g.categories:
            table[c].append((g.rank(c), order, name))
    return {h: {c: [name for _, _, name in sorted(r)] for c, r in t.items()} for h, t in rows.items()}


GENERATED = _generated()
OP_TABLES = _op_tables(GENERATED)


def _ops(family: str, cat: str) -> list[str]:
    return OP_TABLES.get(family, {}).get(cat, [])


# the families a step can come from, simplest first (the catalog's ``STEP_FAMILIES``)
FAMILY_NAMES = STEP_FAMILIES


# ---------------------------------------------------------------------------------------------
# a step: an op of a family for an operand, written by the op's ``Gen.write`` (catalog)

def _choose(ops, fe, P, force):
    ops = [o for o in ops if fe in lookup("ops." + o).frontends]
    if force is not None:
        return force if force in ops else None
    return ops[P(len(ops))] if ops else None


def _write(B: Builder, family: str, x: Value, P: Picks, force: str | None = None) -> bool:
    """Write an op of ``family`` drawn for ``x`` (``force``: that op); False where none fits."""
    op = _choose(_ops(family, x.cat), B.fe, P, force)
    if op is None:
        return False
    return GENERATED[op].write(B, op, x, P, force)


def covered_ops() -> set[str]:
    """Op names (``fd.ops.<name>``) the generators can produce."""
    return set(GENERATED)


def _step(B: Builder, family: str, P: Picks) -> None:
    x = B.vals[P(len(B.vals))]
    if not _write(B, family, x, P):
        B.op("set", (Ref(x.name),), bcast=x.bcast)


@st.composite
def _steps(draw, B: Builder, fams, max_ops: int) -> None:
    """Up to max_ops steps (at least one), each its own span of choices that starts with its
    "go on" decision, so the shrinker can delete any step whole."""
    for k in range(max_ops):
        draw(_one_step(B, fams, first=k == 0))
        if B.stop:
            break


@st.composite
def _one_step(draw, B: Builder, fams, first: bool) -> None:
    if not first and draw(st.integers(0, 5)) == 0:
        B.stop = True
        return
    fam = draw(st.sampled_from(fams))
    _step(B, fam, Picks(draw))


MAX_LEAF_OUTPUTS = 4


def _used_names(stmts) -> set[str]:
    used: set[str] = set()

    def walk(v):
        if isinstance(v, Ref):
            used.add(v.name)
        elif isinstance(v, tuple):
            for x in v:
                walk(x)
    for st_ in stmts:
        for _, v in st_.args:
            walk(v)
    return used


def _finish(B: Builder, n_inputs: int, out_picks, specs, func="nvfuser_fusion") -> Program:
    """Outputs: the last value, every other result nothing uses (up to ``MAX_LEAF_OUTPUTS`` in
    all: a dead op is removed by any compiler and tests nothing), then the drawn intermediates
    (an intermediate that escapes the fusion is what makes a segmenter work)."""
    results = B.vals[n_inputs:]
    outs = [results[-1]]
    used = _used_names(B.stmts)
    for v in reversed(results[:-1]):
        if len(outs) >= MAX_LEAF_OUTPUTS:
            break
        if v.name not in used and v not in outs:
            outs.append(v)
    for k in out_picks:
        v = results[k % len(results)]
        if v not in outs:
            outs.append(v)
    for v in outs:
        b = bind(lookup(OUTPUT), (Ref(v.name),), (), B.fe)
        B.stmts.append(Stmt((), OUTPUT, b.args, b.npos))
    return Program(B.dialect(), func, tuple(B.stmts), tuple(s.arg() for s in specs))


@st.composite
def _inputs(draw, max_inputs=3):
    first = draw(tensor_specs())
    specs = [first]
    more = draw(st.lists(st.tuples(st.booleans(), st.just(None)), max_size=max_inputs - 1))
    for independent, _ in more:
        if independent:
            specs.append(draw(tensor_specs()))
        else:
            specs.append(draw(tensor_specs(shape=first.shape)))
    return specs


@st.composite
def programs(draw, frontend=None, max_ops=12, families=None) -> Program:
    """A valid fusion program of 1..max_ops op steps (plus the scalar definitions the legacy
    frontend needs); outputs: the last value, the other unused results, up to 2 intermediates."""
    fe = frontend or draw(st.sampled_from((LEGACY, DIRECT)))
    fams = tuple(families) if families else FAMILY_NAMES
    specs = draw(_inputs())
    B = new_builder(fe)
    for s in specs:
        B.add_input(s)
    draw(_steps(B, fams, max_ops))
    out_picks = draw(st.lists(st.integers(0, 255), max_size=2))
    return _finish(B, len(specs), out_picks, specs)


def _op_dtypes(gen: Gen) -> tuple[str, ...]:
    """The input dtypes ``op_calls`` draws for an op: its ``Gen.dtypes``, or those of its categories."""
    return gen.dtypes or tuple(dt for c in gen.categories for dt in CATEGORY_DTYPES[c])


@st.composite
def op_calls(draw, name: str, frontend=None) -> Program:
    """A small program that calls ``fd.ops.<name>`` once (plus whatever the call needs: a
    condition for ``where``, define_scalar constants in the legacy frontend)."""
    if name not in GENERATED:
        raise ValueError(f"no generator for fd.ops.{name}")
    gen = GENERATED[name]
    spec = lookup("ops." + name)
    fes = [f for f in (frontend,) if f] or sorted(spec.frontends)
    fe = draw(st.sampled_from(fes))
    if fe not in spec.frontends:
        raise ValueError(f"fd.ops.{name} does not exist in {fe}")
    first = draw(tensor_specs(dtypes_=_op_dtypes(gen), min_rank=gen.min_rank))
    if gen.needs == "broadcast-dim" and not any(first.bcast):
        d = draw(st.integers(0, first.ndim - 1))
        first = TensorSpec(tuple(1 if k == d else e for k, e in enumerate(first.shape)), first.dtype,
                           tuple(True if k == d else b for k, b in enumerate(first.bcast)),
                           tuple(False if k == d else s for k, s in enumerate(first.static)),
                           first.alloc, first.loose)
    if gen.needs == "non-broadcast-dim" and all(first.bcast):
        first = TensorSpec(tuple(max(e, 2) for e in first.shape), first.dtype,
                           tuple(False for _ in first.shape), first.static, first.alloc, first.loose)
    second = draw(tensor_specs(shape=first.shape, dtypes_=(first.dtype,)))
    specs = [first, second]
    B = new_builder(fe)
    for s in specs:
        B.add_input(s)
    for _ in range(8):  # retries with other choices where an operand does not fit (rare)
        P = Picks(draw)
        x = B.vals[P(len(B.vals))]
        if _write(B, gen.step, x, P, force=name):
            break
    else:
        raise AssertionError(f"could not generate fd.ops.{name}")
    return _finish(B, len(specs), (), specs)


__all__ = ["programs", "op_calls", "covered_ops", "FAMILY_NAMES", "OP_TABLES"]
