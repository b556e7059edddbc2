"""Triage of failed outcomes (``oracle.triage``): fusion behaviour, script error or environment
error, on real messages — outcomes captured on this CPU machine (``scripts/capture_triage.py`` ->
``tests/data/triage/cpu.jsonl``), nvFuser's own errors captured on the H200
(``tests/data/nvfuser/logs-0.2.36``) — and, live, the scripts of ``tests/data/broken`` through
real workers."""
import json
import os
import re

import pytest

from conftest import ROOT
from minimizer.backends import nvfuser
from minimizer.oracle.outcome import Outcome
from minimizer.oracle.pool import Pool, Request
from minimizer.oracle.triage import ENVIRONMENT, FUSION, SCRIPT, triage

CAPTURED = os.path.join(ROOT, "tests", "data", "triage", "cpu.jsonl")
BROKEN = os.path.join(ROOT, "tests", "data", "broken")
LOGS = os.path.join(ROOT, "tests", "data", "nvfuser", "logs-0.2.36")


def _captured():
    with open(CAPTURED, encoding="utf-8") as f:
        return [json.loads(ln) for ln in f if ln.strip()]


@pytest.mark.parametrize("row", _captured(), ids=lambda r: f"{r['backend']}-{r['case']}")
def test_captured_outcome_triages_as_expected(row):
    o = Outcome.from_json(row)
    o.log = row.get("log", "")
    t = triage(o)
    assert t.category == row["expect"], (t, row)
    if t.category in (SCRIPT, ENVIRONMENT):
        assert t.message and "Traceback" not in t.message


def test_captured_cases_cover_every_category():
    got = {(r["expect"]) for r in _captured()}
    assert {FUSION, SCRIPT, ENVIRONMENT, "ok"} <= got


def _exception_text(name):
    log = open(os.path.join(LOGS, name + ".log"), encoding="utf-8", errors="replace").read()
    return re.search(r"^RuntimeError: (.*?)(?=^exit: )", log, re.S | re.M).group(1)


@pytest.mark.parametrize("name", ["err_dtype_mismatch", "err_stride_mismatch", "err_extent_mismatch",
                                  "err_bad_reshape", "err_memory_promotion_rope", "err_matmul_shapes",
                                  "err_bad_reshape.parallel"])
def test_nvfuser_errors_are_fusion_behaviour(name):
    """nvFuser's own errors at execute, user errors included, are what fmin reduces."""
    d = nvfuser.classify(RuntimeError(_exception_text(name)))
    o = Outcome("error", "nvfuser", signature=d["signature"], message=d["message"], error_kind=d["error_kind"],
                where="execute")
    assert triage(o).category == FUSION


# GPU-only texts this CPU machine cannot provoke, as torch and nvFuser print them (the CUDA
# runtime's cudaGetErrorString, c10/cuda/CUDAException.h, c10/cuda/CUDACachingAllocator.cpp)
GPU_MESSAGES = [
    ("RuntimeError: CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at "
     "some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing "
     "CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n", "script",
     ENVIRONMENT),
    ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 9.00 GiB. GPU 0 has a total capacity of "
     "139.81 GiB of which 3.12 GiB is free.", "execute", ENVIRONMENT),
    ("RuntimeError: CUDA error: out of memory", "execute", ENVIRONMENT),
    ("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
     "installed a driver from http://www.nvidia.com/Download/index.aspx", "script", ENVIRONMENT),
    ("RuntimeError: No CUDA GPUs are available", "script", ENVIRONMENT),
    ("torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not "
     "installed or it is too old.", "execute", ENVIRONMENT),
    ("RuntimeError: CUDA error: an illegal memory access was encountered", "execute", FUSION),
    ("RuntimeError: CUDA error: misaligned address", "execute", FUSION),
]


@pytest.mark.parametrize("message,where,expect", GPU_MESSAGES, ids=lambda x: str(x)[:40])
def test_gpu_messages(message, where, expect):
    o = Outcome("error", "nvfuser", signature=message.splitlines()[0], message=message, where=where,
                error_kind="script" if where == "script" else "runtime")
    assert triage(o).category == expect


def test_crashes_and_hangs_of_the_compiler_are_fusion_behaviour():
    assert triage(Outcome("crash", "nvfuser", signature="crash: SIGSEGV", error_kind="crash")).category == FUSION
    assert triage(Outcome("crash", "nvfuser", signature="crash: SIGABRT", error_kind="crash")).category == FUSION
    assert triage(Outcome("timeout", "nvfuser", signature="timeout")).category == FUSION
    assert triage(Outcome("crash", "nvfuser", signature="crash: SIGKILL", error_kind="crash")).category == ENVIRONMENT


def _broken(name):
    with open(os.path.join(BROKEN, name), encoding="utf-8") as f:
        text = f.read()
    return text, text.splitlines()[0].removeprefix("# expect: ").split()[0]


@pytest.fixture(scope="module")
def ref_pool():
    with Pool("reference", "cpu", timeout=120) as p:
        yield p


@pytest.mark.parametrize("name", sorted(n for n in os.listdir(BROKEN) if n.endswith(".py")))
def test_broken_scripts_live_on_the_reference(ref_pool, name):
    text, expect = _broken(name)
    o = ref_pool.run(Request(text, os.path.join(BROKEN, name)))
    assert triage(o).category == expect, (o.where, o.error_kind, o.signature)


def test_inductor_does_not_call_a_script_error_its_own():
    """An IndentationError, a NameError or a failing input of the script is the script's on
    Inductor too (it was "inductor runtime")."""
    with Pool("inductor", "cpu", timeout=300) as pool:
        for name in ("return_outside_function.py", "no_import_torch.py", "bad_inputs.py"):
            text, _ = _broken(name)
            o = pool.run(Request(text, os.path.join(BROKEN, name)))
            assert triage(o).category == SCRIPT, (name, o.signature)
            assert not (o.signature or "").startswith("inductor")


def test_where_a_definition_error_is_raised():
    """A call of the fusion library while defining is the fusion's; the script's own expression
    on the same line is the script's."""
    text, _ = _broken("bad_reshape.py")
    with Pool("reference", "cpu", timeout=120) as pool:
        o = pool.run(Request(text.replace("fd.ops.exp(tv0)", "fd.ops.no_such_op(tv0)"), "x.py"))
        assert (o.where, triage(o).category) == ("definition", FUSION)
        o = pool.run(Request(text.replace("fd.ops.exp(tv0)", "fd.ops.exp(undefined_name)"), "x.py"))
        assert (o.where, triage(o).category) == ("script", SCRIPT)


def test_the_fuzzer_never_files_script_or_environment_failures():
    from minimizer.fuzz.judging.oracles import _failure
    killed = Outcome("crash", "inductor", signature="crash: SIGKILL", error_kind="crash")
    no_cxx = Outcome("error", "inductor", signature="inductor environment: InvalidCxxCompiler: No working C++ "
                     "compiler found", message="InvalidCxxCompiler: No working C++ compiler found in "
                     "torch._inductor.config.cpp.cxx: (None, 'g++')", error_kind="environment", where="execute")
    for o in (killed, no_cxx):
        assert _failure(o, "", "x.py", 0, None, "inductor") is None
