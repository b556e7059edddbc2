"""Issue 22, part 3: every bucket's ``repro.min.py`` shows its finding when run as written.

- the eager computation written as plain torch (``program.torch_code``) computes what fmin's
  reference computes, bit for bit, on the corpus's minimal repros and on generated programs;
- the attachment's check (``filing.plain_check``: ``torch.testing.assert_close`` at fmin's
  tolerance) calls an output wrong exactly where it is beyond that tolerance of eager
  (``compare.compare``), so it fails on every output fmin's full rule calls wrong;
- a layout/order finding is filed in the variant that fails, the other one in the report; a wrong
  result ends with the check, which fmin's own runs skip (``__fmin__``) and a standalone run
  does not (``backends/launch.py``);
- a standalone nvFuser run's traceback, as captured from real nvFuser 0.2.36 on the H200
  (``tests/data/nvfuser/logs-0.2.36``), gets the signature a worker gives the same error, and its
  ``NVFUSER_DUMP`` output the worker's segmentation.
"""
import dataclasses
import glob
import json
import os
import re
import subprocess
import sys

import pytest
import torch

from conftest import ROOT
from minimizer import dtypes
from minimizer.backends import nvfuser
from minimizer.fuzz.filing import attachment, plain_check, standalone
from minimizer.fuzz.sources import generate
from minimizer.fuzz.store import record
from minimizer.fuzz.store.key import FAILURE, MISMATCH, BucketKey
from minimizer.fuzz.store.record import Bucket
from minimizer.model import TensorArg
from minimizer.ops import CATALOG, Ctx
from minimizer.oracle.checks import LayoutDependent, LayoutResult, OrderDependent, OrderResult
from minimizer.oracle.compare import compare_one, default_factor, judge_one, tolerance
from minimizer.oracle.outcome import Outcome
from minimizer.oracle.property import Evaluation, Property
from minimizer.program import parse
from minimizer.program.interpret import run
from minimizer.program.static import is_valid
from minimizer.program.torch_code import NotPlainTorch, function_text
from minimizer import report as reports
from minimizer.report import repro_header

FINDINGS = os.path.join(ROOT, "corpus", "findings")
LOGS = os.path.join(ROOT, "tests", "data", "nvfuser", "logs-0.2.36")


# ---------------------------------------------------------------- the eager computation as torch code
def _inputs(program, seed=0):
    torch.manual_seed(seed)
    out = []
    for a in program.inputs:
        if not isinstance(a, TensorArg):
            out.append(a.value)
            continue
        dt = dtypes.to_torch(a.dtype)
        t = torch.testing.make_tensor(a.shape, dtype=dt, device="cpu")
        out.append(t.as_strided(a.shape, a.strides) if 0 in a.strides
                   else torch.empty_strided(a.shape, a.strides, dtype=dt).copy_(t))
    return out


def _same(a, b) -> bool:
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        return a == b
    return (a.dtype == b.dtype and a.shape == b.shape and torch.equal(a.isnan(), b.isnan())
            and torch.equal(torch.nan_to_num(a), torch.nan_to_num(b)))


def _programs():
    for path in sorted(glob.glob(os.path.join(FINDINGS, "*", "repro.min.py"))):
        reduced = os.path.join(os.path.dirname(path), "reduced.py")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if "\nVERSIONS = []" in text and os.path.exists(reduced):   # a segmentation attachment: two programs
            path = reduced
            with open(path, encoding="utf-8") as f:
                text = f.read()
        yield os.path.relpath(path, ROOT), parse(text, path)
    for e in generate.chunk(2026, 0, frontend="nvfuser_direct"):
        yield e.id, e.program


def test_torch_code_computes_what_the_reference_computes():
    """For every corpus repro and a chunk of generated programs: the emitted functions (eager
    and float64) give the interpreter's outputs exactly; a program the static check rejects is
    refused with NotPlainTorch, never written as code that computes something."""
    written = refused = 0
    for name, p in _programs():
        if any(getattr(CATALOG.get(s.call), "family", "") == "random" for s in p.op_stmts()):
            continue
        fe = p.dialect.frontend
        if not is_valid(p):   # the reference rejects it on meta tensors: no code for it
            with pytest.raises(NotPlainTorch):
                function_text(p, "f")
            refused += 1
            continue
        for upcast in (False, True):
            ins = _inputs(p)
            try:
                want = run(p.stmts, [x.clone() if isinstance(x, torch.Tensor) else x for x in ins], frontend=fe,
                           ctx=Ctx(device="cpu", frontend=fe), upcast=upcast).outputs
            except Exception:   # on these values (an index out of range): nothing to compare
                continue
            g = {"torch": torch}
            exec(function_text(p, "f", upcast=upcast), g)
            got = g["f"](*[x.clone() if isinstance(x, torch.Tensor) else x for x in ins], device=torch.device("cpu"))
            assert len(got) == len(want) and all(_same(a, b) for a, b in zip(got, want)), (name, upcast)
            written += 1
    assert written >= 150 and refused >= 1, (written, refused)


