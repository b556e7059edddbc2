"""Rules whose one-character breakage once slipped past the suite, each pinned here by a fast test
on what the rule means (a bug planted in any of them fails a test in seconds):

- the reduced-precision NVRTC family is decided by the log's *first* error;
- the any-order rounding bound of a narrow scan is the textbook gamma_n bound, not a looser one
  (checked against the formula computed independently, and against real orders of accumulation);
- a standalone run's verdict tells a wrong dtype (or shape) from a wrong value;
- a shift amount lies in [0, bit width): the width itself is out of range, for every integer dtype;
- an integer result overflows at either end of its dtype, below the minimum as above the maximum;
- the attachment's ``assert_close`` excuses nothing fmin's mismatch verdict calls wrong: its
  tolerances are the documented ones, and a value just beyond them fails it;
- minimized buckets merge as one program only with one owner, inputs of one dtype class and the
  same validity rules broken (a dtype-mismatched alias is never its valid twin's bucket).
"""
import math
import os
import random
import re

import pytest
import torch

from minimizer import dtypes
from minimizer.backends.nvfuser_rootcause import reduced_precision_functions
from minimizer.fuzz.filing import plain_check, standalone
from minimizer.fuzz.judging.today import TODAY, rekey
from minimizer.fuzz.store.finding import Finding
from minimizer.fuzz.store.key import MISMATCH, BucketKey
from minimizer.fuzz.store.rekey import merge_equal_programs
from minimizer.fuzz.store.store import Store
from minimizer.ops.scans import narrow_bound
from minimizer.oracle.compare import compare_one
from minimizer.oracle.outcome import Outcome
from minimizer.program import parse
from minimizer.program.interpret import run
from minimizer.program.validity import ValueWatch, violations


# ---------------------------------------------------------------- NVRTC: the first error decides
def _nvrtc(*errors: tuple[str, str]) -> str:
    """An NVRTC compile log with ``errors`` (error line, argument types), as nvFuser prints it."""
    out = ["CUDA NVRTC compile error: "]
    for k, (err, types) in enumerate(errors):
        out += [f"__tmp_nvfuser_pointwise_f0_c1_r0_g0.cu({100 + k}): error: {err}",
                f"            argument types are: {types}", "          T1[0] = f(", "                  ^", ""]
    return "\n".join(out)


HALF_MIN = ('no instance of overloaded function "nvf::min" matches the argument list', "(nvf::__half, nvf::__half)")
FLOAT_MIN = ('no instance of overloaded function "nvf::min" matches the argument list', "(float, int *)")
UNDEFINED = ('identifier "nvf::foo" is undefined', "(float)")


def test_a_log_whose_first_error_is_a_half_overload_is_the_family():
    assert reduced_precision_functions(_nvrtc(HALF_MIN)) == ["nvf::min"]
    assert reduced_precision_functions(_nvrtc(HALF_MIN, UNDEFINED)) == ["nvf::min"]


def test_a_log_whose_first_error_is_another_one_is_not_the_family():
    """The first error is the one to fix; a later Half overload error is its consequence or noise."""
    assert reduced_precision_functions(_nvrtc(UNDEFINED, HALF_MIN)) == []
    assert reduced_precision_functions(_nvrtc(FLOAT_MIN, HALF_MIN)) == []


# ---------------------------------------------------------------- the any-order rounding bound
def test_the_bound_is_gamma_n_times_the_sum_of_magnitudes():
    """Four bf16 values (unit roundoff u = 2**-8): the bound at element i is i*u/(1-i*u) times the
    sum of the magnitudes of elements 0..i, computed here by hand in Python floats."""
    vals = [1.5, -0.25, 3.0, -2.0]
    x = torch.tensor(vals, dtype=torch.bfloat16)
    exact, bound = narrow_bound(x, 0, product=False)
    u = 2.0 ** -8
    for i in range(4):
        mags = sum(abs(v) for v in vals[:i + 1])
        want = (i * u / (1 - i * u)) * mags
        assert math.isclose(float(bound[i]), want, rel_tol=1e-12, abs_tol=1e-300), (i, float(bound[i]), want)
        assert math.isclose(float(exact[i]), sum(vals[:i + 1]), rel_tol=1e-12)


