"""Plain layouts (cosmetic): inputs become row-major and contiguous, so that a reader need not
wonder whether strides matter. Per input: ``stride_order`` goes, contiguity is True (None at
broadcast dims), the ``TensorArg`` gets row-major strides. Expanded broadcast dims (stride 0,
contiguity None) are kept in one variant and in another become plain extent-1 broadcasts, which
also shrinks the input. All inputs at once first, then one at a time, the stronger variant
before the weaker.
"""
from __future__ import annotations

from ...program.interpret import _alloc_dims
from .base import Candidates, Pass
from ...model import TensorArg
from ...program.declare import plain_strides, tensor_arg
from .common import input_decls
from ...program.edits import input_arg, replace_input


def _dims(s, a: TensorArg):
    """(declared extent-1 dims, expanded dims) of a ``shape=``-style declaration, or None."""
    shape = s.arg("shape")
    if not s.is_tensor_decl or not isinstance(shape, tuple) or len(shape) != a.ndim or s.has("sizes"):
        return None
    one = [shape[d] == 1 for d in range(a.ndim)]
    c = s.arg("contiguity")
    expanded = [False] * a.ndim
    if isinstance(c, tuple) and len(c) == a.ndim:
        alloc = _alloc_dims(s.arg("stride_order") or (), a.ndim)
        for pos, flag in enumerate(c):
            d = alloc[pos]
            if flag is None and not one[d] and a.strides[d] == 0:
                expanded[d] = True
    return one, expanded


def plain(s, a: TensorArg, flatten_expanded: bool):
    """The plain declaration and ``TensorArg`` of one input, or None."""
    dims = _dims(s, a)
    if dims is None:
        return None
    one, expanded = dims
    shape = list(a.shape)
    decl = list(s.arg("shape"))
    if flatten_expanded:
        for d in range(a.ndim):
            if expanded[d]:
                shape[d], decl[d], one[d], expanded[d] = 1, 1, True, False
    new = s.with_arg("shape", tuple(decl)).without_arg("stride_order")
    if s.has("contiguous") and not s.has("contiguity"):
        if any(expanded):
            return None
        new = new.with_arg("contiguous", tuple(True for _ in shape))
    else:
        new = new.with_arg("contiguity", tuple(None if one[d] or expanded[d] else True for d in range(a.ndim)))
    arg = tensor_arg(shape, plain_strides(shape, expanded), a.dtype, a.device)
    return new, arg


def input_cost(s, a: TensorArg) -> int:
    """Non-plain layout facts of one input: a non-identity ``stride_order``, each False
    contiguity flag, non-row-major strides."""
    n = 0
    order = s.arg("stride_order")
    if order and tuple(order) != tuple(range(a.ndim - 1, -1, -1)):
        n += 1
    for key in ("contiguity", "contiguous"):
        c = s.arg(key)
        if isinstance(c, tuple):
            n += sum(1 for f in c if f is False)
        elif c is False:
            n += 1
    dims = _dims(s, a)
    expanded = dims[1] if dims is not None else [st == 0 and sz != 1 for sz, st in zip(a.shape, a.strides)]
    if tuple(a.strides) != plain_strides(a.shape, expanded) and not a.is_contiguous():
        n += 1
    return n


def cost(program) -> int:
    """``input_cost`` summed over the tensor inputs: what this pass brings to 0."""
    n = 0
    for i in input_decls(program):
        a = input_arg(program, i)
        if isinstance(a, TensorArg):
            n += input_cost(program.stmts[i], a)
    return n


def apply(program, decls: list[int], flatten_expanded: bool):
    """Plain layouts for the inputs in ``decls`` whose layout is not plain already (or that
    shrink by flattening)."""
    for i in decls:
        a, s = input_arg(program, i), program.stmts[i]
        if not isinstance(a, TensorArg):
            continue
        p = plain(s, a, flatten_expanded)
        if p is not None and (input_cost(*p) < input_cost(s, a) or p[1].numel() < a.numel()):
            program = replace_input(program, i, *p)
    return program


class PlainLayouts(Pass):
    name = "plain-layouts"
    cosmetic = True

    def candidates(self, program, info, start=0) -> Candidates:
        decls = [i for i in input_decls(program) if isinstance(input_arg(program, i), TensorArg)]
        plans = [(decls, True), (decls, False)] if len(decls) > 1 else []
        plans += [([i], flat) for i in decls for flat in (True, False)]
        seen = {program}
        for pos, (ds, flat) in enumerate(plans):
            if pos < start:
                continue
            cand = apply(program, ds, flat)
            if cand not in seen:
                seen.add(cand)
                yield pos, cand
