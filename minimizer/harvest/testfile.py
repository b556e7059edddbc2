"""One test file harvested: its tests run as pytest would call them, again where a fusion function
is still missing (the next parameter set, real tensors on the CPU, another GPU), and one row per
fusion function saying which fusion it was traced into or why none.

``self`` and every fixture is the ``Harness``; tensors are on ``meta`` (``backends.devicemap``)
unless a test asks for their data."""
from __future__ import annotations

import ast
import inspect
import os
import random
import sys

import torch

from ..backends.devicemap import device_map
from .loading import load_module, run_limited, tagged_module
from .stubs import GPU, OTHER_GPUS, Anything, swallow_raises
from .tracing import Traced

#: parameter sets of one test tried while one of its fusions is still missing
PARAM_SETS = 4


class Harness(Anything):
    """``self`` of a test method and every fixture: ``exec_nvfuser(fusion_func, inputs)`` (the
    helper nvFuser's tests run fusions through) defines and executes the fusion."""

    frontend_class = None
    #: a multidevice test's fixture on one process
    rank = local_rank = 0
    size = property(lambda self: GPU.count)

    def assertRaises(self, expected, *args, **kwargs):
        return swallow_raises(expected, *args, **kwargs)

    def assertRaisesRegex(self, expected, regex, *args, **kwargs):
        return swallow_raises(expected, *args, **kwargs)

    def shard_tensor(self, t, *args, **kwargs):
        """A multidevice test's input as one process of one sees it: the whole tensor."""
        return t

    shard_tensor_1d = shard_tensor

    def exec_nvfuser(self, fusion_func, inputs, *args, **kwargs):
        with self.frontend_class() as fd:
            fusion_func(fd)
        out = fd.execute(inputs)
        return out, fd


def tests_of(g: dict, tree: ast.Module) -> list[tuple[str, object, object]]:
    """(qualified name, function, class or None) of each test in source order."""
    out = []
    for node in tree.body:
        obj = g.get(node.name) if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else None
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test") and callable(obj):
            out.append((node.name, obj, None))
        elif isinstance(node, ast.ClassDef) and isinstance(obj, type):
            out += [(f"{node.name}::{m.name}", getattr(obj, m.name, None), obj) for m in node.body
                    if isinstance(m, ast.FunctionDef) and m.name.startswith("test")
                    and callable(getattr(obj, m.name, None))]
    return out


def param_sets(fn, cls) -> list[dict]:
    """The keyword sets pytest would call ``fn`` with, in pytest's order (first ones first)."""
    sets = [{}]
    marks = list(getattr(fn, "pytestmark", [])) + list(getattr(cls, "pytestmark", []) if cls else [])
    for m in marks:
        if getattr(m, "name", "") != "parametrize":
            continue
        names, values = m.args[0], list(m.args[1])
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = []
        for v in values[:PARAM_SETS]:
            vals = v.values if hasattr(v, "marks") and hasattr(v, "values") else v if len(names) > 1 else (v,)
            rows.append(dict(zip(names, vals)))
        sets = [{**a, **b} for a in sets for b in rows] or sets
    return sets[:PARAM_SETS]


def call_test(fn, cls, params: dict, harness_base) -> BaseException | None:
    """Run one test as pytest would: ``self`` and fixtures are the harness."""
    sig = inspect.signature(fn)
    names = list(sig.parameters)
    args = []
    if cls is not None:
        owner = type("HarnessOf" + cls.__name__, (harness_base, cls), {}) if _can_mix(cls) else harness_base
        args.append(object.__new__(owner))
        names = names[1:]
    kwargs = {n: params[n] if n in params else sig.parameters[n].default
              if sig.parameters[n].default is not inspect.Parameter.empty else harness_base()
              for n in names if sig.parameters[n].kind not in (inspect.Parameter.VAR_POSITIONAL,
                                                             inspect.Parameter.VAR_KEYWORD)}
    return run_limited(fn, *args, **kwargs)


def _can_mix(cls) -> bool:
    try:
        type("probe", (Harness, cls), {})
        return True
    except TypeError:
        return False


#: address space a test run again on the CPU may take beyond the worker's (an allocation past it
#: fails as the test's error instead of the machine running out of memory)
CPU_BYTES = 4 << 30


