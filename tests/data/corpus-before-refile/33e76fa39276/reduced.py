# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --time 240 --seed 2031 --timeout 120 --minimize-time 20 --minimize-budget 40 --seeds corpus/direct_creation_random.py corpus/direct_linear_matmul.py corpus/direct_rmsnorm_fwd.py corpus/direct_scatter_index_ops.py corpus/direct_shape_ops.py corpus/direct_ternary_reductions.py corpus/direct_topk_argsort_cumsum.py corpus/handwritten_layernorm_direct.py corpus/legacy_2022_bias_gelu.py corpus/legacy_batchnorm_stats_alias.py corpus/legacy_causal_mask_dropout.py corpus/legacy_cumsum_pad_cat.py corpus/legacy_index_embedding.py corpus/legacy_layernorm_fwd_2023.py corpus/legacy_linear_shape_queries.py corpus/legacy_rmsnorm_bwd_2024.py corpus/legacy_scaled_mm_fp8.py corpus/legacy_softmax_fwd.py corpus/rmsnorm_softmax_41.py corpus/rope_qkv_split.py corpus/seeds --corpus seeded --summary seeded.json
# property: outputs differ from reference in values beyond tolerance
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    tv2, tv3, tv4 = fd.ops.welford(tv0, dims=[1])
    fd.add_output(tv3)
    fd.add_output(tv1, tv0)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
