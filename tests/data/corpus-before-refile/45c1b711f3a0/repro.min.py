# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# property: outputs differ from reference in values beyond tolerance
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: mismatch (nvfuser), bucket 45c1b711f3a0: nvfuser mismatch values: linear
# run it: python repro.min.py (it sets the nvFuser options it needs itself)
# running it shows: AssertionError: wrong result (values) ...
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.linear(tv1, tv0)
    fd.add_output(tv2, tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 1, 1), dtype=torch.float32, device='cuda:0'),
]
inputs_before = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]   # for the check at the end
outputs = fd.execute(inputs)

# --------------------------------------------------------------------------------------------------
# Added by fmin, not part of the fusion: the same computation in eager PyTorch (fmin's reference semantics
# traced to ATen ops, nvFuser's typing rules included) and fmin's comparison (docs/mismatch.md: within the
# dtype tolerance of eager, or within what eager's own rounding costs against float64). Needs only torch;
# the AssertionError it raises is the wrong result.
# --------------------------------------------------------------------------------------------------
def eager_reference(tv0, tv1, *, device):
    """The fusion in eager PyTorch, at the script's dtypes."""
    t = torch.ops.aten.t.default(tv0)
    view = torch.ops.aten.view.default(tv1, [1, 1])
    mm = torch.ops.aten.mm.default(view, t)
    _unsafe_view = torch.ops.aten._unsafe_view.default(mm, [1, 1, 1])
    copy_ = torch.ops.aten.copy_.default(tv1, _unsafe_view)
    return ()

def exact_reference(tv0, tv1, *, device):
    """The same in float64: tells rounding from a wrong value."""
    _to_copy = torch.ops.aten._to_copy.default(tv0, dtype=torch.float64)
    _to_copy_1 = torch.ops.aten._to_copy.default(tv1, dtype=torch.float64)
    t = torch.ops.aten.t.default(_to_copy)
    view = torch.ops.aten.view.default(_to_copy_1, [1, 1])
    mm = torch.ops.aten.mm.default(view, t)
    _unsafe_view = torch.ops.aten._unsafe_view.default(mm, [1, 1, 1])
    copy_ = torch.ops.aten.copy_.default(_to_copy_1, _unsafe_view)
    return ()

TOLERANCES = {   # (rtol, atol, factor on eager's error) by dtype, fmin's: minimizer/oracle/compare.py
    torch.float64: (1e-07, 1e-07, 10.0),
    torch.float32: (1.3e-06, 1e-05, 10.0),
    torch.bfloat16: (0.016, 1e-05, 3.0),
    torch.float16: (0.001, 1e-05, 3.0),
    torch.float8_e4m3fn: (0.125, 0.001, 3.0),
    torch.float8_e4m3fnuz: (0.125, 0.001, 3.0),
    torch.float8_e5m2: (0.25, 0.001, 3.0),
    torch.float8_e5m2fnuz: (0.25, 0.001, 3.0),
    torch.complex64: (1.3e-06, 1e-05, 10.0),
    torch.complex128: (1e-07, 1e-07, 10.0),
}

import math

SMALL = 16            # below this many elements the factor on eager's error grows as sqrt(SMALL / n)
LOOSE = (4e-2, 4e-2)  # (rtol, atol) where eager and the float64 result disagree on NaN/inf
SPREAD = 2.0          # how far beyond the span of the legitimate results an ill-conditioned element may lie
PERTURB_ULPS = 2.0    # the inputs of the perturbed float64 runs move by this many eps of the narrowest dtype
PERTURBED_RUNS = 3    # sign draws of those runs


def _tensor(v):
    """An output as a CPU tensor; Python numbers as nvFuser types them (bool, int64, float64)."""
    if isinstance(v, torch.Tensor):
        return v.detach().cpu()
    for kind, dtype in ((bool, torch.bool), (int, torch.int64), (float, torch.float64), (complex, torch.complex128)):
        if isinstance(v, kind):
            return torch.tensor(v, dtype=dtype)
    return None


def _describe(t):
    return str(t.dtype).removeprefix("torch.") + str(list(t.shape))


def _floating(t):
    return t.is_floating_point() or t.is_complex()


def _component(dtype):
    return {torch.complex128: torch.float64, torch.complex64: torch.float32}.get(dtype, dtype)


