"""Parsing real nvFuser output (minimizer/oracle/nvfuser_log.py).

The ``logs-*`` files are stdout+stderr of ``python3 <probe>.py`` captured on an H200 with nvFuser
0.2.36 (nvfuser_direct) and 0.2.35 (legacy nvfuser) by ``scripts/gpu.sh probes`` with
``NVFUSER_DUMP=segmented_fusion NVFUSER_DISABLE=parallel_compile`` (``*.parallel.log``: parallel
compile on). ``synthetic/`` holds hand-written texts of older eras (see its README).
"""
import glob
import json
import os
import re

import pytest

from minimizer.backends import nvfuser_log
from minimizer.backends.nvfuser_log import KNOWN_USER_ERRORS, parse_error, segments_from_dump

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "nvfuser")
LOGS = {"0.2.36": os.path.join(DATA, "logs-0.2.36"), "0.2.35": os.path.join(DATA, "logs-0.2.35")}
SYN = os.path.join(DATA, "synthetic")


def read(path):
    with open(path) as f:
        return f.read()


def log(version, name):
    return read(os.path.join(LOGS[version], name + ".log"))


def syn(name):
    return read(os.path.join(SYN, name))


def exit_code(text):
    return int(re.search(r"^exit: (\d+)$", text, re.M).group(1))


def exception(text):
    """(type, str(e)) of the exception that ended the probe: the last ``<Type>Error: `` line of the
    traceback, up to the ``exit:`` line the capture script appends."""
    found = list(re.finditer(r"^(?:Exception occurred: )?(\w+(?:Error|Exception)): ", text, re.M))
    if not found:
        return None
    m = found[-1]
    return m.group(1), text[m.end():text.rfind("\nexit:")]


# --------------------------------------------------------------------------------------------
# what the capture produced: every log is accounted for

OK = {  # (version, probe) -> schedulers per segment, as fmin's nvfuser backend reported on the H200
    ("0.2.36", "pointwise"): ["pointwise"],
    ("0.2.36", "segment_set"): ["pointwise", "reduction"],
    ("0.2.36", "softmax"): ["inner_persistent"],
    ("0.2.36", "reduction_and_pointwise_outputs"): ["reduction", "reduction", "pointwise", "expr_eval"],
    ("0.2.36", "err_bcast_expanded_extent"): ["pointwise"],  # nvFuser broadcasts it; not an error
    ("0.2.35", "legacy_pointwise"): ["reduction"],
}

FAIL = {  # probe -> (kind, file, func, line, signature)
    "err_dtype_mismatch": (
        "input-mismatch", "runtime/executor_utils.cpp", "bindInputs", 511,
        "nvfuser input-mismatch: runtime/executor_utils.cpp:bindInputs: RuntimeError: Expected input N, "
        "T?_g_float[iS?{i?}, iS?{i?}], to be bound to a tensor of dtype float, but got a tensor of dtype __half"),
    "err_extent_mismatch": (
        "input-mismatch", "expr_evaluator.cpp", "handlePropagateError", 443,
        "nvfuser input-mismatch: expr_evaluator.cpp:handlePropagateError: RuntimeError: When trying to "
        "propagate constant tensor sizes through the graph a conflict was found with N different sizes "
        "across dimensions that are expected to match."),
    "err_matmul_shapes": (
        "input-mismatch", "expr_evaluator.cpp", "handlePropagateError", 443,
        "nvfuser input-mismatch: expr_evaluator.cpp:handlePropagateError: RuntimeError: When trying to "
        "propagate constant tensor sizes through the graph a conflict was found with N different sizes "
        "across dimensions that are expected to match."),
    "err_stride_mismatch": (
        "input-mismatch", "tensor_metadata.cpp", "validateAllocationSizesAndStrides", 272,
        "nvfuser input-mismatch: tensor_metadata.cpp:validateAllocationSizesAndStrides: RuntimeError: "
        "Found N vs N. TensorView T?_g_float[iS?{i?}, iS?{i?}]'s stride mismatch with contiguity info. "
        "allocation domain: iS?{i?}, iS?{i?}: sizes: [N, N]: strides: [N, N]; contiguity: t, t; dim: N"),
    "err_bad_reshape": (
        "definition", "transform_view.cpp", "AnalyzeViewTransformation", 358,
        "nvfuser definition: transform_view.cpp:AnalyzeViewTransformation: RuntimeError: "
        "Total element counts across view operation must match: N vs N"),
    "err_memory_promotion_rope": (
        "definition", "ops/alias.cpp", "cat", 694,
        "nvfuser definition: ops/alias.cpp:cat: RuntimeError: "
        "Expected all inputs to be padded when manual_padding is True."),
    "slice_cat": (  # the same cat(manual_padding=True) misuse, in a probe not named err_*
        "definition", "ops/alias.cpp", "cat", 694,
        "nvfuser definition: ops/alias.cpp:cat: RuntimeError: "
        "Expected all inputs to be padded when manual_padding is True."),
}