def test_the_product_bound_is_gamma_n_times_the_magnitude():
    vals = [1.5, -0.5, 3.0, 1.25]
    x = torch.tensor(vals, dtype=torch.float16)
    exact, bound = narrow_bound(x, 0, product=True)
    u = 2.0 ** -11
    prod = 1.0
    for i, v in enumerate(vals):
        prod *= v
        assert math.isclose(float(bound[i]), (i * u / (1 - i * u)) * abs(prod), rel_tol=1e-12, abs_tol=1e-300)


def _tree_sum(vals: list, dtype, rng: random.Random):
    """The values summed in ``dtype`` in a random binary-tree order, one rounding per addition."""
    items = [torch.tensor(v, dtype=dtype) for v in vals]
    while len(items) > 1:
        k = rng.randrange(len(items) - 1)
        items[k:k + 2] = [(items[k].double() + items[k + 1].double()).to(dtype)]
    return float(items[0])


def test_every_order_lies_within_the_bound_and_some_use_much_of_it():
    """Real accumulations in bf16, in random orders, stay within the bound of their prefix; and the
    bound is not slack: the worst order seen uses 40 % of it at some prefix (values and orders are
    seeded), so a doubled bound (20 %) would be noticed."""
    rng = random.Random(5)
    torch.manual_seed(5)
    x = (torch.rand(24) + 0.5).to(torch.bfloat16)   # same signs: the bound is tight-ish
    exact, bound = narrow_bound(x, 0, product=False)
    vals = [float(v) for v in x]
    used = 0.0
    for i in range(1, 24):
        worst = max(abs(_tree_sum(vals[:i + 1], torch.bfloat16, rng) - float(exact[i])) for _ in range(40))
        assert worst <= float(bound[i]) * (1 + 1e-9), (i, worst, float(bound[i]))
        used = max(used, worst / float(bound[i]))
    assert used > 0.3, used   # 0.40 with these values and orders; a doubled bound would give 0.20


# ---------------------------------------------------------------- the standalone verdict
def _raised(words: str) -> Outcome:
    return Outcome("error", "nvfuser", signature="AssertionError", message=f"AssertionError: {words}")


def test_a_wrong_dtype_is_not_taken_for_a_wrong_value():
    values = {"kind": "mismatch", "differs": "values"}
    assert standalone.reproduces(values, _raised("wrong result (values) in output 0: Tensor-likes are not close!"))[0]
    assert not standalone.reproduces(values, _raised("wrong result (dtype) in output 0: The values for attribute "
                                                     "'dtype' do not match"))[0]
    assert not standalone.reproduces(values, _raised("wrong result (shape) in output 0: The values for attribute "
                                                     "'shape' do not match"))[0]
    dtype = {"kind": "mismatch", "differs": "dtype"}
    assert not standalone.reproduces(dtype, _raised("wrong result (values) in output 0: Tensor-likes are not close!"))[0]
    assert standalone.reproduces(dtype, _raised("wrong result (dtype) in output 0: ..."))[0]


# ---------------------------------------------------------------- a fusion script, as the fuzzer prints one
def _script(input_dtypes: list[str], *lines: str, n: int = 3) -> str:
    """A ``nvfuser_direct`` script whose inputs ``T0, T1, ...`` are 1-d tensors of ``n`` elements
    of ``input_dtypes`` (DataType names), with ``lines`` as its body."""
    decls = [f"    T{k} = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.{dt}, is_cpu=False)"
             for k, dt in enumerate(input_dtypes)]
    made = [f"    torch.testing.make_tensor(({n},), dtype=torch.{dtypes.torch_name(dtypes.to_torch(dt))}, device='cuda'),"
            for dt in input_dtypes]
    return "\n".join(["import torch", "from nvfuser_direct import FusionDefinition, DataType", "",
                      "def nvfuser_fusion(fd : FusionDefinition) -> None :", *decls, *(f"    {x}" for x in lines),
                      "", "with FusionDefinition() as fd:", "    nvfuser_fusion(fd)", "", "inputs = [", *made, "]",
                      "fd.execute(inputs)", ""])


