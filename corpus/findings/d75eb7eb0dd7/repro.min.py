# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 5 --time 240 --seed 20261206 --timeout 120 --minimize-time 30 --minimize-budget 90 -q --seeds corpus/direct_creation_random.py corpus/direct_linear_matmul.py corpus/direct_rmsnorm_fwd.py corpus/direct_scatter_index_ops.py corpus/direct_shape_ops.py corpus/direct_ternary_reductions.py corpus/direct_topk_argsort_cumsum.py corpus/handwritten_layernorm_direct.py corpus/legacy_2022_bias_gelu.py corpus/legacy_batchnorm_stats_alias.py corpus/legacy_causal_mask_dropout.py corpus/legacy_cumsum_pad_cat.py corpus/legacy_index_embedding.py corpus/legacy_layernorm_fwd_2023.py corpus/legacy_linear_shape_queries.py corpus/legacy_rmsnorm_bwd_2024.py corpus/legacy_scaled_mm_fp8.py corpus/legacy_softmax_fwd.py corpus/rmsnorm_softmax_41.py corpus/rope_qkv_split.py corpus/seeds --corpus seeded --summary seeded.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket d75eb7eb0dd7: nvfuser error nvfuser definition: TypeError: add_output(): incompatible function arguments. The following argument types are supported:; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser definition: TypeError: add_output(): incompatible function arguments. The following argument types are supported:`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType


def layer_norm_fusion(fd: FusionDefinition) -> None:
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)

    # broadcast the per-row statistics back to [tokens, hidden]
    V0 = fd.ops.shape(tv0)
    fd.add_output(V0)


with FusionDefinition() as fd:
    layer_norm_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda'),
]
out = fd.execute(inputs)
