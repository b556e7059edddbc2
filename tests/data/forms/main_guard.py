# form 7: the inputs list and `fd.execute` under `if __name__ == "__main__":`
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.exp(T0)
    T2 = fd.ops.neg(T1)
    fd.add_output(T2)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

if __name__ == "__main__":
    inputs = [
        torch.randn(4, 8, device="cuda"),
    ]
    fd.execute(inputs)
