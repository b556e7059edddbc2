"""The ``nvfuser`` backend: the real library, either frontend.

The script runs as written against the installed ``nvfuser``/``nvfuser_direct``. Segments and
their schedulers come from the ``NVFUSER_DUMP=segmented_fusion`` block, which nvFuser's C++ side
prints to file descriptor 1 (the worker captures it). The worker is started with
``NVFUSER_DUMP=segmented_fusion`` and ``NVFUSER_DISABLE=parallel_compile`` (the real error
instead of the parallel-compile wrapper) unless the user set those variables; the nvFuser version
and every ``NVFUSER_*`` option are recorded in each outcome, since outcomes depend on them.
"""
from __future__ import annotations

import os
import sys
from typing import Callable

from .base import Backend, RunOptions, cuda_usable, register
from .nvfuser_log import (FusionInputs, attach_rejections, fusion_inputs, parse_error, refresh_signature,
                          segment_graph_from_dump, segments_from_dump)
from .nvfuser_rootcause import rootcause
from .runner import run_with_modules

#: ``segmented_fusion``: segments, schedulers, crossing tensors and each segment's expressions;
#: ``segmenter_logging``: why merges were rejected (the reasons a kernel boundary has; about
#: twice the log of the first alone on a 4-op probe, parsed in the worker);
#: ``parallel_compile`` off: the real error instead of the parallel-compile wrapper
DEFAULT_ENV = {"NVFUSER_DUMP": "segmented_fusion,segmenter_logging", "NVFUSER_DISABLE": "parallel_compile"}


def classify(error: BaseException, inputs: Callable[[], FusionInputs | None] = lambda: None) -> dict:
    """The outcome fields of an nvFuser exception. ``inputs`` gives the fusion's tensor inputs
    (asked only for an input mismatch that names a tensor: it parses the script)."""
    text = str(error)
    e = parse_error(type(error).__name__, text, _Lazy(inputs))
    kind = {"input-mismatch": "user-input", "internal-assert": "compiler", "compile": "compiler",
            "cuda": "runtime", "user-check": "definition", "definition": "definition",
            "other": "runtime"}.get(e.kind, "runtime")
    if isinstance(error, TypeError):
        kind = "definition"
    return {"error_kind": kind, "signature": e.signature,
            "message": f"{type(error).__name__}: {text}"[:6000],
            "nvfuser_error": {"kind": e.kind, "file": e.file, "func": e.func, "line": e.line}}
    # whether the CUDA context survived is checked by the worker after any failed run


class _Lazy:
    """``FusionInputs`` computed when first asked (most errors never ask)."""

    def __init__(self, make: Callable[[], FusionInputs | None]):
        self._make, self._done, self._value = make, False, None

    def names_input(self, tensor: str) -> bool | None:
        if not self._done:
            self._value, self._done = self._make(), True
        return None if self._value is None else self._value.names_input(tensor)


def script_inputs(text: str, path: str = "<script>") -> FusionInputs | None:
    """``FusionInputs`` of a script's fusion, or None for a script fmin cannot read."""
    try:
        from ..program import parse
        return fusion_inputs(parse(text, path))
    except Exception:
        return None


