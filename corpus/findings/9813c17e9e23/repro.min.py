# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 8 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 220 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
# finding: mismatch (nvfuser), bucket 9813c17e9e23: nvfuser mismatch shape (another extent); run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows AssertionError: wrong result (shape) ...
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False)
    tv1, tv2 = fd.ops.var_mean(tv0, dims=[1], correction=1, keepdim=True)
    tv3 = fd.ops.min(tv2, dims=[0], keepdim=False)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randn(2, dtype=torch.float32, device='cuda').as_strided((3, 2), (0, 1)),
]
inputs_before = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]   # for the check below
outputs = fd.execute(inputs)

def eager_reference(tv0, *, device):   # added by fmin: the fusion in eager PyTorch, compared at fmin's tolerance; fmin's full verdict: fmin check --mismatch repro.min.py --backend nvfuser
    var_mean = torch.ops.aten.var_mean.correction(tv0, [1], correction=1, keepdim=True)
    getitem_1 = var_mean[1]
    amin = torch.ops.aten.amin.default(getitem_1, [0])
    return (amin,)
def check_against_eager(outputs, inputs, before, device, tol={torch.float32: (1.3e-06, 1e-05)}):
    want = list(eager_reference(*before, device=device))   # into `before` it writes what an aliased output writes
    assert len(outputs) == len(want), f'wrong result (count): {len(outputs)} outputs, eager gives {len(want)}'
    for name, k, got, w in [*((f'output {k}', k, g, w) for k, (g, w) in enumerate(zip(outputs, want))), *(
            (f'input {k} after fd.execute', None, g, w) for k, (g, w) in enumerate(zip(inputs, before)) if isinstance(g, torch.Tensor))]:
        what, (rtol, atol) = 'dtype' if got.dtype != w.dtype else 'shape' if got.shape != w.shape else 'values', tol.get(got.dtype, (0, 0))
        torch.testing.assert_close(got, w, rtol=rtol, atol=atol, equal_nan=True, msg=lambda m: f'wrong result ({what}) in {name}: {m}')
if not globals().get('__fmin__'):   # inside fmin's own runs fmin compares the outputs itself
    check_against_eager(outputs, inputs, inputs_before, next((x.device for x in inputs if isinstance(x, torch.Tensor)), 'cuda'))