# Logs committed beside these but parsed by another test file (a probe's own output, not a fusion run).
ELSEWHERE = {("0.2.36", "alias_strided"): "tests/test_alias_log.py"}


def test_every_captured_log_is_covered():
    names = set()
    for version, d in LOGS.items():
        for path in glob.glob(os.path.join(d, "*.log")):
            name = os.path.basename(path)[:-4]
            if name.endswith(".parallel"):
                assert name[:-9] in FAIL or (version, name[:-9]) in OK, path
                continue
            names.add((version, name))
    for (version, name), test_file in ELSEWHERE.items():
        assert os.path.exists(os.path.join(os.path.dirname(__file__), os.pardir, test_file)), test_file
    assert names == set(OK) | {("0.2.36", n) for n in FAIL} | set(ELSEWHERE)


@pytest.mark.parametrize("version,name", sorted(OK))
def test_segments_of_successful_runs(version, name):
    text = log(version, name)
    assert exit_code(text) == 0
    assert exception(text) is None
    assert segments_from_dump(text) == OK[(version, name)]
    if name == "err_bcast_expanded_extent":
        assert segments_from_dump(log(version, name + ".parallel")) == OK[(version, name)]


@pytest.mark.parametrize("name", sorted(FAIL))
def test_errors_of_failing_runs(name):
    kind, file, func, line, signature = FAIL[name]
    text = log("0.2.36", name)
    assert exit_code(text) == 1
    assert segments_from_dump(text) is None  # they all fail before a runtime is made
    exc_type, msg = exception(text)
    assert exc_type == "RuntimeError"
    e = parse_error(exc_type, msg)
    assert (e.kind, e.file, e.func, e.line) == (kind, file, func, line)
    assert e.signature == signature
    assert str(line) not in e.signature  # the line number is only a hint
    assert "0x" not in e.signature and "/" not in e.signature.split(": ", 1)[1].replace(e.file, "")


@pytest.mark.parametrize("name", sorted(n for n in FAIL if n.startswith("err_")))
def test_parallel_log_gives_the_same_signature(name):
    serial, parallel = log("0.2.36", name), log("0.2.36", name + ".parallel")
    assert serial != parallel  # the captures differ (addresses, pointers) ...
    a, b = parse_error(*exception(serial)), parse_error(*exception(parallel))
    assert a.signature == b.signature  # ... the signature does not
    assert (a.kind, a.file, a.func) == (b.kind, b.file, b.func)


def test_user_errors_are_not_bugs_although_they_say_internal_assert():
    for name in ("err_dtype_mismatch", "err_extent_mismatch", "err_bad_reshape", "err_memory_promotion_rope"):
        assert "INTERNAL ASSERT FAILED" in log("0.2.36", name)
        assert parse_error(*exception(log("0.2.36", name))).kind in ("input-mismatch", "definition")


def test_known_user_error_table_is_backed_by_the_logs_it_names():
    for k in KNOWN_USER_ERRORS:
        assert k.kind in ("input-mismatch", "definition")
        cited = re.findall(r"(logs-[\d.]+|synthetic)/([\w.-]+\.(?:log|txt))", k.evidence)
        more = re.findall(r"(?<=, )(\w+\.log)", k.evidence)  # "logs-0.2.36/a.log, b.log"
        files = cited + [(cited[0][0], f) for f in more if cited]
        buckets = re.findall(r"findings-2026-12-03/(\w{12})", k.evidence)   # a corpus bucket's captured message
        assert files or buckets or "no probe log" in k.evidence or "§" in k.evidence, k
        for d, f in files:
            assert re.search(k.pattern, read(os.path.join(DATA, d, f))), (k.pattern, f)
        for b in buckets:
            with open(os.path.join(DATA, os.pardir, "findings-2026-12-03", b, "outcome.json")) as fh:
                assert re.search(k.pattern, json.load(fh)["message"]), (k.pattern, b)


