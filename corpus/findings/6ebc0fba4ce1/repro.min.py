# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --time 240 --seed 2031 --timeout 120 --minimize-time 20 --minimize-budget 40 --seeds corpus/direct_creation_random.py corpus/direct_linear_matmul.py corpus/direct_rmsnorm_fwd.py corpus/direct_scatter_index_ops.py corpus/direct_shape_ops.py corpus/direct_ternary_reductions.py corpus/direct_topk_argsort_cumsum.py corpus/handwritten_layernorm_direct.py corpus/legacy_2022_bias_gelu.py corpus/legacy_batchnorm_stats_alias.py corpus/legacy_causal_mask_dropout.py corpus/legacy_cumsum_pad_cat.py corpus/legacy_index_embedding.py corpus/legacy_layernorm_fwd_2023.py corpus/legacy_linear_shape_queries.py corpus/legacy_rmsnorm_bwd_2024.py corpus/legacy_scaled_mm_fp8.py corpus/legacy_softmax_fwd.py corpus/rmsnorm_softmax_41.py corpus/rope_qkv_split.py corpus/seeds --corpus seeded --summary seeded.json
# property: the same failure (error `nvfuser input-mismatch: tensor_metadata.cpp:validateAllocationSizesAndStrides: RuntimeError: Found N vs N. TensorView T?'s stride mismatch with contiguity info. allocation domain: ID: sizes: [N]: strides: [N]; contiguity: C; dim: N`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket 6ebc0fba4ce1: nvfuser error nvfuser validation: tensor_metadata.cpp:validateAllocationSizesAndStrides: RuntimeError: Found N vs N. TensorView T?'s stride mismatch with contiguity info. allocation domain: ID: sizes: [N]: strides: [N]; contiguity: C; dim: N
# run it: python repro.min.py (it sets the nvFuser options it needs itself)
# running it shows: error `nvfuser validation: tensor_metadata.cpp:validateAllocationSizesAndStrides: RuntimeError: Found N vs N. TensorView T?'s stride mismatch with contiguity info. allocation domain: ID: sizes: [N]: strides: [N]; contiguity: C; dim: N`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    tv1 = fd.ops.segment_set(tv0)
    tv3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 1])
    tv8 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv6 = fd.ops.argsort(tv3, dim=1)
    tv7 = fd.ops.scatter(tv8, tv6, tv3, dim=1)
    fd.add_output(tv1)
    fd.add_output(tv7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 2), dtype=torch.int64, device='cuda:0'),
    torch.randn(4, dtype=torch.float32, device='cuda:0').as_strided((2, 2), (1, 2)),
    torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