@register
class NvFuser(Backend):
    name = "nvfuser"
    summary = "the real nvFuser library (either frontend); needs a GPU and an nvFuser wheel"
    display_name = "nvFuser"
    runs_as_written = True
    auto_rank = 0             # the compiler fmin is for, wherever it imports and a GPU is visible
    worker_bytes = 1 << 30    # host memory of a worker with CUDA and nvFuser loaded
    warm_up = "importing nvFuser and the first compile take a few seconds"   # docs/h200.md
    non_kernel = frozenset({"expr_eval", "no_op"})
    reports_segments = True

    def __init__(self):
        self._classes: list = []
        self._warm = False

    def available(self, device: str | None = None) -> bool:
        import importlib.util
        if not any(importlib.util.find_spec(m) is not None for m in ("nvfuser_direct", "nvfuser")):
            return False
        return cuda_usable() and (device is None or device.startswith("cuda"))

    def unavailable_reason(self, device: str | None = None) -> str:
        import importlib.util
        if not any(importlib.util.find_spec(m) is not None for m in ("nvfuser_direct", "nvfuser")):
            return "nvFuser is not installed (pip install the nvfuser wheel that matches your torch)"
        if device is not None and not device.startswith("cuda") and cuda_usable():
            return f"nvFuser runs on CUDA devices only, not --device {device}"
        return "no CUDA device is visible (nvFuser runs on NVIDIA GPUs only)"

    def translation(self, dialect) -> str | None:
        """A legacy script on an nvFuser without the legacy frontend (0.2.36 removed it) runs as
        its ``nvfuser_direct`` translation."""
        import importlib.util
        if dialect.is_legacy and importlib.util.find_spec("nvfuser") is None \
                and importlib.util.find_spec("nvfuser_direct") is not None:
            return "nvfuser_direct"
        return None

    def worker_env(self) -> dict[str, str]:
        """The defaults, unless the user set the variable."""
        return {k: v for k, v in DEFAULT_ENV.items() if k not in os.environ}

    def rootcause(self, signature: str, message: str | None) -> str:
        """Site and message template (``nvfuser_rootcause``)."""
        return rootcause(signature, message)

    def refresh(self, outcome: dict, program) -> dict:
        """Today's signature of a stored outcome (``nvfuser_log.refresh_signature``): masked
        again, and an input mismatch on an intermediate made nvFuser's (error kind ``compiler``)."""
        sig = outcome.get("signature")
        if outcome.get("status") != "error" or not sig:
            return outcome
        new = refresh_signature(sig, outcome.get("message"), fusion_inputs(program) if program is not None else None)
        if new == sig:
            return outcome
        out = {**outcome, "signature": new}
        if sig.startswith("nvfuser input-mismatch: ") and new.startswith("nvfuser internal-assert: "):
            out["error_kind"] = "compiler"
        return out

    def warm(self, device: str) -> dict:
        import torch
        info = {"backend": self.name, "torch": torch.__version__, "device": device,
                "options": {k: v for k, v in os.environ.items() if k.startswith("NVFUSER_")}}
        if torch.cuda.is_available():
            info["gpu"] = torch.cuda.get_device_name(0)
        classes, absent = [], []
        for name in ("nvfuser_direct", "nvfuser"):
            try:
                mod = __import__(name)
            except ModuleNotFoundError as e:
                if e.name != name:   # installed, but something it imports is missing: an error
                    info[f"{name}_error"] = f"{type(e).__name__}: {str(e)[:200]}"
                else:   # not installed: a fact, not an error (0.2.36 has no legacy nvfuser)
                    absent.append(name)
                continue
            except Exception as e:   # installed but broken (a library that does not load)
                info[f"{name}_error"] = f"{type(e).__name__}: {str(e)[:200]}"
                continue
            info[name] = str(mod.version()) if hasattr(mod, "version") else "?"
            classes.append(mod.FusionDefinition)
        if absent:
            info["not_installed"] = ", ".join(absent)
        self._classes = classes
        self._warm = True
        return info

    def run_script(self, text: str, path: str, device: str, options: RunOptions, values_path=None) -> dict:
        if not self._warm:
            self.warm(device)
        legacy = sys.modules.get("nvfuser")
        if legacy is not None and hasattr(legacy, "FusionCache"):
            try:  # the legacy frontend caches definitions (and their errors) process-wide
                legacy.FusionCache.reset()
            except Exception:
                pass
        return run_with_modules(text, path, {}, self._classes, device, options, values_path,
                                lambda e: classify(e, lambda: script_inputs(text, path)))

    def analyze_log(self, result: dict, log: str) -> None:
        groups = segments_from_dump(log)
        if groups is not None:
            result["segments"] = len(groups)
            result["schedulers"] = [g or "none" for g in groups]
        graph = segment_graph_from_dump(log, self.non_kernel)
        if graph is not None and len(graph.segments) == len(groups or ()):
            result["graph"] = attach_rejections(graph, log).to_json()
