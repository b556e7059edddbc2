# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 5 --time 240 --seed 20261206 --timeout 120 --minimize-time 30 --minimize-budget 90 -q --corpus generative --summary gen.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: mismatch (fmin), bucket 1f32764c9bd7: nvfuser mismatch dtype (int64 for int32): broadcast_in_dim, welford; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows AssertionError: wrong result (dtype) ...
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 2, 3, -1], contiguity=[True, False, False, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[2, 2, 3, 3], broadcast_dims=[0, 1, 2, 3])
    tv2, tv3, tv4 = fd.ops.welford(tv1, dims=[2])
    fd.add_output(tv4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 2, 3, 3), dtype=torch.float32, device='cuda'),
]
inputs_before = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]   # for the check below
outputs = fd.execute(inputs)

def eager_reference(tv0, *, device):   # added by fmin: the fusion in eager PyTorch, compared at fmin's tolerance; fmin's full verdict: fmin check --mismatch repro.min.py --backend nvfuser
    full = torch.ops.aten.full.default([2, 2, 3], 3, dtype=torch.int32, device=device, pin_memory=False)
    return (full,)
def check_against_eager(outputs, inputs, before, device, tol={torch.float32: (1.3e-06, 1e-05)}):
    want = list(eager_reference(*before, device=device))   # into `before` it writes what an aliased output writes
    assert len(outputs) == len(want), f'wrong result (count): {len(outputs)} outputs, eager gives {len(want)}'
    for name, k, got, w in [*((f'output {k}', k, g, w) for k, (g, w) in enumerate(zip(outputs, want))), *(
            (f'input {k} after fd.execute', None, g, w) for k, (g, w) in enumerate(zip(inputs, before)) if isinstance(g, torch.Tensor))]:
        what, (rtol, atol) = 'dtype' if got.dtype != w.dtype else 'shape' if got.shape != w.shape else 'values', tol.get(got.dtype, (0, 0))
        torch.testing.assert_close(got, w, rtol=rtol, atol=atol, equal_nan=True, msg=lambda m: f'wrong result ({what}) in {name}: {m}')
if not globals().get('__fmin__'):   # inside fmin's own runs fmin compares the outputs itself
    check_against_eager(outputs, inputs, inputs_before, next((x.device for x in inputs if isinstance(x, torch.Tensor)), 'cuda'))
