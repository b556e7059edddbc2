"""Properties and the numerics oracle: each check judged on hand-made outcomes and evidence, the
evaluator with fake pools, and one end-to-end ``--mismatch`` on Inductor with its test-only
miscompile (a relu that adds 1)."""
import math
import os

import sys

import pytest
import torch

from minimizer.backends import RunOptions
from minimizer.oracle import Outcome, Pool
from minimizer.oracle.compare import compare, scale_for_reduction, tolerance
from minimizer.oracle import Pools
from minimizer.oracle.checks import run_shell_test
from minimizer.oracle.property import (ErrorMatches, Failure, Mismatch, Property, Schedulers, Segments, ShellTest,
                                       Slower, evaluate)

SCRIPT = """
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.relu(T0)
    T2 = fd.ops.sum(T1, dims=[1], keepdim=False, dtype=DataType.Null)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [torch.randn((4, 8), dtype=torch.float32, device='cuda:0')]
{execute}
"""
PLAIN = SCRIPT.format(execute="out = fd.execute(inputs)")
# Inductor's test-only fault injection: its C++ relu returns x + 1. Set only around this script's
# execute, so the shared worker compiles the next script correctly.
RELU_BUG = SCRIPT.format(execute="""import torch._inductor.config as icfg
icfg.cpp.inject_relu_bug_TESTING_ONLY = "accuracy"
try:
    out = fd.execute(inputs)
finally:
    icfg.cpp.inject_relu_bug_TESTING_ONLY = None""")


def ok(segments=None, schedulers=None, **kw):
    return Outcome("ok", "inductor", segments=segments, schedulers=schedulers, **kw)


# ---------------------------------------------------------------- segments / schedulers / default
@pytest.mark.parametrize("expr,n,holds", [
    (">=3", 3, True), (">=3", 2, False), ("<=2", 2, True), ("==1", 2, False), ("> 2", 3, True),
    ("<2", 2, False), ("!=1", 2, True), ("3", 3, True), ("3", 4, False), (" = 2 ", 2, True),
])
def test_segments_expressions(expr, n, holds):
    assert Segments.parse(expr).holds(ok(n), None)[0] is holds


@pytest.mark.parametrize("bad", [">>3", "3.5", "", ">=", "three"])
def test_segments_bad_expression(bad):
    with pytest.raises(ValueError, match="segment count"):
        Segments.parse(bad)


def test_segments_unknown_is_not_a_match():
    held, why = Segments.parse(">=1").holds(Outcome("ok", "reference"), None)
    assert not held and "reports none" in why


def test_schedulers_multiset_ignores_order_and_case():
    s = Schedulers.parse("reduction*2, Pointwise")
    assert s.holds(ok(3, ["reduction", "pointwise", "reduction"]), None)[0]
    held, why = s.holds(ok(2, ["pointwise", "reduction"]), None)
    assert not held and "expected [pointwise, reduction×2]" in why
    bare = Schedulers.parse(None).bind(ok(2, ["pointwise", "reduction"]))
    assert bare.holds(ok(2, ["reduction", "pointwise"]), None)[0]


def test_default_property_from_ok_outcome():
    orig = ok(3, ["reduction", "pointwise", "reduction"])
    p = Property.from_outcome(orig)
    assert p.holds(ok(3, ["pointwise", "reduction", "reduction"]))[0]
    held, why = p.holds(ok(3, ["pointwise", "pointwise", "reduction"]))
    assert not held and why.startswith("schedulers:")
    held, why = p.holds(ok(2, ["pointwise", "reduction"]))
    assert not held and why.startswith("segments:")
    assert not p.holds(Outcome("error", signature="RuntimeError: x"))[0]
    assert "segments == 3" in p.describe()


def test_default_property_from_failure():
    orig = Outcome("error", "nvfuser", signature="nvfuser assert: a.cpp:f: bad", message="...")
    p = Property.from_outcome(orig)
    # the same failure is the same root cause; a signature without nvFuser's parts is its own
    assert p.checks == (Failure("error", orig.signature, orig.signature),)
    assert p.holds(Outcome("error", signature=orig.signature))[0]
    assert not p.holds(Outcome("crash", signature=orig.signature))[0]
    assert not p.holds(Outcome("error", signature="other"))[0]
    assert not p.holds(ok(1))[0]


