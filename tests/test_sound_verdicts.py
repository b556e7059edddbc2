"""Sound wrong-result verdicts (docs/mismatch.md, "Ill-conditioned elements"): no element is
evidence where a legitimate implementation may differ by more than the tolerance, and real wrong
results stay wrong.

One test per false-positive class, each from a real bucket of ``corpus/findings`` (its
``repro.min.py``), run on the CPU: eager (E), the exact float64 result (X) and the other
legitimate results (the float64 result on inputs perturbed by a few ulps, an eager run whose half
scans accumulate in half) come from fmin's reference interpreter, as the reference worker
computes them. The backend's values (B) are built the way the GPU produced them, emulated on the
CPU (how, in each test): the recorded outcomes hold no values, only what they show (a one-ulp
bf16 difference before an integer cast, a cosh ~27x a one-ulp difference of its argument, an
infinity a Half-accumulating scan keeps, a float32 sum accumulated in another order). Each case
is judged by ``compare.judge``; the attachment's plain check (``filing/plain_check``) fails on each that fmin calls wrong,
which must not flag what ``judge`` excuses.
"""
import os

import pytest
import torch

from conftest import ROOT
from minimizer.fuzz.filing import plain_check
from minimizer.ops import Ctx, scans
from minimizer.oracle.checks import mismatch
from minimizer.oracle.checks.mismatch import PERTURBED_RUNS, _inputs_after
from minimizer.oracle import compare
from minimizer.oracle.compare import judge
from minimizer.program import interpret, parse
from minimizer.program.interpret import run
from minimizer.program.torch_code import function_text

FINDINGS = os.path.join(ROOT, "corpus", "findings")


def _program(bucket):
    path = os.path.join(FINDINGS, bucket, "repro.min.py")
    with open(path, encoding="utf-8") as f:
        return parse(f.read(), path)


def _run(p, ins, *, upcast=False, perturb=0, narrow=False):
    """(outputs, inputs after the run) of the reference interpreter, as the reference worker runs
    it (``RunOptions.fp64``, ``perturb``, ``narrow_scans``)."""
    ins = [x.clone() for x in ins]
    token = scans.NARROW.set(narrow)
    try:
        fe = p.dialect.frontend
        outs = run(p.stmts, ins, frontend=fe, ctx=Ctx(device="cpu", frontend=fe), upcast=upcast,
                   perturb=perturb).outputs
    finally:
        scans.NARROW.reset(token)
    return list(outs), ins


def _inputs(seed, *specs):
    torch.manual_seed(seed)
    return [torch.testing.make_tensor(shape, dtype=dtype, device="cpu") for shape, dtype in specs]


class Refs:
    """Everything fmin's ``Mismatch`` judges a program's outputs (and inputs after execute) with."""

    def __init__(self, p, ins):
        self.eager, self.eager_ins = _run(p, ins)
        outs, after = _run(p, ins, upcast=True)
        self.exact = outs + _inputs_after(after, len(ins))
        runs = [_run(p, ins, upcast=True, perturb=k) for k in range(1, PERTURBED_RUNS + 1)]
        self.perturbed = [o + _inputs_after(a, len(ins)) for o, a in runs]
        self.narrow = [sum(_run(p, ins, narrow=mode), []) for mode in mismatch.NARROW_MODES]

    def judge(self, outs, ins_after=(), alternatives=None):
        alts = self.perturbed + self.narrow if alternatives is None else alternatives
        return judge(list(outs) + list(ins_after), self.eager + self.eager_ins[:len(ins_after)],
                     self.exact[:len(self.eager)] + self.exact[len(self.eager):][:len(ins_after)],
                     alternatives=[a[:len(self.eager)] + a[len(self.eager):][:len(ins_after)] for a in alts])


def _attachment_says(p, ins, outs, ins_after=None) -> str | None:
    """The attachment's verdict (its check section, as written into it) on ``outs``: None, or the
    error. It is fmin's tolerance alone, so it fails on every output fmin calls wrong (and on some
    that fmin excuses as rounding: those are never filed)."""
    before = [x.clone() for x in ins]
    after = [x.clone() for x in ins] if ins_after is None else ins_after
    g = {"torch": torch, "outputs": outs, "inputs": after, "inputs_before": before}
    try:
        exec("\n".join(plain_check.section(p, "outputs", "inputs", "fmin check")), g)
    except AssertionError as e:
        return str(e)
    return None


