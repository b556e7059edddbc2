"""Rules whose one-character breakage once slipped past the suite, each pinned here by a fast test
on what the rule means (a bug planted in any of them fails a test in seconds):

- the reduced-precision NVRTC family is decided by the log's *first* error;
- the any-order rounding bound of a narrow scan is the textbook gamma_n bound, not a looser one
  (checked against the formula computed independently, and against real orders of accumulation);
- a standalone run's verdict tells a wrong dtype (or shape) from a wrong value.
"""
import math
import random

import torch

from minimizer.backends.nvfuser_rootcause import reduced_precision_functions
from minimizer.fuzz.filing import standalone
from minimizer.ops.scans import narrow_bound
from minimizer.oracle.outcome import Outcome


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


def test_a_run_through_fmins_launcher_gets_the_directory_that_holds_this_fmin(monkeypatch):
    """The launcher (``python -m minimizer.backends.launch``) must import this fmin from the
    scratch directory, with no PYTHONPATH or install to lean on: the first entry the run gets
    is the directory that holds the ``minimizer`` package."""
    import os
    import minimizer
    monkeypatch.delenv("PYTHONPATH", raising=False)
    first = standalone.environment("", "inductor")["PYTHONPATH"].split(os.pathsep)[0]
    assert os.path.join(first, "minimizer") == os.path.dirname(os.path.abspath(minimizer.__file__))