def test_error_regex_matches_signature_or_message():
    e = ErrorMatches(r"INTERNAL ASSERT")
    assert e.holds(Outcome("error", signature="x", message="  INTERNAL ASSERT FAILED at"), None)[0]
    assert e.holds(Outcome("crash", signature="INTERNAL ASSERT"), None)[0]
    assert not e.holds(Outcome("error", signature="x", message="y"), None)[0]
    assert not e.holds(Outcome("timeout", signature="INTERNAL ASSERT"), None)[0]
    assert not e.holds(ok(1), None)[0]
    with pytest.raises(ValueError, match="regular expression"):
        ErrorMatches("(")


def test_property_and_json_round_trip():
    p = Property.from_flags(segments=">=2", schedulers="pointwise,reduction", error="boom", mismatch=True,
                              slower=1.5, baseline="inductor", test="true")
    assert Property.from_json(p.to_json()) == p
    both = p & Property.from_outcome(ok(2, ["pointwise", "reduction"]))
    assert [k for k, _ in both.keyed()][-2:] == ["segments#2", "schedulers#2"]
    assert Property.from_flags() is None


# ---------------------------------------------------------------- numerics
def test_tolerances_by_dtype():
    assert tolerance(torch.float32) == (1.3e-6, 1e-5)
    assert tolerance(torch.bfloat16) == (1.6e-2, 1e-5)
    assert tolerance(torch.float16, 2.0) == (2e-3, 2e-5)
    assert tolerance(torch.int32) == (0.0, 0.0) and tolerance(torch.bool) == (0.0, 0.0)
    assert tolerance(torch.complex64) == tolerance(torch.float32)
    assert scale_for_reduction(4096) == 64 and scale_for_reduction(0) == 1


def test_compare_detects_perturbation_and_respects_dtype():
    ref = torch.linspace(-3, 3, 24).reshape(4, 6)
    out = ref.clone()
    out[2, 3] += 1e-3
    c = compare([out], [ref])
    assert not c.ok and c.outputs[0].mismatched == 1 and c.outputs[0].worst == [2, 3]
    assert "output 0 (float32[4, 6])" in c.first_mismatch
    assert compare([out.bfloat16()], [ref.bfloat16()]).ok           # within bf16 rounding
    assert compare([out], [ref], scale=1000).ok                       # loosened
    assert compare([ref + 5e-6], [ref]).ok                            # within fp32 atol


def test_compare_nan_inf_shape_dtype_int():
    nan = torch.tensor([math.nan, 1.0, math.inf])
    assert compare([nan], [nan.clone()]).ok
    c = compare([torch.tensor([1.0, 1.0, math.inf])], [nan])
    assert not c.ok and "NaN positions differ" in c.first_mismatch
    assert not compare([torch.tensor([-math.inf])], [torch.tensor([math.inf])]).ok
    assert not compare([torch.zeros(2, 3)], [torch.zeros(3, 2)]).ok
    assert not compare([torch.zeros(2, dtype=torch.float64)], [torch.zeros(2)]).ok
    assert not compare([torch.tensor([2**62 + 1])], [torch.tensor([2**62])]).ok
    assert not compare([torch.tensor([True])], [torch.tensor([False])]).ok
    assert not compare([torch.zeros(1), torch.zeros(1)], [torch.zeros(1)]).ok
    assert compare([3, 2.5], [3, 2.5]).ok and not compare([3], [4]).ok


# ---------------------------------------------------------------- evaluator with fake pools
class FakePool:
    def __init__(self, backend, outcomes):
        self.backend, self.outcomes, self.requests = backend, list(outcomes), []

    def run(self, req):
        self.requests.append(req)
        if req.options.perturb or req.options.narrow_scans:   # ``Mismatch``'s alternatives (rare path):
            return Outcome("error", message="no alternatives in this fake")   # not given, the verdict stands
        o = self.outcomes.pop(0)
        return o() if callable(o) else o


def valued(outs, ins=()):
    return Outcome("ok", values=(list(ins), list(outs)))


def test_mismatch_against_a_perturbed_reference():
    ref = torch.randn(4, 8)
    mine = ref.clone()
    mine[0, 0] += 0.5
    pool = FakePool("inductor", [valued([mine])])
    refs = FakePool("reference", [valued([ref]), valued([ref.double()])])
    v = evaluate(Property((Mismatch(),)), PLAIN, "x.py", Pools.of(pool, reference=refs))
    assert v.holds and "1 of 32 elements" in v.reason and "worst at [0, 0]" in v.reason
    assert pool.requests[0].options.want_values and refs.requests[0].options.want_values
    assert refs.requests[1].options.fp64     # confirmed against the fp64 reference
    assert not v.get(Mismatch).comparison_fp64.ok
    same = evaluate(Property((Mismatch(),)), PLAIN, "x.py",
                    Pools.of(FakePool("inductor", [valued([ref])]),
                             reference=FakePool("reference", [valued([ref.clone()])])))
    assert not same.holds and "match reference" in same.reason