# ---------------------------------------------------------------- rounding, then a discontinuity
@pytest.mark.parametrize("bucket,seed,shape,dtype", [
    ("4dcbde12517c", 1, (6,), torch.bfloat16),     # bf16 cumprod -> cast Int
    ("c628a67231ec", 0, (13,), torch.bfloat16),    # bf16 cumsum -> cast Int32
])
def test_rounding_then_an_integer_cast_is_no_evidence(bucket, seed, shape, dtype):
    """nvFuser's scan rounds its bf16 partial results its own way; the cast to an integer makes one
    bf16 ulp of difference (8 at 1580: 1576 vs 1584 recorded) a different integer, unlike eager's
    and the exact one. B: the narrow scan, then the cast (``scans.NARROW``, what nvFuser does).
    The perturbed float64 runs alone show the element ill-conditioned."""
    p = _program(bucket)
    ins = _inputs(seed, (shape, dtype))
    r = Refs(p, ins)
    b = _run(p, ins, narrow=True)[0]
    assert not judge(b, r.eager, r.exact).ok                       # the false positive, as filed
    c = r.judge(b, alternatives=r.perturbed)
    assert c.ok and c.outputs[0].excused >= 1, c.first_mismatch
    assert r.judge(b).ok
    wrong = b[0].clone()
    wrong[-1] = wrong[-1] * 3 + 7                                 # far beyond any rounding
    assert not r.judge([wrong]).ok
    assert "wrong result (values)" in _attachment_says(p, ins, [wrong])


def test_a_comparison_fed_by_a_rounded_value_is_no_evidence_unless_far_from_its_threshold():
    """``x * 1.1 > 0.5`` at Half: an element whose exact product is within a rounding of 0.5 may
    come out either way; one far from it may not."""
    text = """import torch
from nvfuser_direct import FusionDefinition, DataType

def f(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    c0 = fd.define_scalar(1.1, dtype=DataType.Double)
    tv1 = fd.ops.mul(tv0, c0)
    tv2 = fd.ops.cast(tv1, dtype=DataType.Half)
    c1 = fd.define_scalar(0.5, dtype=DataType.Double)
    tv3 = fd.ops.gt(tv2, c1)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    f(fd)

inputs = [torch.tensor([0.4548, 0.455, 0.1, 0.9], dtype=torch.float16, device='cpu')]
fd.execute(inputs)
"""
    p = parse(text, "gt.py")
    ins = [torch.tensor([0.4548, 0.455, 0.1, 0.9], dtype=torch.float16)]
    r = Refs(p, ins)
    e = r.eager[0]
    flipped_near = e.clone()
    flipped_near[:2] = ~e[:2]                      # within a Half rounding of the threshold
    assert torch.equal(e, r.exact[0]) and not judge([flipped_near], r.eager, r.exact).ok
    assert r.judge([flipped_near]).ok
    flipped_far = e.clone()
    flipped_far[2] = ~e[2]                         # 0.11 vs 0.5: no rounding gets there
    assert not r.judge([flipped_far]).ok
    assert _attachment_says(p, ins, [flipped_far]) is not None


# ---------------------------------------------------------------- amplification
def test_a_one_ulp_difference_magnified_by_cosh_is_no_evidence():
    """70a6003adcaf: ``cosh(addcmul(x, x, x, 0.5))`` in float32. nvFuser's argument is one ulp
    from eager's (an fma rounds once), and cosh near 27 multiplies a relative difference by 27:
    rtol 1.3e-6 is ~11 float32 eps. B: eager's argument moved one ulp up, cosh correctly rounded."""
    p = _program("70a6003adcaf")
    ins = _inputs(4, ((4, 3), torch.float32))
    r = Refs(p, ins)
    x = ins[0]
    arg = torch.nextafter(torch.addcmul(x, x, x, value=0.5), torch.tensor(float("inf")))
    b = [torch.cosh(arg.double()).float()]
    assert not judge(b, r.eager, r.exact).ok                      # the false positive, as filed
    c = r.judge(b, alternatives=r.perturbed)
    assert c.ok and c.outputs[0].excused >= 1, c.first_mismatch
    for bad in (b[0] * 1.5, torch.where(torch.arange(12).reshape(4, 3) == 5, float("nan"), b[0])):
        assert not r.judge([bad]).ok                               # 50% off; NaN where all are finite
        assert _attachment_says(p, ins, [bad]) is not None