# ---------------------------------------------------------------- the check against fmin's rule
def _up(t, n):
    for _ in range(n):
        t = torch.nextafter(t, torch.tensor(float("inf"), dtype=t.dtype))
    return t


def _cases():
    g = torch.Generator().manual_seed(22)
    a = torch.randn(16, 4096, generator=g)
    e, x = a.sum(1), a.double().sum(1)
    yield "fp32 sum, a tree", a.reshape(16, 64, 64).sum(2).sum(1), e, x
    yield "fp32 sum, one serial accumulator", a.cumsum(1)[:, -1], e, x
    yield "fp32 sum, one row 1% off", torch.where(torch.arange(16) == 3, e * 1.01, e), e, x
    c = torch.randn(9, 7, generator=g)
    yield "a copy", c.clone(), c, c.double()
    yield "a copy, one ulp off", _up(c, 1), c, c.double()
    yield "a copy, two ulps off at one element", torch.where(torch.arange(63).reshape(9, 7) == 5, _up(c, 2), c), c, \
        c.double()
    yield "a copy, one element 1e-3 off", torch.where(torch.arange(63).reshape(9, 7) == 5, c + 1e-3, c), c, c.double()
    h = torch.randn(32, 33, generator=g).half()
    eh = ((h * 1.1 + 0.3) * 1.1 + 0.3)
    xh = ((h.double() * 1.1 + 0.3) * 1.1 + 0.3)
    yield "fp16 chain, float32 inside", ((h.float() * 1.1 + 0.3) * 1.1 + 0.3).half(), eh, xh
    yield "fp16 chain, one element 5% off", torch.where(torch.arange(33) == 4, eh * 1.05, eh).half(), eh, xh
    b = torch.randn(40, generator=g).bfloat16()
    yield "bf16 cumsum in float", b.float().cumsum(0).bfloat16(), b.cumsum(0), b.double().cumsum(0)
    yield "bf16 cumsum, halved", (b.cumsum(0) / 2), b.cumsum(0), b.double().cumsum(0)
    yield "a NaN where both are finite", torch.where(torch.arange(7) == 2, float("nan"), c[0]), c[0], c[0].double()
    big = torch.full((4,), 6e4, dtype=torch.float16)
    yield "eager overflows, float64 does not; backend finite", torch.full((4,), 6e4, dtype=torch.float16), \
        big * 2 / 2, big.double() * 2 / 2
    i = torch.randint(-50, 50, (6, 5), generator=g)
    yield "int64, one off by one", torch.where(torch.arange(30).reshape(6, 5) == 7, i + 1, i), i, i
    yield "int64, the exact result's", i + 1, i, i + 1
    yield "bool, one flipped", torch.arange(8) % 3 == 0, torch.arange(8) % 2 == 0, torch.arange(8) % 2 == 0
    yield "dtype differs", c.double(), c, c.double()
    yield "shape differs", c.t(), c, c.double()
    yield "a Python float, equal", 2.5, 2.5, 2.5
    yield "a Python int, wrong", 3, 4, 4
    z = torch.randn(5, 3, dtype=torch.complex64, generator=g)
    yield "complex64 copy", z.clone(), z, z.to(torch.complex128)
    yield "complex64, one element off", torch.where(torch.arange(15).reshape(5, 3) == 1, z * 1.1, z), z, \
        z.to(torch.complex128)
    yield "empty", torch.empty(0, 3), torch.empty(0, 3), torch.empty(0, 3, dtype=torch.float64)


def _fmin_says_wrong(b, e, x) -> bool:
    """``checks/mismatch.py``'s decision: beyond eager's tolerance, and not within what eager's
    rounding costs against the exact result."""
    return not compare_one(b, e).ok and not judge_one(b, e, x).ok


def _check_says_wrong(b, e, x) -> str | None:
    """The attachment's check, as written into attachments, on one output ``b`` whose eager value is
    ``e`` and float64 value ``x``: the error it raises, or None."""
    dts = [b.dtype] if b.is_floating_point() or b.is_complex() else []
    g = {"torch": torch, "eager_reference": lambda *a, device: (e.clone(),),
         "exact_reference": lambda *a, device: (x,)}
    exec("\n".join(plain_check.check_function(dts, "function")), g)
    try:
        g[plain_check.CHECK]([b], [], [], "cpu")
    except AssertionError as err:
        return str(err)
    return None


TENSOR_CASES = [c for c in _cases() if isinstance(c[1], torch.Tensor)]