def _more_precise(x, dtype):
    """Is the exact result ``x`` computed in more precision than ``dtype``? (Else, where it equals
    eager's, the exact run was eager's own computation: judged against eager alone.)"""
    xc, comp = _component(x.dtype), _component(dtype)
    return (xc.is_floating_point and comp.is_floating_point and torch.finfo(xc).bits > torch.finfo(comp).bits
            and x.is_complex() == dtype.is_complex)


def _real(t):
    """Float64 values, flattened (a complex tensor as pairs of reals)."""
    if t.is_complex():
        return torch.view_as_real(t.to(torch.complex128).contiguous()).reshape(-1)
    return t.to(torch.float64).reshape(-1)


def _cls(t):
    """0 finite, 1 NaN, 2 +inf, 3 -inf."""
    c = torch.zeros(t.shape, dtype=torch.int8)
    c[torch.isnan(t)] = 1
    c[torch.isposinf(t)] = 2
    c[torch.isneginf(t)] = 3
    return c


def _ulp(xd, dtype):
    """The spacing of ``dtype`` at each (float64) value of ``xd``."""
    fi = torch.finfo(dtype)
    _, ex = torch.frexp(xd)
    u = torch.ldexp(torch.full_like(xd, fi.eps / 2), ex)
    return torch.where(xd == 0, torch.full_like(xd, fi.tiny * fi.eps), u.clamp_min(fi.tiny * fi.eps))


def beyond_tolerance(b, e, rtol, atol):
    """Per element of ``b`` (flattened): how far beyond eager's value and the dtype tolerance it
    is (-inf where it is within; +inf for a NaN/inf disagreement). Integers and bools: exact."""
    fb, fe = b.reshape(-1), e.reshape(-1)
    if not _floating(b):
        return torch.where(fb == fe, -math.inf, (fb.double() - fe.double()).abs())
    wide = torch.complex128 if b.is_complex() else torch.float64
    fb, fe = fb.to(wide), fe.to(wide)
    finite = torch.isfinite(fb) & torch.isfinite(fe)
    err = torch.where(finite, (fb - fe).abs(), torch.zeros((), dtype=torch.float64))
    bound = atol + rtol * fe.abs()
    close = (torch.isnan(fb) & torch.isnan(fe)) | (fb == fe) | (finite & (err <= bound))
    return torch.where(close, -math.inf, torch.where(finite, err - bound, math.inf))


def excused(pb, pe, px, alts, tolv, alts_d=None, xd=None):
    """Per element (float64 values of the output, eager, float64 and the other legitimate results
    ``alts``): ill-conditioned — an alternative more than ``tolv`` from the float64 result (or
    from ``xd``, it rounded to the output dtype), or (``alts_d``: the alternatives in the output
    dtype) NaN/inf where it is not or the other way round — with the output where a legitimate
    result may lie: within their span widened by SPREAD times their spread plus ``tolv``, or
    NaN/inf as one of them is (``compare._excused``, restated)."""
    refs = [pe, px, *alts]
    fin = [torch.isfinite(r) for r in refs]
    spread = torch.zeros_like(px)
    for a, fa in zip(alts, fin[2:]):   # from X, and from X rounded to D (what the tolerance is of)
        far = torch.maximum((a - px).abs(), (a - xd).abs()) if xd is not None else (a - px).abs()
        spread = torch.maximum(spread, torch.where(fa & fin[1], far.nan_to_num(0.0, 0.0, 0.0), 0.0))
    ill = spread > tolv
    lo = torch.stack([torch.where(f, r, math.inf) for r, f in zip(refs, fin)]).amin(0)
    hi = torch.stack([torch.where(f, r, -math.inf) for r, f in zip(refs, fin)]).amax(0)
    reach = spread * SPREAD + tolv
    near = torch.isfinite(pb) & (pb >= lo - reach) & (pb <= hi + reach)
    for a in alts_d or ():
        ca = _cls(a)
        ill |= ca != _cls(px)
        near |= (_cls(pb) != 0) & (ca == _cls(pb))
    return ill & near


def _alts(alts, shape):
    """The alternatives of one output that can be compared with it."""
    return [a for a in map(_tensor, alts) if a is not None and a.shape == shape]


