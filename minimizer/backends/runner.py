"""Run one script text in this (worker) process with a chosen ``FusionDefinition`` behind the
nvFuser import names, and turn what happened into an outcome dict.

Shared by every backend: they differ only in which modules stand behind ``nvfuser`` and
``nvfuser_direct`` and in how they classify failures.
"""
from __future__ import annotations

import sys
import time
import traceback
from typing import Any, Callable

import torch

from .base import RunOptions
from .devicemap import device_map
from .signature import first_line, generic_signature


class Recorder:
    """Every ``fd.execute`` call of the script: its inputs and outputs (or the exception).

    ``wrap`` patches a FusionDefinition class once per process; the patched ``execute`` reports
    to whichever recorder belongs to the script running now (``_current``)."""

    def __init__(self):
        self.calls: list[dict[str, Any]] = []

    def wrap(self, cls) -> None:
        """Patch ``cls.execute`` so that each call is recorded (idempotent)."""
        original = getattr(cls, "execute")
        if getattr(original, "__fmin_wrapped__", False):
            return

        def execute(fd, inputs, *args, **kwargs):
            recorder = _current[0]
            if recorder is None:  # called outside a script run
                return original(fd, inputs, *args, **kwargs)
            entry = {"fd": fd, "inputs": list(inputs), "outputs": None, "error": None,
                     "seconds": None}
            recorder.calls.append(entry)
            t0 = time.perf_counter()
            try:
                out = original(fd, inputs, *args, **kwargs)
            except BaseException as e:
                entry["error"] = e
                raise
            finally:
                entry["seconds"] = time.perf_counter() - t0
            entry["outputs"] = list(out) if isinstance(out, (list, tuple)) else [out]
            return out

        execute.__fmin_wrapped__ = True
        execute.__wrapped__ = original
        setattr(cls, "execute", execute)


def describe(v: Any) -> dict:
    if isinstance(v, torch.Tensor):
        return {"shape": list(v.shape), "dtype": str(v.dtype).removeprefix("torch."),
                "device": v.device.type, "stride": list(v.stride())}
    return {"scalar": repr(v)}


def run_with_modules(text: str, path: str, modules: dict[str, Any], fd_classes, device: str,
                     options: RunOptions, values_path: str | None, classify: Callable[[BaseException], dict],
                     extra: Callable[[dict], None] | None = None) -> dict:
    """Exec ``text`` as ``__main__`` with ``modules`` installed, record ``fd.execute`` calls.

    ``options.time_execute = k``: after the script, the last fusion is executed k more times on
    the same inputs and ``execute_seconds`` becomes the median of those warm runs (the first call
    includes compilation), which is what ``--slower`` compares."""
    rec = Recorder()
    for cls in fd_classes:
        rec.wrap(cls)
    saved = {k: sys.modules.get(k) for k in modules}
    sys.modules.update(modules)
    _current[0] = rec
    torch.manual_seed(options.seed)
    g = {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__}
    error = None
    try:
        code = compile(text, path, "exec")
        with device_map(device):
            exec(code, g)
            if str(device).startswith("cuda") and torch.cuda.is_initialized():
                # kernels run asynchronously: an illegal address raised later would be blamed on
                # the next script this worker runs
                torch.cuda.synchronize()
    except SystemExit as e:
        if e.code not in (0, None):
            error = e
    except BaseException as e:
        error = e
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
        _current[0] = None
    result: dict[str, Any] = {"executions": len(rec.calls)}
    if rec.calls and rec.calls[-1]["seconds"] is not None:
        result["execute_seconds"] = rec.calls[-1]["seconds"]
        result["first_execute_seconds"] = rec.calls[-1]["seconds"]
    k = int(options.time_execute or 0)
    if error is None and rec.calls and k > 0:
        result["execute_seconds"] = _warm_time(rec.calls[-1], k, device)
    if error is not None:
        result.update({"status": "error"})
        result.update(classify(error))
        result.setdefault("message", "".join(traceback.format_exception_only(type(error), error))[-4000:])
        result["where"] = "execute" if rec.calls and rec.calls[-1]["error"] is error else "script"
    elif not rec.calls:
        result.update({"status": "error", "error_kind": "no-execute",
                       "signature": "fmin: the script never called fd.execute",
                       "message": "the script ran to its end without calling fd.execute(inputs)"})
    else:
        last = rec.calls[-1]
        result["status"] = "ok"
        result["outputs"] = [describe(o) for o in last["outputs"]]
        if values_path:
            def cpu(v):
                return v.detach().to("cpu") if isinstance(v, torch.Tensor) else v
            torch.save({"inputs": [cpu(v) for v in last["inputs"]],
                        "outputs": [cpu(v) for v in last["outputs"]],
                        "storages": {k: cpu(s) for k, s in _gapped_storages(last["inputs"]).items()}}, values_path)
            result["values_path"] = values_path
    if extra is not None:
        extra(result)
    return result


def _gapped_storages(inputs) -> dict[int, torch.Tensor]:
    """The whole storage, as a flat tensor, of every input whose elements do not fill it (a
    strided view with gaps, an offset, an expanded dim): a fusion that writes such an input in
    place (an aliased output) must write the view's elements and nothing between them, and only
    the storage shows a write that lands one slot early."""
    out = {}
    for k, v in enumerate(inputs):
        if not isinstance(v, torch.Tensor) or v.numel() == 0:
            continue
        st = v.untyped_storage()
        n = st.nbytes() // v.element_size()
        if n != v.numel() or v.storage_offset() != 0 or not v.is_contiguous():
            out[k] = torch.empty(0, dtype=v.dtype, device=v.device).set_(st, 0, (n,), (1,))
    return out


def _warm_time(call: dict, k: int, device: str) -> float:
    import statistics
    fd, inputs = call["fd"], call["inputs"]
    run = getattr(type(fd).execute, "__wrapped__", type(fd).execute)
    sync = torch.cuda.synchronize if device.startswith("cuda") and torch.cuda.is_available() else (lambda: None)
    times = []
    with device_map(device):
        for _ in range(k):
            sync()
            t0 = time.perf_counter()
            run(fd, inputs)
            sync()
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


# the recorder of the script now running (for backends that need it while it runs)
_current: list[Recorder | None] = [None]


def generic_classify(error: BaseException) -> dict:
    msg = str(error)
    return {"error_kind": "script", "signature": generic_signature(type(error).__name__, msg),
            "message": f"{type(error).__name__}: {msg}"[-4000:]}


__all__ = ["Recorder", "describe", "run_with_modules", "generic_classify", "first_line"]
