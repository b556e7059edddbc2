# Minimized by fmin 0.1.0: fmin fuzz --backend inductor --device cpu --max-examples 7 --seed 30 --jobs 2 --oracles failure,differential --inductor-config cpp.inject_relu_bug_TESTING_ONLY=accuracy --minimize-time 90 --corpus findings
# property: outputs differ from reference in values beyond tolerance
# confirmed on: CPU (inductor backend)
# torch version: 2.13.0+cpu
# inductor config: cpp.inject_relu_bug_TESTING_ONLY=accuracy
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 2, 2], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.relu(tv0)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 2, 2), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
