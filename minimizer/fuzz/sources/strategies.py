"""Hypothesis strategies that generate fusion programs as fmin ``Program`` values.

Design (see docs/inductor-and-fuzzers.md §4):

* A program is its input declarations plus a sequence of *steps* (at least one, at most
  ``max_ops``). Each step is one span of choices: a "go on" draw, a family, then the choices the
  family needs, each ``integers(0, n - 1)`` over what is legal right now (an operand index among
  the values so far, a dim, a dtype ...). Every choice is legal for the current state, so every
  program is valid by construction (no ``assume``/``filter``), and the shrinker can delete whole
  steps or lower choices towards 0 (= the simplest alternative: the earliest value, the first op
  of the family, no keepdim, ...).
* No tensor values are drawn: inputs are ``TensorArg`` specs; the printed script builds them with
  ``torch.testing.make_tensor`` (or ``randn(...).as_strided`` for permuted layouts).
* Which ops a step can write, and how each is written, comes from the op catalog
  (``OpSpec.generate``: the step family, the operand categories, the order among the family's
  ops, and ``Gen.write``, defined beside the op): this module keeps no op table and no per-op
  branch. It provides what a writer works with: the ``Builder`` of the program, its ``Value``s,
  and the ``Picks`` every choice is drawn from.
* Shapes and dtypes of every value are computed on ``meta`` tensors with the catalog's own
  references while building, so dtype promotion is never guessed.
* Broadcasting follows nvFuser's rule (interpret.py): a dim broadcasts only if declared with
  extent 1 or made by a broadcast op / keepdim reduction. The builder tracks those flags
  conservatively and pairs operands only when every dim has equal extents or one side is a
  broadcast of extent 1.

Legacy programs (``nvfuser``) define every constant with ``define_scalar``; direct ones
(``nvfuser_direct``) write numbers inline.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
from hypothesis import strategies as st

from ... import dtypes
from ...ops import CATALOG, GEN_CATEGORIES, Ctx, Gen, bind, literal_value, lookup
from ...ops.spec import STEP_FAMILIES
from ...model import DEFINE_SCALAR, DEFINE_TENSOR, DIRECT, LEGACY, OUTPUT, Dialect, DType, Program, Ref, Stmt, TensorArg

FLOATS = ("Float", "Half", "BFloat16", "Double")
INTS = ("Int", "Int32")
BOOL = "Bool"
INPUT_DTYPES = FLOATS + INTS + (BOOL,)  # simplest (Float) first

MAX_RANK = 4
MAX_EXTENT = 16

# the dtypes of each operand category of ``ops.Gen`` ("f" float, "i" int, "b" bool)
CATEGORY_DTYPES = {"f": FLOATS, "i": INTS, "b": (BOOL,)}


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


def _cat(dtype: str) -> str:
    return {"float": "f", "bool": "b"}.get(dtypes.category(dtype), "i")


# ---------------------------------------------------------------------------------------------
# input declarations

@dataclass(frozen=True)
class TensorSpec:
    """One fusion input: how it is declared and the concrete tensor that is passed for it."""
    shape: tuple[int, ...]       # concrete extents
    dtype: str                   # nvFuser DataType name
    bcast: tuple[bool, ...]      # declared broadcast (extent 1, declared 1, contiguity None)
    static: tuple[bool, ...]     # extent written in the declaration instead of -1
    alloc: tuple[int, ...]       # logical dims from outermost to innermost allocation position
    loose: tuple[bool, ...]      # per allocation position: contiguity False (no claim) instead of True

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def strides(self) -> tuple[int, ...]:
        st_ = [0] * self.ndim
        acc = 1
        for d in reversed(self.alloc):
            st_[d] = acc
            acc *= max(self.shape[d], 1)
        return tuple(st_)

    def stride_order(self) -> tuple[int, ...] | None:
        if list(self.alloc) == list(range(self.ndim)):
            return None
        order = [0] * self.ndim
        for pos, d in enumerate(self.alloc):
            order[d] = self.ndim - 1 - pos
        return tuple(order)

    def declared_shape(self) -> tuple[int, ...]:
        return tuple(1 if b else (e if s else -1) for e, b, s in zip(self.shape, self.bcast, self.static))

    def contiguity(self) -> tuple[bool | None, ...]:
        return tuple(None if self.bcast[d] else (not self.loose[pos]) for pos, d in enumerate(self.alloc))

    def declare(self, name: str, frontend: str = LEGACY) -> Stmt:
        kw = [("shape", self.declared_shape()), ("contiguity", self.contiguity()),
              ("dtype", DType(self.dtype)), ("is_cpu", False)]
        order = self.stride_order()
        if order is not None:
            kw.append(("stride_order", order))
        b = bind(lookup(DEFINE_TENSOR), (), tuple(kw), frontend)
        return Stmt((name,), DEFINE_TENSOR, b.args, b.npos)

    def arg(self) -> TensorArg:
        return TensorArg(self.shape, self.strides(), self.dtype, "cuda")


@st.composite
def tensor_specs(draw, shape=None, dtypes_=INPUT_DTYPES, min_rank=1, max_rank=MAX_RANK,
                 max_extent=MAX_EXTENT) -> TensorSpec:
    """A tensor input declaration. ``shape`` (optional) fixes the extents; dims of extent 1
    may then become declared broadcasts, and other dims may be turned into broadcasts too."""
    if shape is None:
        rank = draw(st.integers(min_rank, max_rank))
        shape = tuple(draw(st.integers(1, max_extent)) for _ in range(rank))
        ones = tuple(e == 1 for e in shape)
    else:
        shape = tuple(shape)
        # a dim of the base shape may be declared a broadcast (extent 1) in this input
        ones = tuple(draw(st.booleans()) if len(shape) > 1 else False for _ in shape)
        shape = tuple(1 if o else e for e, o in zip(shape, ones))
    rank = len(shape)
    dtype = draw(st.sampled_from(dtypes_))
    bcast, static = [], []
    for e, o in zip(shape, ones):
        # extent 1: declared broadcast unless drawn as symbolic (-1 with runtime extent 1)
        b = e == 1 and not draw(st.booleans()) if not o else True
        bcast.append(b)
        static.append(False if (b or e == 1) else draw(st.booleans()))
    permuted = draw(st.booleans())
    alloc = tuple(draw(st.permutations(range(rank)))) if permuted and rank > 1 else tuple(range(rank))
    loose = tuple(draw(st.integers(0, 9)) == 9 for _ in range(rank))
    return TensorSpec(shape, dtype, tuple(bcast), tuple(static), alloc, loose)


# ---------------------------------------------------------------------------------------------
# the builder

@dataclass
class Value:
    name: str
    meta: Any                    # meta tensor
    bcast: tuple[bool, ...]      # dims that are broadcasts in nvFuser's IR (conservative)
    full: tuple | None = None    # (shape before reduction, kept dims) of a keepdim=False reduction

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.meta.shape)

    @property
    def dtype(self) -> str:
        return dtypes.from_torch(self.meta.dtype)

    @property
    def cat(self) -> str:
        return _cat(self.dtype)

    def broadcasts_with(self, other: "Value") -> bool:
        """Operands nvFuser broadcasts together: same rank, and per dim equal extents or one side
        a broadcast of extent 1."""
        if len(self.shape) != len(other.shape):
            return False
        for a, b, fa, fb in zip(self.shape, other.shape, self.bcast, other.bcast):
            if a == b:
                continue
            if (fa and a == 1) or (fb and b == 1):
                continue
            return False
        return True


class Picks:
    """Choices drawn as they are needed, each ``integers(0, n - 1)`` (0 = the simplest choice).
    Built on a ``draw`` function, or on a fixed list of integers (read modulo n)."""

    def __init__(self, draw=None, ints=()):
        self.draw, self.ints, self.i = draw, list(ints), 0

    def __call__(self, n: int) -> int:
        if n <= 1:
            return 0
        if self.draw is not None:
            return self.draw(st.integers(0, n - 1))
        v = self.ints[self.i] if self.i < len(self.ints) else 0
        self.i += 1
        return v % n

    def flag(self, pct: int = 50) -> bool:
        return self(100) >= 100 - pct

    def perm(self, n: int) -> list[int]:
        rest, out = list(range(n)), []
        while rest:
            out.append(rest.pop(self(len(rest))))
        return out


_FLOAT_CONSTS = (1.0, 0.5, 2.0, 0.0, -1.0, 3.0)
_INT_CONSTS = (1, 2, 0, 3, -1)


class Builder:
    """The program being generated: its statements and values; what ``Gen.write`` appends to."""
    max_rank = MAX_RANK

    def __init__(self, frontend: str):
        self.fe = frontend
        self.stmts: list[Stmt] = []
        self.vals: list[Value] = []
        self.n = 0
        self.ctx = Ctx(device="meta", frontend=frontend)

    def _name(self, prefix: str) -> str:
        n = f"{prefix}{self.n}"
        self.n += 1
        return n

    def add_input(self, spec: TensorSpec) -> Value:
        name = self._name("T")
        self.stmts.append(spec.declare(name, self.fe))
        meta = torch.empty_strided(spec.shape, spec.strides(), dtype=dtypes.to_torch(spec.dtype), device="meta")
        v = Value(name, meta, spec.bcast)
        self.vals.append(v)
        return v

    # a constant: a define_scalar in the legacy frontend, a Python number in the direct one
    # (``scalar``: a define_scalar there too)
    def const(self, value, dtype: str | None = None, scalar: bool = False):
        if self.fe == DIRECT and not scalar:
            return value
        if dtype is None:
            dtype = "Bool" if isinstance(value, bool) else "Int" if isinstance(value, int) else "Double"
        name = self._name("S")
        b = bind(lookup(DEFINE_SCALAR), (value,), (("dtype", DType(dtype)),), self.fe)
        self.stmts.append(Stmt((name,), DEFINE_SCALAR, b.args, b.npos))
        self._consts[name] = value
        return Ref(name)

    _consts: dict

    def partner(self, x: Value, P: Picks, pred) -> Value | None:
        """An earlier value other than ``x`` that ``pred`` accepts (drawn: often, not always), or
        None."""
        cands = [v for v in self.vals if v is not x and pred(v)]
        if not cands or not P.flag(70):
            return None
        return cands[P(len(cands))]

    def const_for(self, cat: str, P: Picks, exact: bool = False):
        """A constant of category ``cat``. ``exact``: one whose dtype must be of that category
        (a pad value): the direct frontend types a Python bool as Int64 (``literal_value``), so
        a Bool constant there is a define_scalar."""
        if cat == "f":
            return self.const(_FLOAT_CONSTS[P(len(_FLOAT_CONSTS))])
        if cat == "i":
            return self.const(_INT_CONSTS[P(len(_INT_CONSTS))])
        return self.const(bool(P(2) == 0), scalar=exact)

    def _resolve(self, v):
        if isinstance(v, Ref):
            if v.name in self._consts:
                return self._consts[v.name]
            return self._by_name[v.name].meta
        if isinstance(v, DType):
            return v.name
        if isinstance(v, tuple):
            return tuple(self._resolve(x) for x in v)
        return v

    def op(self, name: str, args=(), kwargs=(), bcast=None, n_out: int = 1, full=None) -> list[Value]:
        """Append ``outs = fd.ops.<name>(*args, **kwargs)``; returns the new values (also
        recorded). ``bcast``: the output's broadcast flags (default: none; for elementwise ops,
        computed from the operands)."""
        spec = lookup("ops." + name)
        b = bind(spec, tuple(args), tuple(kwargs), self.fe)
        names = tuple(self._name("T") for _ in range(n_out))
        stmt = Stmt(names, "ops." + name, b.args, b.npos, tuple_target=n_out > 1)
        given = dict(b.args)
        kw = {p.name: (literal_value(p, given[p.name], self._resolve(given[p.name]), self.fe)
                       if p.name in given else p.default)
              for p in spec.params_for(self.fe)}
        res = spec.ref(self.ctx, **kw)
        res = tuple(res) if n_out > 1 else (res,)
        self.stmts.append(stmt)
        out = []
        for nm, r in zip(names, res):
            if spec.elementwise and bcast is None:
                by = self._by_name
                ops = [by[x.name] for x in b_refs(b.args) if x.name in by]
                fl = _elementwise_bcast([(o.shape, o.bcast) for o in ops], r.ndim)
            else:
                fl = bcast if bcast is not None else tuple(False for _ in range(r.ndim))
            v = Value(nm, r, tuple(fl), full)
            self.vals.append(v)
            out.append(v)
        return out

    @property
    def _by_name(self):
        return {v.name: v for v in self.vals}

    def dialect(self) -> Dialect:
        return Dialect(self.fe, self.fe)


def b_refs(args):
    out = []
    for _, v in args:
        if isinstance(v, Ref):
            out.append(v)
        elif isinstance(v, tuple):
            out.extend(x for x in v if isinstance(x, Ref))
    return out


def _elementwise_bcast(operands, rank) -> tuple[bool, ...]:
    flags = []
    for d in range(rank):
        all_b = True
        for shape, b in operands:
            k = d - (rank - len(shape))
            if k >= 0 and not b[k]:
                all_b = False
        flags.append(all_b)
    return tuple(flags)


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


def _new_builder(frontend):
    B = Builder(frontend)
    B._consts = {}
    B.stop = False
    return B




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
    B = _new_builder(fe)
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
    B = _new_builder(fe)
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


__all__ = ["TensorSpec", "tensor_specs", "programs", "op_calls", "covered_ops", "FAMILY_NAMES", "Builder", "Value",
           "Picks"]
