"""``grouped_mm``: one matmul per group of a split extent, the groups given by cumulative ends.

nvFuser's ``GroupedMmaOp`` evaluates ``at::_grouped_mm(mat1, mat2, offsets)`` and casts the result
to its output dtype (``mat1``'s: the three-argument binding passes no ``dtype``). The three forms
its definition accepts (``createGroupedMmaOutput``), ``offsets`` ``[g]`` Int32 holding each group's
end along the split extent (group ``i`` is ``[offsets[i-1], offsets[i])``, ``offsets[-1]`` = 0):

* ``[m, k] @ [g, k, n]`` -> ``[m, n]``: the offsets split ``m``, rows of group ``i`` times ``mat2[i]``;
* ``[g, m, k] @ [k, n]`` -> ``[m, n]``: the offsets split ``n``, columns of group ``i`` are
  ``mat1[i]`` times those columns of ``mat2``;
* ``[m, k] @ [k, n]`` -> ``[g, m, n]``: the offsets split ``k``, ``out[i]`` sums over group ``i``'s ``k``.

Two 3-D operands are refused, as nvFuser refuses them ("you should use bmm/matmul"). The reference
accumulates in Float (Double in the fp64 reference) like ATen's kernels and rounds once to the
output dtype. On real tensors it computes one matmul per group's slice (``by_group``); on ``meta``
tensors and while tracing (``program/torch_code.py``, Inductor), where the offsets' values cannot
be read, the same with ``searchsorted`` and ``gather`` (``vectorised``).

What the op computes rests on the values of ``offsets``: ATen leaves the rows (columns) past the
last offset unwritten, and decreasing offsets have no meaning. ``OFFSETS`` (a ``ValueParam``) says
what is valid — non-decreasing, from 0, the last equal to the split extent, and no empty group
where they split ``k`` (whether a kernel writes zeros for an empty ``k`` is not ATen's promise) —
and how a fusion input read there is written (the extent split evenly): the value rule
``grouped-mm-offsets`` of ``program.validity`` judges every real run.

The scaled binding (``scale1``, ``scale2``, ``alpha``, ``bias``, ``beta``, ``dtype``, block-scaled
outputs; it returns three values) is not modelled: block-scaled grouped GEMMs have no plain torch
equivalent here, so a script calling it fails to bind ("takes at most 3 positional arguments").
"""
from __future__ import annotations

import torch

from .dims import NOT_FOLLOWED
from .registry import register
from .spec import OpSpec, Param, ValueParam, not_generated, values_readable

#: what each form's offsets split: mat1's rows, mat2's columns, or the shared k
ROWS, COLS, K = "m", "n", "k"


def form(mat1, mat2, offsets) -> tuple[str, int, tuple[int, ...]]:
    """(what the offsets split, that extent, the output shape) of ``grouped_mm(mat1, mat2,
    offsets)``; ValueError for operands nvFuser or ATen refuse."""
    if offsets.ndim != 1:
        raise ValueError(f"grouped_mm: offsets needs to be 1-D, got {list(offsets.shape)}")
    if offsets.dtype != torch.int32:
        raise ValueError(f"grouped_mm: offsets must be Int32, got {offsets.dtype}")
    g = offsets.shape[0]
    if g == 0:
        raise ValueError("grouped_mm: offsets names no group")
    if mat1.dtype != mat2.dtype or not mat1.dtype.is_floating_point:
        raise ValueError(f"grouped_mm needs floating operands of one dtype, got {mat1.dtype} and {mat2.dtype}")
    if mat1.ndim < 2 or mat2.ndim < 2 or mat1.shape[-1] != mat2.shape[-2]:
        raise ValueError(f"grouped_mm: expected [.., k] @ [.., k, n], got {list(mat1.shape)} @ {list(mat2.shape)}")
    ranks = (mat1.ndim, mat2.ndim)
    if ranks == (2, 3) and mat2.shape[0] == g:
        return ROWS, mat1.shape[0], (mat1.shape[0], mat2.shape[2])
    if ranks == (3, 2) and mat1.shape[0] == g:
        return COLS, mat2.shape[1], (mat1.shape[1], mat2.shape[1])
    if ranks == (2, 2):
        return K, mat1.shape[1], (g, mat1.shape[0], mat2.shape[1])
    if ranks in ((2, 3), (3, 2)):
        raise ValueError(f"grouped_mm: {g} offsets for {list(mat1.shape)} @ {list(mat2.shape)}: the 3-D "
                         f"operand's first extent is the group count")
    raise ValueError(f"grouped_mm: unexpected operand ranks {list(mat1.shape)} @ {list(mat2.shape)} (2-D and "
                     f"3-D, 3-D and 2-D, or two 2-D; two 3-D tensors are bmm/matmul)")


