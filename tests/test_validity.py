"""The validity rules (``minimizer/program/validity/``), each from a real program of the fuzz
corpus (``corpus/findings/<bucket>``, cut to the lines the rule needs) or a real seed, and the
places that obey them: the static funnel, the reducer's exemption for a user's original, the
mutations, the generator and the reference run's report of the value rules."""
import os

import pytest
import torch
from hypothesis import HealthCheck, given, settings

from minimizer.backends import RunOptions
from minimizer.fuzz.sources import mutate
from minimizer.fuzz.sources.strategies import programs
from minimizer.oracle.pool import Pool, Request
from minimizer.oracle.session import Session, Verdict
from minimizer.program import parse, static, validity
from minimizer.program.interpret import run
from minimizer.program.validity import RULES, STATIC_RULES, ValueWatch, enforced_for, violations

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = "import torch\nfrom nvfuser_direct import FusionDefinition, DataType\n\n"
TAIL = "\nwith FusionDefinition() as fd:\n    nvfuser_fusion(fd)\n\ninputs = [\n{inputs}]\nfd.execute(inputs)\n"


def script(body: str, inputs: str) -> str:
    return HEAD + "def nvfuser_fusion(fd : FusionDefinition) -> None :\n" + body + TAIL.format(inputs=inputs)


def rules_of(text: str) -> list[str]:
    return [v.rule for v in violations(text)]


# bucket 33e76fa39276 (repro.min.py): welford reads tv0 while tv1 is written into it; nvFuser
# returned a variance computed partly from the overwritten values (a valid program: nvFuser
# orders the write after the read, so that variance is a wrong result)
WELFORD_READS_ALIASED = script(
    "    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
    "    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
    "    tv2, tv3, tv4 = fd.ops.welford(tv0, dims=[1])\n"
    "    fd.add_output(tv3)\n"
    "    fd.add_output(tv1, tv0)\n",
    "    torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cuda:0'),\n" * 2)

BATCHNORM_SEED = os.path.join(ROOT, "corpus", "legacy_batchnorm_stats_alias.py")


def test_an_input_read_while_written_is_valid():
    """nvFuser orders the writes into fusion inputs after the reads (its preseg pass
    ``segment_inplace_update``): a welford reading the input it writes breaks no rule."""
    assert violations(WELFORD_READS_ALIASED) == []


def test_the_running_statistics_update_is_valid():
    """The real batch norm seed reads each running statistic once, elementwise (``lerp``), and
    writes the result back: the in-place update nvFuser's alias exists for."""
    with open(BATCHNORM_SEED, encoding="utf-8") as f:
        assert violations(f.read()) == []


def test_a_write_of_a_value_not_computed_from_the_input_is_valid():
    # bucket c89c43396eca, cut: T1 is read (a sub of it is an output) and T2, computed from T0,
    # is written into it
    text = script(
        "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
        "    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
        "    T2 = fd.ops.neg(T0)\n"
        "    T32 = fd.ops.sub(T1, T1)\n"
        "    fd.add_output(T32)\n"
        "    fd.add_output(T2, T1)\n",
        "    torch.testing.make_tensor((8, 64), dtype=torch.float32, device='cuda:0'),\n" * 2)
    assert rules_of(text) == []


def test_alias_twice():
    # bucket c89c43396eca: ``fd.add_output(T2, T1)`` twice (T1 otherwise unread here)
    text = script(
        "    T0 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True], dtype=DataType.Float, "
        "is_cpu=False, stride_order=[2, 1, 0])\n"
        "    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
        "    T2 = fd.ops.squeeze(T0, dims=[1], squeeze_expanded=False)\n"
        "    fd.add_output(T2)\n"
        "    fd.add_output(T2, T1)\n"
        "    fd.add_output(T2, T1)\n",
        "    torch.testing.make_tensor((8, 1, 64), dtype=torch.float32, device='cuda:0'),\n"
        "    torch.testing.make_tensor((8, 64), dtype=torch.float32, device='cuda:0'),\n")
    got = violations(text)
    assert [v.rule for v in got] == ["alias-twice"]
    assert got[0].line == 10   # the second write


def test_alias_twice_one_value_into_two_inputs():
    """nvFuser keeps one alias per output (``AliasInfoMap`` is keyed by it): a second input for
    the same value replaces the first, which is then never written."""
    text = script(
        "    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)\n"
        "    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)\n"
        "    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)\n"
        "    T3 = fd.ops.neg(T0)\n"
        "    fd.add_output(T3, T1)\n"
        "    fd.add_output(T3, T2)\n",
        "    torch.testing.make_tensor((8,), dtype=torch.float32, device='cuda:0'),\n" * 3)
    got = violations(text)
    assert [(v.rule, v.line) for v in got] == [("alias-twice", 10)]   # the write into the second input
    assert "T3 is written into 2 inputs (T1, T2)" in got[0].message
    assert rules_of(text.replace("fd.add_output(T3, T2)", "T4 = fd.ops.abs(T0)\n    fd.add_output(T4, T2)")) == []