# --------------------------------------------------------------------------------------------
# older formats (synthetic, from the doc)

SCHEDULER_ASSERT = ("nvfuser internal-assert: scheduler/pointwise.cpp:schedulePointwise: RuntimeError: "
                    "Could not find a fully broadcasted output to reference schedule on: T?_g_float[iS?{i?}, bS?{N}]")


@pytest.mark.parametrize("name,line", [
    ("assert-0.0.18.txt", 412),   # <cond> INTERNAL ASSERT FAILED at "<file>":<line>, please report a bug to PyTorch.
    ("assert-0.2.9.txt", 398),    # <cond> ... at "<file>":<line>, please report a bug with repro script to NVFuser ...
    ("assert-0.2.30.txt", 431),   # ␠INTERNAL ASSERT FAILED at "<file>":<line>, ...
    ("assert-0.2.36.txt", 447),   # ␠INTERNAL ASSERT FAILED at <file>:<line>, ...\nExpected <cond> . <msg>
])
def test_internal_assert_of_every_era(name, line):
    e = parse_error("RuntimeError", syn(name))
    assert (e.kind, e.file, e.func, e.line, e.group) == (
        "internal-assert", "scheduler/pointwise.cpp", "schedulePointwise", line, None)
    assert e.message.startswith("Could not find a fully broadcasted output")
    assert e.signature == SCHEDULER_ASSERT  # the same failure keeps its signature across eras


def test_parallel_wrapper_is_unwrapped():
    e = parse_error("RuntimeError", syn("parallel-0.2.36.txt"))
    assert (e.kind, e.file, e.func, e.line, e.group, e.hidden) == (
        "internal-assert", "scheduler/pointwise.cpp", "schedulePointwise", 447, 1, False)
    assert e.signature == parse_error("RuntimeError", syn("assert-0.2.36.txt")).signature == SCHEDULER_ASSERT


def test_parallel_wrapper_prefers_the_real_assert_over_a_user_error():
    e = parse_error("RuntimeError", syn("parallel-0.2.30.txt"))
    assert (e.kind, e.file, e.func, e.line, e.group) == (
        "internal-assert", "index_compute.cpp", "getNonGlobalConsumerStridedIndices", 1995, 2)
    assert e.signature == (
        "nvfuser internal-assert: index_compute.cpp:getNonGlobalConsumerStridedIndices: RuntimeError: "
        "Couldn't find allocation mapping for T?_l___bfloat[iblockIdx.x?{(ceilDiv(N, blockDim.x))}, "
        "ithreadIdx.x?{blockDim.x}, iUS?{N}, iUR?{N}, bS?{N}] ca_pos(N) dim: N id: iS?{N}")
    # with only the user error left, that is what it is
    only_user = syn("parallel-0.2.30.txt").split("\n\nError from segmentation group 2")[0]
    u = parse_error("RuntimeError", only_user)
    assert (u.kind, u.file, u.func, u.group) == ("input-mismatch", "expr_evaluator.cpp", "handlePropagateError", 0)
    assert u.signature == FAIL["err_extent_mismatch"][4]  # same as the 0.2.36 capture


def test_parallel_wrapper_without_inner_message():
    e = parse_error("RuntimeError", syn("parallel-2024-no-inner.txt"))
    assert (e.kind, e.file, e.func, e.line, e.group, e.hidden) == (
        "internal-assert", "kernel_cache.cpp", "compileFusionParallel", 1317, None, True)
    assert e.signature == ("nvfuser internal-assert: kernel_cache.cpp:compileFusionParallel: RuntimeError: "
                           "Detected exception while compiling fusion segments in parallel.")


