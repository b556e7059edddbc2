"""Variants of a program that compute the same function of the same logical inputs: the inputs
in another order (``permute_inputs``), the inputs in another memory layout (``relayout``).

A compiler may legitimately pick other kernels for such a variant, but a failure, a different
result or a different segmentation is worth a look: ``--order-dependent``, ``--layout-dependent``
and the fuzzer's metamorphic oracles run them. Nothing here runs anything.

Inputs declared in the 2022 ``contiguous=``/``sizes=`` styles, with ``False`` contiguity flags,
expanded dims or a ``stride_order`` already are left alone by ``relayout``: their layout is the
script's point.
"""
from __future__ import annotations

from ..model import Program, TensorArg, is_input_decl
from .edits import input_arg, replace_input


def input_names(program: Program) -> list[str]:
    """The declared input names, in definition order."""
    return [s.outs[0] if s.outs and s.outs[0] else f"<input {k}>" for k, s in enumerate(program.input_stmts())]


def permute_inputs(program: Program, perm) -> Program:
    """The program with its input declarations in the order ``perm`` (new position k holds the
    declaration that was k-th in ``perm[k]``), moved together to the top of the body, the other
    statements in their order, and the ``inputs`` list reordered to match. Declarations use no
    values, so the program stays well formed and computes the same thing."""
    decl_idx = [i for i, s in enumerate(program.stmts) if is_input_decl(s)]
    perm = list(perm)
    if sorted(perm) != list(range(len(decl_idx))):
        raise ValueError(f"not a permutation of {len(decl_idx)} inputs: {perm}")
    decls = [program.stmts[i] for i in decl_idx]
    rest = [s for i, s in enumerate(program.stmts) if not is_input_decl(s)]
    names = [n for s in decls for n in s.outs if n]
    for s in rest:   # a name bound by a non-declaration before its declaration would be shadowed
        if any(n in names for n in s.outs if n):
            early = [n for n in s.outs if n in names]
            raise ValueError(f"input name {early[0]} is also bound by another statement; cannot reorder")
    stmts = tuple(decls[k] for k in perm) + tuple(rest)
    inputs = program.inputs
    if inputs is not None:
        slots, k = [], 0
        for s in decls:
            n = s.arg("values") if s.is_vector_def else 1
            slots.append(list(range(k, k + n)))
            k += n
        if k != len(inputs):
            raise ValueError(f"{len(inputs)} values in the inputs list for {k} declared inputs")
        inputs = tuple(inputs[j] for p in perm for j in slots[p])
    return program.replace(stmts=stmts, inputs=inputs)


def _swapped_alloc(rank: int) -> tuple[int, ...]:
    return tuple(range(rank - 2)) + (rank - 1, rank - 2)


def _strides(shape, alloc) -> tuple[int, ...]:
    out, acc = [0] * len(shape), 1
    for d in reversed(alloc):
        out[d] = acc
        acc *= max(shape[d], 1)
    return tuple(out)


def _relayout_one(s, a: TensorArg):
    shape, contig = s.arg("shape"), s.arg("contiguity")
    if (not s.is_tensor_decl or not isinstance(shape, tuple) or s.has("sizes") or s.has("contiguous")
            or s.arg("stride_order") is not None or not isinstance(contig, tuple)):
        return None
    n = a.ndim
    if n < 2 or len(shape) != n or len(contig) != n or any(c is False for c in contig) or not a.is_contiguous():
        return None
    if any(st == 0 and sz != 1 for sz, st in zip(a.shape, a.strides)):
        return None
    if a.shape[-1] == 1 or a.shape[-2] == 1:   # swapping with a size-1 dim changes nothing
        return None
    if a.dtype.startswith("Float4"):   # packed: the innermost dim is the one twice as long in the fusion
        return None
    alloc = _swapped_alloc(n)
    order = [0] * n
    for pos, d in enumerate(alloc):
        order[d] = n - 1 - pos
    bcast = [shape[d] == 1 for d in range(n)]
    new_contig = tuple(None if bcast[d] else True for d in alloc)
    stmt = s.with_arg("contiguity", new_contig).with_arg("stride_order", tuple(order))
    return stmt, TensorArg(a.shape, _strides(a.shape, alloc), a.dtype, a.device)


def relayout(program: Program) -> tuple[Program, list[str]] | None:
    """The program with every eligible input in the swapped layout, and the names changed; None
    if no input is eligible."""
    changed = []
    for i, s in enumerate(program.stmts):
        if not is_input_decl(s):
            continue
        a = input_arg(program, i)
        if not isinstance(a, TensorArg):
            continue
        r = _relayout_one(s, a)
        if r is None:
            continue
        program = replace_input(program, i, *r)
        changed.append(s.outs[0] if s.outs else f"<input {i}>")
    return (program, changed) if changed else None