def _group_of(offsets, extent: int):
    """The group of each index along the split extent: ``g`` past the last offset."""
    pos = torch.arange(extent, dtype=offsets.dtype, device=offsets.device)
    return torch.searchsorted(offsets.contiguous(), pos, right=True)


def _grouped_mm(ctx, mat1, mat2, offsets):
    kind, extent, shape = form(mat1, mat2, offsets)
    acc = torch.promote_types(mat1.dtype, torch.float32)
    a, b = mat1.to(acc), mat2.to(acc)
    if values_readable(offsets):
        return by_group(kind, a, b, offsets, extent, shape).to(mat1.dtype)
    return vectorised(kind, a, b, offsets, extent).to(mat1.dtype)


def by_group(kind: str, a, b, offsets, extent: int, shape):
    """One matmul per group on the groups' slices: each element computed once (a real MoE's many
    groups cost no more than one matmul). Offsets outside ``[0, extent]`` are clamped there and a
    group that would end before it starts is empty: what broken offsets give is still a value,
    which the value rule keeps from being judged."""
    ends = [min(max(int(e), 0), extent) for e in offsets.tolist()]
    starts = [0] + ends[:-1]
    spans = [(s, max(s, e)) for s, e in zip(starts, ends)]
    if kind == K:
        return torch.stack([a[:, s:e] @ b[s:e] for s, e in spans])
    out = a.new_zeros(shape)
    for i, (s, e) in enumerate(spans):
        if kind == ROWS:
            out[s:e] = a[s:e] @ b[i]
        else:
            out[:, s:e] = a[i] @ b[:, s:e]
    return out


def vectorised(kind: str, a, b, offsets, extent: int):
    """The same without reading the offsets' values (``searchsorted`` and ``gather``), for
    ``meta`` tensors and tracing; every group's product of the whole operand, then each element
    taken from its own group's (``g`` times the work: only where nothing runs)."""
    g = offsets.shape[0]
    gid = _group_of(offsets, extent)
    if kind == K:
        member = gid.unsqueeze(0) == torch.arange(g, device=gid.device).unsqueeze(1)     # [g, k]
        return torch.matmul(torch.where(member.unsqueeze(1), a.unsqueeze(0), 0),
                            torch.where(member.unsqueeze(2), b.unsqueeze(0), 0))
    every = torch.matmul(a.unsqueeze(0), b) if kind == ROWS else torch.matmul(a, b)      # [g, m, n]
    m, n = every.shape[1:]
    at = gid.clamp(max=g - 1)
    index = at.view(1, m, 1).expand(1, m, n) if kind == ROWS else at.view(1, 1, n).expand(1, m, n)
    out = every.gather(0, index).squeeze(0)
    covered = (gid < g).view(m, 1) if kind == ROWS else (gid < g).view(1, n)
    return torch.where(covered, out, 0)


def _even_offsets(args: dict) -> tuple[int, ...]:
    """The split extent cut into ``g`` groups of (nearly) one size: valid offsets for any extent
    of at least ``g`` (``k``'s groups must not be empty)."""
    _, extent, _ = form(args["mat1"], args["mat2"], args["offsets"])
    g = args["offsets"].shape[0]
    return tuple((i + 1) * extent // g for i in range(g))


def _offsets_problem(args: dict) -> str | None:
    """What is wrong with the offsets' values (None: valid); nothing to say on ``meta`` tensors."""
    offsets = args["offsets"]
    if offsets.device.type == "meta":
        return None
    kind, extent, _ = form(args["mat1"], args["mat2"], offsets)
    ends = [int(x) for x in offsets.tolist()]
    starts = [0] + ends[:-1]
    if any(e < s for s, e in zip(starts, ends)):
        return f"offsets {ends} decrease or start below 0"
    if ends[-1] != extent:
        return f"offsets {ends} end at {ends[-1]}, not at the split extent {kind} = {extent}"
    if kind == K and any(e == s for s, e in zip(starts, ends)):
        return f"offsets {ends} leave a group of k empty"
    return None


OFFSETS = ValueParam("offsets", "grouped-mm-offsets", make=_even_offsets, problem=_offsets_problem)

register(OpSpec("grouped_mm", "matmul", (Param("mat1", "tensor"), Param("mat2", "tensor"), Param("offsets", "tensor")),
                ref=_grouped_mm, value_params=(OFFSETS,), dim_rule=NOT_FOLLOWED, tags=frozenset({"group-offsets", "host-evaluated"}),
                generate=not_generated("its offsets must fit the operands' extents, which the generator does not make"),
                doc="at::_grouped_mm(mat1, mat2, offsets): a matmul per group of the extent the offsets split"))
