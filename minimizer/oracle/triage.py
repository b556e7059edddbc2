"""What a failed run means: the one rule that sorts every failed ``Outcome`` into

* ``fusion`` — the behaviour fmin reduces: nvFuser/Inductor errors and internal asserts, wrong
  results, crashes and hangs of the compiler, the errors the fusion library raises while the
  fusion is defined or executed (including inputs that do not match their ``define_tensor``);
* ``script`` — the script's own Python fails outside the fusion: a NameError (a script without
  ``import torch``), an ImportError of a module that is not nvFuser, a SyntaxError or
  IndentationError when it is compiled, an error building its inputs, a script that never calls
  ``fd.execute``;
* ``environment`` — the machine cannot run it: nvFuser (or the frontend module the script
  imports) not installed, no CUDA or no GPU, a GPU ordinal the machine does not have, out of
  memory on the host (the worker SIGKILLed) or on the device, a missing compiler toolchain
  (Triton, a C++ compiler, NVRTC).

``fmin check`` shows the category, ``fmin reduce`` refuses script and environment errors (exit
2, nothing written), the fuzzer never files them as findings and a reduction never keeps a
candidate aside for them. The worker supplies the facts (``where`` the error was raised: in
``fd.execute``, in a call of the fusion library while defining, or in the script's own code;
the error text); this module is the rule. Each pattern is tested on a real message
(``tests/test_triage.py``; the CPU ones captured by ``scripts/capture_triage.py``).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from .outcome import Outcome

FUSION, SCRIPT, ENVIRONMENT, OK = "fusion", "script", "environment", "ok"
CATEGORIES = (FUSION, SCRIPT, ENVIRONMENT)


class Triage(NamedTuple):
    category: str      # ok | fusion | script | environment
    message: str       # for people: what is wrong (with the script, the machine), or the failure


#: (pattern on the error text, what it means). Searched in the message, then the run's log; the
#: first match wins. Every entry names where its text was seen.
ENVIRONMENT_PATTERNS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p, re.S), why) for p, why in (
    # ModuleNotFoundError raised by `from nvfuser_direct import ...` without the wheel (CPython text)
    (r"No module named '(?:nvfuser_direct|nvfuser|torch\._C\._nvfuser)[.'\w]*'",
     "nvFuser is not installed here (or not the frontend module the script imports: nvFuser 0.2.36 removed the "
     "legacy `nvfuser` module; `fmin upgrade` rewrites a script for `nvfuser_direct`)"),
    # ImportError: cannot import name 'X' from 'nvfuser' (CPython text; fmin's shim on the CPU backends)
    (r"cannot import name '[^']+' from '(?:nvfuser_direct|nvfuser)[.\w]*'",
     "the script imports a name this nvFuser frontend (or fmin's stand-in for it) does not have"),
    # torch: c10/cuda/CUDAFunctions.cpp, cudaErrorInvalidDevice
    (r"invalid device ordinal",
     "the script asks for a GPU this machine does not have (CUDA error: invalid device ordinal)"),
    # torch/cuda/__init__.py _lazy_init on a CPU-only build (captured: tests/data/triage)
    (r"Torch not compiled with CUDA enabled", "this torch has no CUDA support: there is no GPU to run on"),
    (r"Found no NVIDIA driver on your system", "no NVIDIA driver is installed"),
    (r"No CUDA GPUs are available|no CUDA-capable device is detected|CUDA driver initialization failed",
     "no CUDA GPU is visible"),
    (r"CUDA driver version is insufficient|cudaErrorInsufficientDriver",
     "the NVIDIA driver is older than this CUDA runtime"),
    (r"no kernel image is available for execution on the device",
     "this build has no kernels for this GPU's architecture"),
    # torch.OutOfMemoryError (c10/cuda/CUDACachingAllocator.cpp)
    (r"CUDA out of memory|CUDA error: out of memory|OutOfMemoryError|CUBLAS_STATUS_ALLOC_FAILED|cudaErrorMemoryAllocation",
     "the GPU ran out of memory"),
    # c10/core/impl/alloc_cpu.cpp (captured under `ulimit -v`: tests/data/triage)
    (r"DefaultCPUAllocator: (?:can't allocate memory|not enough memory)|\bMemoryError\b",
     "the host ran out of memory"),
    # torch/_inductor/exc.py: TritonMissing, InvalidCxxCompiler, GPUTooOldForTriton; Triton's driver
    (r"Cannot find a working triton installation|TritonMissing", "Triton is not installed (Inductor on a GPU needs it)"),
    (r"No working C\+\+ compiler found|InvalidCxxCompiler|CppCompileError.*?(?:not found|No such file or directory)"
     r"|g\+\+: (?:command )?not found",
     "no working C++ compiler (Inductor on the CPU compiles C++; install g++ or set CXX)"),
    (r"GPUTooOldForTriton|Found .*? which is too old to be supported by the triton GPU compiler",
     "this GPU is too old for Triton"),
    (r"libcuda\.so cannot found|libnvrtc[\w.\-]*: cannot open shared object file|libnvrtc.*? not found"
     r"|ptxas: not found|nvcc: not found",
     "the CUDA toolchain is incomplete (libcuda, NVRTC or ptxas missing)"),
))

#: the signal the kernel's out-of-memory killer sends; nothing of a compiler raises it
_OOM_SIGNALS = ("SIGKILL",)


def triage(o: Outcome | None) -> Triage:
    """The category of an outcome and a message for people (``ok`` for a run that succeeded)."""
    if o is None:
        return Triage(FUSION, "no outcome")
    if o.ok:
        return Triage(OK, "")
    text = o.message or o.signature or ""
    why = _environment(text) or (_environment(o.log) if o.status == "crash" else None)
    if why is not None:
        return Triage(ENVIRONMENT, f"{why}: {_first(text)}")
    if o.status == "crash" and any(sig in (o.signature or "") for sig in _OOM_SIGNALS):
        return Triage(ENVIRONMENT, "the worker was killed (SIGKILL), most likely by the out-of-memory killer: the "
                                   "host ran out of memory")
    if o.error_kind == "environment":
        return Triage(ENVIRONMENT, _first(text))
    if o.status == "error" and (o.where == "script" or o.error_kind == "no-execute"):
        at = f" (line {o.script_line})" if o.script_line else ""
        return Triage(SCRIPT, _script_words(o) + at + ": " + _first(text))
    return Triage(FUSION, f"{o.status}: {o.signature}")


def category(o: Outcome | None) -> str:
    return triage(o).category


def judgeable(o: Outcome | None) -> bool:
    """A run whose failure (if any) is the fusion's: neither the script's nor the machine's."""
    return triage(o).category in (OK, FUSION)


def _environment(text: str | None) -> str | None:
    if not text:
        return None
    for pat, why in ENVIRONMENT_PATTERNS:
        if pat.search(text):
            return why
    return None


def _script_words(o: Outcome) -> str:
    text = o.message or o.signature or ""
    if o.error_kind == "no-execute":
        return "the script never calls fd.execute"
    if re.match(r"(?:IndentationError|TabError|SyntaxError)\b", text):
        return "the script is not valid Python"
    if re.match(r"(?:NameError|UnboundLocalError)\b", text):
        return "the script uses a name it never defines (a missing import?)"
    if re.match(r"(?:ModuleNotFoundError|ImportError)\b", text):
        return "the script imports a module that is not installed"
    return "the script's own code fails outside the fusion (building its inputs?)"


def _first(text: str) -> str:
    for line in (text or "").strip().splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


__all__ = ["Triage", "triage", "category", "judgeable", "FUSION", "SCRIPT", "ENVIRONMENT", "OK", "CATEGORIES",
           "ENVIRONMENT_PATTERNS"]
