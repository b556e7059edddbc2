"""The ``nvfuser`` backend: the real library, either frontend.

The script runs as written against the installed ``nvfuser``/``nvfuser_direct``. Segments and
their schedulers come from the ``NVFUSER_DUMP=segmented_fusion`` block, which nvFuser's C++ side
prints to file descriptor 1 (the worker captures it). The worker is started with
``NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params`` and
``NVFUSER_DISABLE=parallel_compile`` (the real error
instead of the parallel-compile wrapper) unless the user set those variables; the nvFuser version
and every ``NVFUSER_*`` option are recorded in each outcome, since outcomes depend on them.
"""
from __future__ import annotations

import os
import re
import sys
from typing import Callable

from . import decisions
from .base import SPLITS_DIFFER, Backend, Facts, Policy, RunOptions, Runner, cuda_usable, register
from .nvfuser_log import (FusionInputs, attach_rejections, fusion_inputs, param_features, parse_error,
                          refresh_signature, rejected_merges, segment_graph_from_dump, segments_from_dump)
from .nvfuser_rootcause import particulars, rootcause
from .runner import run_with_modules

#: ``segmented_fusion``: segments, schedulers, crossing tensors and each segment's expressions;
#: ``segmenter_logging``: why merges were rejected (the reasons a kernel boundary has; about
#: twice the log of the first alone on a 4-op probe, parsed in the worker);
#: ``scheduler_params``: the heuristic each kernel's scheduler picked (vectorization, unroll,
#: how each domain is parallelized: the fuzzer's finer decision features, ``param_features``);
#: ``parallel_compile`` off: the real error instead of the parallel-compile wrapper
DEFAULT_ENV = {"NVFUSER_DUMP": "segmented_fusion,segmenter_logging,scheduler_params",
               "NVFUSER_DISABLE": "parallel_compile"}


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
            "message": f"{type(error).__name__}: {kept_text(text)}"[:6000],
            "nvfuser_error": {"kind": e.kind, "file": e.file, "func": e.func, "line": e.line}}
    # whether the CUDA context survived is checked by the worker after any failed run


def kept_text(text: str) -> str:
    """The error text an outcome keeps: a compile error without the generated kernel's source
    printed between the assert and the NVRTC log (thousands of lines, which would push the log's
    error lines and their operand types past what a message keeps, and the root cause with them)."""
    i, j = text.find("// Codegen generated code"), text.find("CUDA NVRTC compile error")
    if 0 <= i < j:
        return text[:i] + "// (the generated kernel's source, left out)\n" + text[j:]
    return text


class _Lazy:
    """``FusionInputs`` computed when first asked (most errors never ask)."""

    def __init__(self, make: Callable[[], FusionInputs | None]):
        self._make, self._done, self._value = make, False, None

    def names_input(self, tensor: str) -> bool | None:
        if not self._done:
            self._value, self._done = self._make(), True
        return None if self._value is None else self._value.names_input(tensor)


#: the standalone check of a segmentation finding (``NvFuser.segmentation_script``); needs only
#: Python: the two versions of the program run as they are, in child processes
SEGMENTATION_CHECK = '''import os
import re
import subprocess
import sys

VERSIONS = []
# VERSIONS


def segmentation(what, text):
    """nvFuser's segments of one version: (the Segmented_Fusion block, the scheduler of each group)."""
    env = dict(os.environ, NVFUSER_DUMP="segmented_fusion")
    run = subprocess.run([sys.executable, "-c", text], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{what} failed:\\n{run.stderr[-3000:]}")
    end = run.stdout.rfind("} //Segmented_Fusion")
    block = run.stdout[run.stdout.rfind("Segmented_Fusion{", 0, end):end + 20] if end >= 0 else ""
    details = block.split("group details:")[-1]
    return block, sorted(m or "none" for m in re.findall(r"^\\s*g\\{(?:\\((\\w+)\\))?\\s*$", details, re.M))


found = [(what, *segmentation(what, text)) for what, text in VERSIONS]
for what, block, groups in found:
    print(f"==== {what}: {len(groups)} segments {groups}\\n{block or '(no segmented fusion: one kernel)'}\\n")
if len({tuple(groups) for _, _, groups in found}) > 1:
    raise AssertionError("SPLITS_DIFFER: " + "; ".join(f"{what} gives {len(g)} segments {g}"
                                                                for what, _, g in found))
'''


def _literal(text: str) -> str:
    """``text`` as a Python literal that reads as the script it is."""
    if "'''" not in text and not text.endswith("\\"):
        return "r'''" + text + "'''" if "\\" in text else "'''" + text + "'''"
    return repr(text)


def script_frontend(text: str) -> str:
    """The nvFuser module a script imports (``nvfuser_direct`` when it names none)."""
    m = re.search(r"^\s*(?:from|import)\s+(nvfuser_direct|nvfuser)\b", text, re.M)
    return m.group(1) if m else "nvfuser_direct"


def script_inputs(text: str, path: str = "<script>") -> FusionInputs | None:
    """``FusionInputs`` of a script's fusion, or None for a script fmin cannot read."""
    try:
        from ..program import parse
        return fusion_inputs(parse(text, path))
    except Exception:
        return None


