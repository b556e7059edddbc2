"""The ``reference`` backend: fmin's own ``FusionDefinition`` on eager torch, CPU or CUDA.

It is the semantic ground truth (every other backend's outputs are compared with it) and how CI
runs scripts without nvFuser. Errors it raises mimic nvFuser's user errors (inputs that do not
match their ``define_tensor``) and definition errors (unknown keywords, broadcast mismatches).
With ``RunOptions.fp64`` it computes the same program in float64: the exact reference that
``--mismatch`` measures every floating result against.
"""
from __future__ import annotations

import functools

import torch

from ..frontend.fusion_definition import make_module
from ..model import DIRECT, LEGACY
from ..ops.linalg import NARROW_P
from ..ops.scans import NARROW
from ..program.interpret import FusionError
from .base import Backend, Facts, RunOptions, Runner, cuda_usable, register
from .runner import generic_classify, run_with_modules


def modules(executor=None) -> dict:
    """The module objects a script imports (``nvfuser``, ``nvfuser_direct``, 2022's
    ``torch._C._nvfuser``), all fmin's ``FusionDefinition`` executing with ``executor``."""
    legacy = make_module(LEGACY, executor)
    direct = make_module(DIRECT, executor)
    return {"nvfuser": legacy, "torch._C._nvfuser": legacy, "nvfuser_direct": direct}


def classify(error: BaseException) -> dict:
    if isinstance(error, FusionError):
        kind = {"input": "user-input", "definition": "definition", "runtime": "runtime"}[error.kind]
        d = generic_classify(error)
        d["error_kind"] = kind
        return d
    d = generic_classify(error)
    if isinstance(error, TypeError) and "incompatible function arguments" in str(error):
        d["error_kind"] = "definition"
    if isinstance(error, AttributeError) and str(error).startswith("fd."):   # an op this frontend lacks
        d["error_kind"] = "definition"
    return d


def fp64_executor(stmts, inputs, frontend, device, perturb: int = 0) -> list:
    """The fp64 reference: the same program computed in float64 (``perturb``: on inputs moved by
    a few ulps, ``interpret.run``)."""
    from ..ops import Ctx
    from ..program.interpret import run as interpret
    return interpret(stmts, inputs, frontend=frontend, ctx=Ctx(device=device, generator=None, frontend=frontend),
                     upcast=True, perturb=perturb).outputs


class ReferenceRunner(Runner):
    """fmin's ``FusionDefinition`` behind the script's nvFuser imports, on eager torch."""

    def __init__(self, facts):
        super().__init__(facts)
        self._modules: dict = {}

    def warm(self, device: str) -> dict:
        self._modules = modules()
        return {"backend": self.facts.name, "torch": torch.__version__, "device": device}

    def run_script(self, text: str, path: str, device: str, options: RunOptions, values_path=None) -> dict:
        if not self._modules:
            self.warm(device)
        mods = dict(self._modules) if not options.fp64 else \
            modules(functools.partial(fp64_executor, perturb=options.perturb))
        classes = {m.FusionDefinition for m in mods.values()}
        token, token_p = NARROW.set(options.narrow_scans), NARROW_P.set(options.narrow_attention)
        try:
            return run_with_modules(text, path, mods, classes, device, options, values_path, classify)
        finally:
            NARROW_P.reset(token_p)
            NARROW.reset(token)


@register
class Reference(Backend):
    facts = Facts(
        "reference", summary="fmin's own FusionDefinition on eager torch (the semantic ground truth)",
        display_name="the reference",
        auto_rank=2,                  # runs anywhere: what auto takes when nothing else can run
        worker_bytes=400 << 20,       # measured: a worker's maxrss after an empty script is ~0.35 GiB on a CPU
        fuses=False,                  # op by op: its peak is the live set (``program.memory``)
        warm_up="importing torch takes a few seconds")
    runner = ReferenceRunner

    def available(self, device: str | None = None) -> bool:
        return not (device or "").startswith("cuda") or cuda_usable()

    def classify_error(self, error: BaseException) -> dict:
        return classify(error)

    def unavailable_reason(self, device: str | None = None) -> str:
        return f"--device {device}: no CUDA device is visible (use --device cpu)"