def _static_rules(text: str) -> list[str]:
    return [v.rule for v in violations(text)]


def _value_rules(text: str, *inputs: torch.Tensor) -> list[str]:
    """The value rules a reference run of ``text`` on ``inputs`` breaks."""
    p = parse(text)
    w = ValueWatch()
    run(p.stmts, list(inputs), frontend=p.dialect.frontend, watch=w)
    return [v.rule for v in w.found]


# ---------------------------------------------------------------- shift amounts lie in [0, bit width)
#: nvFuser's integer DataTypes (``dtypes.INTEGRAL`` but ``Index``, which is ``Int``) and their widths
WIDTHS = {"Int32": 32, "Int": 64, "UInt64": 64}
SHIFTS = ("bitwise_left_shift", "bitwise_right_shift", "logical_right_shift")


@pytest.mark.parametrize("dt", sorted(WIDTHS))
def test_a_constant_shift_by_the_bit_width_is_out_of_range(dt):
    """Amounts 0 and width - 1 are defined; the width itself and -1 are not (C++ and CUDA)."""
    w = WIDTHS[dt]
    for op in SHIFTS:
        rules = {k: _static_rules(_script([dt], f"T1 = fd.ops.{op}(T0, {k})", "fd.add_output(T1)"))
                 for k in (0, w - 1, w, -1)}
        assert rules == {0: [], w - 1: [], w: ["shift-amount"], -1: ["shift-amount"]}, (op, rules)


@pytest.mark.parametrize("dt", ["Int32", "Int"])   # torch shifts no UInt64 on the CPU: nothing to watch
def test_a_tensor_of_shift_amounts_reaching_the_bit_width_is_out_of_range(dt):
    w, t = WIDTHS[dt], dtypes.to_torch(dt)
    x = torch.tensor([5, -7, 3], dtype=t)
    for op in SHIFTS:
        text = _script([dt, dt], f"T2 = fd.ops.{op}(T0, T1)", "fd.add_output(T2)")
        got = {tuple(ks): _value_rules(text, x, torch.tensor(ks, dtype=t))
               for ks in ([0, 1, w - 1], [0, w, 1], [0, -1, 1])}
        assert got == {(0, 1, w - 1): [], (0, w, 1): ["shift-amount"], (0, -1, 1): ["shift-amount"]}, (op, got)


# ---------------------------------------------------------------- integer overflow at either end
def _overflow_cases(dt: str):
    """(what, the line, its inputs, does it overflow): each overflowing result next to one that
    lands exactly on the end of the range it crosses (which fits)."""
    info = torch.iinfo(dtypes.to_torch(dt))
    big = 2 ** (info.bits - 2)   # a quarter of the range
    yield "neg of min (above max)", "neg(T0)", [info.min], True
    yield "neg of -max (= max)", "neg(T0)", [-info.max], False
    yield "abs of min (above max)", "abs(T0)", [info.min], True
    yield "max + 1 (above max)", "add(T0, T1)", [info.max, 1], True
    yield "max - 1 + 1 (= max)", "add(T0, T1)", [info.max - 1, 1], False
    yield "min - 1 (below min)", "sub(T0, T1)", [info.min, 1], True
    yield "min + 1 - 1 (= min)", "sub(T0, T1)", [info.min + 1, 1], False
    yield "-2 - max (min - 1, below min)", "sub(T0, T1)", [-2, info.max], True
    yield "(-big - 1) * 2 (min - 2, below min)", "mul(T0, T1)", [-big - 1, 2], True
    yield "-big * 2 (= min)", "mul(T0, T1)", [-big, 2], False
    yield "-big * 4 (twice below min)", "mul(T0, T1)", [-big, 4], True


