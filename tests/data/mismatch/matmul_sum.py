# float32 matmul [256x1025]@[1025x2048], then a sum over its 2048 columns: Inductor (CPU) sums in
# another order than eager and 42 of 256 sums differ beyond the float32 tolerance; against the float64
# result its error is about eager's own (issue 15: not a wrong result). The exp+sum over 1025 terms of
# the first input is a second, quieter accumulation.
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    tv2 = fd.ops.matmul(tv0, tv1)
    tv4 = fd.ops.sum(tv2, dims=[1])
    tv5 = fd.ops.exp(tv0)
    tv6 = fd.ops.sum(tv5, dims=[1])
    fd.add_output(tv4)
    fd.add_output(tv6)

with FusionDefinition() as fd:
    fusion(fd)
inputs = [torch.randn(256, 1025, device="cuda"), torch.randn(1025, 2048, device="cuda")]
fd.execute(inputs)
