# Minimized by fmin 0.1.0: fmin fuzz --backend inductor --device cpu --max-examples 7 --seed 30 --jobs 2 --oracles failure,differential --inductor-config cpp.inject_relu_bug_TESTING_ONLY=accuracy --minimize-time 90 --corpus findings
# confirmed on: CPU (inductor backend); torch 2.13.0+cpu
# inductor config: cpp.inject_relu_bug_TESTING_ONLY=accuracy
# finding: mismatch (inductor), bucket ec58de50d192: inductor mismatch values: relu; run it: python -m minimizer.backends.launch inductor cpu repro.min.py cpp.inject_relu_bug_TESTING_ONLY=accuracy (fmin's FusionDefinition in front of inductor); it shows AssertionError: wrong result (values) ...
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 2, 2], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.relu(tv0)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 2, 2), dtype=torch.float32, device='cuda'),
]
inputs_before = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]   # for the check below
outputs = fd.execute(inputs)

def eager_reference(tv0, *, device):   # added by fmin: the fusion in eager PyTorch, compared at fmin's tolerance; fmin's full verdict: fmin check --mismatch repro.min.py --backend inductor
    relu = torch.ops.aten.relu.default(tv0)
    return (relu,)
def check_against_eager(outputs, inputs, before, device, tol={torch.float32: (1.3e-06, 1e-05)}):
    want = list(eager_reference(*before, device=device))   # into `before` it writes what an aliased output writes
    assert len(outputs) == len(want), f'wrong result (count): {len(outputs)} outputs, eager gives {len(want)}'
    for name, k, got, w in [*((f'output {k}', k, g, w) for k, (g, w) in enumerate(zip(outputs, want))), *(
            (f'input {k} after fd.execute', None, g, w) for k, (g, w) in enumerate(zip(inputs, before)) if isinstance(g, torch.Tensor))]:
        what, (rtol, atol) = 'dtype' if got.dtype != w.dtype else 'shape' if got.shape != w.shape else 'values', tol.get(got.dtype, (0, 0))
        torch.testing.assert_close(got, w, rtol=rtol, atol=atol, equal_nan=True, msg=lambda m: f'wrong result ({what}) in {name}: {m}')
if not globals().get('__fmin__'):   # inside fmin's own runs fmin compares the outputs itself
    check_against_eager(outputs, inputs, inputs_before, next((x.device for x in inputs if isinstance(x, torch.Tensor)), 'cuda'))
