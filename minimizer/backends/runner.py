"""Run one script text in this (worker) process with a chosen ``FusionDefinition`` behind the
nvFuser import names, and turn what happened into an outcome dict.

Shared by every backend: they differ only in which modules stand behind ``nvfuser`` and
``nvfuser_direct`` and in how they classify failures.
"""
from __future__ import annotations

import contextlib
import re
import sys
import time
import traceback
from typing import Any, Callable, Iterator

import torch

from ..frontend.fusion_definition import RUN_DEVICE
from .options import RunOptions
from .devicemap import device_map
from .signature import first_line, generic_classify


class Recorder:
    """Every ``fd.execute`` call of the script: its inputs and outputs (or the exception).

    ``wrap`` patches a FusionDefinition class once per process; the patched ``execute`` reports
    to whichever recorder belongs to the script running now (``_current``)."""

    def __init__(self, devices=None):
        self.calls: list[dict[str, Any]] = []
        self.devices = devices    # the run's DeviceMap: ``execute(..., device=1)`` is mapped too

    def wrap(self, cls) -> None:
        """Patch ``cls.execute`` so that each call is recorded (idempotent)."""
        original = getattr(cls, "execute")
        if getattr(original, "__fmin_wrapped__", False):
            return

        def execute(fd, inputs, *args, **kwargs):
            recorder = _current[0]
            if recorder is None:  # called outside a script run
                return original(fd, inputs, *args, **kwargs)
            if recorder.devices is not None and kwargs.get("device") is not None:
                kwargs["device"] = recorder.devices.map(kwargs["device"])
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
                     extra: Callable[[dict], None] | None = None,
                     classify_definition: Callable[[BaseException], dict] | None = None) -> dict:
    """Exec ``text`` as ``__main__`` with ``modules`` installed, record ``fd.execute`` calls.

    ``options.time_execute = k``: after the script, the last fusion is executed k more times on
    the same inputs and ``execute_seconds`` becomes the median of those warm runs (the first call
    includes compilation), which is what ``--slower`` compares.

    A failure is classified by where it was raised (``locate``): in the script's own code by
    ``generic_classify`` whatever the backend; while the fusion is defined by
    ``classify_definition`` (default ``classify``: a backend whose definitions are fmin's own
    passes the reference's); in ``fd.execute`` by ``classify``."""
    devices = device_map(device)
    rec = Recorder(devices)
    for cls in fd_classes:
        rec.wrap(cls)
    token = RUN_DEVICE.set(str(device))   # fmin's FusionDefinition computes a fusion of no tensor there
    try:
        with _installed(modules, rec):
            torch.manual_seed(options.seed)
            error = _exec_script(text, path, devices, device, options)
        result: dict[str, Any] = {"executions": len(rec.calls)}
        if devices.remapped:   # the script named devices this machine does not have
            result["environment"] = {"device_remap": dict(devices.remapped)}
        _add_timing(result, rec.calls, error is None, int(options.time_execute or 0), device)
    finally:
        RUN_DEVICE.reset(token)
    if error is not None:
        where = locate(error, path, text, fd_classes, rec)
        # an error of the script's own code is the script's whatever the backend (an
        # IndentationError is no "inductor runtime" failure)
        how = {"script": generic_classify, "definition": classify_definition or classify}.get(where, classify)
        _add_error(result, error, how, where, path)
        if getattr(error, "undefined", None):   # the value rules the run broke before it failed
            result["undefined"] = [v.to_json() for v in error.undefined]
    elif not rec.calls:
        result.update({"status": "error", "error_kind": "no-execute",
                       "signature": "fmin: the script never called fd.execute",
                       "message": "the script ran to its end without calling fd.execute(inputs)"})
    else:
        _add_outputs(result, rec.calls[-1], values_path)
    if extra is not None:
        extra(result)
    return result


@contextlib.contextmanager
def _installed(modules: dict[str, Any], rec: Recorder) -> Iterator[None]:
    """``modules`` behind their import names and ``rec`` as the recorder of the running script,
    for the time of one script; then whatever stood there before, so that neither leaks into fmin's
    own imports or into the worker's next script."""
    saved = {k: sys.modules.get(k) for k in modules}
    sys.modules.update(modules)
    _current[0] = rec
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
        _current[0] = None