@pytest.mark.parametrize("name,b,e,x", TENSOR_CASES, ids=[c[0] for c in TENSOR_CASES])
def test_the_check_fails_on_every_output_fmin_calls_wrong(name, b, e, x):
    """It calls an output wrong exactly where it is beyond fmin's tolerance of eager (its excuse is
    never wider than fmin's verdict), so a wrong result fmin filed fails it."""
    said = _check_says_wrong(b, e, x)
    beyond = b.dtype != e.dtype or b.shape != e.shape or not compare_one(b, e).ok
    assert (said is not None) == beyond, (name, said)
    if _fmin_says_wrong(b, e, x) or b.dtype != e.dtype or b.shape != e.shape:
        assert said is not None and said.startswith("wrong result ("), name


def test_the_check_is_not_vacuous():
    """Copies and a tree-ordered sum pass; wrong values fail, integers exactly; the message names the
    output and the kind of difference, and quotes the float64 comparison for floating values."""
    verdicts = {name: _check_says_wrong(b, e, x) for name, b, e, x in TENSOR_CASES}
    for right in ("fp32 sum, a tree", "a copy", "complex64 copy", "empty"):
        assert verdicts[right] is None, (right, verdicts[right])
    for wrong in ("fp32 sum, one row 1% off", "a copy, one element 1e-3 off", "fp16 chain, one element 5% off",
                  "bf16 cumsum, halved", "a NaN where both are finite", "int64, one off by one", "bool, one flipped",
                  "int64, the exact result's", "dtype differs", "shape differs", "complex64, one element off"):
        assert verdicts[wrong] is not None, wrong
    assert verdicts["fp32 sum, one row 1% off"].startswith("wrong result (values) in output 0")
    assert "against float64 the largest error is" in verdicts["fp32 sum, one row 1% off"]
    assert "Mismatched elements: 1 / 30" in verdicts["int64, one off by one"]
    assert "wrong result (dtype)" in verdicts["dtype differs"] and "wrong result (shape)" in verdicts["shape differs"]


def _section_says(text: str, outs, after, before) -> str | None:
    """Run the check section of ``text``'s attachment on ``outs`` (inputs ``after`` the run,
    ``before`` it): the AssertionError's words, or None."""
    p = parse(text)
    g = {"torch": torch, "outputs": outs, "inputs": after, "inputs_before": before}
    try:
        exec("\n".join(plain_check.section(p, "outputs", "inputs", "fmin check")), g)
    except AssertionError as err:
        return str(err)
    return None


def test_the_check_runs_a_reference_whose_aten_ops_return_several_tensors():
    """``var_mean`` returns a tuple of tensors (a real attachment, var_mean then min, once failed with
    a TypeError instead of its check's verdict): a right output passes, a wrong one fails."""
    text = VAR_MEAN_MIN
    x = torch.randn(2).as_strided((3, 2), (0, 1))
    right = [torch.var_mean(x, [1], correction=1, keepdim=True)[1].amin(0)]
    assert _section_says(text, right, [x], [x.clone()]) is None
    assert "wrong result (shape) in output 0" in _section_says(text, [torch.zeros(7)], [x], [x.clone()])


def test_an_input_written_in_place_is_checked_and_named():
    """An aliased output writes into an input: the check compares that input with what eager writes
    into its own copy, and names it."""
    x, y = torch.randn(4, 3), torch.randn(4, 3)
    right = [x.clone(), (-y).clone()]
    assert _section_says(ALIAS_NEG, [], right, [x.clone(), y.clone()]) is None
    wrong = [x.clone(), (-y).clone()]
    wrong[1][2, 1] += 1.0
    said = _section_says(ALIAS_NEG, [], wrong, [x.clone(), y.clone()])
    assert said is not None and said.startswith("wrong result (values) in input 1 after fd.execute")


def test_the_tolerances_written_are_fmins():
    g: dict = {"torch": torch}
    dts = [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.complex64]
    table = eval(plain_check.tolerance_literal(dts), g)
    for dt in dts:
        assert table[dt] == tolerance(dt)


def test_a_wrong_result_attachment_is_short():
    """Every wrong result of the corpus, filed today, is at most ``attachment.LINES`` lines but for
    those whose fusion and inputs alone are long; none carries fmin's comparison machinery."""
    sizes = {}
    for d in sorted(glob.glob(os.path.join(FINDINGS, "*", ""))):
        m = record.load_dir(d)
        if m is None or m.kind != "mismatch" or not os.path.exists(d + "reduced.py"):
            continue
        with open(d + "reduced.py", encoding="utf-8") as f:
            att = attachment.build(f.read(), d + "reduced.py", m, None)
        sizes[m.id] = len(att.text.splitlines())
        assert "def judge_floats" not in att.text and "TOLERANCES = {" not in att.text
    assert len(sizes) >= 15 and all(n <= attachment.LINES for n in sizes.values()), sizes


VAR_MEAN_MIN = """import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False)
    tv1, tv2 = fd.ops.var_mean(tv0, dims=[1], correction=1, keepdim=True)
    tv3 = fd.ops.min(tv2, dims=[0], keepdim=False)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [torch.randn(2, device='cuda').as_strided((3, 2), (0, 1))]
outputs = fd.execute(inputs)
"""