def test_segment_run_wrapper():
    e = parse_error("RuntimeError", syn("segment-run-0.2.36.txt"))
    assert (e.kind, e.func, e.line, e.group) == ("internal-assert", "schedulePointwise", 447, 3)
    assert e.signature == SCHEDULER_ASSERT


def test_user_checks():
    e = parse_error("RuntimeError", syn("check-0.2.30.txt"))
    assert (e.kind, e.file, e.func, e.line) == ("input-mismatch", "expr_evaluator.cpp", "bindInputs", 203)
    assert e.signature == ("nvfuser input-mismatch: expr_evaluator.cpp:bindInputs: RuntimeError: Expected input N, "
                           "T?_g_float[iS?{i?}, iS?{i?}], to be an at::Tensor but got scalar N")
    # an NVF_CHECK raised from scheduler code is a compiler bug
    s = parse_error("RuntimeError", syn("check-scheduler-0.2.30.txt"))
    assert (s.kind, s.file, s.func) == ("internal-assert", "scheduler/normalization_inner.cpp",
                                        "scheduleInnerPersistentKernel")
    assert s.message == "Expected vectorize_factor <= max_vectorize_factor to be true, but got false."
    # any other NVF_CHECK stays a user check
    o = parse_error("RuntimeError", "Some check failed: 3 vs 4\nException raised from foo at /w/Fuser/csrc/ops/arith.cpp:12 (most")
    assert (o.kind, o.file, o.func, o.line) == ("user-check", "ops/arith.cpp", "foo", 12)
    assert o.signature == "nvfuser user-check: ops/arith.cpp:foo: RuntimeError: Some check failed: N vs N"


def test_compile_error():
    e = parse_error("RuntimeError", syn("compile-0.2.36.txt"))
    assert (e.kind, e.file, e.func) == ("compile", "runtime/compiled_kernel.cpp", "compileNvrtcProgram")
    assert e.signature == ("nvfuser compile: runtime/compiled_kernel.cpp:compileNvrtcProgram: RuntimeError: "
                           'CUDA NVRTC compile error: __tmp_nvfuser_*.cu(N): error: identifier "T?" is undefined')
    # the scheduler whose kernel failed to compile is not part of the signature
    other = syn("compile-0.2.36.txt").replace("__tmp_nvfuser_pointwise_", "__tmp_nvfuser_inner_persistent_")
    assert parse_error("RuntimeError", other).signature == e.signature


def test_other_shapes():
    t = parse_error("TypeError", "add(): incompatible function arguments. The following argument types are supported:\n"
                                 "    1. (self: FusionDefinition.Operators, arg0: Tensor) -> Tensor")
    assert (t.kind, t.file, t.func) == ("definition", None, None)
    assert t.signature == ("nvfuser definition: TypeError: add(): incompatible function arguments. "
                           "The following argument types are supported:")
    c = parse_error("RuntimeError", "CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be ...")
    assert c.kind == "cuda" and c.signature == "nvfuser cuda: RuntimeError: CUDA error: an illegal memory access was encountered"
    o = parse_error("NotImplementedError", "Fusion is empty!")
    assert (o.kind, o.signature) == ("other", "nvfuser other: NotImplementedError: Fusion is empty!")


def test_kinds_are_documented():
    for kind in ("input-mismatch", "definition", "compile", "cuda", "internal-assert", "user-check", "other"):
        assert f"``{kind}``" in nvfuser_log.__doc__


# --------------------------------------------------------------------------------------------
# the segmented-fusion dump

def test_several_blocks_take_the_last():
    one, two = log("0.2.36", "pointwise"), log("0.2.36", "segment_set")
    assert segments_from_dump(one + two) == ["pointwise", "reduction"]
    assert segments_from_dump(two + one) == ["pointwise"]
    four = log("0.2.36", "reduction_and_pointwise_outputs")
    assert segments_from_dump(four + "\nresult ...\n" + one + "\n" + two) == ["pointwise", "reduction"]
    # a last block whose `Segmented_Fusion{` line got lost still counts only its own groups
    assert segments_from_dump(four + one.replace("Segmented_Fusion{", "")) == ["pointwise"]


