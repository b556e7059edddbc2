# An output written in place into a strided input (issue 15): T0 is a (2, 2) view with strides (3, 1)
# of a 6-element buffer; the fusion's result is aliased into it. Every element of the view must get
# the result, and the buffer's slots between rows (2 and 5) must keep their zeros.
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Float)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    tv2 = fd.ops.abs(tv1)
    tv3 = fd.ops.mul(tv2, 0.5)
    tv4 = fd.ops.sum(tv3, dims=[1])
    fd.add_output(tv3, tv0)
    fd.add_output(tv4)

with FusionDefinition() as fd:
    fusion(fd)
inputs = [torch.zeros(6, device="cuda").as_strided((2, 2), (3, 1)), torch.rand(2, 2, device="cuda")]
fd.execute(inputs)