def _exec_script(text: str, path: str, devices, device: str, options: RunOptions) -> BaseException | None:
    """Runs ``text`` as ``__main__`` under the device map; returns what it raised, None when it ran
    to its end or exited with status 0. Anything it raises is its outcome, not the worker's."""
    g = _script_globals(path, options)
    try:
        code = compile(text, path, "exec")
        with devices:
            exec(code, g)
            if str(device).startswith("cuda") and torch.cuda.is_initialized():
                # kernels run asynchronously: an illegal address raised later would be blamed on
                # the next script this worker runs
                torch.cuda.synchronize()
    except SystemExit as e:
        return e if e.code not in (0, None) else None
    except BaseException as e:
        return e
    return None


def _add_timing(result: dict, calls: list[dict], ran_through: bool, k: int, device: str) -> None:
    """``execute_seconds`` and ``first_execute_seconds``: the last fusion's execution, compilation
    included. With ``k`` warm runs asked for (``--slower``) and a script that ran through,
    ``execute_seconds`` becomes their median: a compile-time difference is no slowdown."""
    if calls and calls[-1]["seconds"] is not None:
        result["execute_seconds"] = calls[-1]["seconds"]
        result["first_execute_seconds"] = calls[-1]["seconds"]
    if ran_through and calls and k > 0:
        result["execute_seconds"] = _warm_time(calls[-1], k, device)


def _add_error(result: dict, error: BaseException, how: Callable[[BaseException], dict], where: str,
               path: str) -> None:
    """The failure as ``how`` classifies it, with where it was raised (``locate``) and the script's
    line it comes from, which triage and the reports show."""
    result.update({"status": "error"})
    result.update(how(error))
    result.setdefault("message", "".join(traceback.format_exception_only(type(error), error))[-4000:])
    result["where"] = where
    line = _script_line(error, path)
    if line is not None:
        result["script_line"] = line


def _add_outputs(result: dict, last: dict, values_path: str | None) -> None:
    """The run's outputs are those of the script's last ``fd.execute``. With ``values_path`` its
    inputs, outputs and the whole storages of gapped inputs (``_gapped_storages``) are saved there,
    on the CPU, for fmin to compare."""
    result["status"] = "ok"
    result["outputs"] = [describe(o) for o in last["outputs"]]
    undefined = getattr(last["fd"], "undefined", None)   # fmin's FusionDefinition: the value rules broken
    if undefined:
        result["undefined"] = [v.to_json() for v in undefined]
    if values_path:
        torch.save({"inputs": [_on_cpu(v) for v in last["inputs"]],
                    "outputs": [_on_cpu(v) for v in last["outputs"]],
                    "storages": {k: _on_cpu(s) for k, s in _gapped_storages(last["inputs"]).items()}}, values_path)
        result["values_path"] = values_path


def _on_cpu(v: Any) -> Any:
    return v.detach().to("cpu") if isinstance(v, torch.Tensor) else v


def _script_globals(path: str, options: RunOptions) -> dict:
    """The globals a script runs in, as ``__main__``. ``__fmin__`` tells a script's own checks of
    its outputs (the eager check a wrong result's attachment ends with) that fmin judges the
    outputs itself; a standalone run (``options.standalone``, ``backends/launch.py``) leaves it out."""
    g = {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__}
    if not options.standalone:
        g["__fmin__"] = True
    return g


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


#: file name parts of the code a fusion call runs in: the real nvFuser packages and fmin's own
#: FusionDefinition (the shim behind ``nvfuser``/``nvfuser_direct`` on the CPU backends)
_FUSION_CODE = re.compile(r"[\\/](?:nvfuser|nvfuser_direct|nvfuser_common)[\\/]"
                          r"|[\\/]minimizer[\\/](?:frontend|ops|program)[\\/]")
#: frames that stand between the script and what it calls without being either (the device map)
_TRANSPARENT = re.compile(r"[\\/]minimizer[\\/]backends[\\/]devicemap\.py$")
#: what only nvFuser's C++ side writes into an exception text
_NVFUSER_TEXT = re.compile(r"Exception raised from \S+ at \S+:\d+|INTERNAL ASSERT FAILED|nvfuser::|NVFuser|nvFuser")