ALIAS_NEG = """import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.neg(tv1)
    fd.add_output(tv2, tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [torch.randn(4, 3, device='cuda'), torch.randn(4, 3, device='cuda')]
outputs = fd.execute(inputs)
"""


# ---------------------------------------------------------------- the attachment's forms
ONE_INPUT = """import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.{op}(tv0, tv1)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 6), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((4, 6), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
"""
ENV = {"backend": "nvfuser", "device": "cuda", "torch": "2.11.0+cu130", "gpu": "NVIDIA H200",
       "options": {"NVFUSER_DUMP": "segmented_fusion", "NVFUSER_DISABLE": "parallel_compile"}}


def _meta(kind, flags, key=BucketKey(verbatim="k"), words="w"):
    return Bucket(id="b0", kind=kind, owner="nvfuser", key=key, words=words, flags=flags, environment=ENV)


def _reduced(op="add"):
    return repro_header(ENV, "fmin fuzz ...", "p") + ONE_INPUT.replace("{op}", op)


def _verdict(check, evidence):
    prop = Property((check,))
    ((key, _),) = prop.keyed()
    return Evaluation(True, "r", {key: (True, "r")}, evidence.original, {key: evidence}, prop)


ONE = Outcome("ok", "nvfuser", segments=1, schedulers=["pointwise"])
FAIL = Outcome("error", "nvfuser", signature="nvfuser input-mismatch: tensor_metadata.cpp:validate: RuntimeError: x")


def test_a_layout_finding_is_filed_in_the_layout_that_fails():
    reduced = _reduced()
    v = _verdict(LayoutDependent(), LayoutResult(["tv0", "tv1"], ONE, FAIL))
    att = attachment.build(reduced, "r.py", _meta("layout-dependent", {"layout_dependent": True}), None, v)
    p = parse(att.text)
    assert all(s.arg("stride_order") == (0, 1) for s in p.input_stmts())
    assert [a.strides for a in p.inputs] == [(1, 4), (1, 4)]
    assert att.expect == {"kind": "outcome", "status": "error", "signature": FAIL.signature, "segments": None,
                          "schedulers": None}
    assert att.passing == reduced and "layout that fails" in att.variant
    assert "# as filed: the inputs in the layout that fails" in att.text
    assert "# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion" in att.text
    section = attachment.passing_section(att)
    assert "fd.define_tensor(shape=[-1, -1], contiguity=[True, True]" in section and "1 segment" in section
    # the other way round: the reduced layout fails, the variant passes — filed as reduced
    v = _verdict(LayoutDependent(), LayoutResult(["tv0", "tv1"], FAIL, ONE))
    att = attachment.build(reduced, "r.py", _meta("layout-dependent", {"layout_dependent": True}), None, v)
    assert parse(att.text).stmts == parse(reduced).stmts and att.expect["status"] == "error"
    assert "stride_order" in att.passing


def test_an_order_finding_is_filed_in_the_order_that_fails():
    """On a backend whose scripts cannot show their split by themselves (Inductor: the launcher's
    outcome says it), the variant is filed and its segmentation is what it must show."""
    two = Outcome("ok", "inductor", segments=2, schedulers=["pointwise", "reduction"])
    v = _verdict(OrderDependent(), OrderResult(["tv0", "tv1"], ONE, perm=[1, 0], kind="swap", outcome=two))
    meta = dataclasses.replace(_meta("order-dependent", {"order_dependent": True}), backend="inductor")
    att = attachment.build(_reduced("sub"), "r.py", meta, None, v)
    p = parse(att.text)
    assert [s.outs[0] for s in p.input_stmts()] == ["tv1", "tv0"]
    assert att.expect["segments"] == 2 and att.expect["schedulers"] == ["pointwise", "reduction"]
    assert "swapping inputs 0 (tv0) and 1 (tv1)" in att.variant
    assert "torch.manual_seed(0)" in att.text.split("inputs = [")[0].splitlines()[-1]


def _versions(text):
    """The (what, script) pairs a segmentation attachment runs (its ``VERSIONS.append`` lines)."""
    import ast
    return [tuple(ast.literal_eval(n.value.args[0])) for n in ast.parse(text).body
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and getattr(n.value.func, "attr", "") == "append"]


