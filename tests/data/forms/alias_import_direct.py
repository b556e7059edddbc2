# form 4: `import nvfuser_direct as nvfd` with `nvfd.DataType.<name>`
import torch
import nvfuser_direct as nvfd

def nvfuser_fusion(fd: nvfd.FusionDefinition) -> None:
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=nvfd.DataType.Float, is_cpu=False)
    tv1 = fd.ops.exp(tv0)
    tv2 = fd.ops.cast(tv1, dtype=nvfd.DataType.Half)
    fd.add_output(tv2)
    fd.add_output(tv1)

with nvfd.FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [torch.randn(4, 8, device="cuda")]
fd.execute(inputs)
