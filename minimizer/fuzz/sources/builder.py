"""The program a generator is building (``Builder``: its statements and ``Value``s) and the
choices every step draws from (``Picks``): what an op's ``Gen.write`` (``OpSpec.generate``, in the
catalog) works with.

Shapes and dtypes of every value are computed on ``meta`` tensors with the catalog's own
references while building, so dtype promotion is never guessed. Broadcasting follows nvFuser's
rule (``interpret.py``): a dim broadcasts only if declared with extent 1 or made by a broadcast op
or keepdim reduction; the builder tracks those flags conservatively and pairs operands only when
every dim has equal extents or one side is a broadcast of extent 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
from hypothesis import strategies as st

from ... import dtypes
from ...ops import Ctx, bind, literal_value, lookup
from ...model import DEFINE_SCALAR, DIRECT, Dialect, DType, Ref, Stmt
from .specs import MAX_RANK, TensorSpec


def _cat(dtype: str) -> str:
    return {"float": "f", "bool": "b"}.get(dtypes.category(dtype), "i")


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


def new_builder(frontend) -> Builder:
    """An empty ``Builder`` for ``frontend``: no constants yet, not stopped."""
    B = Builder(frontend)
    B._consts = {}
    B.stop = False
    return B

