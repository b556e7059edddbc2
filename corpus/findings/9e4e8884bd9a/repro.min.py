# Minimized by fmin 0.1.0
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: layout-dependent (nvfuser), bucket 9e4e8884bd9a: nvfuser layout-dependent segmentation changes (pointwise, resize); run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows AssertionError: the segmentation differs ...
# as filed: both: as reduced, and the two innermost dims of tv0, tv1 swapped in memory; the other one (1 kernel [resize]) is in report.md
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import os
import re
import subprocess
import sys
VERSIONS = []
VERSIONS.append(('as reduced', '''import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, -1, 3], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.cat([tv0, tv1], dim=2)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)
torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((3, 3, 3), dtype=torch.float32, device='cuda'),torch.testing.make_tensor((3, 3, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
'''))
VERSIONS.append(('the two innermost dims of tv0, tv1 swapped in memory', '''import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, -1, 3], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 0, 1])
    tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 0, 1])
    tv2 = fd.ops.cat([tv0, tv1], dim=2)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)
torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randn(27, dtype=torch.float32, device='cuda').as_strided((3, 3, 3), (9, 1, 3)),
    torch.randn(27, dtype=torch.float32, device='cuda').as_strided((3, 3, 3), (9, 1, 3)),
]
fd.execute(inputs)
'''))
def segmentation(what, text):
    """nvFuser's segments of one version: (the Segmented_Fusion block, the scheduler of each group)."""
    env = dict(os.environ, NVFUSER_DUMP="segmented_fusion")
    run = subprocess.run([sys.executable, "-c", text], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{what} failed:\n{run.stderr[-3000:]}")
    end = run.stdout.rfind("} //Segmented_Fusion")
    block = run.stdout[run.stdout.rfind("Segmented_Fusion{", 0, end):end + 20] if end >= 0 else ""
    details = block.split("group details:")[-1]
    return block, sorted(m or "none" for m in re.findall(r"^\s*g\{(?:\((\w+)\))?\s*$", details, re.M))
found = [(what, *segmentation(what, text)) for what, text in VERSIONS]
for what, block, groups in found:
    print(f"==== {what}: {len(groups)} segments {groups}\n{block or '(no segmented fusion: one kernel)'}\n")
if len({tuple(groups) for _, _, groups in found}) > 1:
    raise AssertionError("the segmentation differs: " + "; ".join(f"{what} gives {len(g)} segments {g}"
                                                                for what, _, g in found))