@pytest.mark.parametrize("dt", ["Int32", "Int"])
def test_an_integer_result_below_the_minimum_overflows_as_one_above_the_maximum(dt):
    """Int32 is exact in float64; Int64's ends are not (max and max + 1 both read 2**63 there), so
    these are the cases a float64-only comparison gets wrong."""
    t = dtypes.to_torch(dt)
    for what, line, vals, overflows in _overflow_cases(dt):
        text = _script([dt] * len(vals), f"T9 = fd.ops.{line}", "fd.add_output(T9)", n=1)
        got = _value_rules(text, *(torch.tensor([v], dtype=t) for v in vals))
        assert got == (["int-overflow"] if overflows else []), (dt, what, got)


# ---------------------------------------------------------------- the attachment excuses nothing fmin calls wrong
#: fmin's mismatch verdict, first step (``oracle/checks/mismatch.py``, docs/mismatch.md, ``oracle/compare.py``'s
#: docstring): an output is right where |out - eager| <= atol + rtol * |eager|, with (rtol, atol) the
#: ``torch.testing.assert_close`` defaults of its dtype, a complex dtype its component's, integers exact.
#: Written here from those documents, not read from fmin: what the attachment writes is checked against it.
DOCUMENTED = {"Double": (1e-7, 1e-7), "Float": (1.3e-6, 1e-5), "BFloat16": (1.6e-2, 1e-5), "Half": (1e-3, 1e-5),
              "ComplexFloat": (1.3e-6, 1e-5), "ComplexDouble": (1e-7, 1e-7), "Int32": (0.0, 0.0), "Int": (0.0, 0.0)}
#: how close to fmin's tolerance the values tried lie: a widening by this much or more fails
MARGIN = 1e-2
_SAME_SIZE_INT = {2: torch.int16, 4: torch.int32, 8: torch.int64}


def _neg_section(dt: str, n: int) -> str:
    """The check section an attachment of ``-T0`` (``n`` elements of ``dt``, the result cast back
    to ``dt``: nvFuser computes Half in Float) ends with."""
    p = parse(_script([dt], "T1 = fd.ops.neg(T0)", f"T2 = fd.ops.cast(T1, dtype=DataType.{dt})",
                      "fd.add_output(T2)", n=n))
    return "\n".join(plain_check.section(p, "outputs", "inputs", "fmin check repro.min.py --mismatch"))


def _attachment_says(dt: str, want: torch.Tensor, got: torch.Tensor) -> str | None:
    """The attachment's check of ``-T0`` run where eager gives ``want`` and the fusion gave ``got``:
    the AssertionError's words, or None."""
    x = -want
    g = {"torch": torch, "outputs": [got], "inputs": [x], "inputs_before": [x.clone()]}
    try:
        exec(_neg_section(dt, want.numel()), g)
    except AssertionError as err:
        return str(err)
    return None


def _next(x: torch.Tensor, up: bool) -> torch.Tensor:
    """The neighbouring value of ``x``'s floating dtype (``x`` > 0), up or down."""
    return (x.view(_SAME_SIZE_INT[x.element_size()]) + (1 if up else -1)).view(x.dtype)


def _around(e: torch.Tensor, rtol: float, atol: float) -> tuple[torch.Tensor, torch.Tensor, float]:
    """For a one-element ``e`` > 0: the largest value of its dtype within (1 - MARGIN) times the
    documented tolerance above it, the smallest beyond (1 + MARGIN) times it, and how far that
    one lies (in tolerances)."""
    tol = atol + rtol * float(e)
    inside = torch.tensor([float(e) + (1 - MARGIN) * tol], dtype=torch.float64).to(e.dtype)
    if float(inside) > float(e) + (1 - MARGIN) * tol:
        inside = _next(inside, False)
    beyond = torch.tensor([float(e) + (1 + MARGIN) * tol], dtype=torch.float64).to(e.dtype)
    if float(beyond) <= float(e) + (1 + MARGIN) * tol:
        beyond = _next(beyond, True)
    return inside, beyond, (float(beyond) - float(e)) / tol