def test_no_block():
    assert segments_from_dump("") is None
    assert segments_from_dump(log("0.2.36", "err_dtype_mismatch")) is None
    assert segments_from_dump("Segmented_Fusion Dump: -- fusion segments:\nSegmented_Fusion{ \ngroups: \n") is None


def test_old_bare_group_lines():
    text = syn("dump-0.2.7-bare-groups.txt")
    assert "g{0, 1}" in text and "g{(reduction)" in text
    assert segments_from_dump(text) == ["reduction", "pointwise"]
    # a block cut before `group details:` falls back on the `groups:` list (bare: scheduler unknown)
    head = text[:text.index("group details:")] + "} //Segmented_Fusion\n"
    assert segments_from_dump(head) == [None, None]
    new = log("0.2.36", "segment_set")
    assert segments_from_dump(new[:new.index("group details:")] + "} //Segmented_Fusion\n") == ["pointwise", "reduction"]


def test_group_without_scheduler():
    assert segments_from_dump(syn("dump-no-scheduler.txt")) == ["pointwise", None]


def test_an_nvrtc_key_is_the_logs_first_error_not_a_warning_before_it():
    """6e33b7120251 (a GPU campaign, nvfuser_direct 0.2.36): the CUDA headers' ``warning #47-D:
    incompatible redefinition of macro "INFINITY"`` comes first in the NVRTC log; the bug is the
    error after it. Read from the stored message, and from a fresh text alike; the outcome keeps
    the log rather than the generated kernel's source printed before it."""
    import json
    import os
    from conftest import ROOT
    from minimizer.backends.nvfuser import kept_text
    from minimizer.backends.nvfuser_log import parse_error, refresh_signature
    with open(os.path.join(ROOT, "tests", "data", "findings-2026-12-03", "6e33b7120251", "outcome.json")) as f:
        o = json.load(f)
    assert "warning #N-D" in o["signature"]
    new = refresh_signature(o["signature"], o["message"])
    assert "warning" not in new and ': error: no instance of overloaded function "nvf::threshold"' in new
    exc, _, text = o["message"].partition(": ")
    assert parse_error(exc, text).signature.split("RuntimeError: ")[1] == new.split("RuntimeError: ")[1]
    source = "\n".join(f"  T{i}[0] = T{i}[0] + 1;" for i in range(2000))
    log = text[text.index("CUDA NVRTC compile error"):]
    long = text[:text.index("CUDA NVRTC compile error")] + "// Codegen generated code\n" + source + "\n" + log
    kept = kept_text(long)
    assert len(kept) < len(long) and kept.endswith(log) and "T1999" not in kept


def test_an_nvrtc_error_after_a_long_kernel_keeps_its_family():
    """A real NVRTC failure (tests/data/nvfuser/nvrtc-0.2.36: a Half ``round`` on the H100): the
    generated kernel is printed before the log; a longer kernel (a fusion of 50 ops) pushes the
    log's error lines past the 6000 characters an outcome keeps, and with them the operand types
    that make it the reduced-precision family. The outcome keeps the log instead of the kernel
    (``kept_text``), so the family is told with a kernel of any length."""
    import os
    from conftest import ROOT
    from minimizer.backends.nvfuser import classify
    from minimizer.backends.nvfuser_rootcause import REDUCED_PRECISION, rootcause
    with open(os.path.join(ROOT, "tests", "data", "nvfuser", "nvrtc-0.2.36", "half_round.log")) as f:
        log = f.read()
    text = log[log.index("RuntimeError: ") + len("RuntimeError: "):log.rindex("\nexit: ")]
    head, kernel = text.split("// Codegen generated code", 1)
    kernel, nvrtc = kernel.split("CUDA NVRTC compile error", 1)
    for copies in (1, 8):   # as printed, and a kernel eight times as long
        t = head + "// Codegen generated code" + kernel * copies + "CUDA NVRTC compile error" + nvrtc
        out = classify(RuntimeError(t))
        assert "argument types are: (nvf::__half)" in out["message"] and "__global__" not in out["message"]
        assert rootcause(out["signature"], out["message"]).endswith(REDUCED_PRECISION)
    assert "argument types are" not in f"RuntimeError: {t}"[:6000]   # what an outcome kept before