def test_mismatch_of_one_kind_does_not_slip_to_another():
    """``--mismatch values`` (a fuzz bucket of wrong values) holds for wrong values only, not for a
    program whose only difference is an output dtype; ``--mismatch dtype`` the other way round."""
    ref = torch.arange(6.0)
    as_dtype = ref.double()                      # same values, another dtype
    for what, out, want in (("values", as_dtype, False), ("dtype", as_dtype, True),
                            ("values", ref + 1, True), ("dtype", ref + 1, False),
                            ("shape", ref.reshape(2, 3), True)):
        refs = FakePool("reference", [valued([ref]), valued([ref.double()])])
        p = Property.from_flags(mismatch_in=what)
        v = evaluate(p, PLAIN, "x.py", Pools.of(FakePool("nvfuser", [valued([out])]), reference=refs))
        assert v.holds is want, (what, v.reason)
        if not want:
            assert f"not in {what}" in v.reason
    assert "in dtype" in Property.from_flags(mismatch_in="dtype").describe()
    with pytest.raises(ValueError, match="--mismatch-in takes one of dtype, shape, values"):
        Property.from_flags(mismatch_in="colour")


def test_a_difference_that_is_only_rounding_is_not_a_mismatch():
    """bf16 eager rounds after each op; a compiler keeping fp32 intermediates lands nearer the
    exact (fp64) result. Beyond tolerance of eager but within it of fp64: not a mismatch."""
    exact = torch.linspace(1, 2, 64, dtype=torch.float64)
    eager = (exact + 0.05).to(torch.bfloat16)          # drifted by accumulated rounding
    fused = exact.to(torch.bfloat16)                   # rounded once, at the output
    refs = FakePool("reference", [valued([eager]), valued([exact])])
    v = evaluate(Property((Mismatch(),)), PLAIN, "x.py",
                 Pools.of(FakePool("nvfuser", [valued([fused])]), reference=refs))
    assert not v.holds and "exact result" in v.reason and "rounding" in v.reason
    wrong = fused + 1
    refs = FakePool("reference", [valued([eager]), valued([exact])])
    v = evaluate(Property((Mismatch(),)), PLAIN, "x.py",
                 Pools.of(FakePool("nvfuser", [valued([wrong])]), reference=refs))
    assert v.holds and v.get(Mismatch).comparison_fp64 is not None and not v.get(Mismatch).comparison_fp64.ok
    ints = torch.arange(6)
    refs = FakePool("reference", [valued([ints])])      # exact dtypes need no fp64 run
    v = evaluate(Property((Mismatch(),)), PLAIN, "x.py",
                 Pools.of(FakePool("nvfuser", [valued([ints + 1])]), reference=refs))
    assert v.holds and len(refs.requests) == 1


def test_fp64_reference_backend_computes_in_float64():
    """The reference backend's fp64 mode: inputs checked as declared (bf16), arithmetic and casts
    in float64; the eager run rounds each op to bf16."""
    text = BF16_CHAIN
    ref = Pool("reference", "cpu", jobs=1, timeout=120)
    try:
        from minimizer.oracle.pool import Request
        eager = ref.run(Request(text, "bf16.py", RunOptions(want_values=True)))
        exact = ref.run(Request(text, "bf16.py", RunOptions(want_values=True, fp64=True)))
        assert eager.ok and exact.ok, (eager.message, exact.message)
        (ins, (e,)), (_, (x,)) = eager.load_values(), exact.load_values()
        assert e.dtype == torch.bfloat16 and x.dtype == torch.float64
        t = ins[0].double()
        want = ((t * 1.1 + 0.3) * 1.1 + 0.3).sum(dim=1)
        assert torch.allclose(x, want, rtol=1e-12)
        assert compare([e], [x], fp64_ref=True).outputs[0].dtype == "bfloat16"
    finally:
        ref.close()