@pytest.mark.parametrize("dt", sorted(DOCUMENTED))
def test_the_attachment_writes_the_documented_tolerance(dt):
    written = re.search(r"tol=(\{.*?\})\):", _neg_section(dt, 3))
    table = eval(written.group(1), {"torch": torch})
    t = dtypes.to_torch(dt)
    assert table.get(t, (0, 0)) == DOCUMENTED[dt], (dt, table)


@pytest.mark.parametrize("dt", ["Double", "Float", "BFloat16", "Half"])
def test_a_value_just_beyond_fmins_tolerance_fails_the_attachment(dt):
    """Among 256 values of [1, 2) in ``dt``, the one whose next value beyond the tolerance lies
    closest to it: fmin's verdict (``compare_one``, the mismatch check's first step) and the
    attachment both call that value wrong, and every value just within the tolerance right."""
    rtol, atol = DOCUMENTED[dt]
    es = (1 + torch.arange(256, dtype=torch.float64) / 256).to(dtypes.to_torch(dt))
    ins, outs, far = zip(*(_around(e.reshape(1), rtol, atol) for e in es))
    k = min(range(len(es)), key=lambda i: far[i])
    assert far[k] < 1 + 5 * MARGIN, far[k]   # sharp: a widening by 5 % is noticed
    inside, beyond = torch.cat(ins), es.clone()
    beyond[k] = outs[k][0]
    assert compare_one(inside, es).ok and not compare_one(beyond, es).ok   # the documented rule is fmin's
    assert _attachment_says(dt, es, inside) is None
    said = _attachment_says(dt, es, beyond)
    assert said is not None and said.startswith("wrong result (values) in output 0"), said


@pytest.mark.parametrize("dt", ["Int32", "Int"])
def test_an_integer_one_off_fails_the_attachment(dt):
    es = torch.tensor([3, -2, 7], dtype=dtypes.to_torch(dt))
    assert _attachment_says(dt, es, es.clone()) is None
    said = _attachment_says(dt, es, es + torch.tensor([0, 1, 0], dtype=es.dtype))
    assert said is not None and said.startswith("wrong result (values) in output 0"), said


# ---------------------------------------------------------------- one program, one bucket: but only of one owner, class, rules
def _alias_cumsum(x: str, into: str, n: int = 3) -> str:
    """A cumsum of a ``x`` input returned and written into a ``into`` input (bucket cd067938e9c4's
    program): where the two dtypes differ it breaks alias-dtype."""
    return _script([x, into], "T2 = fd.ops.cumsum(T0, dim=0)", "fd.add_output(T2)", "fd.add_output(T2, T1)", n=n)


def _minimized(root: str, op: str, script: str, owner: str = "nvfuser", examples=("1.0.0",)) -> str:
    """A minimized nvFuser wrong-result bucket whose minimal repro is ``script``, filed under the key
    its first differing output gave (``op``: each bucket its own). Returns its id."""
    store = Store(root)
    key = BucketKey(MISMATCH, "nvfuser", difference="values", ops=(op,))
    for ex in examples:
        d, _ = store.add(Finding("mismatch", owner, key, "nvfuser outputs differ from the reference"), script, ex,
                         "nvfuser")
    with open(os.path.join(d, "reduced.py"), "w", encoding="utf-8") as f:
        f.write(script)
    store.mark_minimized(key, {"ops_before": 9, "ops_after": 1})
    return os.path.basename(d)


def _merged(tmp_path, a: tuple, b: tuple) -> list:
    """Buckets ``a`` and ``b`` (``_minimized``'s arguments after the op) merged as a re-key merges
    minimized buckets of one program: the buckets left, as (examples, count)."""
    root = str(tmp_path / "corpus")
    _minimized(root, "sub", *a)
    _minimized(root, "mul", *b)
    merge_equal_programs(Store(root), TODAY.form)
    return sorted((sorted(m.examples), m.count) for m in Store(root).buckets())


