"""cpu-output (issue 43: validity is nvFuser's contract): nvFuser takes CPU scalar tensors beside
GPU data and forwards one unchanged, but refuses an output computed from CPU scalars alone — its
own ``test_single_segment_multi_device`` expects "KernelExecutor does not support the Fusion
provided". The GPU pair of 2026-12-07 (H100) filed two such programs as bugs (12d4386258b8,
8f830b7af4b7): mutations of a 0-dim CPU input. Their failures are the contract kept."""
import pytest

from minimizer.fuzz.buglist.classes import decide
from minimizer.fuzz.store.key import BucketKey
from minimizer.fuzz.store.record import Bucket
from minimizer.program import parse
from minimizer.program.validity import violations


def script(*body: str, inputs: str) -> str:
    return "\n".join(["import torch", "from nvfuser_direct import FusionDefinition, DataType", "",
                      "def fusion_func(fd : FusionDefinition) -> None :", *(f"    {b}" for b in body),
                      "with FusionDefinition() as fd:", "    fusion_func(fd)", "", f"inputs = [{inputs}]",
                      "fd.execute(inputs)"])


CPU = "tv0 = fd.define_tensor(sizes=[], strides=[], dtype=DataType.Float, static_sizes=False, is_cpu=True)"
GPU = "tv1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)"
CPU_IN = "torch.tensor(2.0)"
GPU_IN = "torch.randn(3, device='cuda')"

REFUSED = {   # 8f830b7af4b7 and 12d4386258b8, and the shape nvFuser's own test expects to fail
    "gt of a CPU scalar": script(CPU, "tv1 = fd.ops.gt(tv0, 1.0)", "fd.add_output(tv1)", inputs=CPU_IN),
    "segment_set of a CPU scalar": script(CPU, "tv1 = fd.ops.segment_set(tv0)", "fd.add_output(tv1)", inputs=CPU_IN),
    # the GPU mix of 2026-12-08 (H100): a segment_set of a CPU scalar feeding GPU work (12d4386258b8's
    # "Expected T0 to be bound to a CUDA or meta tensor, but got a tensor on device cpu")
    "a segment of CPU scalars alone": script(CPU, "tv2 = fd.ops.segment_set(tv0)", GPU, "tv3 = fd.ops.add(tv2, tv1)",
                                             "fd.add_output(tv3)", inputs=f"{CPU_IN}, {GPU_IN}"),
    "test_single_segment_multi_device": script(CPU, GPU, "tv2 = fd.ops.add(tv0, 3.0)", "tv3 = fd.ops.add(tv2, tv1)",
                                               "fd.add_output(tv2)", "fd.add_output(tv1)", inputs=f"{CPU_IN}, {GPU_IN}"),
}
KEPT = {   # nvFuser's tests run these and assert their results
    "test_cpu_add": script(CPU, GPU, "tv2 = fd.ops.add(tv0, tv1)", "fd.add_output(tv2)", inputs=f"{CPU_IN}, {GPU_IN}"),
    "test_full_with_cpu_inputs": script(CPU, "tv1 = fd.ops.full(shape=[2, 2], fill_value=3.0, dtype=DataType.Float)",
                                        "tv2 = fd.ops.mul(tv0, tv1)", "fd.add_output(tv2)", inputs=CPU_IN),
    "test_input_forwarding_device": script(CPU, "fd.add_output(tv0)", inputs=CPU_IN),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_output_computed_from_cpu_scalars_alone_breaks_the_rule(name):
    assert {v.rule for v in violations(parse(REFUSED[name]))} == {"cpu-output"}


@pytest.mark.parametrize("name", sorted(KEPT))
def test_what_nvfusers_tests_run_keeps_the_rule(name):
    assert violations(parse(KEPT[name])) == []


def test_its_failure_is_by_design_and_a_wrong_value_a_missing_check():
    """nvFuser refuses such a program itself: its failure goes to *by design* (not *Bugs*, not a
    missing check); a wrong value it computed anyway would be a check that is missing."""
    text = REFUSED["gt of a CPU scalar"]
    failed = Bucket(kind="failure", owner="nvfuser", backend="nvfuser",
                    key=BucketKey("failure", "nvfuser", "error", "KernelExecutor does not support the Fusion provided."))
    d = decide(failed, text, {"status": "error", "where": "run"})
    assert d.cls == "by-design" and "test_single_segment_multi_device" in d.reason
    wrong = Bucket(kind="mismatch", owner="nvfuser", backend="nvfuser",
                   key=BucketKey("mismatch", "nvfuser", difference="values", ops=("gt",)))
    assert decide(wrong, text, {"status": "ok"}).cls == "missing-check"