def judge_integers(b, e, x, alts=()):
    """Integers and bools: each element equal to eager's or to the exact result's, or excused
    (``excused``). Returns the flat index of the first wrong element, or None."""
    fb, fe, fx = b.reshape(-1), e.reshape(-1), x.reshape(-1)
    ok = fb == fe
    if fx.dtype == fb.dtype:
        ok |= fb == fx
    elif fx.is_floating_point():
        ok |= (fb.double() == fx.double()) & (fx.double().abs() <= 2.0 ** 53)
    alts = _alts(alts, b.shape)
    if alts and not bool(ok.all()):
        ok |= excused(fb.double(), fe.double(), fx.double(), [a.reshape(-1).double() for a in alts], torch.zeros(()))
    if bool(ok.all()):
        return None
    return int(torch.argmax(torch.where(ok, -math.inf, (fb.double() - fe.double()).abs())))


def judge_floats(b, e, x, rtol, atol, factor, alts=()):
    """``compare.judge``'s rule for one floating output against eager (``e``), the exact result
    (``x``) and other legitimate results (``alts``). Returns None when it is right, else (why,
    flat index of its worst element)."""
    dt = _component(b.dtype)
    xd = _real(x.to(b.dtype))                       # the exact value rounded once to the dtype
    pb, pe, px = _real(b), _real(e), _real(x)
    cb, ce, cxd = _cls(pb), _cls(pe), _cls(xd)
    alts = _alts(alts, b.shape)
    exc = torch.zeros(pb.shape, dtype=torch.bool)
    if alts:
        tolv = atol + rtol * xd.abs().nan_to_num(0.0, 0.0, 0.0)
        exc = excused(pb, pe, px, [_real(a) for a in alts], tolv, [_real(a.to(b.dtype)) for a in alts], xd)
        exc &= (pb != xd) & ~(torch.isnan(pb) & torch.isnan(xd))
    trusted = (ce == cxd) & ~exc
    bad_nf = trusted & (cb != cxd)                  # NaN/inf where eager and exact agree otherwise
    ref = torch.where(torch.isfinite(px), px, pe)
    loose = (pb - ref).abs() <= max(LOOSE[1], 2 * atol) + max(LOOSE[0], 2 * rtol) * ref.abs()
    bad_nf |= ~trusted & ~exc & ~(((cb == ce) | (cb == cxd)) & ((cb != 0) | loose))
    fin = trusted & (cxd == 0) & (cb == 0)
    zero = torch.zeros((), dtype=torch.float64)
    pb, pe, px, xd = (torch.where(fin, t, zero) for t in (pb, pe, px, xd))
    n = int(fin.sum())
    db, de = (pb - px).abs(), (pe - px).abs()
    u = torch.where(fin, _ulp(xd, dt), zero)
    tolv = atol + rtol * xd.abs()
    rb, re_ = (pb - xd).abs() / tolv, (pe - xd).abs() / tolv
    score = torch.where(bad_nf, math.inf, torch.where(fin & (db > 0), db - de, -math.inf))
    worst = int(torch.argmax(score)) // (2 if b.is_complex() else 1)
    if bool(bad_nf.any()):
        return f"{int(bad_nf.sum())} elements disagree on NaN/inf", worst
    if not n:
        return None
    max_e, guard = float(de.max()), float((db - u).max())
    off = (db - u > 0) & ~((xd.abs() < torch.finfo(dt).tiny) & (pb.abs() < torch.finfo(dt).tiny))
    if max_e == 0:   # eager computes it exactly: one rounding of the dtype, nothing more
        return (f"eager computes it exactly, yet {int(off.sum())} elements are more than one ulp from it", worst) \
            if bool(off.any()) else None
    if not bool((rb > 1).any()):
        return None
    k = factor * math.sqrt(max(1.0, SMALL / n))
    rms_b, rms_e, floor = (math.sqrt(float((t * t).sum()) / n) for t in (db, de, u))
    if rms_b > k * rms_e + floor:
        return f"its rms error against the float64 result is {rms_b:.3g}, {rms_b / rms_e:.3g}x eager's {rms_e:.3g}", worst
    if guard > k * max_e:
        return f"an element is {guard:.3g} from the float64 result, more than {k:.3g}x eager's worst {max_e:.3g}", worst
    if float(rb.max()) > max(1.0, k * float(re_.max())):
        return (f"an element is {float(rb.max()):.3g}x its tolerance from the float64 result, eager's worst "
                f"{float(re_.max()):.3g}x", worst)
    return None