BF16_CHAIN = """
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16)
    T1 = fd.ops.mul(T0, 1.1)
    T2 = fd.ops.add(T1, 0.3)
    T3 = fd.ops.mul(T2, 1.1)
    T4 = fd.ops.add(T3, 0.3)
    T5 = fd.ops.sum(T4, dims=[1], dtype=DataType.BFloat16)
    fd.add_output(T5)

with FusionDefinition() as fd:
    fusion(fd)
inputs = [torch.randn(8, 64, dtype=torch.bfloat16, device="cuda:0")]
fd.execute(inputs)
"""


def test_mismatch_needs_both_runs_ok_and_no_random_ops():
    m = Property((Mismatch(),))
    refs = FakePool("reference", [Outcome("error", signature="E")])
    v = evaluate(m, PLAIN, "x.py", Pools.of(FakePool("inductor", [valued([torch.ones(1)])]), reference=refs))
    assert not v.holds and "reference run failed" in v.reason
    rnd = PLAIN.replace("fd.ops.relu(T0)", "fd.ops.rand_like(T0)")
    v = evaluate(m, rnd, "x.py",
                 Pools.of(FakePool("inductor", [valued([torch.ones(1)])]), reference=FakePool("reference", [])))
    assert not v.holds and "random ops (rand_like)" in v.reason


def test_evaluate_stops_at_the_first_failing_check_unless_asked():
    p = Property.from_flags(segments=">=3", mismatch=True)
    refs = FakePool("reference", [])
    v = evaluate(p, PLAIN, "x.py", Pools.of(FakePool("inductor", [valued([torch.ones(1)])]), reference=refs))
    assert not v.holds and v.reason.startswith("segments:") and refs.requests == []
    refs = FakePool("reference", [valued([torch.zeros(1)]), valued([torch.zeros(1, dtype=torch.float64)])])
    v = evaluate(p, PLAIN, "x.py", Pools.of(FakePool("inductor", [valued([torch.ones(1)])]), reference=refs),
                 all_checks=True)
    assert set(v.checks) == {"segments", "mismatch"} and v.checks["mismatch"][0]


def timed(t):
    return Outcome("ok", execute_seconds=t)


@pytest.mark.parametrize("times,base,holds", [
    ([2.0, 2.1, 2.05, 1.95, 2.2], [0.5, 0.52, 0.49, 0.51, 0.5], True),    # ~4x, no overlap
    ([2.0, 0.6, 2.05, 1.95, 2.2], [0.5, 0.52, 0.49, 0.51, 0.5], False),   # one fast run: noise
    ([1.0, 1.1, 1.05, 0.95, 1.2], [0.5, 0.52, 0.49, 0.51, 0.5], False),   # ~2x, not > 3x
])
def test_slower_uses_a_noise_aware_bound(times, base, holds):
    p = Property((Slower(3.0, "reference", repeats=5),))
    pool = FakePool("inductor", [ok(1)] + [timed(t) for t in times])
    basep = FakePool("reference", [timed(t) for t in base])
    v = evaluate(p, PLAIN, "x.py", Pools.of(pool, reference=basep))
    assert v.holds is holds, v.reason
    assert len(pool.requests) == 6 and len(basep.requests) == 5
    med, low = Slower.ratios(times, base)
    assert f"{med:.2f}×" in v.reason and low <= med


def test_slower_baseline_failure():
    v = evaluate(Property((Slower(2.0),)), PLAIN, "x.py",
                 Pools.of(FakePool("inductor", [ok(1), timed(1.0)]),
                          reference=FakePool("reference", [Outcome("error", signature="E")])))
    assert not v.holds and "reference run gave error" in v.reason


# ---------------------------------------------------------------- --test
def test_shell_test_gets_the_copy_as_dollar_one_in_its_own_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # C-Reduce style: the test reads the file by basename in its working directory
    (tmp_path / "interesting.sh").write_text('#!/bin/sh\ntest "$(basename "$1")" = repro_x.py && '
                                             'test "$PWD" != "$FMIN_CWD" && grep -q "fd.ops.relu" repro_x.py\n')
    os.chmod(tmp_path / "interesting.sh", 0o755)
    cmd = ShellTest('./interesting.sh "$1"')   # relative to where fmin started
    v = evaluate(Property((cmd,)), PLAIN, str(tmp_path / "repro_x.py"), pools=None)   # no backend run needed
    assert v.holds, v.reason
    assert v.outcome is None
    v = evaluate(Property((cmd,)), PLAIN.replace("relu", "neg"), str(tmp_path / "repro_x.py"), pools=None)
    assert not v.holds and "exited 1" in v.reason


