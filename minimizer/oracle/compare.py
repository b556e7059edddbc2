"""Numerics oracle: are a backend's outputs the reference's outputs, up to rounding?

Two entry points:

``compare(outputs, reference_outputs)`` checks each pair element-wise with
``|out - ref| <= atol + rtol * |ref|`` and tolerances chosen from the output dtype (the
``torch.testing.assert_close`` defaults: fp32 1.3e-6/1e-5, bf16 1.6e-2/1e-5, fp16 1e-3/1e-5, fp64
1e-7/1e-7; integers and bools exact). Errors are measured in float64 so that they are not
themselves rounded.

``judge(outputs, eager, exact)`` knows what the computation costs in rounding: it measures the
backend's error against the exact reference (the same program computed in float64,
``interpret.run(upcast=True)``) relative to the error eager torch makes at the script's own
dtypes, the rule PyTorch's accuracy checks use with an fp64 reference. Per floating output of
dtype D, with B the backend's value, E eager's and X the exact one (X_D: X rounded once to D):

1. NaN/inf: where E and X_D agree (both finite, both NaN, both +inf or both -inf) B must agree
   too. Where they disagree (eager overflowed an intermediate that float64 did not, or the exact
   result overflows D while eager's rounded one does not) either side is a legitimate result:
   B must match one of them, within a loose tolerance (``LOOSE``) where it is finite.
2. Eager exact (E == X at every element: a copy, a permute, a widening cast, exact arithmetic):
   every element of B within one ulp of D of X — one rounding, nothing more (a subnormal X may
   also be flushed to zero).
3. Otherwise B is accepted when every element is within the dtype tolerance (tol) of X_D
   (today's rule), or else when all three hold:
      RMSE(B, X)                 <= k * RMSE(E, X) + floor      floor: RMS of ulp_D(X_D)
      max (|B - X| - ulp_D(X_D)) <= k * max |E - X|            (no element far beyond eager's
      max |B - X_D| / tol        <= max(1, k * max |E - X_D| / tol)   worst, in absolute terms
                                                                 or in units of its tolerance)
   with k = factor * sqrt(max(1, ``SMALL`` / n)) over the n elements finite in all three, and
   factor 10 for float32 outputs, 3 for float16/bfloat16 (``default_factor``).
4. Integers and bools: B equal to E (or to X) at every element.
docs/mismatch.md gives the measurements behind the factor and the floor.

Ill-conditioned elements are no evidence (``alternatives``): where other legitimate results of the
same program (the exact reference on inputs perturbed by a few ulps, an eager run whose scans
accumulate in the narrow dtype) move an element by more than its tolerance — rounding followed by
a cast to an integer, a comparison or an arg-reduction; an ill-conditioned function; accumulation
in the narrow type — B may differ as they do: the element is *excused* when B lies within the
span of E, X and the alternatives, widened by ``SPREAD`` times their spread (and the tolerance),
or is NaN/inf where one of them is. Excused elements leave every measure of rules 1-4.

What else counts as a mismatch: a different number of outputs, a different shape or dtype (the
program means something else; reported with ``what`` = "shape"/"dtype"). Strides and devices are
not compared: they are layout, not values.

Memory: both work on chunks of the flattened tensors (``CHUNK`` elements at a time), converting
only the chunk to float64, so a 3 GB bf16 output needs about 130 MB beside itself, whatever its
layout (see ``_pieces``: no whole-tensor ``.contiguous()``, ``.reshape(-1)`` or ``.to()``);
tensors loaded with ``torch.load(..., mmap=True)`` are read piece by piece.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import torch

from ..ops import fp4
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

#: the multiplier on eager's error (``judge``) by output dtype; docs/mismatch.md says why these and
#: not PyTorch's 2: in float32 legitimate summation orders differ by up to ~6x in error, in the
#: half types eager (rounding after every op) is the least accurate of all backends
FACTORS: dict[torch.dtype, float] = {torch.float32: 10.0, torch.float64: 10.0}
FACTOR_HALF = 3.0            # float16, bfloat16, float8
#: below this many elements the ratio of two RMSEs is noisy (for one element it is the ratio of two
#: single errors): the factor grows as sqrt(SMALL / n)
SMALL = 16
#: elements per chunk: 8 MB per float64 copy; ``judge`` holds about 15 of them at once (measured:
#: a process judging 6M float32 elements grows by 123 MB at 2**20, 458 MB at 2**22, 45 MB at 2**18)
CHUNK = 1 << 20
#: worst elements kept per differing output
TOP = 5
#: (rtol, atol) where eager and the exact reference disagree on NaN/inf and the backend is finite
#: (the element is ill-conditioned at the script's dtype: an intermediate overflowed in one of them)
LOOSE = (4e-2, 4e-2)
#: how far beyond the span of the legitimate results (eager, exact, ``alternatives``) an excused
#: element may lie, in units of their spread: random perturbations rarely reach the extremes
SPREAD = 2.0


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


def _json_safe(v: Any) -> Any:
    """JSON without NaN/Infinity literals: non-finite floats as "nan"/"inf"/"-inf", complex as
    [re, im]."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if isinstance(v, complex):
        return [_json_safe(v.real), _json_safe(v.imag)]
    if isinstance(v, dict):
        return {k: _json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_safe(x) for x in v]
    return v


