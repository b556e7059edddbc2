"""The ``reference`` backend: fmin's own ``FusionDefinition`` on eager torch, CPU or CUDA.

It is the semantic ground truth (every other backend's outputs are compared with it) and how CI
runs scripts without nvFuser. Errors it raises mimic nvFuser's user errors (inputs that do not
match their ``define_tensor``) and definition errors (unknown keywords, broadcast mismatches).
"""
from __future__ import annotations

import torch

from ..frontend.fusion_definition import make_module
from ..program.interpret import FusionError
from ..program.model import DIRECT, LEGACY
from .runner import generic_classify, run_with_modules

_modules: dict = {}


def available() -> bool:
    return True


def modules(executor=None) -> dict:
    legacy = make_module(LEGACY, executor)
    direct = make_module(DIRECT, executor)
    return {"nvfuser": legacy, "torch._C._nvfuser": legacy, "nvfuser_direct": direct}


def warm(device: str) -> dict:
    _modules.clear()
    _modules.update(modules())
    return {"backend": "reference", "torch": torch.__version__, "device": device}


def classify(error: BaseException) -> dict:
    if isinstance(error, FusionError):
        kind = {"input": "user-input", "definition": "definition", "runtime": "runtime"}[error.kind]
        d = generic_classify(error)
        d["error_kind"] = kind
        return d
    d = generic_classify(error)
    if isinstance(error, TypeError) and "incompatible function arguments" in str(error):
        d["error_kind"] = "definition"
    return d


def fp64_executor(stmts, inputs, frontend, device) -> list:
    """The fp64 reference (``options["fp64"]``): the same program computed in float64."""
    from ..ops import Ctx
    from ..program.interpret import run as interpret
    return interpret(stmts, inputs, frontend=frontend, ctx=Ctx(device=device, generator=None, frontend=frontend),
                     upcast=True).outputs


def run_script(text: str, path: str, *, device: str = "cpu", seed: int = 0, values_path=None,
               options=None) -> dict:
    if not _modules:
        warm(device)
    mods = dict(_modules) if not (options or {}).get("fp64") else modules(fp64_executor)
    classes = {m.FusionDefinition for m in mods.values()}
    return run_with_modules(text, path, mods, classes, device, seed, values_path, classify, options=options)