# ---------------------------------------------------------------- accumulation in the narrow type
def test_a_half_scan_accumulating_in_half_is_no_evidence():
    """80261ddfdeb1: a Half ``cumprod`` over 13 elements. nvFuser's scan accumulates in Half, so a
    partial product past 65504 stays infinite (-inf recorded where eager, accumulating in float,
    gives -13784). B: the scan with one Half rounding per step (``scans.NARROW``). Perturbing the
    inputs cannot show it (the float64 runs never overflow): the narrow-scan run does."""
    p = _program("80261ddfdeb1")
    ins = _inputs(0, ((4, 13, 4), torch.float16))
    r = Refs(p, ins)
    b = _run(p, ins, narrow=True)[0]
    c0 = judge(b, r.eager, r.exact)
    assert not c0.ok and c0.outputs[0].rule == "nonfinite"        # the false positive, as filed
    assert not r.judge(b, alternatives=r.perturbed).ok
    assert r.judge(b).ok
    bad = b[0].clone()
    k = int(torch.nonzero(torch.isfinite(bad.reshape(-1)) & (bad.reshape(-1).abs() > 1))[0])
    bad.view(-1)[k] = -bad.view(-1)[k]                             # a finite element's sign flipped
    assert not r.judge([bad]).ok
    assert _attachment_says(p, ins, [bad]) is not None


def test_the_narrow_scan_is_one_rounding_per_step():
    x = torch.testing.make_tensor((3, 9, 2), dtype=torch.bfloat16, device="cpu", low=-3, high=3)
    for name, combine in (("cumsum", torch.add), ("cumprod", torch.mul)):
        want = x[:, :1]
        for i in range(1, 9):
            want = torch.cat([want, combine(want[:, -1:], x[:, i:i + 1]).to(torch.bfloat16)], 1)
        token = scans.NARROW.set(True)
        try:
            got = scans._cumsum(x, 1) if name == "cumsum" else scans._cumprod(x, 1)
        finally:
            scans.NARROW.reset(token)
        assert torch.equal(got, want)


def _kogge_stone(x, dim, combine):
    """A scan in ``x.dtype`` in a tree order (each step combines windows of twice the length, as a
    warp scan does): what a block-scan kernel such as CUB's, run on half values, computes."""
    y = x.movedim(dim, 0).clone()
    step = 1
    while step < y.shape[0]:
        z = y.clone()
        z[step:] = combine(y[:-step], y[step:]).to(x.dtype)
        y, step = z, step * 2
    return y.movedim(0, dim)


def test_a_half_scan_in_a_tree_order_is_no_evidence():
    """80261ddfdeb1 as refiled on the GPU: nvFuser's Half ``cumprod`` gave inf where the exact
    result is 44653 and an in-order Half accumulation stays finite: its block scan (CUB, on the
    input's type) multiplies windows an in-order scan never forms, and one of them passed 65504.
    A tree-ordered Half scan (B) is a legitimate result; one element's sign flipped is not."""
    x = torch.full((4, 13, 4), 0.5, dtype=torch.float16)
    x[:, 1], x[:, 2], x[:, 3] = 300.0, 300.0, 0.25           # in order: 0.5, 150, 45000, 11250 ...
    p = _program("80261ddfdeb1")
    r = Refs(p, [x])
    b = [_kogge_stone(x, 1, torch.mul)]
    seq = [x[:, 0]]
    for i in range(1, 13):
        seq.append((seq[-1] * x[:, i]).to(torch.float16))
    assert bool(torch.isinf(b[0]).any()) and not bool(torch.isinf(torch.stack(seq, 1)).any())   # only the tree order overflows
    assert not judge(b, r.eager, r.exact).ok
    assert r.judge(b).ok
    bad = b[0].clone()
    bad[0, 0, 0] = -bad[0, 0, 0]
    assert not r.judge([bad]).ok and _attachment_says(p, [x], [bad]) is not None


def test_a_bf16_scan_in_another_order_then_an_integer_cast_is_no_evidence():
    """c628a67231ec as refiled on the GPU: a bf16 ``cumsum`` cast to Int32 gave 18 where eager and
    the exact result give 17. Accumulated in bf16 in another order (a tree), the partial sums
    round elsewhere: within the bound of any order, the cast may land on either integer. A value
    far beyond that bound stays wrong."""
    p = _program("c628a67231ec")
    torch.manual_seed(0)
    for trial in range(200):
        x = torch.testing.make_tensor((13,), dtype=torch.bfloat16, device="cpu")
        tree = _kogge_stone(x, 0, torch.add).to(torch.int32)
        in_order = [x[0]]
        for v in x[1:]:
            in_order.append((in_order[-1] + v).to(torch.bfloat16))
        eager = torch.cumsum(x.float(), 0).to(torch.bfloat16).to(torch.int32)
        if not bool(((tree != eager) & (tree != torch.stack(in_order).to(torch.int32))).any()):
            continue   # eager or an in-order bf16 scan gives the tree's integer
        r = Refs(p, [x])
        if not r.judge([tree], alternatives=r.perturbed + r.narrow[:1]).ok:
            break      # nor do the perturbed exact runs excuse it: only the bound of any order can
    else:
        pytest.fail("no input among 200 where only the bound of any order excuses a tree-ordered bf16 cumsum")
    assert not judge([tree], r.eager, r.exact).ok
    assert r.judge([tree]).ok
    bad = r.eager[0].clone()
    bad[-1] += 50
    assert not r.judge([bad]).ok and _attachment_says(p, [x], [bad]) is not None