def test_an_nvfuser_segmentation_finding_runs_both_versions_and_compares_their_splits():
    two = Outcome("ok", "nvfuser", segments=2, schedulers=["pointwise", "reduction"])
    v = _verdict(OrderDependent(), OrderResult(["tv0", "tv1"], ONE, perm=[1, 0], kind="swap", outcome=two))
    att = attachment.build(_reduced("sub"), "r.py", _meta("order-dependent", {"order_dependent": True}), None, v)
    assert att.expect == {"kind": "segmentation"} and att.variant.startswith("both: as reduced, and swapping")
    (w1, reduced), (w2, swapped) = _versions(att.text)
    assert w1 == "as reduced" and parse(reduced).stmts == parse(_reduced("sub")).stmts
    assert [s.outs[0] for s in parse(swapped).input_stmts()] == ["tv1", "tv0"]
    assert all("torch.manual_seed(0)" in t for t in (reduced, swapped))
    assert att.text.startswith("# Minimized by fmin") and "os.environ.setdefault('NVFUSER_DISABLE'" in att.text


@pytest.mark.parametrize("other", ["segment_set", "pointwise"])
def test_the_segmentation_script_prints_both_graphs_and_fails_when_they_differ(tmp_path, other):
    """The script's reading of nvFuser's dump, on real dumps (0.2.36 on the H200): each version
    stands in by printing its log; two that split alike pass, two that do not raise."""
    from minimizer.backends import get
    logs = {n: os.path.join(LOGS, n + ".log") for n in ("segment_set", other)}
    versions = [(n, f"print(open({p!r}).read())\n") for n, p in logs.items()]
    (tmp_path / "x.py").write_text(get("nvfuser").segmentation_script(versions))
    r = subprocess.run([sys.executable, "x.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env={"PATH": os.environ["PATH"]})
    assert "==== segment_set: 2 segments ['pointwise', 'reduction']\nSegmented_Fusion{" in r.stdout, r.stderr
    if other == "segment_set":
        assert r.returncode == 0
        return
    assert r.returncode == 1 and "==== pointwise: 1 segments ['pointwise']\nSegmented_Fusion{" in r.stdout
    o = standalone.outcome("nvfuser", {"timed_out": False, "exit_code": 1, "stderr": r.stderr, "stdout": r.stdout,
                                       "seconds": 1.0})
    ok, why = standalone.reproduces({"kind": "segmentation"}, o)
    assert ok and why == ("AssertionError: the segmentation differs: segment_set gives 2 segments "
                          "['pointwise', 'reduction']; pointwise gives 1 segments ['pointwise']"), why


def test_a_wrong_result_ends_with_the_check_and_reads_back_as_the_same_program():
    meta = _meta("mismatch", {"mismatch": "values"},
                 key=BucketKey(MISMATCH, "nvfuser", ops=("add",), output_dtype="float32"))
    att = attachment.build(_reduced(), "r.py", meta, None)
    assert att.expect == {"kind": "mismatch", "differs": "values"}
    assert parse(att.text).stmts == parse(_reduced()).stmts      # fmin reads the attachment as the fusion
    tail = att.text.split("outputs = fd.execute(inputs)", 1)[1]
    assert "def eager_reference(tv0, tv1, *, device):" in tail and "torch.ops.aten.add.Tensor(tv0, tv1)" in tail
    assert tail.rstrip().endswith("check_against_eager(outputs, inputs, inputs_before, "
                                  "next((x.device for x in inputs if isinstance(x, torch.Tensor)), 'cuda'))")
    assert "torch.testing.assert_close" in tail and "fmin check --mismatch repro.min.py" in tail
    assert not re.search(r"^\s*(import|from) minimizer", tail, re.M)      # needs only torch


def test_a_failure_is_filed_as_reduced_and_must_fail_with_its_recorded_signature():
    sig = "nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: x"
    att = attachment.build(_reduced(), "r.py", _meta("failure", {}, key=BucketKey(FAILURE, "nvfuser", "error", sig)),
                           {"status": "error", "signature": sig})
    assert att.expect == {"kind": "failure", "status": "error", "signature": sig, "key": sig}
    assert parse(att.text).stmts == parse(_reduced()).stmts and "check_against_eager" not in att.text
    assert "; run it: python repro.min.py (it sets the nvFuser options it needs itself)" in att.text


def test_the_attachment_sets_its_options_itself_but_no_debug_dump():
    """``python repro.min.py`` with no environment: the script sets the options fmin's runs had
    before anything imports nvFuser — but not the dumps, which no user runs with."""
    att = attachment.build(_reduced(), "r.py", _meta("failure", {}), {"status": "error", "signature": "s"})
    body = att.text.split("\nimport torch", 1)[0]
    assert "os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')" in body
    assert "setdefault('NVFUSER_DUMP'" not in att.text


def test_the_header_describes_the_minimized_script_and_no_machine_path():
    """The first example's words name its outputs and shapes: the header gives the bucket's root
    cause instead, and the reducer's command line loses the directories of this machine."""
    text = repro_header(ENV, "fmin fuzz --corpus /tmp/fmin-h200/seeded --summary /root/out/s.json", "p") \
        + ONE_INPUT.replace("{op}", "add")
    att = attachment.build(text, "r.py", _meta("mismatch", {"mismatch": "values"},
                                               key=BucketKey(MISMATCH, "nvfuser", difference="values", ops=("add",)),
                                               words="output 2 (bfloat16[4, 8, 64]): 2048 of 2048 differ"), None)
    head = reports.split_header(att.text)[0]
    assert "# finding: mismatch (nvfuser), bucket b0: nvfuser mismatch values: add" in head
    assert "bfloat16[4, 8, 64]" not in head and "/tmp/" not in head and "/root/" not in head
    assert "--corpus seeded --summary s.json" in head


def test_inline_inputs_are_named_so_the_wrong_result_check_sees_them():
    """``fd.execute([...])`` with the inputs inline (tests/data/forms/inline_inputs.py): the
    attachment binds them to a name first, so the seed goes before them and the check runs."""
    with open(os.path.join(ROOT, "tests", "data", "forms", "inline_inputs.py"), encoding="utf-8") as f:
        text = f.read().replace('device="cuda"', 'device="cpu"')
    att = attachment.build(text, "r.py", _meta("mismatch", {"mismatch": "values"}), None)
    assert att.expect == {"kind": "mismatch", "differs": "values"}, att.notes
    assert re.search(r"^inputs_1 = \[torch.randn", att.text, re.M)
    assert "out = fd.execute(inputs_1)" in att.text and "check_against_eager(out, inputs_1, inputs_1_before" in att.text
    assert att.text.index("torch.manual_seed(0)") < att.text.index("inputs_1 = [")
    assert parse(att.text).stmts == parse(text).stmts


def test_the_standalone_verdict_compares_root_causes_not_messages():
    """86acf0590d80 (tests/data/findings/86acf0590d80.json, a real record): filed from a program
    whose assert names ``bS?{N ex N}``; its minimized script, run alone on the GPU, raised the
    same assert at the same site naming ``bS?{N}`` — the same bug, which a whole-message compare
    called "not reproduced"."""
    m = record.load(os.path.join(ROOT, "tests", "data", "findings", "86acf0590d80.json"))
    expect = {k: v for k, v in m.attachment.expect.items() if k != "key"}   # filed before keys were kept
    seen = m.standalone.why.split("`")[1]           # what the standalone run raised
    assert seen != expect["signature"]
    o = Outcome("error", "nvfuser", signature=seen, message=m.standalone.shows)
    assert standalone.reproduces(expect, o)[0]
    assert standalone.reproduces({**expect, "kind": "outcome", "segments": None, "schedulers": None}, o)[0]
    other = seen.replace("selfReplay", "replayCasP")
    assert not standalone.reproduces(expect, Outcome("error", "nvfuser", signature=other))[0]
    assert not standalone.reproduces(expect, Outcome("crash", "nvfuser", signature=seen))[0]


def test_a_computation_that_is_not_plain_torch_says_so(monkeypatch):
    def refuse(*a, **k):
        raise NotPlainTorch("the reference calls foo, which is not a torch op")
    monkeypatch.setattr(plain_check, "function_text", refuse)
    att = attachment.build(_reduced(), "r.py", _meta("mismatch", {"mismatch": "values"}), None)
    assert att.expect == {"kind": "none"} and "not a torch op" in att.text and "check_against_eager" not in att.text


# ---------------------------------------------------------------- the standalone run
def _launch(text, tmp_path, backend="reference"):
    """The attachment run standalone on fmin's ``backend`` (the way an Inductor finding runs)."""
    return standalone.run(text, backend=backend, device="cpu", timeout=300)


def test_the_check_runs_standalone_and_is_skipped_inside_fmin(tmp_path):
    """On the reference backend the fusion computes what eager computes: the check passes. With
    the eager side tampered (what a wrong result looks like from the check's side) the standalone
    run fails with the check's AssertionError — and ``fmin check`` on the same text still sees the
    fusion run ok (its workers skip the check)."""
    meta = _meta("mismatch", {"mismatch": "values"},
                 key=BucketKey(MISMATCH, "reference", ops=("add",), output_dtype="float32"))
    att = attachment.build(_reduced(), "r.py", meta, None)
    head, tail = att.text.split("def eager_reference", 1)
    tampered = head + "def eager_reference" + tail.replace("torch.ops.aten.add.Tensor(", "torch.ops.aten.sub.Tensor(")
    assert tampered.count("torch.ops.aten.sub.Tensor(") == 1     # eager (its float64 run is the same function)
    r = _launch(att.text, tmp_path)
    assert r["ran"] and r["exit_code"] == 0, r["stderr"][-2000:]
    o = standalone.outcome("reference", r)
    assert standalone.reproduces(att.expect, o) == (False, "ok instead of the check's AssertionError")
    r = _launch(tampered, tmp_path)
    o = standalone.outcome("reference", r)
    ok, why = standalone.reproduces(att.expect, o)
    assert ok and r["exit_code"] == 1 and why.startswith("AssertionError: wrong result (values) in output 0"), why
    assert "Tensor-likes are not close" in why
    script = tmp_path / "repro.min.py"
    script.write_text(tampered)
    c = subprocess.run([sys.executable, "-m", "minimizer", "check", "--backend", "reference", "--json", str(script)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert c.returncode == 0 and json.loads(c.stdout.splitlines()[-1])["status"] == "ok", c.stdout + c.stderr


def test_the_run_gets_no_setting_and_the_dumps_only_when_asked(tmp_path, monkeypatch):
    """A maintainer's run: no ``NVFUSER_*``/fmin variable, not even what the header states (the
    script sets what it needs); the debug dumps only for the retry that asks whether a failure
    needs them (``debug``), and only the backend's debug variables."""
    monkeypatch.setenv("NVFUSER_DISABLE", "kernel_reuse")
    monkeypatch.setenv("FMIN_SOMETHING", "1")
    text = (repro_header({**ENV, "backend": "reference", "device": "cpu",
                          "options": {"NVFUSER_DUMP": "x", "NVFUSER_DISABLE": "y"}}, None, "p")
            + "import os\nprint('ENV', sorted(k for k in os.environ if k.startswith(('NVFUSER', 'FMIN'))), "
              "os.environ.get('NVFUSER_DUMP'))\n" + ONE_INPUT.replace("{op}", "add"))
    r = _launch(text, tmp_path)
    assert r["ran"] and "ENV [] None" in r["stdout"], r["stdout"] + r["stderr"][-1000:]
    assert r["environment"] == {} and "FMIN_SOMETHING" not in r["passed"]
    assert "NVFUSER_DUMP" not in standalone.environment(text, "nvfuser")
    debug = standalone.environment(text, "nvfuser", debug=True)
    assert debug["NVFUSER_DUMP"] == "x" and "NVFUSER_DISABLE" not in debug and "FMIN_SOMETHING" not in debug


def test_a_failure_shown_only_with_the_dump_on_is_recorded_as_the_dumps(monkeypatch):
    """The first run (no dump) shows nothing; the retry with the header's dump shows the failure:
    ``dump_only``, not a reproduction."""
    seen = []

    def fake_record(text, expect, *, backend, device, timeout, debug=False):
        seen.append(debug)
        return ({"ran": True, "reproduced": True, "why": "error `s`", "environment": {"NVFUSER_DUMP": "x"}} if debug
                else {"ran": True, "reproduced": False, "why": "ok instead of error `s`", "environment": {}})
    monkeypatch.setattr(standalone, "_record", fake_record)
    text = repro_header({**ENV, "options": {"NVFUSER_DUMP": "x"}}, None, "p") + "x = 1\n"
    rec = standalone.standalone(text, {"kind": "failure"}, backend="nvfuser", device="cuda", timeout=1)
    assert seen == [False, True] and rec["dump_only"] is True and rec["reproduced"] is False
    assert "with NVFUSER_DUMP=x it does" in rec["why"]
    seen.clear()
    rec = standalone.standalone(text, {"kind": "failure"}, backend="reference", device="cpu", timeout=1)
    assert seen == [False] and "dump_only" not in rec        # the reference has no debug variable


def test_an_nvfuser_bucket_is_not_run_where_nvfuser_is_not():
    import importlib.util
    if importlib.util.find_spec("nvfuser_direct") is not None:
        pytest.skip("nvFuser is installed here")
    rec = standalone.standalone(_reduced(), {"kind": "none"}, backend="nvfuser", device="cuda", timeout=10)
    assert rec["ran"] is False and rec["reproduced"] is None and "nvfuser_direct is not installed" in rec["why"]


def _log(name):
    with open(os.path.join(LOGS, name + ".log"), encoding="utf-8", errors="replace") as f:
        return f.read()


@pytest.mark.parametrize("name", ["err_dtype_mismatch", "err_stride_mismatch", "err_extent_mismatch",
                                  "err_bad_reshape", "err_memory_promotion_rope"])
def test_a_real_nvfuser_traceback_gets_the_workers_signature(name):
    """The logs are ``python probe.py``'s stderr on the H200 (the capture script appended
    ``exit: N``): what a standalone run sees."""
    log = _log(name)
    stderr, code = log.rsplit("exit: ", 1)
    text = re.search(r"^RuntimeError: (.*)", stderr, re.S | re.M).group(1).strip()
    o = standalone.outcome("nvfuser", {"timed_out": False, "exit_code": int(code.split()[0]), "stderr": stderr,
                                       "stdout": "", "seconds": 1.0})
    assert o.status == "error" and o.signature == nvfuser.classify(RuntimeError(text))["signature"]
    assert standalone.reproduces({"kind": "failure", "status": "error", "signature": o.signature}, o)[0]
    assert not standalone.reproduces({"kind": "failure", "status": "error", "signature": o.signature + "x"}, o)[0]
    # a layout finding whose failing variant errs: the same error, whatever segments its run had dumped
    assert standalone.reproduces({"kind": "outcome", "status": "error", "signature": o.signature, "segments": 2,
                             "schedulers": ["pointwise", "reduction"]}, o)[0]


def test_a_real_nvfuser_dump_gives_the_segmentation():
    r = {"timed_out": False, "exit_code": 0, "stderr": "", "stdout": _log("segment_set"), "seconds": 1.0}
    o = standalone.outcome("nvfuser", r)
    assert (o.segments, sorted(o.schedulers)) == (2, ["pointwise", "reduction"])
    want = {"kind": "outcome", "status": "ok", "signature": None, "segments": 2, "schedulers": ["pointwise", "reduction"]}
    assert standalone.reproduces(want, o) == (True, "2 segments [pointwise, reduction]")
    assert not standalone.reproduces({**want, "segments": 1, "schedulers": ["pointwise"]}, o)[0]


def test_the_header_states_the_environment_and_inductor_config():
    h = repro_header({**ENV, "inductor_config": [["cpp.inject_relu_bug_TESTING_ONLY", "accuracy"], ["a.b", 3]]},
                     None, "p")
    assert standalone.stated_environment(h + "import torch\n") == {"NVFUSER_DISABLE": "parallel_compile",
                                                                    "NVFUSER_DUMP": "segmented_fusion"}
    assert standalone.stated_inductor_config(h) == ["cpp.inject_relu_bug_TESTING_ONLY=accuracy", "a.b=3"]


def test_a_layout_finding_on_inductor_is_filed_in_the_failing_layout_and_reproduces_standalone():
    """End to end on a real compiler (Inductor on this CPU): the corpus's reshape bucket
    (5130c4375d23, found on Triton) is a view in its reduced layout (no kernel) and a copy kernel
    in the swapped one. Filing replays its property, files the swapped layout, runs it standalone
    through the launcher, and the run shows the variant's kernel."""
    from minimizer.fuzz.filing.filing import file_reduced
    from minimizer.oracle.context import RunContext
    d = os.path.join(FINDINGS, "5130c4375d23")
    meta = record.load_dir(d)
    meta.environment = {**meta.environment, "device": "cpu", "gpu": None}
    with open(os.path.join(d, "repro.min.py"), encoding="utf-8") as f:
        reduced = f.read()
    ctx = RunContext(backend="inductor", device="cpu", jobs=1, quiet=True, timeout=300)
    with ctx.judging_pools() as (pool, ref):
        filed = file_reduced(reduced, os.path.join(d, "reduced.py"), meta, None, ctx, pool, ref)
    p = parse(filed["text"])
    assert p.input_stmts()[0].arg("stride_order") == (0, 1) and p.inputs[0].strides == (1, 7)
    att, sa = filed["attachment"], filed["standalone"]
    assert att["expect"]["status"] == "ok" and att["expect"]["segments"] == 1, att
    assert "layout that fails" in att["variant"] and att["passing_shows"] == "0 segments"
    assert sa["ran"] and sa["reproduced"] and sa["exit_code"] == 0, sa
    assert sa["command"].startswith("python -m minimizer.backends.launch inductor cpu repro.min.py")
    assert "fd.define_tensor(shape=[7, 12], contiguity=[True, True]" in filed["section"]


def test_filing_writes_the_bucket_and_replaces_its_report_section(tmp_path):
    """``reduced.py`` and ``repro.min.py`` written, the reducer's resume state gone (a reduction
    there must not resume from an attachment), report.md's section replaced on a second filing."""
    from minimizer.fuzz.filing.filing import write_filed
    from minimizer.fuzz.store.store import reduced_script
    (tmp_path / "report.md").write_text("# report\n\nthe reduction\n")
    (tmp_path / "state.json").write_text("{}")
    att = attachment.build(_reduced(), "r.py", _meta("mismatch", {"mismatch": "values"}), None)
    filed = {"reduced": _reduced(), "text": att.text, "section": attachment.passing_section(att)}
    write_filed(str(tmp_path), filed)
    write_filed(str(tmp_path), filed)
    md = (tmp_path / "report.md").read_text()
    assert md.startswith("# report\n\nthe reduction\n") and md.count(attachment.SECTION_TITLE) == 1
    assert (tmp_path / "repro.min.py").read_text() == att.text and not (tmp_path / "state.json").exists()
    assert reduced_script(str(tmp_path)) == "reduced.py"


def test_two_complex_results_differing_only_in_their_imaginary_parts_are_not_the_same():
    """The float64 comparison is dropped where eager's result equals the float64 one rounded back;
    a complex result compared through ``double()`` lost its imaginary part, so a rounding there
    could never keep the comparison."""
    a = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex64)
    assert plain_check._same(a, a.clone())
    assert not plain_check._same(a, a + 1e-3j)
    assert not plain_check._same(torch.tensor([float("nan")]), torch.tensor([1.0]))
