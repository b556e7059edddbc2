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
