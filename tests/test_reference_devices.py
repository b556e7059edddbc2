"""The reference computes on the device nvFuser computes on: a 0-dim CPU input (``is_cpu=True``)
is a scalar operand that joins device tensors on their device, and a fusion with no tensor input
runs on the run's device, not on the CPU. This machine has no GPU, so ``meta`` stands for "a
device that is not the CPU": torch refuses a CPU 0-dim tensor next to a CUDA one in some ops, and
these tests check what each op is handed and where results land."""
import torch

from minimizer.backends import RunOptions
from minimizer.backends import runner_for
from minimizer.frontend.fusion_definition import RUN_DEVICE, fusion_device, make_module
from minimizer.model import DIRECT
from minimizer.ops import Ctx
from minimizer.program.interpret import host_scalars_to_device, run

META = torch.device("meta")


def _recorded(build):
    """The statements of a direct-frontend fusion that ``build(fd, DataType)`` defines."""
    mod = make_module(DIRECT)
    with mod.FusionDefinition() as fd:
        build(fd, mod.DataType)
    return fd.stmts


def _run_watching(stmts, inputs):
    """Run on ``meta``; returns the outputs and, per op, the tensors it was handed."""
    handed = []

    def watch(i, s, spec, args, results):
        if results is None:
            handed.append((spec.name, [v for v in args.values() if isinstance(v, torch.Tensor)]))
    res = run(stmts, inputs, frontend=DIRECT, ctx=Ctx(device="meta", frontend=DIRECT), watch=watch)
    return res.outputs, handed


def test_a_cpu_scalar_input_reaches_the_op_on_the_other_operand_device():
    def build(fd, DT):
        s = fd.define_tensor(shape=[], dtype=DT.Bool, is_cpu=True)
        t = fd.define_tensor(shape=[4], contiguity=[True], dtype=DT.Bool)
        fd.add_output(fd.ops.logical_or(s, t))
    (out,), handed = _run_watching(_recorded(build), [torch.tensor(True), torch.zeros(4, dtype=torch.bool, device=META)])
    assert handed[0][0] == "logical_or"
    assert [t.device for t in handed[0][1]] == [META, META]
    assert out.device == META


def test_ops_on_cpu_scalars_alone_stay_on_the_host():
    """nvFuser's outputs of an expression whose only tensor operands are CPU scalars are CPU
    scalars (PropagateCpuScalarsPass): the reference does not move them to the fusion's device."""
    def build(fd, DT):
        s = fd.define_tensor(shape=[], dtype=DT.Float, is_cpu=True)
        fd.add_output(fd.ops.neg(s))
    (out,), handed = _run_watching(_recorded(build), [torch.tensor(2.0)])
    assert out.device.type == "cpu" and out.item() == -2.0
    assert handed[0][1][0].device.type == "cpu"


def test_cpu_scalars_inside_a_list_operand_are_moved_too():
    kw = {"tensors": (torch.tensor(1.0), torch.ones(2, device=META)), "dim": 0}
    moved = host_scalars_to_device(kw)
    assert [t.device for t in moved["tensors"]] == [META, META] and moved["dim"] == 0
    alone = {"a": torch.tensor(1.0), "b": torch.ones(2)}       # on the CPU nothing moves
    assert host_scalars_to_device(alone) is alone


def test_the_fusion_device_ignores_cpu_scalars_and_falls_back_to_the_run_device():
    assert fusion_device([torch.tensor(1.0), torch.ones(3, device=META)]) == META
    assert fusion_device([torch.tensor(1.0), 2.0]) == torch.device("cpu")   # outside a run
    assert fusion_device([], "meta") == META                                 # execute(..., device=)
    token = RUN_DEVICE.set("meta")
    try:
        assert fusion_device([torch.tensor(1.0), 2.0]) == META
        assert fusion_device([torch.ones(3)]) == torch.device("cpu")         # a device tensor decides
    finally:
        RUN_DEVICE.reset(token)


NO_TENSOR_INPUT = """
import torch
from nvfuser_direct import FusionDefinition, DataType
with FusionDefinition() as fd:
    s = fd.define_scalar(dtype=DataType.Float)
    fd.add_output(fd.ops.full([2, 3], s, dtype=DataType.Float))
    fd.add_output(fd.ops.iota(6, 0, 1, dtype=DataType.Int))
out = fd.execute([1.5])
"""


def test_a_fusion_without_tensor_inputs_runs_on_the_run_device():
    """The reference backend's worker on ``meta``: creation ops of a fusion whose only input is a
    Python scalar put their results there, as nvFuser puts them on its GPU."""
    r = runner_for("reference").run_script(NO_TENSOR_INPUT, "<no-tensor-input>", "meta", RunOptions())
    assert r["status"] == "ok", r.get("message")
    assert [o["device"] for o in r["outputs"]] == ["meta", "meta"]
    assert RUN_DEVICE.get() is None    # the run's device does not outlive the run
