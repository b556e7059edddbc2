"""The reference's input layout check (``interpret.check_tensor_input``) against nvFuser's
``validateAllocationSizesAndStrides``: what nvFuser accepts (a test of its own passes with it)
fmin's static check accepts, and what it refuses stays refused."""
import pytest
import torch

from minimizer.program import parse
from minimizer.program.interpret import FusionError, run

SCRIPT = """import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape={shape}, contiguity={contiguity}, dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.neg(tv0)
    fd.add_output(tv1)

with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [torch.ones(1, device='cuda')]
fd.execute(inputs)
"""


def check(shape, contiguity, tensor):
    p = parse(SCRIPT.format(shape=shape, contiguity=contiguity))
    return run(p.stmts, [tensor], frontend=p.dialect.frontend)


def test_an_empty_tensor_is_not_checked_against_contiguity():
    """nvFuser's test_zero_size_dim: torch.ones(0, 0) has strides (1, 1); contiguous would want
    dim 0's stride to be 0 (1 * extent 0), but nvFuser validates strides only when numel != 0."""
    t = torch.ones(0, 0)
    assert t.stride() == (1, 1)
    assert check("[0, 0]", "[True, True]", t).outputs[0].shape == (0, 0)


def test_a_nonempty_tensor_still_is():
    with pytest.raises(FusionError, match="stride mismatch with contiguity info. dim 0"):
        check("[-1, -1]", "[True, True]", torch.ones(3, 5)[:, :4])


def test_an_expanded_dim_of_runtime_extent_one_takes_any_stride():
    """nvFuser's test_expanded_to_size_one: shape [1, -1], contiguity [None, None] declares dim 1
    expanded; a (1, 1) tensor has stride 1 there, which nvFuser allows when the extent is 1."""
    t = torch.ones(1, 1)
    assert t.stride() == (1, 1)
    assert check("[1, -1]", "[None, None]", t).outputs[0].shape == (1, 1)


def test_an_expanded_dim_of_another_extent_needs_stride_zero():
    with pytest.raises(FusionError, match="Expecting an expanded dimension on dimension 1"):
        check("[1, -1]", "[None, None]", torch.ones(1, 3))
    assert check("[1, -1]", "[None, None]", torch.ones(1, 1).expand(1, 3)).outputs[0].shape == (1, 3)


EMPTY_EXPANDED = """import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.neg(tv0)
    fd.add_output(tv1)

with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [torch.randn(0, dtype=torch.float32, device='cuda:0').as_strided((3, 0), (0, 1))]
fd.execute(inputs)
"""


def test_an_empty_input_keeps_stride_0_at_its_expanded_dim():
    """Empty (an extent 0) and expanded at dim 0 (contiguity None, stride 0): torch calls every
    empty tensor contiguous, which once made a resized or newly declared input row-major, stride 1
    at the expanded dim. A resize (the reducer's ShrinkShapes, the ``shape`` mutation), a
    declaration from a meta value (ValueToInput, the ``broadcast`` mutation) and the printed
    script keep stride 0 there."""
    from minimizer.program import to_source
    from minimizer.program.printer import render_input
    from minimizer.program.declare import tensor_input
    from minimizer.program.extents import resize
    p = parse(EMPTY_EXPANDED)
    assert p.inputs[0].strides == (0, 1)
    q = resize(p, 3, 2)
    assert q.inputs[0].shape == (2, 0) and q.inputs[0].strides == (0, 1)
    assert parse(to_source(q)).inputs == q.inputs
    built = eval(render_input(q.inputs[0]).replace("'cuda:0'", "'cpu'"), {"torch": torch})
    assert tuple(built.shape) == (2, 0) and built.stride() == (0, 1)
    _, arg = tensor_input(p, "tv9", torch.empty(0, device="meta").as_strided((3, 0), (0, 1)), (True, False))
    assert arg.shape == (3, 0) and arg.strides == (0, 1)
    assert not p.inputs[0].is_contiguous()
