"""Numerics oracle: are a backend's outputs the reference's outputs, up to rounding?

``compare(outputs, reference_outputs)`` checks each pair element-wise with
``|out - ref| <= atol + rtol * |ref|`` and tolerances chosen from the output dtype (the
``torch.testing.assert_close`` defaults: fp32 1.3e-6/1e-5, bf16 1.6e-2/1e-5, fp16 1e-3/1e-5, fp64
1e-7/1e-7; integers and bools exact). Everything is computed in float64 so that the error
measures are not themselves rounded.

What counts as a mismatch, and why:
- a different number of outputs, a different shape or dtype: the program means something else;
- NaN where the other side has none (NaN == NaN is equal: both sides agree the value is
  undefined), an infinity of either sign where the other side has something else;
- finite elements beyond tolerance.
Strides and devices are not compared: they are layout, not values.

The reference is fmin's ``reference`` backend (eager torch) run on the same device with the same
seed, at the program's own dtypes; the tolerance comes from the output dtype. Eager torch rounds
after every op while a fusing compiler keeps fp32 intermediates, so for low-precision programs
the two can legitimately drift apart; ``--mismatch`` therefore confirms a difference against the
fp64 reference (the same program computed in float64, ``interpret.run(upcast=True)``) and
calls it a mismatch only when the output is beyond tolerance of both (see
``property.Mismatch``). Rounding that grows with reduction length is absorbed by ``scale``
(see ``scale_for_reduction``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import torch

from ..ops.elementwise import as_tensor

# (rtol, atol) by dtype; complex dtypes use their component's entry
TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float64: (1e-7, 1e-7),
    torch.float32: (1.3e-6, 1e-5),
    torch.bfloat16: (1.6e-2, 1e-5),
    torch.float16: (1e-3, 1e-5),
}
for _name, _tol in (("float8_e4m3fn", (1.25e-1, 1e-3)), ("float8_e4m3fnuz", (1.25e-1, 1e-3)),
                    ("float8_e5m2", (2.5e-1, 1e-3)), ("float8_e5m2fnuz", (2.5e-1, 1e-3))):
    if hasattr(torch, _name):
        TOLERANCES[getattr(torch, _name)] = _tol
_COMPONENT = {torch.complex128: torch.float64, torch.complex64: torch.float32, torch.complex32: torch.float16}


def tolerance(dtype: torch.dtype, scale: float = 1.0) -> tuple[float, float]:
    """(rtol, atol) for values of ``dtype``, both multiplied by ``scale``; (0, 0) = exact."""
    dtype = _COMPONENT.get(dtype, dtype)
    if not (dtype.is_floating_point):
        return 0.0, 0.0
    rtol, atol = TOLERANCES.get(dtype, (2 * torch.finfo(dtype).eps, 1e-5))
    return rtol * scale, atol * scale


def scale_for_reduction(n: int) -> float:
    """A tolerance scale for outputs that sum ``n`` terms: summing in another order moves the
    rounding error roughly with sqrt(n) on data without systematic sign (the worst case is n)."""
    return max(1.0, math.sqrt(max(1, n)))


@dataclass
class OutputDiff:
    """How one output compares with its reference."""
    label: str                       # "output 0"
    ok: bool
    reason: str | None = None        # why not ok (None when ok)
    dtype: str | None = None
    shape: list[int] | None = None
    numel: int = 0
    mismatched: int = 0              # elements beyond tolerance (NaN/inf disagreements included)
    max_abs: float = 0.0             # over elements finite on both sides
    max_rel: float = 0.0             # the same, relative to |reference| (reference != 0)
    rtol: float = 0.0
    atol: float = 0.0
    worst: list[int] | None = None   # index of the element furthest beyond tolerance
    what: str = "values"             # what differs: "values", "dtype", "shape" (or "scalar")
    got: str | None = None           # the backend's dtype, where what differs is the dtype or shape

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


@dataclass
class Comparison:
    ok: bool
    outputs: list[OutputDiff] = field(default_factory=list)
    first_mismatch: str | None = None   # one line describing the first output that differs

    def to_json(self) -> dict:
        return {"ok": self.ok, "first_mismatch": self.first_mismatch,
                "outputs": [d.to_json() for d in self.outputs]}


def _fmt_shape(t: torch.Tensor) -> str:
    return f"{str(t.dtype).removeprefix('torch.')}{list(t.shape)}"


def _as_tensor(v: Any) -> torch.Tensor | None:
    """Python numbers as 0-d tensors (the catalog's rule); None for anything else."""
    try:
        return as_tensor(v)
    except TypeError:
        return None


def compare_one(out: Any, ref: Any, label: str = "output", scale: float = 1.0, fp64_ref: bool = False) -> OutputDiff:
    """``fp64_ref``: ``ref`` comes from the fp64 reference, so a float64 ``ref`` stands for a
    floating ``out`` of any precision: it is rounded once to ``out``'s dtype (the correctly
    rounded result, overflowing where that dtype overflows) and judged with its tolerance."""
    a, b = _as_tensor(out), _as_tensor(ref)
    if a is None or b is None:
        same = a is None and b is None and out == ref
        return OutputDiff(label, same, None if same else f"{label}: {out!r} vs reference {ref!r}", what="scalar")
    a, b = a.detach().cpu(), b.detach().cpu()
    upcast = fp64_ref and b.dtype == torch.float64 and a.dtype.is_floating_point and a.dtype != b.dtype
    if upcast:   # the exact result rounded once to the output's dtype (overflow included)
        b = b.to(a.dtype)
    d = OutputDiff(label, True, dtype=str(a.dtype if upcast else b.dtype).removeprefix("torch."),
                   shape=list(b.shape), numel=b.numel())
    if (a.dtype != b.dtype and not upcast) or a.shape != b.shape:
        d.ok = False
        d.what = "shape" if a.shape != b.shape else "dtype"
        d.got = str(a.dtype).removeprefix("torch.")
        d.reason = f"{label}: {_fmt_shape(a)} vs reference {_fmt_shape(b)}"
        return d
    d.rtol, d.atol = tolerance(a.dtype, scale)
    if b.numel() == 0:
        return d
    a0, b0 = a, b
    exact = not (b.dtype.is_floating_point or b.dtype.is_complex)
    nan_differ = False
    if exact:
        close = a == b    # on the integer values themselves: float64 cannot hold every int64
        a, b = a.to(torch.float64), b.to(torch.float64)   # only for the error measures
        err = (a - b).abs()
        excess = torch.where(close, torch.full((), -math.inf, dtype=torch.float64), err)
        if b.numel():
            d.max_abs = float(err.max())
    else:
        a, b = (a.to(torch.complex128), b.to(torch.complex128)) if b.dtype.is_complex else \
            (a.to(torch.float64), b.to(torch.float64))
        nan_a, nan_b = torch.isnan(a), torch.isnan(b)
        finite = torch.isfinite(a) & torch.isfinite(b)
        err = torch.where(finite, (a - b).abs(), torch.zeros((), dtype=torch.float64))
        bound = d.atol + d.rtol * b.abs()
        close = (nan_a & nan_b) | (a == b) | (finite & (err <= bound))
        nan_differ = bool((nan_a != nan_b).any())
        # how far beyond tolerance, to point at the worst element; non-finite disagreements first
        excess = torch.where(finite, err - bound, torch.full((), math.inf, dtype=torch.float64))
        excess = torch.where(close, torch.full((), -math.inf, dtype=torch.float64), excess)
        if finite.any():
            d.max_abs = float(err[finite].max())
            nz = finite & (b != 0)
            if nz.any():
                d.max_rel = float((err[nz] / b[nz].abs()).max())
    d.mismatched = int((~close).sum())
    if d.mismatched:
        d.ok = False
        flat = int(excess.reshape(-1).argmax())
        idx = list(torch.unravel_index(torch.tensor(flat), b.shape)) if b.dim() else []
        d.worst = [int(i) for i in idx]
        va, vb = a0.reshape(-1)[flat].item(), b0.reshape(-1)[flat].item()
        where = f" at {d.worst}" if b.dim() else ""
        tol = f" beyond rtol {d.rtol:.3g}, atol {d.atol:.3g}" if d.rtol or d.atol else ""
        nan = "; NaN positions differ" if nan_differ else ""
        d.reason = (f"{label} ({_fmt_shape(b0)}): {d.mismatched} of {d.numel} elements differ{tol}{nan}; "
                    f"worst{where}: {va!r} vs reference {vb!r} (max abs {d.max_abs:.3g}, max rel {d.max_rel:.3g})")
    return d


def compare(outputs: Sequence[Any], reference_outputs: Sequence[Any], *, scale: float = 1.0,
            labels: Sequence[str] | None = None, fp64_ref: bool = False) -> Comparison:
    """Compare each output with the reference output at the same position (``fp64_ref``: the
    reference is the fp64 one, see ``compare_one``)."""
    diffs = [compare_one(o, r, labels[i] if labels else f"output {i}", scale, fp64_ref)
             for i, (o, r) in enumerate(zip(outputs, reference_outputs))]
    first = next((d.reason for d in diffs if not d.ok), None)
    ok = first is None and len(outputs) == len(reference_outputs)
    if first is None and not ok:
        first = f"{len(outputs)} outputs vs {len(reference_outputs)} from the reference"
    return Comparison(ok, diffs, first)
