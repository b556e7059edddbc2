# also interesting: nvfuser internal-assert: bfs.h:traverse: RuntimeError: BFS traversal could not visit some nodes: idg{N N} (from: idg{N N N N N N N N} idg{N N N N} idg{N N N N}), visited: (idg{N} idg{N N N N N N N N} idg{N N N N} idg{N N} idg{N N N N N N N N N N N N} idg{
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[4, 2, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.slice(tv0, start_indices=[0, 1, 4], end_indices=[1, 6, 6])
    tv2 = fd.ops.cummin(tv1, dim=0)
    tv3 = fd.ops.gt(tv2, 1.0)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 2, 7), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
