"""``--order-dependent``: permuting inputs keeps the semantics; the search finds the smallest
permutation that changes a (fake) outcome; the Check and ``evaluate`` with a fake pool."""
import os

import pytest
import torch

from minimizer.oracle import Outcome, run_script
from minimizer.oracle import Pools
from minimizer.oracle.checks.order import candidates, search
from minimizer.oracle.outcome import outcome_key
from minimizer.oracle.property import OrderDependent, Property, evaluate
from minimizer.program.variants import input_names, permute_inputs
from minimizer.program import parse, parse_file, to_source
from minimizer.program.static import is_valid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEGMENTED = os.path.join(ROOT, "corpus", "seeds", "layernorm_bwd_segmented.py")

SCRIPT = """
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    S1 = fd.define_scalar(None, dtype=DataType.Double)
    T2 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.mul(T0, S1)
    T4 = fd.ops.sub(T3, T2)
    T5 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T6 = fd.ops.cast(T5, dtype=DataType.Float)
    T7 = fd.ops.div(T4, T6)
    T8 = fd.ops.sum(T7, dims=[1], keepdim=False, dtype=DataType.Null)
    fd.add_output(T8)
    fd.add_output(T4)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.randn((4, 8), dtype=torch.float32, device='cuda:0'),
    2.5,
    torch.randn((4, 1), dtype=torch.float32, device='cuda:0'),
    torch.rand((4, 8), dtype=torch.float16, device='cuda:0') + 1,
]
fd.execute(inputs)
"""


def test_permute_inputs_moves_declarations_and_values_together():
    p = parse(SCRIPT, "x.py")
    q = permute_inputs(p, [3, 2, 1, 0])
    assert input_names(q) == ["T5", "T2", "S1", "T0"]
    assert [getattr(a, "dtype", None) for a in q.inputs] == ["Half", "Float", None, "Float"]
    assert q.inputs[2].value == 2.5
    assert [s for s in q.stmts if s.is_op] == [s for s in p.stmts if s.is_op]   # ops keep their order
    assert is_valid(q)
    assert permute_inputs(p, [0, 1, 2, 3]).inputs == p.inputs
    with pytest.raises(ValueError, match="permutation"):
        permute_inputs(p, [0, 0, 1, 2])


DETERMINISTIC = SCRIPT.replace("torch.randn((4, 8), dtype=torch.float32", "torch.full((4, 8), 1.5, dtype=torch.float32") \
    .replace("torch.randn((4, 1), dtype=torch.float32", "torch.full((4, 1), -3.0, dtype=torch.float32") \
    .replace("torch.rand((4, 8), dtype=torch.float16, device='cuda:0') + 1",
             "torch.full((4, 8), 4.0, dtype=torch.float16, device='cuda:0')")


def test_permuted_script_gives_identical_reference_results():
    # random inputs would be drawn in another order: use fixed values so that only the order differs
    p = parse(DETERMINISTIC, "x.py")
    q = permute_inputs(p, [2, 0, 3, 1])
    a = run_script(to_source(p), device="cpu", want_values=True, path="a.py")
    b = run_script(to_source(q), device="cpu", want_values=True, path="b.py")
    assert a.ok and b.ok, (a.message, b.message)
    (ins_a, outs_a), (ins_b, outs_b) = a.values, b.values
    assert len(outs_a) == len(outs_b) == 2
    for x, y in zip(outs_a, outs_b):
        assert torch.equal(x, y)
    # the same tensors, in the permuted order
    assert torch.equal(ins_a[0], ins_b[1]) and torch.equal(ins_a[3], ins_b[2])


def test_seed_permutations_check_statically():
    p = parse_file(SEGMENTED)
    n = len(p.input_stmts())
    for _, perm in candidates(n, n_random=3):
        assert is_valid(permute_inputs(p, perm))


def test_candidates_smallest_first_and_bounded():
    c = list(candidates(4, max_swaps=100, n_random=3, seed=1))
    kinds = [k for k, _ in c]
    assert kinds[:6] == ["swap"] * 6 and kinds[6] == "reversal" and kinds[7:] == ["random"] * 3
    assert c[0][1] == [1, 0, 2, 3]                         # adjacent swaps first
    assert len({tuple(p) for _, p in c}) == len(c)         # none repeated
    assert list(range(4)) not in [p for _, p in c]
    assert len(list(candidates(10, max_swaps=5, n_random=2))) == 5 + 1 + 2


