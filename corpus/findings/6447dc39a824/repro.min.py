# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --time 240 --seed 2031 --timeout 120 --minimize-time 20 --minimize-budget 40 --seeds corpus/direct_creation_random.py corpus/direct_linear_matmul.py corpus/direct_rmsnorm_fwd.py corpus/direct_scatter_index_ops.py corpus/direct_shape_ops.py corpus/direct_ternary_reductions.py corpus/direct_topk_argsort_cumsum.py corpus/handwritten_layernorm_direct.py corpus/legacy_2022_bias_gelu.py corpus/legacy_batchnorm_stats_alias.py corpus/legacy_causal_mask_dropout.py corpus/legacy_cumsum_pad_cat.py corpus/legacy_index_embedding.py corpus/legacy_layernorm_fwd_2023.py corpus/legacy_linear_shape_queries.py corpus/legacy_rmsnorm_bwd_2024.py corpus/legacy_scaled_mm_fp8.py corpus/legacy_softmax_fwd.py corpus/rmsnorm_softmax_41.py corpus/rope_qkv_split.py corpus/seeds --corpus seeded --summary seeded.json
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: mismatch (nvfuser), bucket 6447dc39a824: nvfuser mismatch shape (an expanded extent returned as 1); run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows AssertionError: wrong result (shape) ...
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    tv1 = fd.ops.cat([tv0, tv0], dim=0)
    fd.add_output(tv1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randn(2, dtype=torch.float32, device='cuda:0').as_strided((2, 2), (1, 0)),
]
inputs_before = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]   # for the check below
outputs = fd.execute(inputs)

def eager_reference(tv0, *, device):   # added by fmin: the fusion in eager PyTorch, compared at fmin's tolerance; fmin's full verdict: fmin check --mismatch repro.min.py --backend nvfuser
    cat = torch.ops.aten.cat.default([tv0, tv0])
    return (cat,)
def check_against_eager(outputs, inputs, before, device, tol={torch.float32: (1.3e-06, 1e-05)}):
    want = list(eager_reference(*before, device=device))   # into `before` it writes what an aliased output writes
    assert len(outputs) == len(want), f'wrong result (count): {len(outputs)} outputs, eager gives {len(want)}'
    for name, k, got, w in [*((f'output {k}', k, g, w) for k, (g, w) in enumerate(zip(outputs, want))), *(
            (f'input {k} after fd.execute', None, g, w) for k, (g, w) in enumerate(zip(inputs, before)) if isinstance(g, torch.Tensor))]:
        what, (rtol, atol) = 'dtype' if got.dtype != w.dtype else 'shape' if got.shape != w.shape else 'values', tol.get(got.dtype, (0, 0))
        torch.testing.assert_close(got, w, rtol=rtol, atol=atol, equal_nan=True, msg=lambda m: f'wrong result ({what}) in {name}: {m}')
if not globals().get('__fmin__'):   # inside fmin's own runs fmin compares the outputs itself
    check_against_eager(outputs, inputs, inputs_before, next((x.device for x in inputs if isinstance(x, torch.Tensor)), 'cuda'))