def on_cpu(fn, cls, params) -> BaseException | None:
    """The test again with real tensors on the CPU, within ``CPU_BYTES`` more address space."""
    import resource
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    except (OSError, StopIteration):
        return RuntimeError("the test needs its tensors' data, and this machine cannot bound a run on the CPU")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = vm + CPU_BYTES if hard == resource.RLIM_INFINITY else min(vm + CPU_BYTES, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        random.seed(0), torch.manual_seed(0)
        with device_map("cpu"):
            return call_test(fn, cls, params, Harness)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_test(fn, cls, params, lines: set[int], traced: Traced) -> BaseException | None:
    """The test on ``meta``, and again with real tensors on the CPU where it asked its tensors
    for data before one of ``lines`` ran; what it raised."""
    random.seed(0), torch.manual_seed(0)
    error = call_test(fn, cls, params, Harness)
    if error is not None and "meta" in str(error) and not lines <= traced.ran.keys():
        error = on_cpu(fn, cls, params)
    return error


def _skipped(error) -> bool:
    import pytest
    return isinstance(error, pytest.skip.Exception)


def on_other_gpus(fn, cls, params, lines: set[int], traced: Traced) -> BaseException | None:
    """The test again on each of ``OTHER_GPUS`` in turn while it skips before one of ``lines``
    ran; what the last run raised."""
    error = None
    for other in OTHER_GPUS:
        was = dict(vars(GPU))
        vars(GPU).update(other)
        try:
            error = run_test(fn, cls, params, lines, traced)
        finally:
            vars(GPU).update(was)
        if not _skipped(error) or lines <= traced.ran.keys():
            break
    return error


def harvest_file(path: str, traced: Traced) -> list[dict]:
    """One row per fusion function of the file: where it is, and the fusion it was traced into or
    why none (its module or its test failed first, or no test ran it)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        tree, found = tagged_module(text, path, traced)
    except SyntaxError as e:
        return [{"file": path, "line": e.lineno or 1, "name": "?", "test": "", "why": f"SyntaxError: {e.msg}"}]
    if not found:
        return []
    traced.reset()
    Harness.frontend_class = sys.modules[_frontend_module(tree)].FusionDefinition
    sys.path[:0] = [os.path.dirname(path)]
    failed = {}
    with device_map("meta"):   # shapes, strides and dtypes without memory or arithmetic
        g, users = load_module(tree, path, traced), module_users(tree, found)
        for qual, fn, cls in tests_of(g, tree):
            lines = wanted(found, qual.split("::")[-1], traced, users)
            traced.test = qual.split("::")[-1]
            for params in param_sets(fn, cls):
                error = run_test(fn, cls, params, lines, traced)
                if _skipped(error) and not lines <= traced.ran.keys():
                    error = on_other_gpus(fn, cls, params, lines, traced)
                if error is not None and os.environ.get("FMIN_HARVEST_DEBUG"):
                    import traceback
                    traceback.print_exception(error, file=sys.stderr)
                if error is not None:   # why the test, and each fusion function it did not reach
                    failed.setdefault(qual.split("::")[-1], error)
                    for line in lines - traced.ran.keys():
                        failed.setdefault(line, error)
                if lines <= traced.ran.keys():
                    break
            traced.record_pending()
    sys.path.remove(os.path.dirname(path))
    return [_row(path, fn_node, test, traced, failed) for fn_node, test in found]


def wanted(found: list, test: str, traced: Traced, users: dict[int, set[str]]) -> set[int]:
    """The fusion functions a run of ``test`` may yet reach: its own, and those at module level
    (a class's ``definition``, a shared helper) no test has run so far that ``test`` names (any
    test, where none names it: ``users``). The test is run again (next parameter set, real
    tensors on the CPU, another GPU) while one of them is missing, and its error is theirs."""
    return {fn.lineno for fn, of in found if of == test or of == "" and fn.lineno not in traced.ran
            and (test in users[fn.lineno] or not users[fn.lineno])}


def module_users(tree: ast.Module, found: list) -> dict[int, set[str]]:
    """For each module-level fusion function (by line), the tests that name the top-level
    statement holding it (``TransformerForward`` for its ``definition``)."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            names[node.name] = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    out = {}
    for fn, of in found:
        top = next((n for n in tree.body if n.lineno <= fn.lineno <= (n.end_lineno or n.lineno)), None)
        if of == "":
            out[fn.lineno] = {t for t, used in names.items() if getattr(top, "name", None) in used}
    return out


def _frontend_module(tree: ast.Module) -> str:
    """The frontend the file imports at module level: ``nvfuser_direct`` where it does, else
    ``nvfuser`` (a test may import the other inside, to check that both cannot be loaded)."""
    for n in tree.body:
        names = [a.name for a in n.names] if isinstance(n, ast.Import) else \
            [n.module or ""] if isinstance(n, ast.ImportFrom) else []
        if any(x.split(".")[0] == "nvfuser_direct" for x in names):
            return "nvfuser_direct"
    return "nvfuser"


def _row(path: str, node, test: str, traced: Traced, failed: dict) -> dict:
    row = {"file": path, "line": node.lineno, "name": node.name, "test": test}
    fusion = traced.fusions.get(node.lineno)
    if fusion is not None:
        row["fusion"], row["test"] = fusion, test or fusion["test"]
    elif node.lineno in traced.ran:
        row["within"] = traced.ran[node.lineno]
    else:
        e = traced.errors.get(node.lineno) or failed.get(test) or failed.get(node.lineno)
        words = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}" if e is not None else ""
        row["why"] = (f"it failed while defining its fusion: {words}" if e is not None and node.lineno in traced.defined
                      else f"its test failed before running it: {words}" if e is not None else "no test ran it")
    return row
