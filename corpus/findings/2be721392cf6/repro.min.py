# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --time 240 --seed 2031 --timeout 120 --minimize-time 20 --minimize-budget 40 --seeds corpus/direct_creation_random.py corpus/direct_linear_matmul.py corpus/direct_rmsnorm_fwd.py corpus/direct_scatter_index_ops.py corpus/direct_shape_ops.py corpus/direct_ternary_reductions.py corpus/direct_topk_argsort_cumsum.py corpus/handwritten_layernorm_direct.py corpus/legacy_2022_bias_gelu.py corpus/legacy_batchnorm_stats_alias.py corpus/legacy_causal_mask_dropout.py corpus/legacy_cumsum_pad_cat.py corpus/legacy_index_embedding.py corpus/legacy_layernorm_fwd_2023.py corpus/legacy_linear_shape_queries.py corpus/legacy_rmsnorm_bwd_2024.py corpus/legacy_scaled_mm_fp8.py corpus/legacy_softmax_fwd.py corpus/rmsnorm_softmax_41.py corpus/rope_qkv_split.py corpus/seeds --corpus seeded --summary seeded.json
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: layout-dependent (nvfuser), bucket 2be721392cf6: nvfuser segmentation depends on the input layout (expr_eval, pointwise); run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows AssertionError: the segmentation differs ...
# as filed: both: as reduced, and the two innermost dims of tv1 swapped in memory; the other one (2 kernels [pointwise, reduction] + 2 expr_eval) is in report.md
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
    tv0 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv3 = fd.ops.squeeze(tv0, dims=[1])
    tv4 = fd.ops.sum(tv3, dims=[1], dtype=DataType.Float)
    tv5 = fd.ops.broadcast(tv4, is_broadcast_dim=[False, True])
    fd.add_output(tv3, tv1)
    fd.add_output(tv5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)
torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 1, 2), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
'''))
VERSIONS.append(('the two innermost dims of tv1 swapped in memory', '''import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 1])
    tv3 = fd.ops.squeeze(tv0, dims=[1])
    tv4 = fd.ops.sum(tv3, dims=[1], dtype=DataType.Float)
    tv5 = fd.ops.broadcast(tv4, is_broadcast_dim=[False, True])
    fd.add_output(tv3, tv1)
    fd.add_output(tv5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)
torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 1, 2), dtype=torch.float32, device='cuda:0'),
    torch.randn(4, dtype=torch.float32, device='cuda:0').as_strided((2, 2), (1, 2)),
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