def check_output(label, got, eager, exact, rtol, atol, factor, alternatives=()):
    """Raise AssertionError, naming ``label``, its worst element and got vs expected, when ``got``
    is not eager PyTorch's ``eager`` up to the rounding this computation costs (``alternatives``:
    other legitimate results of it, ``excused``)."""
    b, e = _tensor(got), _tensor(eager)
    if b is None or e is None:
        if got != eager:
            raise AssertionError(f"wrong result (values) in {label}: got {got!r}, eager PyTorch gives {eager!r}")
        return
    for what, differs in (("dtype", b.dtype != e.dtype), ("shape", b.shape != e.shape)):
        if differs:
            raise AssertionError(f"wrong result ({what}) in {label}: got {_describe(b)}, "
                                 f"eager PyTorch gives {_describe(e)}")
    excess = beyond_tolerance(b, e, rtol, atol)
    if b.numel() == 0 or not bool((excess > -math.inf).any()):
        return
    x = _tensor(exact)
    why, flat = "", int(torch.argmax(excess))
    if x is not None and x.shape == e.shape and not (_floating(b) and not _more_precise(x, b.dtype)
                                                     and torch.equal(x, e)):
        if not _floating(b):
            flat = judge_integers(b, e, x, alternatives)
            why = "and from the float64 computation"
        else:
            verdict = judge_floats(b, e, x, rtol, atol, factor, alternatives)
            if verdict is None:
                return   # rounding: within what eager's own rounding costs against the exact result
            why, flat = verdict
        if flat is None:
            return
    index = [int(i) for i in torch.unravel_index(torch.tensor(flat), b.shape)] if b.dim() else []
    at = f" at {index}" if b.dim() else ""
    exact_words = f", float64 {x.reshape(-1)[flat].item()!r}" if x is not None and x.shape == e.shape else ""
    n_bad = int((excess > -math.inf).sum())
    raise AssertionError(
        f"wrong result (values) in {label} ({_describe(b)}): {n_bad} of {b.numel()} elements differ from eager "
        f"PyTorch beyond rtol {rtol:.3g}, atol {atol:.3g}{'; ' + why if why else ''}; worst{at}: "
        f"got {b.reshape(-1)[flat].item()!r}, expected {e.reshape(-1)[flat].item()!r}{exact_words}")


def _rule(t, tolerances):
    """(rtol, atol, factor) for values of ``t``'s dtype: exact for integers and bools."""
    t = _tensor(t)
    if t is None or not _floating(t):
        return 0.0, 0.0, 1.0
    if t.dtype in tolerances:
        return tolerances[t.dtype]
    return 2 * torch.finfo(_component(t.dtype)).eps, 1e-5, 3.0


def _clones(values):
    return [t.clone() if isinstance(t, torch.Tensor) else t for t in values]


def _watching(fn, args, narrow_scans=False, **kw):
    """``fn(*args, **kw)`` watched: returns its results, the float64 copy it made of each input
    (what it wrote into that input after the run: the exact value of an aliased one; None where
    it made none), and the floating dtypes it computed in. ``narrow_scans``: half/bfloat16 scans
    accumulate in their own dtype, one rounding per step, as a scan kernel may."""
    from torch.utils._python_dispatch import TorchDispatchMode
    copies, dtypes = [None] * len(args), set()
    scans = {torch.ops.aten.cumsum.default: torch.add, torch.ops.aten.cumprod.default: torch.mul}

    class Watch(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, a=(), k=None):
            k = k or {}
            x = a[0] if a and isinstance(a[0], torch.Tensor) else None
            if narrow_scans and func in scans and x is not None and x.dim() and x.numel() \
                    and (k.get("dtype") or x.dtype) in (torch.float16, torch.bfloat16):
                out = narrow_scan(x.to(k.get("dtype") or x.dtype), a[1], scans[func])
            else:
                out = func(*a, **k)
            for t in (out if isinstance(out, (list, tuple)) else [out]) + list(a):
                if isinstance(t, torch.Tensor) and t.is_floating_point():
                    dtypes.add(t.dtype)
            if func is torch.ops.aten._to_copy.default and x is not None and out.dtype == torch.float64:
                copies[:] = [out if y is x else c for y, c in zip(args, copies)]
            return out

    with Watch():
        result = fn(*args, **kw)
    return result, copies, dtypes


