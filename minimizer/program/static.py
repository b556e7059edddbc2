"""Static check of a candidate: run its statements on ``meta`` tensors (no data, no script code)
with the reference interpreter. A candidate that fails here never reaches a backend; one that
passes comes back with the shape, dtype and strides of every value, which passes need to build
new inputs and find compatible operands."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch

from .. import dtypes
from ..ops import Ctx
from .interpret import FusionError, TensorFacts, run
from ..model import Program, ScalarArg, TensorArg


@dataclass
class Info:
    values: list[dict[str, Any]]                       # per statement: name -> meta tensor / scalar
    facts: dict[str, TensorFacts] = field(default_factory=dict)
    #: why the static check rejects the program (``check_partial``): ``values`` then cover the
    #: statements before the one that failed only, and passes skip what they cannot judge
    error: FusionError | None = None

    @property
    def complete(self) -> bool:
        return self.error is None

    def known(self, stmt: int) -> bool:
        """Whether the values of statement ``stmt`` are known."""
        return 0 <= stmt < len(self.values)

    def value(self, stmt: int, name: str):
        return self.values[stmt].get(name) if self.known(stmt) else None


def meta_inputs(program: Program) -> list:
    out = []
    for a in program.inputs or ():
        if isinstance(a, TensorArg):
            out.append(torch.empty_strided(a.shape, a.strides, dtype=dtypes.to_torch(a.dtype), device="meta"))
        elif isinstance(a, ScalarArg):
            out.append(a.value)
        else:
            out.append(a)
    return out



def _one_gpu(program: Program) -> None:
    """nvFuser runs a fusion on one GPU, taking a CPU tensor only as a scalar (0-dim): in a script
    whose inputs are on a GPU, a CPU input of more dims is refused before anything runs
    (``getCommonDeviceCUDA``), whatever its ``define_tensor`` says."""
    args = [a for a in program.inputs or () if isinstance(a, TensorArg)]
    if not any(a.device.startswith("cuda") for a in args):
        return
    for k, a in enumerate(program.inputs):
        if isinstance(a, TensorArg) and a.device == "cpu" and a.ndim:
            raise FusionError(f"Expected input {k} on the GPU: nvfuser only supports cuda or meta device, found: cpu "
                              f"(a CPU tensor input must be 0-dim)", "input")


def check(program: Program) -> Info:
    """Info for a well-formed program; raises FusionError (with ``stmt_index``) otherwise. Whether
    it is also well *defined* is ``validity.check``'s (which builds on this one)."""
    if program.inputs is None:
        raise FusionError("the script has no inputs list fmin can read", "input")
    _one_gpu(program)
    fe = program.dialect.frontend
    try:
        res = run(program.stmts, meta_inputs(program), frontend=fe, ctx=Ctx(device="meta", frontend=fe),
                  keep_values=True)
    except FusionError:
        raise
    except Exception as e:  # a reference that cannot run on meta: treat as ill-formed
        raise FusionError(f"{type(e).__name__}: {e}", "runtime") from e
    return Info(res.values, res.facts)


def check_partial(program: Program) -> Info:
    """``check``, for a program it rejects too: the values computed before the failing statement
    (``Info.error`` says which and why; ``Info.complete`` is False). What a reduction of an
    original fmin's reference rejects (a bad reshape, a dtype error: the most common bug report)
    still knows about its statements."""
    try:
        return check(program)
    except FusionError as e:
        part = e.partial
        if part is None:
            return Info([], {}, e)
        return Info(part.values, part.facts, e)


def is_valid(program: Program) -> bool:
    try:
        check(program)
        return True
    except FusionError:
        return False


#: what a candidate may not introduce unless the original had it (``--allow-degenerate``)
DEGENERATE = ("zero-element", "0-d", "broadcast-only")


def degenerate_features(program: Program, info: Info) -> dict[str, str]:
    """Degenerate tensors among the program's live values, by kind, each with one example:
    a zero-element tensor, a 0-d tensor, or a tensor whose every dim is a broadcast (extent 1).
    nvFuser gives such tensors segments of their own (no-op, expr_eval) that are not the
    segmentation a user asks about, so a reduction must not slip into them."""
    from .edits import live
    found: dict[str, str] = {}
    keep = live(program)
    for i, vals in enumerate(info.values):
        if i not in keep:
            continue
        for name, v in vals.items():
            if not isinstance(v, torch.Tensor):
                continue
            if v.numel() == 0:
                found.setdefault("zero-element", f"{name} {list(v.shape)}")
            elif v.dim() == 0:
                found.setdefault("0-d", name)
            elif all(d == 1 for d in v.shape):
                found.setdefault("broadcast-only", f"{name} {list(v.shape)}")
    return found
