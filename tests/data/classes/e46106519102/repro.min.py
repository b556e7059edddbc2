# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 5 --time 240 --seed 20261206 --timeout 120 --minimize-time 30 --minimize-budget 90 -q --seeds corpus/direct_creation_random.py corpus/direct_linear_matmul.py corpus/direct_rmsnorm_fwd.py corpus/direct_scatter_index_ops.py corpus/direct_shape_ops.py corpus/direct_ternary_reductions.py corpus/direct_topk_argsort_cumsum.py corpus/handwritten_layernorm_direct.py corpus/legacy_2022_bias_gelu.py corpus/legacy_batchnorm_stats_alias.py corpus/legacy_causal_mask_dropout.py corpus/legacy_cumsum_pad_cat.py corpus/legacy_index_embedding.py corpus/legacy_layernorm_fwd_2023.py corpus/legacy_linear_shape_queries.py corpus/legacy_rmsnorm_bwd_2024.py corpus/legacy_scaled_mm_fp8.py corpus/legacy_softmax_fwd.py corpus/rmsnorm_softmax_41.py corpus/rope_qkv_split.py corpus/seeds --corpus seeded --summary seeded.json
# property: the same failure (error `nvfuser other: RuntimeError: self must be row_major, got stride (N)`)
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket e46106519102: nvfuser error nvfuser other: RuntimeError: self must be row_major, got stride (N)
# run it: python repro.min.py (it sets the nvFuser options it needs itself)
# running it shows: error `nvfuser other: RuntimeError: self must be row_major, got stride (N)`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id1(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Float8_e4m3fn, is_cpu=False, stride_order=[1, 0])
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float8_e4m3fn, is_cpu=False, stride_order=[0, 1])
    tv2 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False)
    tv3, _, _ = fd.ops.scaled_mm(tv0, tv1, tv2, tv2, None, None, None, dtype=DataType.BFloat16, output_block_scale_size=0, output_block_scale_dtype=DataType.BFloat16, output_gamma=False)
    fd.add_output(tv3)

with FusionDefinition() as fd:
    nvfuser_fusion_id1(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randn(16, dtype=torch.float32, device='cuda:0').to(torch.float8_e4m3fn).as_strided((16, 16), (0, 1)),
    torch.randn(768, dtype=torch.float32, device='cuda:0').to(torch.float8_e4m3fn).as_strided((16, 48), (1, 16)),
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda:0', low=0.5, high=2.0),
]
fd.execute(inputs)