def test_alias_dtype():
    # bucket cd067938e9c4: a BFloat16 cumsum written into a Float input
    text = script(
        "    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)\n"
        "    tv1 = fd.ops.cumsum(tv0, dim=1)\n"
        "    tv8 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
        "    fd.add_output(tv1)\n"
        "    fd.add_output(tv1, tv8)\n",
        "    torch.testing.make_tensor((8, 32), dtype=torch.bfloat16, device='cuda:0'),\n"
        "    torch.testing.make_tensor((8, 32), dtype=torch.float32, device='cuda:0'),\n")
    got = violations(text)
    assert [v.rule for v in got] == ["alias-dtype"]
    assert "BFloat16" in got[0].message and "Float" in got[0].message


def _batchnorm(last_line: str, old: str = "    fd.add_output(T30, T2)\n") -> str:
    with open(BATCHNORM_SEED, encoding="utf-8") as f:
        text = f.read()
    assert old in text
    return text.replace(old, last_line)


def test_alias_shape_and_alias_not_input():
    """From the batch norm seed: its running variance's write replaced by a write of the
    normalized [32, 64] activations into the [64] running variance, or into an intermediate
    (what an inserted cast made of an alias once: nvFuser asserts 'alias source can only be a
    fusion input')."""
    assert rules_of(_batchnorm("    fd.add_output(T27, T2)\n")) == ["alias-shape"]
    assert rules_of(_batchnorm("    fd.add_output(T30, T29)\n")) == ["alias-not-input"]


# bucket 654fc7bb8aa3 (repro.min.py, cut): ``x << -1`` gave garbage on nvFuser, 0 on the reference
SHIFT_BY_CONSTANT = script(
    "    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)\n"
    "    T2 = fd.ops.bitwise_left_shift(T0, -1)\n"
    "    fd.add_output(T2)\n",
    "    torch.testing.make_tensor((14,), dtype=torch.int32, device='cuda'),\n")


def test_shift_amount_of_a_constant():
    got = violations(SHIFT_BY_CONSTANT)
    assert [(v.rule, v.line) for v in got] == [("shift-amount", 6)]
    assert rules_of(SHIFT_BY_CONSTANT.replace("T0, -1)", "T0, 31)")) == []
    assert rules_of(SHIFT_BY_CONSTANT.replace("T0, -1)", "T0, 32)")) == ["shift-amount"]


def _watched(text: str, seed: int = 0) -> list[str]:
    """The value rules a reference run of ``text`` breaks, its inputs drawn as a campaign draws
    them (``torch.manual_seed(seed)`` then the inputs list; make_tensor's values on the CPU)."""
    p = parse(text)
    torch.manual_seed(seed)
    inputs = [torch.testing.make_tensor(a.shape, dtype=_torch(a.dtype), device="cpu") for a in p.inputs]
    w = ValueWatch()
    WATCHED.append([])
    try:
        run(p.stmts, inputs, frontend=p.dialect.frontend, watch=w)
    finally:
        WATCHED[-1] = [v.rule for v in w.found]
    return WATCHED[-1]


WATCHED: list[list[str]] = []


def _torch(name):
    from minimizer import dtypes
    return dtypes.to_torch(name)


# bucket 1454a1cb2e7d (repro.min.py): ``T0 >> T0`` with make_tensor's values, some negative
SHIFT_BY_TENSOR = script(
    "    T0 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Int, is_cpu=False)\n"
    "    T1 = fd.ops.bitwise_right_shift(T0, T0)\n"
    "    fd.add_output(T1)\n",
    "    torch.testing.make_tensor((4,), dtype=torch.int64, device='cuda'),\n")


def test_shift_amount_of_a_tensor_is_a_value_rule():
    assert rules_of(SHIFT_BY_TENSOR) == []          # nothing to see without values
    assert _watched(SHIFT_BY_TENSOR) == ["shift-amount"]


# bucket b58dbe69fd27 (repro.min.py): the int64 product of 42 values of [-9, 9] overflows; nvFuser
# and torch wrap it differently, and its sign was "wrong"
PROD_OVERFLOWS = script(
    "    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)\n"
    "    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[6, 7, 7], broadcast_dims=[1, 2])\n"
    "    tv2 = fd.ops.prod(tv1, dims=[0, 2], keepdim=False)\n"
    "    tv3 = fd.ops.sign(tv2)\n"
    "    fd.add_output(tv3)\n",
    "    torch.testing.make_tensor((7, 7), dtype=torch.int64, device='cuda'),\n")