def read_log(result: dict, log: str, non_kernel: frozenset[str]) -> None:
    """The segments, their schedulers and the segment graph a run's ``segmented_fusion`` dump
    states, into ``result`` (a worker's run, and a standalone run's stdout)."""
    groups = segments_from_dump(log)
    if groups is not None:
        result["segments"] = len(groups)
        result["schedulers"] = [g or "none" for g in groups]
    graph = segment_graph_from_dump(log, non_kernel)
    if graph is not None and len(graph.segments) == len(groups or ()):
        result["graph"] = attach_rejections(graph, log).to_json()


class NvFuserRunner(Runner):
    """The installed ``nvfuser``/``nvfuser_direct`` themselves: the script runs as written."""

    def __init__(self, facts):
        super().__init__(facts)
        self._classes: list = []
        self._warm = False

    def warm(self, device: str) -> dict:
        import torch
        info = {"backend": self.facts.name, "torch": torch.__version__, "device": device,
                "options": {k: v for k, v in os.environ.items() if k.startswith("NVFUSER_")}}
        if torch.cuda.is_available():
            info["gpu"] = torch.cuda.get_device_name(0)
            info["capability"] = "%d.%d" % torch.cuda.get_device_capability(0)   # what the seeds' guards ask
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

    def decision_features(self, result: dict, log: str) -> list[str]:
        """Also every merge the segmenter rejected, with each scheduler's reason
        (``segmenter_logging``, masked; generic "not this kind of fusion" reasons left out), not
        only the boundary reasons the graph keeps: a mutant that makes the segmenter refuse a
        merge for a reason never seen took a new path through it. And the heuristic each
        scheduler picked (``scheduler_params``: ``param:pointwise:vec#4``,
        ``param:reduction:iter=blockIdx.x/threadIdx.y/multiple_reductions_per_block``): two
        programs of the same kernels may still take different code paths inside them."""
        feats = {f for f in super().decision_features(result, log) if not f.startswith("reject:")}
        for _, reasons in rejected_merges(log):
            feats |= {f"reject:{sched}:{decisions.norm(why)}" if sched else "reject:segment_set"
                      for sched, why in reasons.items()}
        return sorted(feats | param_features(log))

    def analyze_log(self, result: dict, log: str) -> None:
        read_log(result, log, self.facts.non_kernel)


class NvFuserPolicy(Policy):
    def expected_segmentation(self, ops: frozenset[str], changed: frozenset[str]) -> str | None:
        """Also: an input whose innermost dim is not the output's picks the transpose scheduler."""
        if "transpose" in changed and changed <= {"transpose", "pointwise", "expr_eval", "no_op"}:
            return "a transposed input is scheduled by the transpose scheduler instead of the pointwise one"
        return super().expected_segmentation(ops, changed)


@register
class NvFuser(Backend):
    facts = Facts(
        "nvfuser", summary="the real nvFuser library (either frontend); needs a GPU and an nvFuser wheel",
        display_name="nvFuser",
        runs_as_written=True,
        auto_rank=0,                  # the compiler fmin is for, wherever it imports and a GPU is visible
        worker_bytes=1 << 30,         # host memory of a worker with CUDA and nvFuser loaded
        warm_up="importing nvFuser and the first compile take a few seconds",   # docs/gpu.md
        non_kernel=frozenset({"expr_eval", "no_op"}),
        reports_segments=True,
        # a filed attachment is ``python repro.min.py``, nothing of fmin: the dumps are debug output
        debug_env=frozenset({"NVFUSER_DUMP"}))
    runner = NvFuserRunner
    policy = NvFuserPolicy()

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

    def rootcause_particulars(self, signature: str, message: str | None) -> dict:
        """The functions a reduced-precision NVRTC failure met (``nvfuser_rootcause.particulars``)."""
        return particulars(signature, message)

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

    # ---- a filed attachment: ``python repro.min.py``, nothing of fmin (``runs_as_written``) ----
    def standalone_command(self, text: str, device: str, config: list[str]) -> tuple[list[str] | None, str]:
        import importlib.util
        fe = script_frontend(text)
        if importlib.util.find_spec(fe) is None:
            return None, f"{fe} is not installed here: an nvFuser finding runs standalone where nvFuser is"
        if not cuda_usable():
            return None, "no CUDA device here: an nvFuser finding runs standalone on a GPU"
        return [sys.executable, "repro.min.py"], ""

    def run_words(self, device: str, config: list[str]) -> str:
        return "python repro.min.py (it sets the nvFuser options it needs itself)"

    def standalone_outcome(self, stdout: str, exit_code: int | None) -> dict | None:
        """A run that ended well: what the segmentation dump on its stdout says (an attachment of
        a segmentation finding turns the dump on itself); a failure: its traceback."""
        if exit_code != 0:
            return None
        d: dict = {"status": "ok"}
        read_log(d, stdout, self.facts.non_kernel)
        return d

    def classify_error(self, error: BaseException) -> dict:
        return classify(error)

    def segmentation_script(self, scripts: list[tuple[str, str]]) -> str | None:
        """Each version runs in a child process with ``NVFUSER_DUMP=segmented_fusion`` (the dump
        is how nvFuser shows its segments; the debug option stays in the children), and the
        script prints each ``Segmented_Fusion`` block and compares their schedulers."""
        consts = "\n".join(f"VERSIONS.append(({what!r}, {_literal(text)}))" for what, text in scripts)
        return SEGMENTATION_CHECK.replace("SPLITS_DIFFER", SPLITS_DIFFER).replace("# VERSIONS", consts)
