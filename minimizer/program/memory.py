"""How much memory a run of a program needs, estimated from its static check on ``meta``
tensors (nothing is allocated, nothing of the script runs).

The reference interpreter frees each value after its last use (``interpret.last_uses``), so its
peak is the largest live set: the script's inputs (its ``inputs`` list holds them for the whole
run) plus, at each statement, the intermediates still to be read, the statement's results, and
the Float copies nvFuser's typing rule makes of Half/BFloat16 operands while the op computes.
Values are counted by storage, so views (reshape, permute, broadcast, slices) cost nothing
beyond what they view. The fp64 variant (``--mismatch``'s exact reference) is the same walk over
the program computed in float64 (its inputs upcast: copies held while read). A fused backend
(nvFuser, Inductor) keeps intermediates in registers where it fuses: it needs at least its
inputs and outputs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from ..model import Program, Ref, is_input_decl
from .interpret import last_uses

_LOW = (torch.float16, torch.bfloat16)


@dataclass(frozen=True)
class Estimate:
    peak: int                       # bytes a reference run needs at its peak
    inputs: int                     # bytes of the inputs
    outputs: int                    # bytes of the fusion's outputs
    largest: tuple[str, tuple[int, ...], str, int] | None   # (name, shape, dtype, bytes) of the largest input

    @property
    def fused(self) -> int:
        """What a fusing compiler needs at least: its inputs and outputs."""
        return self.inputs + self.outputs

    def largest_words(self) -> str:
        if self.largest is None:
            return "no tensor inputs"
        name, shape, dtype, n = self.largest
        return f"the largest input {name} is {list(shape)} {dtype}, {human(n)}"


def human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def _storage(t: torch.Tensor) -> tuple[int, int]:
    s = t.untyped_storage()
    return s._cdata, s.nbytes()


def _tensors(v: Any):
    if isinstance(v, torch.Tensor):
        yield v
    elif isinstance(v, (tuple, list)):
        for x in v:
            yield from _tensors(x)


def estimate(program: Program, values: list[dict[str, Any]]) -> Estimate:
    """The reference's peak for ``program``, whose statements' values (meta tensors, per
    statement, as ``static.check`` or ``interpret.run(keep_values=True)`` gives them) are
    ``values``. Statements past ``len(values)`` (a program the check rejects) are not counted."""
    stmts = program.stmts[:len(values)]
    frees = last_uses(program.stmts)
    held: dict[int, int] = {}          # storages the script holds all along (its inputs)
    largest = None
    outputs_bytes = 0
    out_names = {s.arg("output").name for s in program.stmts
                 if s.is_output and isinstance(s.arg("output"), Ref)}
    for i, s in enumerate(stmts):
        if is_input_decl(s):
            for name, v in values[i].items():
                for t in _tensors(v):
                    key, n = _storage(t)
                    held[key] = n
                    if largest is None or n > largest[3]:
                        largest = (name, tuple(t.shape), str(t.dtype).removeprefix("torch."), n)
    base = sum(held.values())
    live: dict[str, list[tuple[int, int]]] = {}   # name -> its storages (the live intermediates)
    peak = base
    for i, s in enumerate(stmts):
        for name, v in values[i].items():
            live[name] = [_storage(t) for t in _tensors(v)]
            if name in out_names:
                outputs_bytes += sum(n for _, n in live[name])
        transient = 0
        if not is_input_decl(s):
            for name in set(s.uses()):
                for t in _tensors(_lookup(values, i, name)):
                    if t.dtype in _LOW:
                        transient += t.numel() * 4   # computed in Float (HALF_TO_FLOAT)
        storages = dict(held)
        for parts in live.values():
            storages.update(parts)
        peak = max(peak, sum(storages.values()) + transient)
        for name in frees.get(i, ()):
            live.pop(name, None)
    return Estimate(peak, base, outputs_bytes, largest)


def _lookup(values: list[dict[str, Any]], i: int, name: str):
    """The value ``name`` has when statement ``i`` reads it (its latest binding before ``i``)."""
    for j in range(i - 1, -1, -1):
        if name in values[j]:
            return values[j][name]
    return None


def estimate_fp64(program: Program) -> Estimate | None:
    """``estimate`` of the fp64 variant (the program computed in float64 from upcast inputs);
    None where the static check rejects the program."""
    from ..ops import Ctx
    from .interpret import FusionError, run
    from .static import meta_inputs
    if program.inputs is None:
        return None
    fe = program.dialect.frontend
    try:
        res = run(program.stmts, meta_inputs(program), frontend=fe, ctx=Ctx(device="meta", frontend=fe),
                  keep_values=True, upcast=True)
        values = res.values
    except FusionError as e:
        values = e.partial.values if e.partial is not None else []
    except Exception:
        return None
    est = estimate(program, values)
    # the script's own inputs stay alive next to their upcast copies
    plain = estimate_inputs(program)
    return Estimate(est.peak + plain, est.inputs + plain, est.outputs, est.largest)


def estimate_inputs(program: Program) -> int:
    """Bytes of the program's tensor inputs, as the script builds them."""
    from .. import dtypes
    from ..model import TensorArg
    total = 0
    for a in program.inputs or ():
        if isinstance(a, TensorArg):
            n = 1
            for d in a.shape:
                n *= d
            total += n * torch.empty((), dtype=dtypes.to_torch(a.dtype)).element_size()
    return total
