"""Where a program's extents are written, and all of one size changed at once: input extents,
static ``define_tensor`` extents, int literals of shape lists (``broadcast_in_dim``/``expand``/
``full`` shapes, ``reshape`` shapes, ``slice`` bounds), ``iota`` lengths and the ``define_scalar``
ints that feed shape lists or vectors.

Extents that must agree meet in elementwise ops, reshapes, broadcasts, slices...; following them
exactly is not needed: ``resize`` changes every site holding one value, and the static check
rejects a program left inconsistent. The reduction shrinks shapes with it (``ShrinkShapes``), the
seeded fuzzer's ``shape`` mutation resizes with it.
"""
from __future__ import annotations

from ..model import Ref, TensorArg
from . import edits
from .declare import strides_in_order, tensor_arg

#: shape-like parameters of ops whose int entries are extents (or bounds in extents)
SHAPE_PARAMS = frozenset({"shape", "new_shape", "original_shape", "start_indices", "end_indices"})
#: scalar parameters that are extents
EXTENT_SCALARS = {"iota": ("length",)}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def sites(program) -> list[tuple]:
    """(kind, where..., value) for every extent-like integer >= 2."""
    out = []
    for k, a in enumerate(program.inputs or ()):
        if isinstance(a, TensorArg):
            out += [("arg", k, d, x) for d, x in enumerate(a.shape) if x >= 2]
    shape_users: set[str] = set()
    for i, s in enumerate(program.stmts):
        if s.is_tensor_decl and isinstance(s.arg("shape"), tuple):
            out += [("lit", i, "shape", d, x) for d, x in enumerate(s.arg("shape")) if _is_int(x) and x >= 2]
        elif s.is_vector_def and isinstance(s.arg("values"), tuple):
            vals = s.arg("values")
            out += [("lit", i, "values", d, x) for d, x in enumerate(vals) if _is_int(x) and x >= 2]
            shape_users.update(v.name for v in vals if isinstance(v, Ref))
        elif s.is_op:
            for p in SHAPE_PARAMS:
                v = s.arg(p)
                if isinstance(v, tuple):
                    out += [("lit", i, p, d, x) for d, x in enumerate(v) if _is_int(x) and x >= 2]
                    shape_users.update(r.name for r in v if isinstance(r, Ref))
            for p in EXTENT_SCALARS.get(s.op, ()):
                v = s.arg(p)
                if _is_int(v) and v >= 2:
                    out.append(("one", i, p, v))
                elif isinstance(v, Ref):
                    shape_users.add(v.name)
    for i, s in enumerate(program.stmts):
        if s.is_scalar_def and s.outs and s.outs[0] in shape_users:
            x = s.arg("value")
            if _is_int(x) and x >= 2:
                out.append(("scalar", i, x))
    return out


def extent_sum(program) -> int:
    return sum(site[-1] for site in sites(program))


def elements(program) -> int:
    return sum(a.numel() for a in program.inputs or () if isinstance(a, TensorArg))


def _resized(a: TensorArg, shape: tuple[int, ...]) -> TensorArg:
    if a.is_contiguous():
        expanded = [False] * a.ndim
        alloc = list(range(a.ndim))
    else:
        expanded = [st == 0 and sz != 1 for sz, st in zip(a.shape, a.strides)]
        alloc = sorted(range(a.ndim), key=lambda d: (-a.strides[d], d))
    return tensor_arg(shape, strides_in_order(shape, alloc, expanded), a.dtype, a.device)


def resize(program, old: int, new: int):
    """Every extent-like ``old`` becomes ``new``."""
    hits = [s for s in sites(program) if s[-1] == old]
    stmts, inputs = list(program.stmts), list(program.inputs or ())
    decl_of = {k: i for i, ks in edits.input_slots(program).items() for k in ks}
    for site in hits:
        if site[0] == "arg":
            _, k, d, _ = site
            a = inputs[k]
            shape = a.shape[:d] + (new,) + a.shape[d + 1:]
            inputs[k] = _resized(a, shape)
            decl = stmts[decl_of[k]]
            if new == 1 and a.strides[d] == 0 and isinstance(decl.arg("shape"), tuple) \
                    and len(decl.arg("shape")) == a.ndim:
                # an expanded dim of extent 1 is a plain broadcast: declare it so
                ds = decl.arg("shape")
                stmts[decl_of[k]] = decl.with_arg("shape", ds[:d] + (1,) + ds[d + 1:])
        elif site[0] == "lit":
            _, i, p, d, _ = site
            v = stmts[i].arg(p)
            stmts[i] = stmts[i].with_arg(p, v[:d] + (new,) + v[d + 1:])
        elif site[0] == "one":
            _, i, p, _ = site
            stmts[i] = stmts[i].with_arg(p, new)
        else:
            _, i, _ = site
            stmts[i] = stmts[i].with_arg("value", new)
    return program.replace(stmts=tuple(stmts), inputs=tuple(inputs) if program.inputs is not None else None)