def _fake(names_first_bad):
    """An outcome function: 3 segments when the first input is one of ``names_first_bad``."""
    def run(prog):
        first = input_names(prog)[0]
        if first in names_first_bad:
            return Outcome("ok", "nvfuser", segments=3, schedulers=["reduction", "reduction", "transpose"])
        return Outcome("ok", "nvfuser", segments=1, schedulers=["inner_outer_persistent"])
    return run


def test_search_finds_a_single_swap():
    p = parse(SCRIPT, "x.py")
    run = _fake({"T2"})
    orig = run(p)
    r = search(p, orig, run)
    assert r.found and r.kind == "swap"
    assert r.perm == [2, 1, 0, 3]            # the first single swap that puts T2 first
    assert "swapping inputs 0 (T0) and 2 (T2)" in r.words()
    assert "3 segments" in r.words() and "1 segment" in r.words()
    assert r.tried == 4                      # 3 adjacent swaps, then (0, 2)


def test_search_reports_nothing_found_and_respects_bounds():
    p = parse(SCRIPT, "x.py")
    calls = []

    def run(prog):
        calls.append(prog)
        return Outcome("ok", "nvfuser", segments=1, schedulers=["pointwise"])

    r = search(p, run(p), run, max_swaps=2, n_random=1)
    assert not r.found and r.tried == 4 and len(calls) == 5
    assert "none of 4 input orders" in r.words()


def test_order_dependent_check_and_evaluate_with_fake_pool():
    class FakePool:
        backend = "nvfuser"

        def __init__(self):
            self.requests = []

        def run(self, req):
            self.requests.append(req)
            return _fake({"T5"})(parse(req.script, req.path))

    pool = FakePool()
    prop = Property.from_flags(order_dependent=True)
    assert isinstance(prop.checks[0], OrderDependent)
    v = evaluate(prop, SCRIPT, "x.py", Pools.of(pool), all_checks=True)
    assert v.holds, v.reason
    assert "swapping inputs 0 (T0) and 3 (T5)" in v.reason
    assert v.to_json()["order-dependent"]["found"]
    assert Property.from_json(prop.to_json()) == prop
    # not order dependent: every permutation the same
    v2 = evaluate(prop, SCRIPT, "x.py", Pools.of(pool), all_checks=True, outcome=Outcome("ok", segments=1))

    class Same(FakePool):
        def run(self, req):
            return Outcome("ok", "nvfuser", segments=1, schedulers=["pointwise"])

    v2 = evaluate(prop, SCRIPT, "x.py", Pools.of(Same()), all_checks=True)
    assert not v2.holds and "none of" in v2.reason
    assert not OrderDependent().holds(Outcome("ok"), None)[0]


def test_outcome_key_ignores_scheduler_order():
    a = Outcome("ok", segments=2, schedulers=["a", "b"])
    b = Outcome("ok", segments=2, schedulers=["b", "a"])
    assert outcome_key(a) == outcome_key(b)
    assert outcome_key(a) != outcome_key(Outcome("error", signature="x"))


def test_a_crash_counts_only_if_it_repeats():
    """An out-of-memory kill or a loaded machine can crash one run: the search re-runs a
    permutation whose outcome is a crash or timeout and believes it only if it repeats."""
    p = parse(SCRIPT, "x.py")
    ok = Outcome("ok", "nvfuser", segments=1, schedulers=["pointwise"])
    crash = Outcome("crash", "nvfuser", signature="crash: SIGKILL")
    once = [crash]

    def flaky(prog):
        return once.pop() if once and prog != p else ok

    r = search(p, ok, flaky, max_swaps=3, n_random=0)
    assert not r.found and any("(re-run)" in w for _, w in r.seen)

    def always(prog):
        return crash if prog != p else ok

    r = search(p, ok, always, max_swaps=3, n_random=0)
    assert r.found and r.outcome.status == "crash" and r.tried == 1