# ---------------------------------------------------------------- aliased inputs
def test_an_aliased_input_gets_the_rounding_rule_outputs_get():
    """80c64cfcb984: a float32 sum over 512 terms written into an input (``add_output(tv3, tv1)``).
    The fp64 run leaves the exact sum in that input (float64), so it is judged against it as an
    output is. B: the sum with one serial float32 accumulator (another order than eager's)."""
    p = _program("80c64cfcb984")
    ins = _inputs(1, ((8, 8, 512), torch.float32), ((8, 8, 1), torch.float32))
    r = Refs(p, ins)
    assert r.exact[1].dtype == torch.float64 and torch.allclose(r.exact[1], ins[0].double().sum(2, keepdim=True))
    b_in = ins[0].cumsum(2)[..., -1:]
    assert not judge([b_in], [r.eager_ins[1]], [None]).ok          # judged against eager alone: as filed
    after = [ins[0].clone(), b_in]
    assert r.judge([], after).ok
    bad = b_in.clone()
    bad[3, 4, 0] += 1.0                                              # a wrong value in the aliased input
    assert not r.judge([], [ins[0].clone(), bad]).ok
    assert "input 1" in _attachment_says(p, ins, [], [ins[0].clone(), bad])


# ---------------------------------------------------------------- real wrong results stay wrong
def test_wrong_shapes_dtypes_and_counts_stay_wrong_with_alternatives():
    p = _program("70a6003adcaf")
    ins = _inputs(4, ((4, 3), torch.float32))
    r = Refs(p, ins)
    e = r.eager[0]
    for bad, what in ((e.t().contiguous(), "shape"), (e.double(), "dtype")):
        c = r.judge([bad])
        assert not c.ok and c.outputs[0].what == what
        assert f"wrong result ({what})" in _attachment_says(p, ins, [bad])
    assert not judge([e, e], r.eager, r.exact, alternatives=r.perturbed).ok
    assert "wrong result (count)" in _attachment_says(p, ins, [e, e])


def test_an_element_is_excused_only_within_reach_of_a_legitimate_result():
    """The excuse is bounded: an ill-conditioned element may differ as the legitimate results do
    (``SPREAD`` times their spread), not arbitrarily."""
    x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    e = x.float()
    alt = x * torch.tensor([1.0, 1.0, 1.001])                     # element 2 moves by 1e-3 relative
    assert compare.judge_one(e + torch.tensor([0, 0, 0.004]), e, x, alternatives=[alt]).ok
    d = compare.judge_one(e + torch.tensor([0, 0, 0.01]), e, x, alternatives=[alt])
    assert not d.ok and d.excused == 0
    assert not compare.judge_one(e + torch.tensor([0.004, 0, 0]), e, x, alternatives=[alt]).ok   # not ill


# ---------------------------------------------------------------- end to end: --mismatch's runs
HALF_SCAN_BACKEND = '''
"""The reference, its half scans accumulating in half as nvFuser's scan kernel does: a legitimate
implementation that differs from eager (a test's plugin)."""
from dataclasses import replace

from minimizer.backends import register
from minimizer.backends.reference import Reference, ReferenceRunner, modules
from minimizer.frontend.fusion_definition import reference_executor


class HalfScanRunner(ReferenceRunner):
    def run_script(self, text, path, device, options, values_path=None):
        return super().run_script(text, path, device, options.replace(narrow_scans=True), values_path)


@register
class HalfScan(Reference):
    facts = replace(Reference.facts, name="halfscan", display_name="HalfScan", auto_rank=None,
                    summary="the reference, its half scans accumulating in half (a test's plugin)")
    runner = HalfScanRunner


def _off_by_four(stmts, inputs, frontend, device):
    outs = reference_executor(stmts, inputs, frontend, device)
    outs[0].view(-1)[0] += 4
    return outs


class BadScanRunner(HalfScanRunner):
    def warm(self, device):
        info = super().warm(device)
        self._modules = modules(_off_by_four)
        return info


@register
class BadScan(HalfScan):
    facts = replace(HalfScan.facts, name="badscan", display_name="BadScan",
                    summary="HalfScan, the first element of its first output 4 off (a test's plugin)")
    runner = BadScanRunner
'''

