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
* Which ops a step can write comes from the op catalog (``OpSpec.generate``: the step handler,
  the operand categories, the order among the handler's ops); this module keeps no op table.
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

from .. import dtypes
from ..ops import CATALOG, GEN_CATEGORIES, Ctx, Gen, bind, literal_value, lookup
from ..model import DEFINE_SCALAR, DEFINE_TENSOR, DIRECT, LEGACY, OUTPUT, Dialect, DType, Program, Ref, Stmt, TensorArg

FLOATS = ("Float", "Half", "BFloat16", "Double")
INTS = ("Int", "Int32")
BOOL = "Bool"
INPUT_DTYPES = FLOATS + INTS + (BOOL,)  # simplest (Float) first
CAST_DTYPES = ("Float", "Double", "Half", "BFloat16", "Int", "Int32", "Bool")

MAX_RANK = 4
MAX_EXTENT = 16

# the dtypes of each operand category of ``ops.Gen`` ("f" float, "i" int, "b" bool)
CATEGORY_DTYPES = {"f": FLOATS, "i": INTS, "b": (BOOL,)}


# ---- the op tables, derived from the catalog (``OpSpec.generate``) ----
def _generated() -> dict[str, Gen]:
    """op name -> its ``Gen``, for every ``fd.ops`` op the generator writes."""
    return {s.name: s.generate for key, s in CATALOG.items()
            if key.startswith("ops.") and s.generate is not None and s.generate.handler is not None}


def _op_tables(gens: dict[str, Gen]) -> dict[str, dict[str, list[str]]]:
    """handler -> operand category -> the ops the handler draws from for such an operand,
    simplest first (by the op's rank there, then catalog order)."""
    rows: dict[str, dict[str, list[tuple[int, int, str]]]] = {}
    for order, (name, g) in enumerate(gens.items()):
        table = rows.setdefault(g.handler, {c: [] for c in GEN_CATEGORIES})
        for c in g.categories:
            table[c].append((g.rank(c), order, name))
    return {h: {c: [name for _, _, name in sorted(r)] for c, r in t.items()} for h, t in rows.items()}


GENERATED = _generated()
OP_TABLES = _op_tables(GENERATED)


def _ops(handler: str, cat: str) -> list[str]:
    return OP_TABLES.get(handler, {}).get(cat, [])

# the families a step can come from, simplest first
FAMILY_NAMES = ("unary", "binary", "ternary", "cast", "copy", "reduction", "broadcast", "shape", "scan")


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
class _Val:
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


class _Picks:
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


class _Builder:
    def __init__(self, frontend: str):
        self.fe = frontend
        self.stmts: list[Stmt] = []
        self.vals: list[_Val] = []
        self.n = 0
        self.ctx = Ctx(device="meta", frontend=frontend)

    def _name(self, prefix: str) -> str:
        n = f"{prefix}{self.n}"
        self.n += 1
        return n

    def add_input(self, spec: TensorSpec) -> _Val:
        name = self._name("T")
        self.stmts.append(spec.declare(name, self.fe))
        meta = torch.empty_strided(spec.shape, spec.strides(), dtype=dtypes.to_torch(spec.dtype), device="meta")
        v = _Val(name, meta, spec.bcast)
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

    def const_for(self, cat: str, P: _Picks, exact: bool = False):
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

    def op(self, name: str, args=(), kwargs=(), bcast=None, n_out: int = 1, full=None) -> list[_Val]:
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
            v = _Val(nm, r, tuple(fl), full)
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


def _compatible(x: _Val, y: _Val) -> bool:
    """Operands nvFuser broadcasts together: same rank, and per dim equal extents or one side a
    broadcast of extent 1."""
    if len(x.shape) != len(y.shape):
        return False
    for a, b, fa, fb in zip(x.shape, y.shape, x.bcast, y.bcast):
        if a == b:
            continue
        if (fa and a == 1) or (fb and b == 1):
            continue
        return False
    return True


def _same_kind(x: _Val, y: _Val) -> bool:
    return x.cat == y.cat


# ---------------------------------------------------------------------------------------------
# step handlers: (builder, operand, picks, force) -> emitted?

def _choose(ops, fe, P, force):
    ops = [o for o in ops if fe in lookup("ops." + o).frontends]
    if force is not None:
        return force if force in ops else None
    return ops[P(len(ops))] if ops else None


def _partner(B: _Builder, x: _Val, P: _Picks, pred) -> _Val | None:
    cands = [v for v in B.vals if v is not x and pred(v)]
    if not cands or not P.flag(70):
        return None
    return cands[P(len(cands))]


def _h_unary(B, x, P, force=None):
    op = _choose(_ops("unary", x.cat), B.fe, P, force)
    if op is None:
        return False
    B.op(op, (Ref(x.name),))
    return True


_SHIFTS = ("bitwise_left_shift", "bitwise_right_shift")
_SHIFT_AMOUNTS = (1, 0, 2, 3)


def _h_binary(B, x, P, force=None):
    op = _choose(_ops("binary", x.cat), B.fe, P, force)
    if op is None:
        return False
    if op in _SHIFTS:
        # a shift by a negative amount or by the bit width or more is undefined in C++ and CUDA:
        # compilers legitimately disagree there (the H200 campaign found Triton and eager do), so
        # the amount is a small non-negative constant
        B.op(op, (Ref(x.name), B.const(_SHIFT_AMOUNTS[P(len(_SHIFT_AMOUNTS))])))
        return True
    y = _partner(B, x, P, lambda v: _same_kind(v, x) and _compatible(x, v))
    rhs = Ref(y.name) if y is not None else B.const_for(x.cat, P)
    if op in ("add_alpha", "sub_alpha"):
        B.op(op, (Ref(x.name), rhs, B.const_for("f", P)))
    else:
        B.op(op, (Ref(x.name), rhs))
    return True


def _h_ternary(B, x, P, force=None):
    op = _choose(_ops("ternary", x.cat), B.fe, P, force)
    if op is None:
        return False
    X = Ref(x.name)
    if op == "where":
        if x.cat == "b":
            cond = x
        else:
            cond = _partner(B, x, P, lambda v: v.cat == "b" and _compatible(x, v))
            if cond is None:
                cond = B.op("gt", (X, B.const_for(x.cat, P)))[0]
        # the other operand must broadcast with the condition too, not only with x
        y = _partner(B, x, P, lambda v: _same_kind(v, x) and _compatible(x, v) and _compatible(cond, v))
        other = Ref(y.name) if y is not None else B.const_for(x.cat, P)
        B.op("where", (Ref(cond.name), X, other))
    elif op == "clamp":
        lo, hi = (-1.0, 1.0) if x.cat == "f" else (-1, 2)
        B.op("clamp", (X, B.const(lo), B.const(hi)))
    elif op == "threshold":
        t, v = (0.5, 0.0) if x.cat == "f" else (1, 0)
        B.op("threshold", (X, B.const(t), B.const(v)))
    elif op == "lerp":
        y = _partner(B, x, P, lambda v: _same_kind(v, x) and _compatible(x, v))
        other = Ref(y.name) if y is not None else B.const(2.0)
        B.op("lerp", (X, other, B.const(0.25)))
    elif op == "addcmul":
        y = _partner(B, x, P, lambda v: _same_kind(v, x) and _compatible(x, v))
        other = Ref(y.name) if y is not None else X
        B.op("addcmul", (X, other, X, B.const(0.5)))
    return True


def _h_cast(B, x, P, force=None):
    if force not in (None, "cast"):
        return False
    to = CAST_DTYPES[P(len(CAST_DTYPES))]
    B.op("cast", (Ref(x.name),), (("dtype", DType(to)),))
    return True


def _h_copy(B, x, P, force=None):
    op = _choose(_ops("copy", x.cat), B.fe, P, force)
    if op is None:
        return False
    B.op(op, (Ref(x.name),), bcast=x.bcast)
    return True


def _h_reduction(B, x, P, force=None):
    op = _choose(_ops("reduction", x.cat), B.fe, P, force)
    if op is None:
        return False
    if GENERATED[op].dtypes and x.dtype not in GENERATED[op].dtypes:
        if force is not None:
            return False
        op = "sum"
    r = len(x.shape)
    first = P(r)
    dims = sorted({first} | {d for d in range(r) if d != first and P.flag(30)})
    keepdim = P.flag(30) if op != "welford" else False
    if r == 1 or len(dims) == r:
        if op == "welford":
            if r == 1:
                return False
            dims = dims[:-1] if len(dims) > 1 else dims
        else:
            keepdim = True if (r == 1 or len(dims) == r) else keepdim
    kept = tuple(d for d in range(r) if d not in dims)
    if keepdim:
        bc = tuple(True if d in dims else x.bcast[d] for d in range(r))
        full = None
    else:
        bc = tuple(x.bcast[d] for d in kept)
        full = (x.shape, kept)
    X = Ref(x.name)
    kw = [("dims", tuple(dims))]
    if op == "welford":
        B.op(op, (X,), kw, bcast=bc, n_out=3, full=full)
        return True
    if op in ("var", "var_mean"):
        kw.append(("correction", P(2)))
    kw.append(("keepdim", keepdim))
    B.op(op, (X,), kw, bcast=bc, n_out=2 if op == "var_mean" else 1, full=full)
    return True


def _h_scan(B, x, P, force=None):
    op = _choose(_ops("scan", x.cat), B.fe, P, force)
    if op is None:
        return False
    B.op(op, (Ref(x.name),), (("dim", P(len(x.shape))),), bcast=tuple(False for _ in x.shape))
    return True


def _h_broadcast(B, x, P, force=None):
    op = _choose(_ops("broadcast", x.cat), B.fe, P, force)
    if op is None:
        return False
    X, r = Ref(x.name), len(x.shape)
    if op == "expand":
        ones = [d for d in range(r) if x.bcast[d] and x.shape[d] == 1]
        if not ones:
            if force is not None:
                return False
            op = "broadcast_in_dim"
        else:
            shape = tuple(1 + P(8) if d in ones else -1 for d in range(r))
            B.op("expand", (X,), (("shape", shape),), bcast=x.bcast)
            return True
    if op == "broadcast_in_dim" and x.full is not None and P(4) != 3:
        # back to the shape before the reduction: the norm pattern
        full, kept = x.full
        bc = tuple(True if d not in kept else x.bcast[kept.index(d)] for d in range(len(full)))
        B.op("broadcast_in_dim", (X,), (("shape", tuple(full)), ("broadcast_dims", tuple(kept))), bcast=bc)
        return True
    n_new = min(MAX_RANK - r, P(3))
    n = r + n_new
    new = set()
    while len(new) < n_new:
        free = [d for d in range(n) if d not in new]
        new.add(free[P(len(free))])
    bdims = tuple(d for d in range(n) if d not in new)
    if op == "broadcast":
        flags = tuple(d in new for d in range(n))
        bc = []
        it = iter(x.bcast)
        for d in range(n):
            bc.append(True if d in new else next(it))
        B.op("broadcast", (X,), (("is_broadcast_dim", flags),), bcast=tuple(bc))
        return True
    shape, bc = [], []
    for d in range(n):
        if d in new:
            shape.append(1 + P(8) if P.flag(50) else 1)
            bc.append(True)
        else:
            k = bdims.index(d)
            shape.append(x.shape[k])
            bc.append(x.bcast[k])
    B.op("broadcast_in_dim", (X,), (("shape", tuple(shape)), ("broadcast_dims", bdims)), bcast=tuple(bc))
    return True


def _factor_shape(numel: int, P: _Picks) -> tuple[int, ...]:
    primes, n, f = [], numel, 2
    while n > 1:
        while n % f == 0:
            primes.append(f)
            n //= f
        f += 1
    k = 1 + P(MAX_RANK)
    out = [1] * k
    for p in primes:
        out[P(k)] *= p
    return tuple(out)


def _h_shape(B, x, P, force=None):
    op = _choose(_ops("shape", x.cat), B.fe, P, force)
    if op is None:
        return False
    X, r, shp = Ref(x.name), len(x.shape), x.shape
    if op == "permute":
        perm = tuple(P.perm(r))
        B.op("permute", (X,), (("dims", perm),), bcast=tuple(x.bcast[d] for d in perm))
    elif op == "stride_order":
        B.op("stride_order", (X,), (("stride_order", tuple(P.perm(r))),), bcast=x.bcast)
    elif op == "reshape":
        if any(b and e != 1 for b, e in zip(x.bcast, shp)):
            return False
        B.op("reshape", (X,), (("new_shape", _factor_shape(x.meta.numel(), P)),))
    elif op == "squeeze":
        ones = [d for d in range(r) if x.bcast[d] and shp[d] == 1]
        if not ones or r < 2:
            return False
        first = ones[P(len(ones))]
        dims = sorted({first} | {d for d in ones if d != first and P.flag(30)})
        if len(dims) == r:
            dims = [first]
        B.op("squeeze", (X,), (("dims", tuple(dims)),),
             bcast=tuple(x.bcast[d] for d in range(r) if d not in dims))
    elif op == "slice":
        start, end = [], []
        for d in range(r):
            e = shp[d]
            if x.bcast[d] or e == 1:
                start.append(0)
                end.append(e)
            else:
                s = P(e)
                start.append(s)
                end.append(e - P(e - s))  # never empty
        B.op("slice", (X,), (("start_indices", tuple(start)), ("end_indices", tuple(end))))
    elif op == "pad":
        k = 1 + P(r)  # pad the last k dims
        widths = []
        for d in range(r - 1, r - 1 - k, -1):
            if x.bcast[d]:
                widths += [0, 0]
            else:
                widths += [P(3), P(3)]
        args = [X, tuple(widths)]
        if P.flag(50):
            args.append(B.const_for(x.cat, P, exact=True))
        B.op("pad", tuple(args))
    elif op == "cat":
        nb = [d for d in range(r) if not x.bcast[d]]
        if not nb:
            return False
        d = nb[P(len(nb))]

        def fits(v):
            return (v.dtype == x.dtype and len(v.shape) == r and not v.bcast[d]
                    and all(v.shape[k] == shp[k] and v.bcast[k] == x.bcast[k] for k in range(r) if k != d))
        y = _partner(B, x, P, fits) or x
        bc = tuple(False if k == d else x.bcast[k] for k in range(r))
        B.op("cat", ((Ref(x.name), Ref(y.name)),), (("dim", d),), bcast=bc)
    return True


HANDLERS = {"unary": _h_unary, "binary": _h_binary, "ternary": _h_ternary, "cast": _h_cast,
            "copy": _h_copy, "reduction": _h_reduction, "broadcast": _h_broadcast, "shape": _h_shape,
            "scan": _h_scan}

def covered_ops() -> set[str]:
    """Op names (``fd.ops.<name>``) the generators can produce."""
    return set(GENERATED)


def _step(B: _Builder, family: str, P: _Picks) -> None:
    x = B.vals[P(len(B.vals))]
    if not HANDLERS[family](B, x, P):
        B.op("set", (Ref(x.name),), bcast=x.bcast)


@st.composite
def _steps(draw, B: _Builder, fams, max_ops: int) -> None:
    """Up to max_ops steps (at least one), each its own span of choices that starts with its
    "go on" decision, so the shrinker can delete any step whole."""
    for k in range(max_ops):
        draw(_one_step(B, fams, first=k == 0))
        if B.stop:
            break


@st.composite
def _one_step(draw, B: _Builder, fams, first: bool) -> None:
    if not first and draw(st.integers(0, 5)) == 0:
        B.stop = True
        return
    fam = draw(st.sampled_from(fams))
    _step(B, fam, _Picks(draw))


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


def _finish(B: _Builder, n_inputs: int, out_picks, specs, func="nvfuser_fusion") -> Program:
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
    B = _Builder(frontend)
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
        P = _Picks(draw)
        x = B.vals[P(len(B.vals))]
        if HANDLERS[gen.handler](B, x, P, force=name):
            break
    else:
        raise AssertionError(f"could not generate fd.ops.{name}")
    return _finish(B, len(specs), (), specs)


__all__ = ["TensorSpec", "tensor_specs", "programs", "op_calls", "covered_ops", "FAMILY_NAMES"]