def locate(error: BaseException, path: str, text: str, fd_classes, rec: "Recorder") -> str:
    """Where the script failed: ``execute`` (inside ``fd.execute``), ``definition`` (inside a call
    of the fusion library while the fusion is defined: ``fd.define_tensor``, ``fd.ops.*``,
    ``fd.add_output``, leaving the ``with FusionDefinition()`` block) or ``script`` (the script's
    own Python: compiling it, a NameError, an import, building its inputs with torch).

    The traceback decides: the innermost frame of the script's file, and what it called. A call
    into Python code of nvFuser or of fmin's FusionDefinition is the library's; a call into
    anything else (torch building an input) is the script's. nvFuser's bindings are C++ and leave
    no frame, so an error raised at the script's own frame is the library's when the expression
    that raised calls a FusionDefinition (or its ``ops``, or an nvFuser module), or when its text
    is one only nvFuser writes."""
    if rec.calls and rec.calls[-1]["error"] is error:
        return "execute"
    if isinstance(error, SyntaxError) and error.filename == path:
        return "script"
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    mine = [k for k, t in enumerate(frames) if t.tb_frame.f_code.co_filename == path]
    if not mine:
        return "script"
    k = mine[-1]
    deeper = [t.tb_frame.f_code.co_filename for t in frames[k + 1:]
              if not _TRANSPARENT.search(t.tb_frame.f_code.co_filename)]
    if deeper:
        return "definition" if _FUSION_CODE.search(deeper[0]) else "script"
    if isinstance(error, (NameError, ImportError, SyntaxError)):
        return "script"
    if _NVFUSER_TEXT.search(str(error)):
        return "definition"
    t = frames[k]
    return "definition" if _calls_fusion(t.tb_frame, t.tb_lasti, t.tb_lineno, text, tuple(fd_classes)) else "script"


def _calls_fusion(frame, lasti: int, lineno: int, text: str, fd_classes: tuple) -> bool:
    """Does the expression at instruction ``lasti`` of ``frame`` call a FusionDefinition's method,
    its ``ops``, or something of an nvFuser module? (Its source span, parsed; the root name looked
    up in the frame.) A ``with`` statement whose context is a FusionDefinition counts (leaving it
    finalizes the definition in the legacy frontend)."""
    import ast
    lines = text.splitlines()
    pos = (lineno, lineno, None, None)
    try:
        pos = list(frame.f_code.co_positions())[lasti // 2]   # Python >= 3.11; else the line
        l0, l1, c0, c1 = pos
        if None in pos:
            pos = (lineno, lineno, None, None)
            raise ValueError("no position")
        seg = "\n".join(lines[l0 - 1:l1])
        seg = seg[c0:len(seg) - (len(lines[l1 - 1]) - c1)]
        node = ast.parse(seg.strip(), mode="eval").body if not seg.lstrip().startswith("with") else None
    except Exception:
        node = None
    if node is None:
        try:
            node = ast.parse(lines[pos[0] - 1].strip() + ("\n    pass" if lines[pos[0] - 1].rstrip().endswith(":")
                                                              else "")).body[0]
        except Exception:
            return False
    roots = []
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            while isinstance(f, (ast.Attribute, ast.Call, ast.Subscript)):
                f = f.value if not isinstance(f, ast.Call) else f.func
            if isinstance(f, ast.Name):
                roots.append(f.id)
    for name in roots:
        v = frame.f_locals.get(name, frame.f_globals.get(name))
        if fd_classes and (isinstance(v, fd_classes) or (isinstance(v, type) and issubclass(v, fd_classes))):
            return True
        mod = getattr(v, "__name__", "") if isinstance(v, type(sys)) else getattr(type(v), "__module__", "") or ""
        if str(mod).split(".")[0] in ("nvfuser", "nvfuser_direct") or getattr(v, "__fmin_shim__", False):
            return True
    return False


def _script_line(error: BaseException, path: str) -> int | None:
    """The script's line the error comes from (its innermost frame in the script's file)."""
    if isinstance(error, SyntaxError) and error.filename == path:
        return error.lineno
    line = None
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


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


__all__ = ["Recorder", "describe", "run_with_modules", "generic_classify", "first_line"]
