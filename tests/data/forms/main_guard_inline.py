# form 7: the whole `with FusionDefinition() as fd:` block (inline body), the inputs and
# `fd.execute` under `if __name__ == "__main__":`
import torch
from nvfuser import FusionDefinition, DataType

if __name__ == "__main__":
    with FusionDefinition() as fd:
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        T1 = fd.ops.exp(T0)
        T2 = fd.ops.neg(T1)
        fd.add_output(T2)
        fd.add_output(T1)

    inputs = [torch.randn(4, 8, device="cuda")]
    fd.execute(inputs)
