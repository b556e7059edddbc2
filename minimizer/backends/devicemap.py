"""Run a script written for another machine's devices, unchanged.

Repro scripts hard-code ``device='cuda'`` (or ``.cuda()``), often ``cuda:1`` — written on a
machine with several GPUs, in each spelling: ``device="cuda:1"``, ``torch.device("cuda", 1)``,
``.cuda(1)``, ``.to("cuda:1")``, ``device=1``, ``fd.execute(inputs, device=1)``. A
``TorchFunctionMode`` sees every torch call the script makes and rewrites its device arguments;
the text of the script never changes:

* on the CPU (reference and inductor in CI) every CUDA device becomes the CPU;
* on CUDA (every backend) a CUDA device this machine does not have becomes ``cuda:0`` (a worker
  sees one GPU when a pool spreads its workers over several), and ``fd.execute``'s own
  ``device=`` (``nvfuser_direct``'s ``FusionDefinition.execute(inputs, *, device=None)`` takes an
  index, a string or a ``torch.device``) is mapped the same way by the runner.

Every rewrite is recorded (``DeviceMap.remapped``, ``{"cuda:1": "cuda:0"}``): the runner puts it
in the outcome's environment, since a result obtained on another device than the script names
must say so.
"""
from __future__ import annotations

import torch
from torch.overrides import TorchFunctionMode

_DEVICE_TYPES = (str, torch.device)


def cuda_index(d) -> tuple[bool, int | None]:
    """(is it a CUDA device, its index or None) for a device argument: ``"cuda"``, ``"cuda:1"``,
    ``torch.device("cuda", 1)`` or a bare ordinal ``1`` (an int where a device is expected means
    a CUDA ordinal in torch)."""
    if isinstance(d, bool):
        return False, None
    if isinstance(d, int):
        return True, d
    if isinstance(d, torch.device):
        return d.type == "cuda", d.index
    if isinstance(d, str):
        try:
            dev = torch.device(d)
        except (RuntimeError, ValueError):
            return False, None
        return dev.type == "cuda", dev.index
    return False, None


def remap(d, target: str, cuda_count: int):
    """The device to use instead of ``d`` (``d`` itself when nothing changes).

    ``target`` is the worker's device. Not CUDA (``cpu``): every CUDA device becomes ``target``.
    CUDA: an ordinal the machine does not have (``>= cuda_count``) becomes 0, in the spelling it
    came in (an int stays an int, a string a string, a ``torch.device`` a device)."""
    is_cuda, index = cuda_index(d)
    if not is_cuda:
        return d
    if not target.startswith("cuda"):
        return target
    if index is None or index < max(cuda_count, 1):
        return d
    if isinstance(d, int):
        return 0
    if isinstance(d, torch.device):
        return torch.device("cuda", 0)
    return "cuda:0"


def _name(d) -> str:
    is_cuda, index = cuda_index(d)
    if is_cuda:
        return "cuda" if index is None else f"cuda:{index}"
    return str(d)


class DeviceMap(TorchFunctionMode):
    def __init__(self, device: str, cuda_count: int = 0):
        super().__init__()
        self.device = device
        self.cuda_count = cuda_count
        self.remapped: dict[str, str] = {}

    def map(self, d):
        new = remap(d, self.device, self.cuda_count)
        if new is not d:
            self.remapped[_name(d)] = _name(new)
        return new

    def rewrite(self, func, args: tuple, kwargs: dict):
        """(func, args, kwargs) with the device arguments mapped; ``.cuda()`` on the CPU becomes
        ``.to(cpu)``."""
        kwargs = dict(kwargs or {})
        if "device" in kwargs and kwargs["device"] is not None:
            kwargs["device"] = self.map(kwargs["device"])
        if func is torch.Tensor.cuda:
            if not self.device.startswith("cuda"):
                self.map(args[1] if len(args) > 1 and args[1] is not None else kwargs.get("device") or "cuda")
                return torch.Tensor.to, (args[0], self.device), {}
            if len(args) > 1 and args[1] is not None:
                args = (args[0], self.map(args[1]), *args[2:])
        elif func is torch.Tensor.to and len(args) > 1 and isinstance(args[1], (*_DEVICE_TYPES, int)):
            args = (args[0], self.map(args[1]), *args[2:])
        return func, args, kwargs

    def __torch_function__(self, func, types, args=(), kwargs=None):
        func, args, kwargs = self.rewrite(func, args, kwargs)
        return func(*args, **kwargs)


def device_map(device: str, cuda_count: int | None = None) -> DeviceMap:
    """The map for a worker on ``device``; ``cuda_count`` (default: what torch sees, asked in
    the worker only) is how many CUDA devices there are."""
    if cuda_count is None:
        cuda_count = torch.cuda.device_count() if device.startswith("cuda") else 0
    return DeviceMap(device, cuda_count)