def test_shell_test_timeout_and_output():
    r = run_shell_test('sleep 30; cat "$1"', "", "x.py", timeout=0.5)
    assert r.returncode is None and r.seconds < 10
    held, why = ShellTest("sleep 30", 0.5).holds(None, r)
    assert not held and "timed out" in why
    r = run_shell_test('echo "no relu here" >&2; test -f "$1" && exit 3', "", "x.py")
    held, why = ShellTest("x").holds(None, r)
    assert r.returncode == 3 and "exited 3: no relu here" in why
    r = run_shell_test('\n'.join(f'echo "line {k}"' for k in range(30)) + '\nexit 4', "", "x.py")
    detail = ShellTest("x").detail(r)
    assert "line 29" in detail and "line 10" not in detail   # the tail, for the message


@pytest.mark.parametrize("command,appended", [
    ("python pred.py", True), ("grep -q relu", True), ("true", True), ('grep -q relu "$1"', False),
    ("grep -q relu $1", False), ("grep -q relu ${1}", False), ('python pred.py "$@"', False),
    ('grep -q relu "$FMIN_SCRIPT"', False), ("grep -q x $10", True),
])
def test_a_command_without_its_candidate_gets_the_path_appended(command, appended):
    """C-Reduce, picire and Shrink Ray pass the candidate as the last argument: a CMD that does
    not mention $1 (python pred.py) gets it appended."""
    from minimizer.oracle.checks.shell import shell_argv
    argv = shell_argv(command, "/tmp/d/repro.py", "/bin/sh")
    assert argv[0] == "/bin/sh" and argv[-1] == "/tmp/d/repro.py"
    assert (argv[2] == command + ' "$1"') == appended and (appended or argv[2] == command)


def test_python_predicate_gets_the_candidate(tmp_path):
    pred = tmp_path / "pred.py"
    pred.write_text("import sys\nsys.exit(0 if 'relu' in open(sys.argv[1]).read() else 1)\n")
    assert run_shell_test(f"{sys.executable} {pred}", "fd.ops.relu(T0)", "x.py").returncode == 0
    assert run_shell_test(f"{sys.executable} {pred}", "fd.ops.neg(T0)", "x.py").returncode == 1


# ---------------------------------------------------------------- end to end on Inductor
@pytest.fixture(scope="module")
def pools():
    ind = Pool("inductor", "cpu", jobs=1, timeout=300)
    ref = Pool("reference", "cpu", jobs=1, timeout=120)
    yield ind, ref
    ind.close()
    ref.close()


def test_mismatch_end_to_end_on_inductor_relu_bug(pools):
    ind, ref = pools
    p = Property.from_flags(mismatch=True, segments="1")
    v = evaluate(p, RELU_BUG, "relu_bug.py", Pools.of(ind, reference=ref), seed=3)
    assert v.outcome.status == "ok", v.outcome.message
    assert v.holds, v.reason
    assert "output 0 (float32[4])" in v.checks["mismatch"][1]
    assert v.outcome.values_path is None              # saved values are deleted once judged
    clean = evaluate(p, PLAIN, "relu.py", Pools.of(ind, reference=ref), seed=3)
    assert not clean.holds and "match reference" in clean.reason


def test_a_write_between_the_elements_of_a_strided_input_is_a_mismatch():
    """The (2, 2) view with strides (3, 1) of a 6-element storage, written in place through an
    aliased output: the view's four elements agree, but the backend also wrote slot 2, which the
    view does not hold (the storage gets a value one slot early) — only the storage shows it."""
    base = torch.zeros(6)
    view = base.as_strided((2, 2), (3, 1))
    right = torch.tensor([0.1, 0.2, 0.0, 0.3, 0.4, 0.0])
    wrong = right.clone()
    wrong[2] = 0.3

    def run(storage):
        o = Outcome("ok", values=([view.clone(), torch.ones(2, 2)], []))
        o.storages = {0: storage}
        return o

    refs = FakePool("reference", [run(right), run(right)])     # eager, then the exact (fp64) run
    v = evaluate(Property((Mismatch(),)), PLAIN, "x.py", Pools.of(FakePool("nvfuser", [run(wrong)]), reference=refs))
    assert v.holds and "input 0's storage (after execute)" in v.reason and "worst at [2]" in v.reason
    refs = FakePool("reference", [run(right)])
    same = evaluate(Property((Mismatch(),)), PLAIN, "x.py", Pools.of(FakePool("nvfuser", [run(right)]), reference=refs))
    assert not same.holds