@dataclass
class OutputDiff:
    """How one output compares with its reference(s)."""
    label: str                       # "output 0"
    ok: bool
    reason: str | None = None        # why not ok (None when ok)
    dtype: str | None = None
    shape: list[int] | None = None
    numel: int = 0
    mismatched: int = 0              # elements beyond tolerance (NaN/inf disagreements included);
    #                                  with an exact reference: against it, at the dtype tolerance
    max_abs: float = 0.0             # over elements finite on both sides
    max_rel: float = 0.0             # the same, relative to |reference| (reference != 0)
    rtol: float = 0.0
    atol: float = 0.0
    worst: list[int] | None = None   # index of the worst element (set when not ok)
    what: str = "values"             # what differs: "values", "dtype", "shape" (or "scalar")
    got: str | None = None           # the backend's dtype, where what differs is the dtype or shape
    # --- judge() (against the exact reference); None where not measured
    rule: str = "tolerance"          # the test that decided: "tolerance" (dtype tolerance only),
    #                                  "within-tolerance", "rmse", "max", "ulp" (eager exact),
    #                                  "nonfinite", "equal" (integers, bools)
    rmse_backend: float | None = None   # RMSE(B, X) over elements finite in all three
    rmse_eager: float | None = None     # RMSE(E, X) over the same elements
    ratio: float | None = None          # rmse_backend / rmse_eager
    floor: float | None = None          # RMS of ulp_D(X_D): one rounding of the output dtype
    factor: float | None = None
    max_eager: float | None = None      # max |E - X|
    excess_backend: float | None = None  # max |B - X_D| / (atol + rtol |X_D|): 1 = at the tolerance
    excess_eager: float | None = None    # the same for eager
    nonfinite: int = 0                  # NaN/inf disagreements (counted in mismatched)
    untrusted: int = 0                  # elements where eager and exact disagree on NaN/inf
    excused: int = 0                    # ill-conditioned elements within reach of a legitimate result
    #                                     (``alternatives``): no evidence, left out of every measure
    worst_elements: list[dict] = field(default_factory=list)
    #   up to TOP of {"index", "flat", "backend", "exact", "eager", "error"[, "eager_error"]},
    #   worst first: by how much further B is from the reference than eager is
    note: str | None = None             # why the exact reference was not used, when given

    def to_json(self) -> dict:
        return {k: _json_safe(v) for k, v in self.__dict__.items()}


@dataclass
class Comparison:
    ok: bool
    outputs: list[OutputDiff] = field(default_factory=list)
    first_mismatch: str | None = None   # one line describing the first output that differs

    def to_json(self) -> dict:
        return {"ok": self.ok, "first_mismatch": self.first_mismatch,
                "outputs": [d.to_json() for d in self.outputs]}


def _dtype_name(dt: torch.dtype) -> str:
    return str(dt).removeprefix("torch.")


def _fmt_shape(t: torch.Tensor) -> str:
    return f"{_dtype_name(t.dtype)}{list(t.shape)}"


def _as_tensor(v: Any) -> torch.Tensor | None:
    """Python numbers as 0-d tensors (the catalog's rule); None for anything else. Packed fp4
    (torch has no arithmetic on it, not even a copy to float) as its values in Float, one per
    element of the unpacked shape."""
    if fp4.is_fp4(v):
        return fp4.decode(fp4.unpack(v.detach(), fp4.innermost(v)))
    try:
        return as_tensor(v)
    except TypeError:
        return None


# ---------------------------------------------------------------- chunks
def _pieces(shape: Sequence[int], size: int) -> Iterator[tuple]:
    """Index tuples that cut a tensor of ``shape`` into pieces of at most ``size`` elements, in
    row-major (flattened) order; the cuts depend on the shape alone, so tensors of one shape but
    different layouts are cut alike. A piece is a basic-indexing view (``t[idx]``): free to take,
    and ``t[idx].reshape(-1)`` copies at most ``size`` elements when ``t`` is not contiguous (for
    a contiguous ``t`` it is a view). Nothing ever copies or converts a whole tensor."""
    size = max(1, size)
    n = math.prod(shape)
    if n == 0:
        return
    if n <= size:
        yield ()
        return

    def rec(prefix: tuple, dims: Sequence[int]) -> Iterator[tuple]:
        inner = math.prod(dims[1:])
        if inner > size:      # one index of this dim is still too big: split the next dim
            for i in range(dims[0]):
                yield from rec(prefix + (i,), dims[1:])
        else:
            step = size // inner
            for a in range(0, dims[0], step):
                yield prefix + (slice(a, min(a + step, dims[0])),)

    yield from rec((), list(shape))


def _flat(t: torch.Tensor, idx: tuple) -> torch.Tensor:
    """The piece ``idx`` of ``t``, flattened, on the CPU."""
    return t[idx].reshape(-1).cpu()


def _item(t: torch.Tensor, flat: int) -> Any:
    """One element by its row-major index, without flattening ``t``."""
    if t.dim() == 0:
        return t.item()
    idx = [int(i) for i in torch.unravel_index(torch.tensor(flat), t.shape)]
    return t[tuple(idx)].item()


def _index(flat: int, shape) -> list[int]:
    return [int(i) for i in torch.unravel_index(torch.tensor(flat), tuple(shape))] if len(shape) else []