def test_int_overflow():
    assert _watched(PROD_OVERFLOWS) == ["int-overflow"]
    # the same product over 2 values of [-9, 9] fits: no violation
    small = PROD_OVERFLOWS.replace("shape=[6, 7, 7]", "shape=[1, 7, 7]").replace("dims=[0, 2]", "dims=[0]")
    assert _watched(small) == []


# bucket c3fe8545175e (original.py, cut): log1p of Half values below -1 is NaN, cast to Int32
CAST_NAN = script(
    "    T0 = fd.define_tensor(shape=[8, 5], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)\n"
    "    T3 = fd.ops.log1p(T0)\n"
    "    T5 = fd.ops.cast(T3, dtype=DataType.Int32)\n"
    "    fd.add_output(T5)\n",
    "    torch.testing.make_tensor((8, 5), dtype=torch.float16, device='cuda'),\n")


def test_cast_out_of_range():
    assert _watched(CAST_NAN) == ["cast-out-of-range"]
    assert _watched(CAST_NAN.replace("log1p", "abs")) == []


# no corpus bucket divides integers by zero yet; the generator writes integer ``div`` and
# ``fmod`` of two inputs (bucket 805672844360 has ``fmod(T0, T1)`` of floats), whose make_tensor
# values include 0
FMOD_BY_INPUT = script(
    "    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)\n"
    "    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)\n"
    "    T2 = fd.ops.fmod(T0, T1)\n"
    "    fd.add_output(T2)\n",
    "    torch.testing.make_tensor((64,), dtype=torch.int64, device='cuda'),\n" * 2)


def test_int_division_by_zero():
    text = FMOD_BY_INPUT
    from minimizer.program.interpret import FusionError
    with pytest.raises(FusionError, match="ZeroDivisionError"):   # torch refuses it on the CPU ...
        _watched(text)
    assert WATCHED[-1] == ["int-division"]                         # ... after the watch saw it
    assert _watched(text.replace("fd.ops.fmod(T0, T1)", "fd.ops.fmod(T0, 3)")) == []


def test_every_rule_has_a_statement():
    assert set(STATIC_RULES) <= set(RULES) and all(len(RULES[r]) > 40 for r in RULES)


# ---- who obeys them ----

def _session(rules):
    return Session.of_texts(lambda texts: [Verdict(True) for _ in texts], static="strict", rules=rules)


# the welford program above with a second value written into tv0
WELFORD_WRITES_TWICE = WELFORD_READS_ALIASED.replace(
    "    fd.add_output(tv1, tv0)\n", "    fd.add_output(tv1, tv0)\n    tv5 = fd.ops.neg(tv1)\n    fd.add_output(tv5, tv0)\n")


def test_the_static_funnel_refuses_a_violating_candidate():
    p = parse(WELFORD_WRITES_TWICE)
    got = _session(frozenset(STATIC_RULES)).consider(p)
    assert got.skipped == "invalid" and "alias-twice" in got.why
    assert _session(None).consider(p).skipped is None            # without rules: as before
    with pytest.raises(validity.InvalidProgram) as e:
        validity.check(p, rules=STATIC_RULES)
    assert [v.rule for v in e.value.violations] == ["alias-twice"]


def test_a_reduction_keeps_the_rules_its_original_keeps_and_no_other():
    """A user's original that already breaks a rule is reduced as before (its candidates may
    break it too); a rule the original keeps binds every candidate."""
    bad = parse(WELFORD_WRITES_TWICE)
    rules = enforced_for(bad)
    assert "alias-twice" not in rules and "alias-dtype" in rules
    assert _session(rules).consider(bad).skipped is None
    good = parse(_batchnorm("    fd.add_output(T30, T2)\n"))
    assert enforced_for(good) == frozenset(STATIC_RULES)
    candidate = parse(_batchnorm("    fd.add_output(T27, T2)\n"))   # a write of another shape
    assert _session(enforced_for(good)).consider(candidate).skipped == "invalid"


def test_the_reference_run_reports_the_value_rules_it_breaks():
    """Through a real reference worker: ``Outcome.undefined`` is what the fuzzer's differential
    oracle reads (a program with no single right result is not judged)."""
    with Pool("reference", "cpu", jobs=1, timeout=120) as pool:
        bad = pool.run(Request(PROD_OVERFLOWS, "prod.py", RunOptions(seed=0)))
        good = pool.run(Request(CAST_NAN.replace("log1p", "abs"), "abs.py", RunOptions(seed=0)))
        div = pool.run(Request(FMOD_BY_INPUT, "fmod.py", RunOptions(seed=0)))
    assert bad.ok and [d["rule"] for d in bad.undefined] == ["int-overflow"]
    assert bad.undefined[0]["stmt"] == 2          # the prod (the worker records statements, not lines)
    assert good.ok and not good.undefined
    # torch raises on the CPU; the run still says which rule its values broke
    assert not div.ok and [d["rule"] for d in div.undefined] == ["int-division"]