# 80261ddfdeb1's fusion, its cumprod also written into an aliased input
HALF_SCAN_ALIASED = """import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[4, 13, 4], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[4, 13, 4], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    T4 = fd.ops.set(T1)
    T8 = fd.ops.cumprod(T4, dim=1)
    fd.add_output(T8)
    fd.add_output(T8, T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 13, 4), dtype=torch.float16, device='cpu'),
    torch.testing.make_tensor((4, 13, 4), dtype=torch.float16, device='cpu'),
]
fd.execute(inputs)
"""


@pytest.fixture(scope="module")
def half_scan_pools(tmp_path_factory):
    from minimizer import plugins
    from minimizer.oracle import Pools
    path = tmp_path_factory.mktemp("plugin") / "half_scan_backend.py"
    path.write_text(HALF_SCAN_BACKEND)
    old = os.environ.get(plugins.VARIABLE)
    os.environ[plugins.VARIABLE] = str(path)
    try:
        plugins.load()
        with Pools("halfscan", "cpu", jobs=1, timeout=300) as p:
            yield p
    finally:
        if old is None:
            os.environ.pop(plugins.VARIABLE, None)
        else:
            os.environ[plugins.VARIABLE] = old


def _mismatch(pools, text):
    from minimizer.oracle.property import Mismatch, Property, evaluate
    v = evaluate(Property((Mismatch(),)), text, "half_scan.py", pools, seed=0, all_checks=True)
    return v, v.get(Mismatch)


def test_mismatch_runs_the_alternatives_and_judges_aliased_inputs_on_the_rare_path(half_scan_pools):
    """A backend whose half scans accumulate in half, on 80261ddfdeb1's fusion with its result
    also written into an aliased input: it differs from eager (infinities kept) in the output and
    in the input, and ``--mismatch`` says rounding, not a wrong result."""
    v, ev = _mismatch(half_scan_pools, HALF_SCAN_ALIASED)
    assert v.outcome.ok, v.outcome.message
    assert not ev.comparison.ok
    bad = {d.label for d in ev.comparison.outputs if not d.ok}
    assert "output 0" in bad and "input 1 (after execute)" in bad, bad
    assert ev.comparison_fp64.ok, ev.comparison_fp64.first_mismatch
    by_label = {d.label: d for d in ev.comparison_fp64.outputs}
    assert by_label["output 0"].excused and by_label["input 1 (after execute)"].excused
    assert not v.holds and "rounding" in v.reason


def test_mismatch_still_finds_a_wrong_value_on_the_rare_path(tmp_path_factory, half_scan_pools):
    """The same backend with one element of the output wrong (its first, which every legitimate
    scan computes exactly): a wrong result, though the alternatives were run."""
    from minimizer.oracle import Pools
    with Pools("badscan", "cpu", jobs=1, timeout=300) as p:
        v, ev = _mismatch(p, HALF_SCAN_ALIASED)
    assert v.outcome.ok, v.outcome.message
    assert v.holds, v.reason
    d = next(d for d in ev.comparison_fp64.outputs if d.label == "output 0")
    assert not d.ok and d.worst == [0, 0, 0], d.reason
    assert next(d for d in ev.comparison_fp64.outputs if d.label == "input 1 (after execute)").ok


def test_scans_stay_traceable_by_dynamo_for_the_inductor_translation():
    """The narrow-scan switch of the reference (a ``ContextVar``) is invisible to Dynamo: the
    Inductor translation compiles the catalog's own refs, and a graph break there made every
    Half ``cumsum`` an fmin-translation failure of the CI smoke campaign."""
    from minimizer.ops import Ctx, lookup
    from minimizer.ops.scans import NARROW
    for op in ("cumsum", "cumprod"):
        ref = lookup(f"ops.{op}").ref
        x = torch.arange(1.0, 6.0, dtype=torch.float16)
        compiled = torch.compile(lambda t: ref(Ctx(), t, 0), backend="eager", fullgraph=True)
        token = NARROW.set(True)
        try:
            got = compiled(x)
        finally:
            NARROW.reset(token)
        assert torch.equal(got, getattr(torch, op)(x, 0, dtype=x.dtype)), op