class _Top:
    """The ``k`` highest scores over all chunks, ties to the lowest flat index."""

    def __init__(self, k: int):
        self.k, self.items = k, []          # (score, flat)

    def add(self, score: torch.Tensor, offset: int, div: int = 1) -> None:
        """``score``: float64 per element of a chunk starting at flat ``offset`` (-inf: not a
        candidate). ``div``: components per element (2 for complex viewed as real)."""
        if self.k <= 0 or score.numel() == 0:
            return
        k = min(self.k * div, score.numel())
        top = torch.topk(score, k).values
        t = float(top[-1])
        if t == -math.inf:
            top = top[top > -math.inf]
            if top.numel() == 0:
                return
            t = float(top[-1])
        gt = torch.nonzero(score > t).reshape(-1)
        eq = torch.nonzero(score == t).reshape(-1)[: max(0, k - gt.numel())]
        idx = torch.cat([gt, eq])
        for s, i in zip(score[idx].tolist(), idx.tolist()):
            self.items.append((s, (offset + i) // div))
        best: dict[int, float] = {}
        for s, f in self.items:
            best[f] = max(s, best.get(f, -math.inf))
        self.items = sorted(((s, f) for f, s in best.items()), key=lambda sf: (-sf[0], sf[1]))[: self.k]


def _element(flat: int, shape, b=None, e=None, x=None, error=None, eager_error=None) -> dict:
    d = {"index": _index(flat, shape), "flat": flat,
         "backend": _item(b, flat) if b is not None else None,
         "exact": _item(x, flat) if x is not None else None,
         "eager": _item(e, flat) if e is not None else None}
    if error is not None:
        d["error"] = error
    if eager_error is not None:
        d["eager_error"] = eager_error
    return d


def _at(index: list[int], t: torch.Tensor) -> str:
    """Where the worst element is, for a reason's text: " at [i, j]"; nothing for a 0-d tensor,
    which has one element."""
    return f" at {index}" if t.dim() else ""


# ---------------------------------------------------------------- dtype tolerance (compare)
def compare_one(out: Any, ref: Any, label: str = "output", scale: float = 1.0, fp64_ref: bool = False,
                *, chunk: int = CHUNK, top: int = TOP) -> OutputDiff:
    """``out`` against ``ref`` at the dtype tolerance (times ``scale``).

    ``fp64_ref``: ``ref`` comes from the fp64 reference, so a float64 ``ref`` stands for a
    floating ``out`` of any precision: it is rounded once to ``out``'s dtype (the correctly
    rounded result, overflowing where that dtype overflows) and judged with its tolerance."""
    a, b = _as_tensor(out), _as_tensor(ref)
    if a is None or b is None:
        same = a is None and b is None and out == ref
        return OutputDiff(label, same, None if same else f"{label}: {out!r} vs reference {ref!r}", what="scalar")
    a, b = a.detach(), b.detach()
    upcast = fp64_ref and b.dtype == torch.float64 and a.dtype.is_floating_point and a.dtype != b.dtype
    d = OutputDiff(label, True, dtype=_dtype_name(a.dtype if upcast else b.dtype),
                   shape=list(b.shape), numel=b.numel())
    if (a.dtype != b.dtype and not upcast) or a.shape != b.shape:
        d.ok = False
        d.what = "shape" if a.shape != b.shape else "dtype"
        d.got = _dtype_name(a.dtype)
        d.reason = f"{label}: {_fmt_shape(a)} vs reference {_fmt_shape(b)}"
        return d
    d.rtol, d.atol = tolerance(a.dtype, scale)
    if b.numel() == 0 or (not upcast and torch.equal(a, b)):
        return d   # equal (an input after execute, most often): nothing to measure, no float64 copy
    best, nan_differ = _count_beyond_tolerance(d, a, b, upcast, chunk, top)
    if d.mismatched:
        _fail_tolerance(d, a, b, best, upcast, fp64_ref, nan_differ)
    return d


def _count_beyond_tolerance(d: OutputDiff, a, b, upcast: bool, chunk: int, top: int) -> tuple[_Top, bool]:
    """Counts the elements of ``a`` beyond the tolerance of ``b`` (chunk by chunk, into
    ``d.mismatched``, ``d.max_abs`` and ``d.max_rel``); returns the worst of them and whether the
    NaN positions differ somewhere."""
    integral = not (b.dtype.is_floating_point or b.dtype.is_complex)
    best = _Top(top)
    nan_differ = False
    offset = 0
    for idx in _pieces(b.shape, chunk):
        pa, pb = _flat(a, idx), _flat(b, idx)
        n = pb.numel()
        if upcast:   # the exact result rounded once to the output's dtype (overflow included)
            pb = pb.to(a.dtype)
        if integral:
            close, excess = _equal_values(d, pa, pb)
        else:
            close, excess, nan_a, nan_b = _close_values(d, pa, pb)
            nan_differ = nan_differ or bool((nan_a != nan_b).any())
        m = int((~close).sum())
        if m:
            d.mismatched += m
            best.add(excess, offset)
        offset += n
    return best, nan_differ


def _equal_values(d: OutputDiff, pa: torch.Tensor, pb: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Integers and bools, one chunk: which elements are equal, and by how much each other one
    differs (-inf where equal)."""
    close = pa == pb    # on the integer values themselves: float64 cannot hold every int64
    fa, fb = pa.to(torch.float64), pb.to(torch.float64)   # only for the error measures
    err = (fa - fb).abs()
    excess = torch.where(close, torch.full((), -math.inf, dtype=torch.float64), err)
    d.max_abs = max(d.max_abs, float(err.max()))
    return close, excess


def _close_values(d: OutputDiff, pa: torch.Tensor, pb: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Floating and complex values, one chunk: which elements are within ``d``'s tolerance (or
    equal, or NaN on both sides), how far beyond it each other one is (-inf where close; +inf for
    a NaN/inf disagreement, so that it comes first), and where each side is NaN."""
    wide = torch.complex128 if pb.dtype.is_complex else torch.float64
    fa, fb = pa.to(wide), pb.to(wide)
    nan_a, nan_b = torch.isnan(fa), torch.isnan(fb)
    finite = torch.isfinite(fa) & torch.isfinite(fb)
    err = torch.where(finite, (fa - fb).abs(), torch.zeros((), dtype=torch.float64))
    bound = d.atol + d.rtol * fb.abs()
    close = (nan_a & nan_b) | (fa == fb) | (finite & (err <= bound))
    # how far beyond tolerance, to point at the worst element; non-finite disagreements first
    excess = torch.where(finite, err - bound, torch.full((), math.inf, dtype=torch.float64))
    excess = torch.where(close, torch.full((), -math.inf, dtype=torch.float64), excess)
    if finite.any():
        d.max_abs = max(d.max_abs, float(err[finite].max()))
        nz = finite & (fb != 0)
        if nz.any():
            d.max_rel = max(d.max_rel, float((err[nz] / fb[nz].abs()).max()))
    return close, excess, nan_a, nan_b


def _fail_tolerance(d: OutputDiff, a, b, best: _Top, upcast: bool, fp64_ref: bool, nan_differ: bool) -> None:
    """``d`` fails: its worst elements, and a reason that shows the worst one as it was judged."""
    d.ok = False
    flat = best.items[0][1]
    d.worst = _index(flat, b.shape)
    d.worst_elements = [_element(f, b.shape, a, **({"x": b} if fp64_ref else {"e": b}))
                        for _, f in best.items]
    va, vb = _item(a, flat), _item(b, flat)
    if upcast:   # the reference as rounded to the output's dtype, as it was judged
        vb = torch.tensor(vb, dtype=torch.float64).to(a.dtype).item()
    tol = f" beyond rtol {d.rtol:.3g}, atol {d.atol:.3g}" if d.rtol or d.atol else ""
    nan = "; NaN positions differ" if nan_differ else ""
    d.reason = (f"{d.label} ({_fmt_shape(b if not upcast else a)}): {d.mismatched} of {d.numel} elements "
                f"differ{tol}{nan}; worst{_at(d.worst, b)}: {va!r} vs reference {vb!r} "
                f"(max abs {d.max_abs:.3g}, max rel {d.max_rel:.3g})")


def compare(outputs: Sequence[Any], reference_outputs: Sequence[Any], *, scale: float = 1.0,
            labels: Sequence[str] | None = None, fp64_ref: bool = False, chunk: int = CHUNK) -> Comparison:
    """Compare each output with the reference output at the same position (``fp64_ref``: the
    reference is the fp64 one, see ``compare_one``)."""
    diffs = [compare_one(o, r, labels[i] if labels else f"output {i}", scale, fp64_ref, chunk=chunk)
             for i, (o, r) in enumerate(zip(outputs, reference_outputs))]
    return _comparison(diffs, len(outputs), len(reference_outputs))


def _comparison(diffs: list[OutputDiff], n_out: int, n_ref: int) -> Comparison:
    first = next((d.reason for d in diffs if not d.ok), None)
    ok = first is None and n_out == n_ref
    if first is None and not ok:
        first = f"{n_out} outputs vs {n_ref} from the reference"
    return Comparison(ok, diffs, first)


# ---------------------------------------------------------------- relative to eager (judge)
def _ulp(xd: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """The spacing of ``dtype`` at each (finite, float64) value of ``xd`` (representable in
    ``dtype``): eps * 2**(e-1) for |xd| in [2**(e-1), 2**e), the subnormal spacing below."""
    fi = torch.finfo(dtype)
    _, ex = torch.frexp(xd)
    u = torch.ldexp(torch.full_like(xd, fi.eps / 2), ex)
    return torch.where(xd == 0, torch.full((), fi.tiny * fi.eps, dtype=torch.float64),
                       u.clamp_min(fi.tiny * fi.eps))


def _cls(t: torch.Tensor) -> torch.Tensor:
    """0 finite, 1 NaN, 2 +inf, 3 -inf."""
    c = torch.zeros(t.shape, dtype=torch.int8)
    c[torch.isnan(t)] = 1
    c[torch.isposinf(t)] = 2
    c[torch.isneginf(t)] = 3
    return c


def _more_precise(x: torch.Tensor, dtype: torch.dtype) -> bool:
    """Is ``x`` (the fp64 reference's value) a higher-precision computation than ``dtype``?"""
    comp, xc = _COMPONENT.get(dtype, dtype), _COMPONENT.get(x.dtype, x.dtype)
    return (xc.is_floating_point and comp.is_floating_point and torch.finfo(xc).bits > torch.finfo(comp).bits
            and x.dtype.is_complex == dtype.is_complex)


def default_factor(dtype: torch.dtype) -> float:
    """The multiplier on eager's error for outputs of ``dtype`` (see ``FACTORS``)."""
    return FACTORS.get(_COMPONENT.get(dtype, dtype), FACTOR_HALF)


def judge_one(out: Any, eager: Any, exact: Any = None, label: str = "output", *, factor: float | None = None,
              scale: float = 1.0, chunk: int = CHUNK, top: int = TOP, alternatives: Sequence[Any] = ()) -> OutputDiff:
    """One output ``out`` (the backend's B) judged with eager's value ``eager`` (E) and the exact
    reference's ``exact`` (X, or None); the rule is in the module docstring. ``alternatives``:
    other legitimate values of this output (None or another shape: ignored)."""
    b, e = _as_tensor(out), _as_tensor(eager)
    x = _as_tensor(exact) if exact is not None else None
    if b is None or e is None or x is None or b.dtype != e.dtype or b.shape != e.shape:
        d = compare_one(out, eager, label, scale, chunk=chunk, top=top)
        if exact is not None and d.ok and d.what == "values":
            d.note = "the exact reference is not a tensor: judged against eager at the dtype tolerance"
        return d
    b, e, x = b.detach(), e.detach(), x.detach()
    why = None
    if x.shape != e.shape:
        why = f"the exact reference is {_fmt_shape(x)}, eager {_fmt_shape(e)}"
    elif (b.dtype.is_floating_point or b.dtype.is_complex) and not _more_precise(x, b.dtype) and torch.equal(x, e):
        # a float64 output computed in float64 throughout: the exact run is eager's. (Where the two
        # differ, the float64 output was computed from lower-precision values — a half cumsum cast
        # up, say — and the exact run knows better: judge it as any other output.)
        why = f"the exact reference ({_dtype_name(x.dtype)}) is eager's computation"
    if why is not None:
        d = compare_one(b, e, label, scale, chunk=chunk, top=top)
        d.note = why + ": judged against eager at the dtype tolerance"
        return d
    factor = default_factor(b.dtype) if factor is None else factor
    d = OutputDiff(label, True, dtype=_dtype_name(b.dtype), shape=list(b.shape), numel=b.numel(), factor=factor)
    d.rtol, d.atol = tolerance(b.dtype, scale)
    if b.numel() == 0:
        d.rule = "equal" if not (b.dtype.is_floating_point or b.dtype.is_complex) else "within-tolerance"
        return d
    alts = [a.detach() for a in map(_as_tensor, (v for v in alternatives if v is not None))
            if a is not None and a.shape == b.shape]
    if b.dtype.is_floating_point or b.dtype.is_complex:
        _judge_float(d, b, e, x, factor, chunk, top, alts)
    else:
        _judge_exact(d, b, e, x, chunk, top, alts)
    return d


def _judge_exact(d: OutputDiff, b, e, x, chunk, top, alts=()) -> None:
    """Integers and bools: each element equal to eager's, or to the exact reference's (a backend
    that computes an integer from floats more precisely than eager is not wrong), or excused
    (``_excused``: an integer from a rounded float near a boundary)."""
    d.rule = "equal"
    best = _Top(top)
    offset = 0
    for idx in _pieces(b.shape, chunk):
        pb, pe, px = _flat(b, idx), _flat(e, idx), _flat(x, idx)
        ok = pb == pe
        if px.dtype == pb.dtype:
            ok |= pb == px
        elif px.dtype.is_floating_point:
            fx = px.to(torch.float64)
            ok |= (pb.to(torch.float64) == fx) & (fx.abs() <= 2.0 ** 53)
        if alts and not bool(ok.all()):
            f64 = [t.to(torch.float64) for t in (pb, pe, px)]
            exc = _excused(*f64, [_flat(a, idx).to(torch.float64) for a in alts], torch.zeros(()), None) & ~ok
            d.excused += int(exc.sum())
            ok |= exc
        err = (pb.to(torch.float64) - pe.to(torch.float64)).abs()
        d.max_abs = max(d.max_abs, float(err.max()))
        m = int((~ok).sum())
        if m:
            d.mismatched += m
            best.add(torch.where(ok, torch.full((), -math.inf, dtype=torch.float64), err), offset)
        offset += pb.numel()
    if d.mismatched:
        d.ok = False
        d.worst_elements = [_element(f, b.shape, b, e, x) for _, f in best.items]
        w = d.worst_elements[0]
        d.worst = w["index"]
        d.reason = (f"{d.label} ({_fmt_shape(b)}): {d.mismatched} of {d.numel} elements differ from both eager "
                    f"and the exact reference; worst{_at(d.worst, b)}: {w['backend']!r} vs eager {w['eager']!r} "
                    f"(exact {w['exact']!r})")


def _judge_float(d: OutputDiff, b, e, x, factor, chunk, top, alts=()) -> None:
    """Floating and complex outputs: rules 1-3 of the module docstring. Every chunk adds to one
    ``_FloatTally``; the verdict needs the sums and maxima over the whole output, so it is taken
    only once every chunk is in."""
    tally = _FloatTally(b.dtype, d.rtol, d.atol, top)
    for idx in _pieces(b.shape, chunk):
        tally.add(_flat(b, idx), _flat(e, idx), _flat(x, idx), [_flat(a, idx) for a in alts])
    tally.record(d)
    bad = _float_verdict(d, tally, factor)
    d.worst_elements = _float_worst_elements(tally.best, b, e, x)
    if bad is not None:
        _fail_float(d, b, bad, tally.beyond_tol)


class _FloatTally:
    """What rules 1-3 measure, summed or maximised over the chunks of one floating output, and its
    worst elements. Errors are measured in float64 on the real components (a complex element
    counts as two), over the elements finite in all three of B, E and X_D; the others are judged
    by rule 1 alone."""

    def __init__(self, dtype: torch.dtype, rtol: float, atol: float, top: int):
        self.dtype = dtype                          # the output's dtype (complex included)
        self.component = _COMPONENT.get(dtype, dtype)   # D, whose ulp counts
        self.tiny = torch.finfo(self.component).tiny     # D's smallest normal (FTZ below)
        self.div = 2 if dtype.is_complex else 1     # real components per element
        self.rtol, self.atol = rtol, atol
        self.loose = (max(LOOSE[0], 2 * rtol), max(LOOSE[1], 2 * atol))   # (rtol, atol) of rule 1
        self.best = _Top(top)
        self.offset = 0              # flat index (in real components) where the next chunk starts
        self.n = 0                   # elements finite in all three
        self.ssb = self.sse = self.ssu = 0.0   # sums of squares of |B - X|, |E - X|, ulp_D(X_D)
        self.max_e = 0.0             # max |E - X|
        self.guard = -math.inf       # max over finite elements of |B - X| - ulp
        self.exb = self.exe = 0.0    # max over finite elements of |B - X_D| / tol, of |E - X_D| / tol
        self.max_abs = self.max_rel = 0.0
        self.beyond_tol = self.beyond_ulp = self.nonfinite = self.untrusted = self.excused = 0
        self.eager_exact = True      # E == X at every finite element so far

    def _real(self, t: torch.Tensor) -> torch.Tensor:
        """``t`` in float64, a complex tensor as its real components."""
        if self.div == 2:
            return torch.view_as_real(t.to(torch.complex128).contiguous()).reshape(-1)
        return t.to(torch.float64)

    def add(self, pb: torch.Tensor, pe: torch.Tensor, px: torch.Tensor, alts=()) -> None:
        """One chunk of B, E and X, flattened, and of the alternatives (``_excused``)."""
        size = pb.numel() * self.div
        xd = self._real(px.to(self.dtype))     # the exact value rounded once to D
        pb, pe, px = self._real(pb), self._real(pe), self._real(px)
        exc = self._excused(pb, pe, px, xd, alts) if alts else None
        fin = bad_nf = None
        n_fin = size                           # the common case: all finite, no masks
        if exc is not None or not (bool(torch.isfinite(pb).all()) and bool(torch.isfinite(pe).all())
                                   and bool(torch.isfinite(xd).all())):
            fin, bad_nf = self._nonfinite(pb, pe, px, xd, exc)
            n_fin = int(fin.sum())
            zero = torch.zeros((), dtype=torch.float64)   # the other elements drop out of every measure
            pb, pe, px, xd = (torch.where(fin, t, zero) for t in (pb, pe, px, xd))
        score = self._measure(pb, pe, px, xd, fin, n_fin) if n_fin else None
        score = _nonfinite_first(score, fin, bad_nf)
        if score is not None:
            self.best.add(score, self.offset, self.div)
        self.offset += size

    def _excused(self, pb, pe, px, xd, alts) -> torch.Tensor | None:
        """The chunk's excused elements (counted), or None where there are none."""
        tolv = xd.abs().nan_to_num(0.0, 0.0, 0.0).mul_(self.rtol).add_(self.atol)
        ad = [self._real(a.to(self.dtype)) for a in alts]    # as the alternatives round to D
        exc = _excused(pb, pe, px, [self._real(a) for a in alts], tolv, ad, xd)
        exc &= (pb != xd) & ~(torch.isnan(pb) & torch.isnan(xd))
        n = int(exc.sum())
        self.excused += n
        return exc if n else None

    def _nonfinite(self, pb, pe, px, xd, exc=None) -> tuple[torch.Tensor, torch.Tensor]:
        """Rule 1 on a chunk with a NaN or an infinity somewhere (or excused elements, ``exc``,
        which leave every count): counts the disagreements and the untrusted elements; returns
        the mask of elements finite in all three and that of the disagreements."""
        cb, ce, cxd = _cls(pb), _cls(pe), _cls(xd)
        trusted = ce == cxd
        if exc is not None:
            trusted &= ~exc
        bad_nf = trusted & (cb != cxd)
        untr = ~trusted if exc is None else ~trusted & ~exc
        if untr.any():
            self.untrusted += int(untr.sum())
            lr, la = self.loose
            ref = torch.where(torch.isfinite(px), px, pe)
            loose = (pb - ref).abs() <= la + lr * ref.abs()
            side = (cb == ce) | (cb == cxd)
            bad_nf |= untr & ~(side & ((cb != 0) | loose))
        self.nonfinite += int(bad_nf.sum())
        return trusted & (cxd == 0) & (cb == 0), bad_nf

    def _measure(self, pb, pe, px, xd, fin, n_fin: int) -> torch.Tensor:
        """Rules 2 and 3 on the ``n_fin`` finite elements of a chunk (``fin``; None: all of them;
        the others are zero in every argument): adds to the sums and maxima, and returns each
        element's score for the worst elements (how much further B is from X than E is; -inf
        where B is exact)."""
        zero = torch.zeros((), dtype=torch.float64)
        db = (pb - px).abs_()
        de = (pe - px).abs_()
        u = _ulp(xd, self.component)
        if fin is not None:
            u = torch.where(fin, u, zero)
        ax = xd.abs()
        tolv = ax.mul_(self.rtol).add_(self.atol)
        rb = (pb - xd).abs_().div_(tolv)
        self.beyond_tol += int((rb > 1).sum())
        self.exb = max(self.exb, float(rb.max()))
        self.exe = max(self.exe, float((pe - xd).abs_().div_(tolv).max()))
        self.n += n_fin
        self.ssb += float(torch.dot(db, db))
        self.sse += float(torch.dot(de, de))
        self.ssu += float(torch.dot(u, u))
        mde = float(de.max())
        self.max_e = max(self.max_e, mde)
        self.max_abs = max(self.max_abs, float(db.max()))
        ax = px.abs()
        self.max_rel = max(self.max_rel, float(torch.where(ax > 0, db / ax, zero if fin is not None else 0.0).max()))
        self.eager_exact = self.eager_exact and mde == 0
        ex = db - u
        off = ex > 0
        if bool(off.any()):    # flushing subnormals to zero (FTZ) is a rounding too
            off &= ~((xd.abs() < self.tiny) & (pb.abs() < self.tiny))
        self.beyond_ulp += int(off.sum())
        self.guard = max(self.guard, float(ex.max()))
        return torch.where(db > 0, db.sub_(de), torch.full((), -math.inf, dtype=torch.float64))

    def record(self, d: OutputDiff) -> None:
        """The measures into ``d`` (the RMSEs and excesses only where some element was finite)."""
        d.max_abs = self.max_abs
        d.nonfinite, d.untrusted, d.excused = self.nonfinite, self.untrusted, self.excused
        d.mismatched = self.beyond_tol + self.nonfinite
        d.max_rel = self.max_rel
        d.max_eager = self.max_e
        if self.n:
            d.excess_backend, d.excess_eager = self.exb, self.exe
            n = self.n
            d.rmse_backend, d.rmse_eager = math.sqrt(self.ssb / n), math.sqrt(self.sse / n)
            d.floor = math.sqrt(self.ssu / n)
            d.ratio = (d.rmse_backend / d.rmse_eager if d.rmse_eager else
                       (math.inf if d.rmse_backend else 0.0))


def _excused(pb, pe, px, alts, tolv, alts_d=None, xd=None) -> torch.Tensor:
    """Per element (float64 values of B, E, X and the alternatives; ``tolv``: the tolerance at
    each element): is it ill-conditioned — an alternative more than ``tolv`` from X (or from
    ``xd``, X rounded to the output dtype, where given), or (with
    ``alts_d``, the alternatives rounded to the output dtype) NaN/inf where X is not or the other
    way round — and does B lie where a legitimate result may: within the span of E, X and the
    alternatives widened by ``SPREAD`` times their spread plus ``tolv``, or NaN/inf as one of
    them is?"""
    refs = [pe, px, *alts]
    fin = [torch.isfinite(r) for r in refs]
    spread = torch.zeros_like(px)
    for a, fa in zip(alts, fin[2:]):   # from X, and from X rounded to D (what the tolerance is of)
        far = torch.maximum((a - px).abs(), (a - xd).abs()) if xd is not None else (a - px).abs()
        spread = torch.maximum(spread, torch.where(fa & fin[1], far.nan_to_num(0.0, 0.0, 0.0), 0.0))
    ill = spread > tolv
    inf = torch.tensor(math.inf, dtype=torch.float64)
    lo = torch.stack([torch.where(f, r, inf) for r, f in zip(refs, fin)]).amin(0)
    hi = torch.stack([torch.where(f, r, -inf) for r, f in zip(refs, fin)]).amax(0)
    reach = spread * SPREAD + tolv
    near = torch.isfinite(pb) & (pb >= lo - reach) & (pb <= hi + reach)
    if alts_d is not None:
        cb = _cls(pb)
        for a in alts_d:
            ca = _cls(a)
            ill |= ca != _cls(px)
            near |= (cb != 0) & (ca == cb)
    return ill & near


def _nonfinite_first(score, fin, bad_nf):
    """A chunk's scores for the worst elements: a NaN/inf disagreement (``bad_nf``) outranks every
    finite error; an element neither finite nor a disagreement is no candidate. None: no
    candidate in the chunk."""
    ninf = torch.full((), -math.inf, dtype=torch.float64)
    if bad_nf is not None and bool(bad_nf.any()):
        score = torch.where(bad_nf, torch.full((), math.inf, dtype=torch.float64),
                            score if score is not None else ninf)
    if score is not None and fin is not None:
        score = torch.where(fin | bad_nf, score, ninf)
    return score


def _float_verdict(d: OutputDiff, t: _FloatTally, factor: float) -> str | None:
    """Which rule decides (into ``d.rule``; rule 3 also scales ``d.factor`` by the size of the
    output) and, when the output fails it, what is wrong; None when it passes."""
    if t.nonfinite:
        d.rule = "nonfinite"
        return (f"{t.nonfinite} of {d.numel} elements disagree on NaN/inf with eager and the exact reference "
                f"where those agree, or with both where they do not")
    if not t.n:
        d.rule = "within-tolerance"
        return None
    if t.eager_exact:
        d.rule = "ulp"
        if t.beyond_ulp:
            return (f"eager computes it exactly, yet {t.beyond_ulp} of {d.numel} elements are more than one ulp "
                    f"from it (rms error {d.rmse_backend:.3g}, one ulp {d.floor:.3g})")
        return None
    if not t.beyond_tol:
        d.rule = "within-tolerance"
        return None
    return _relative_to_eager(d, t, factor)


def _relative_to_eager(d: OutputDiff, t: _FloatTally, factor: float) -> str | None:
    """Rule 3 past the dtype tolerance: the RMSE, the worst excess over one ulp and the worst
    excess over the tolerance, each against eager's times k."""
    d.rule = "rmse"
    k = d.factor = factor * math.sqrt(max(1.0, SMALL / t.n))
    if d.rmse_backend > k * d.rmse_eager + d.floor:
        return (f"rms error {d.rmse_backend:.3g} against the exact reference is {d.ratio:.3g}× eager's "
                f"{d.rmse_eager:.3g} (allowed: {k:.3g}× + one ulp rms {d.floor:.3g})")
    if t.guard > k * t.max_e:
        d.rule = "max"
        return (f"rms error {d.rmse_backend:.3g} is {d.ratio:.3g}× eager's, but an element is {t.guard:.3g} "
                f"beyond one ulp of the exact value, more than {k:.3g}× eager's worst error {t.max_e:.3g}")
    if t.exb > max(1.0, k * t.exe):
        d.rule = "max-rel"
        return (f"rms error {d.rmse_backend:.3g} is {d.ratio:.3g}× eager's, but an element is {t.exb:.3g}× its "
                f"tolerance from the exact value, where eager's worst is {t.exe:.3g}× (allowed: "
                f"{max(1.0, k * t.exe):.3g}×)")
    return None


def _float_worst_elements(best: _Top, b, e, x) -> list[dict]:
    """The worst elements with the three values and both errors against the exact one."""
    cx = b.dtype.is_complex
    elements = []
    for s, f in best.items:
        if s == -math.inf:
            continue
        bv, xv, ev = _item(b, f), _item(x, f), _item(e, f)
        err = abs(complex(bv) - complex(xv)) if cx else abs(float(bv) - float(xv))
        eerr = abs(complex(ev) - complex(xv)) if cx else abs(float(ev) - float(xv))
        elements.append({"index": _index(f, b.shape), "flat": f, "backend": bv, "exact": xv,
                         "eager": ev, "error": err if err == err else math.nan,
                         "eager_error": eerr if eerr == eerr else math.nan})
    return elements


def _fail_float(d: OutputDiff, b, bad: str, beyond_tol: int) -> None:
    """``d`` fails with ``bad``; its reason adds how many elements are beyond the dtype tolerance
    and the worst element."""
    d.ok = False
    tol = f"; {beyond_tol} of {d.numel} beyond rtol {d.rtol:.3g}, atol {d.atol:.3g}" if beyond_tol else ""
    tol += f" ({d.excused} ill-conditioned elements excused)" if d.excused else ""
    w = d.worst_elements[0] if d.worst_elements else None
    if w is not None:
        d.worst = w["index"]
        tol += f"; worst{_at(d.worst, b)}: {w['backend']!r} vs exact {w['exact']!r} (eager {w['eager']!r})"
    d.reason = f"{d.label} ({_fmt_shape(b)}): {bad}{tol}"


def judge(outputs: Sequence[Any], eager: Sequence[Any], exact: Sequence[Any] | None = None, *,
          labels: Sequence[str] | None = None, factor: float | None = None, scale: float = 1.0,
          chunk: int = CHUNK, top: int = TOP, alternatives: Sequence[Sequence[Any]] = ()) -> Comparison:
    """Judge each output against eager's value at the same position and, where ``exact`` has one
    (a list as long as ``eager``, or shorter; None entries allowed), the exact reference's value.
    Without ``exact`` this is ``compare(outputs, eager)``. ``scale`` multiplies the dtype
    tolerance as in ``compare``; ``factor`` is the multiplier on eager's error (None: by dtype,
    ``default_factor``). ``alternatives``: other legitimate runs, each a list like ``exact`` (the
    exact reference on perturbed inputs, an eager run with narrow scans): the elements they show
    ill-conditioned are excused where B is within their reach (module docstring)."""
    exact = list(exact) if exact is not None else []
    alts = [list(a) for a in alternatives]
    diffs = [judge_one(o, r, exact[i] if i < len(exact) else None, labels[i] if labels else f"output {i}",
                       factor=factor, scale=scale, chunk=chunk, top=top,
                       alternatives=[a[i] for a in alts if i < len(a)])
             for i, (o, r) in enumerate(zip(outputs, eager))]
    return _comparison(diffs, len(outputs), len(eager))
