"""Run a script written for ``device='cuda'`` on another device, unchanged.

Repro scripts hard-code ``device='cuda'`` (or ``.cuda()``); the reference and inductor backends
must run them on the CPU in CI. A ``TorchFunctionMode`` sees every torch call the script makes
and rewrites CUDA device arguments to the chosen device, so the text of the script never changes.
"""
from __future__ import annotations

import torch
from torch.overrides import TorchFunctionMode


def _is_cuda(d) -> bool:
    return isinstance(d, (str, torch.device)) and str(d).startswith("cuda")


class DeviceMap(TorchFunctionMode):
    def __init__(self, device: str):
        super().__init__()
        self.device = device

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if _is_cuda(kwargs.get("device")):
            kwargs["device"] = self.device
        if func is torch.Tensor.cuda:
            return args[0].to(self.device)
        if func is torch.Tensor.to:
            args = tuple(self.device if _is_cuda(a) else a for a in args)
        return func(*args, **kwargs)


def device_map(device: str):
    """A context that maps CUDA to ``device``; a no-op context when ``device`` is CUDA itself."""
    import contextlib
    if device.startswith("cuda"):
        return contextlib.nullcontext()
    return DeviceMap(device)
