# form 4: `import nvfuser as nvf` with `nvf.FusionDefinition` and `nvf.DataType.<name>`
import torch
import nvfuser as nvf

def fusion_func(fd: nvf.FusionDefinition) -> None:
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=nvf.DataType.Half, is_cpu=False)
    T1 = fd.ops.cast(T0, dtype=nvf.DataType.Float)
    T2 = fd.ops.exp(T1)
    T3 = fd.ops.cast(T2, dtype=nvf.DataType.Half)
    fd.add_output(T3)
    fd.add_output(T1)

with nvf.FusionDefinition() as fd:
    fusion_func(fd)

inputs = [torch.randn(4, 8, device="cuda", dtype=torch.float16)]
fd.execute(inputs)