def narrow_scan(x, dim, combine):
    """The scan of ``x`` along ``dim`` with one rounding to ``x.dtype`` per step
    (``ops/scans.py``'s narrow scan, restated)."""
    acc = x.select(dim, 0)
    out = [acc]
    for i in range(1, x.shape[dim]):
        acc = combine(acc, x.select(dim, i)).to(x.dtype)
        out.append(acc)
    return torch.stack(out, dim)


def _perturbed(values, seed, rel):
    """Float64 copies of ``values``, each floating element times 1 +- ``rel``, the signs drawn from
    ``seed`` on the CPU in input order (fmin's reference draws them alike: ``interpret.perturbed``)."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for t in values:
        if isinstance(t, torch.Tensor) and t.dtype in (torch.float64, torch.float32, torch.float16, torch.bfloat16):
            s = torch.randint(0, 2, tuple(t.shape), generator=g).to(torch.float64).mul_(2 * rel).sub_(rel).add_(1)
            t = t.to(torch.float64) * s.to(t.device)
        out.append(t)
    return out


def _alternatives(inputs_before, eager_reference, exact_reference, device, dtypes):
    """Other legitimate results, each as outputs and inputs after the run: the float64 result on
    inputs perturbed by a few ulps of the narrowest dtype, and eager with narrow scans."""
    rel = PERTURB_ULPS * max((torch.finfo(d).eps for d in dtypes), default=torch.finfo(torch.float64).eps)
    runs = []
    for seed in range(1, PERTURBED_RUNS + 1):
        args = _perturbed(inputs_before, seed, rel)
        outs, copies, _ = _watching(exact_reference, args, device=device)
        runs.append((list(outs), [c if c is not None else a for c, a in zip(copies, args)]))
    args = _clones(inputs_before)
    outs, _, _ = _watching(eager_reference, args, narrow_scans=True, device=device)
    runs.append((list(outs), args))
    return runs


def check_against_eager(outputs, inputs, inputs_before, eager_reference, exact_reference, tolerances):
    """Every output of ``fd.execute(inputs)`` — and every input, which only an aliased output may
    write — against the same computation in eager PyTorch run on ``inputs_before`` (copies taken
    before nvFuser ran) and in float64; where one differs, also against the other legitimate
    results (``_alternatives``). ``tolerances``: (rtol, atol, factor) by dtype."""
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    device = next((t.device for t in inputs if isinstance(t, torch.Tensor)), torch.device("cuda"))
    pristine = _clones(inputs_before)
    exact, exact_inputs, _ = _watching(exact_reference, _clones(inputs_before), device=device)
    expected, _, dtypes = _watching(eager_reference, inputs_before, device=device)
    if len(outputs) != len(expected):
        raise AssertionError(f"wrong result (count): fd.execute(inputs) returned {len(outputs)} outputs, "
                             f"eager PyTorch computes {len(expected)}")
    checks = [(f"output {k}", got, want, x, 0, k) for k, (got, want, x) in enumerate(zip(outputs, expected, exact))]
    checks += [(f"input {k} after fd.execute(inputs)", after, want, x, 1, k)
               for k, (after, want, x) in enumerate(zip(inputs, inputs_before, exact_inputs))
               if isinstance(after, torch.Tensor)]
    alts = None
    for label, got, want, x, side, k in checks:
        try:
            check_output(label, got, want, x, *_rule(got, tolerances))
        except AssertionError:
            if alts is None:   # the rare path: are the elements that differ evidence at all?
                alts = _alternatives(pristine, eager_reference, exact_reference, device, dtypes)
            mine = [run[side][k] if k < len(run[side]) else None for run in alts]
            check_output(label, got, want, x, *_rule(got, tolerances), mine)


if not globals().get("__fmin__"):   # inside fmin's own runs fmin compares the outputs itself
    check_against_eager(outputs, inputs, inputs_before, eager_reference, exact_reference, TOLERANCES)