def test_a_dtype_mismatched_alias_is_not_its_valid_twins_bucket(tmp_path):
    """The gap this closes: one program up to dtypes, so they merged; and re-keying a corpus
    (``fmin merge-findings``: keys from the repros, then equal keys and equal programs merged)
    keeps them apart too."""
    bad, twin = _alias_cumsum("BFloat16", "Float"), _alias_cumsum("Float", "Float")
    assert _static_rules(bad) == ["alias-dtype"] and _static_rules(twin) == []
    assert len(_merged(tmp_path, (bad, "nvfuser", ["1.0.0"]), (twin, "nvfuser", ["1.0.1"]))) == 2
    root = str(tmp_path / "again")
    _minimized(root, "sub", bad)
    _minimized(root, "mul", twin)
    rekey(root)
    assert sorted(str(m.key) for m in Store(root).buckets()) == [
        "nvfuser mismatch values: cumsum", "nvfuser mismatch values: cumsum (breaks alias-dtype)"]


def test_buckets_that_differ_only_in_the_rules_they_break_stay_apart(tmp_path):
    """Float into Double breaks alias-dtype, Double into Double does not: inputs of one class."""
    bad, twin = _alias_cumsum("Float", "Double"), _alias_cumsum("Double", "Double")
    assert _static_rules(bad) == ["alias-dtype"] and _static_rules(twin) == []
    assert len(_merged(tmp_path, (bad, "nvfuser", ["1.0.0"]), (twin, "nvfuser", ["1.0.1"]))) == 2


def test_buckets_that_differ_only_in_their_dtypes_class_stay_apart(tmp_path):
    half, single = _alias_cumsum("Half", "Half"), _alias_cumsum("Float", "Float")
    assert _static_rules(half) == _static_rules(single) == []
    assert len(_merged(tmp_path, (half, "nvfuser", ["1.0.0"]), (single, "nvfuser", ["1.0.1"]))) == 2


def test_buckets_that_differ_only_in_their_owner_stay_apart(tmp_path):
    """fmin's finding (its reference's translation disagrees) is not the backend's bug."""
    p = _alias_cumsum("Float", "Float")
    assert len(_merged(tmp_path, (p, "nvfuser", ["1.0.0"]), (p, "fmin", ["1.0.1"]))) == 2


def test_one_program_in_other_sizes_and_dtypes_of_a_class_is_one_bucket_keeping_its_examples(tmp_path):
    a, b = _alias_cumsum("Float", "Float", n=3), _alias_cumsum("Double", "Double", n=5)
    assert _merged(tmp_path, (a, "nvfuser", ["1.0.0", "1.0.2"]), (b, "nvfuser", ["2.0.7"])) == \
        [(["1.0.0", "1.0.2", "2.0.7"], 3)]
    c, d = _alias_cumsum("Half", "Half", n=3), _alias_cumsum("BFloat16", "BFloat16", n=4)
    assert _merged(tmp_path / "half", (c, "nvfuser", ["1.0.0"]), (d, "nvfuser", ["1.0.1"])) == [(["1.0.0", "1.0.1"], 2)]

def test_a_run_through_fmins_launcher_gets_the_directory_that_holds_this_fmin(monkeypatch):
    """The launcher (``python -m minimizer.backends.launch``) must import this fmin from the
    scratch directory, with no PYTHONPATH or install to lean on: the first entry the run gets
    is the directory that holds the ``minimizer`` package."""
    import os
    import minimizer
    monkeypatch.delenv("PYTHONPATH", raising=False)
    first = standalone.environment("", "inductor")["PYTHONPATH"].split(os.pathsep)[0]
    assert os.path.join(first, "minimizer") == os.path.dirname(os.path.abspath(minimizer.__file__))