def _seed():
    p = parse(open(BATCHNORM_SEED, encoding="utf-8").read())
    return p, static.check(p)


class _Data:
    def __init__(self, data):
        self.draw = data.draw


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=__import__("hypothesis").strategies.data())
def test_mutations_of_an_aliasing_seed_stay_valid(data):
    """Every mutation the seeded fuzzer keeps obeys the static rules, on the seed that aliases
    (``dtype`` and ``cast`` changing a written dtype, ``duplicate_branch``, ``alias_output``,
    ``segment_set`` between a read and its write are refused or avoided)."""
    p, info = _seed()
    q, names = mutate.mutated(_Data(data), p, info)
    assert violations(q) == [], names


# nvFuser's own test of the in-place alias (tests/python/direct/test_python_frontend.py,
# test_alias_output_to_input) without its ``add_output(t1, alias_input=t0)``
NVFUSER_ALIAS_TEST = script(
    "    t0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
    "    t1 = fd.ops.add(t0, 1.0)\n"
    "    t2 = fd.ops.add(t1, 2.0)\n"
    "    fd.add_output(t2)\n",
    "    torch.testing.make_tensor((4, 4), dtype=torch.float32, device='cuda'),\n")


def _alias_mutants(p, info, n=40) -> list:
    from hypothesis import strategies as st
    seen = []

    @settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def draw(data):
        q = mutate.alias_output(_Data(data), p, info)
        if q is not None:
            seen.append(q)
    draw()
    return seen


def test_alias_output_mutation_writes_only_where_the_rules_allow():
    p = parse(NVFUSER_ALIAS_TEST)
    got = _alias_mutants(p, static.check(p))
    assert got and all(violations(q) == [] for q in got)
    written = {str(q.stmts[-1].args) for q in got}
    assert written <= {"(('output', t1), ('alias_input', t0))", "(('output', t2), ('alias_input', t0))"}
    # the batch norm seed: its statistics are written already, and its activations T0, which the
    # fusion reduces, may be written too (nvFuser orders the write after the reads), by none of
    # the values already written into a statistic
    got = _alias_mutants(*_seed(), n=10)
    assert got and all(violations(q) == [] for q in got)
    assert {q.stmts[-1].arg("alias_input").name for q in got} == {"T0"}


def test_alias_output_mutation_writes_no_value_into_a_second_input():
    """nvFuser keeps one alias per output: with ``t1`` written into ``t0`` already, the second
    input ``u0`` (of the same shape and dtype) is written with ``t2`` only."""
    text = NVFUSER_ALIAS_TEST.replace(
        "    t1 = fd.ops.add(t0, 1.0)\n",
        "    u0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
        "    t1 = fd.ops.add(t0, 1.0)\n").replace("    fd.add_output(t2)\n", "    fd.add_output(t2)\n    fd.add_output(t1, t0)\n")
    text = text.replace("inputs = [\n", "inputs = [\n    torch.testing.make_tensor((4, 4), dtype=torch.float32, device='cuda'),\n", 1)
    p = parse(text)
    got = _alias_mutants(p, static.check(p))
    assert got and {(q.stmts[-1].arg("output").name, q.stmts[-1].arg("alias_input").name) for q in got} == {("t2", "u0")}


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(programs(max_ops=8))
def test_generated_programs_obey_the_static_rules(p):
    assert violations(p) == []


def test_alias_cpu():
    # bucket 8f830b7af4b7 (a seeded mutant on the H100): a value written into a CPU scalar input
    text = script(
        "    tv0 = fd.define_tensor(sizes=[], strides=[], dtype=DataType.Float, static_sizes=False, is_cpu=True)\n"
        "    tv1 = fd.define_tensor(sizes=[3], strides=[1], dtype=DataType.Float, static_sizes=False, is_cpu=False)\n"
        "    c2 = fd.define_scalar(3.0)\n"
        "    tv3 = fd.ops.add(tv0, c2)\n"
        "    tv4 = fd.ops.add(tv1, c2)\n"
        "    fd.add_output(tv4)\n"
        "    fd.add_output(tv3, tv0)\n",
        "    torch.testing.make_tensor((), dtype=torch.float32, device='cpu'),\n"
        "    torch.testing.make_tensor((3,), dtype=torch.float32, device='cuda:0'),\n")
    assert [v.rule for v in violations(text)] == ["alias-cpu"]
    assert violations(text.replace("fd.add_output(tv3, tv0)", "")) == []
    # returned instead, tv3 (CPU scalar + 3.0) is what nvFuser's test_single_segment_multi_device
    # expects it to refuse: another rule (tests/test_cpu_output.py)
    assert [v.rule for v in violations(text.replace("fd.add_output(tv3, tv0)", "fd.add_output(tv3)"))] == ["cpu-output"]
