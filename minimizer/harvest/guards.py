"""Which GPU an nvFuser test asks for: the compute capability its skip guards require.

nvFuser's tests skip themselves on GPUs older than what they use (``@pytest.mark.skipif(
is_pre_blackwell(), reason=...)``, a module's ``pytestmark``, ``if is_pre_hopper(): pytest.skip(...)``
in the body). The harvest traces every test as if on the newest GPU (``stubs.GPU``), so a seed from
such a test holds ops an older GPU cannot run (``nv_block_quantize``: Blackwell): nvFuser's contract
for it is "not on this GPU". ``required`` reads the guards from the source, so a campaign can set such
seeds aside on the GPU it runs on.
"""
from __future__ import annotations

import ast
import functools

#: nvFuser's test helpers (``tests/python/direct_utils``): the guard's name -> the capability
#: below which it skips
GUARDS = {"is_pre_volta": (7, 0), "is_pre_ampere": (8, 0), "is_pre_hopper": (9, 0), "is_pre_blackwell": (10, 0)}


def _guarded(node) -> tuple[int, int] | None:
    """The highest capability a guard call inside ``node`` asks for, or None."""
    got = [GUARDS[n.func.id] for n in ast.walk(node)
           if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in GUARDS]
    return max(got) if got else None


def _skips(node) -> bool:
    """Does ``node`` call ``pytest.skip`` (or ``skip``)?"""
    return any(isinstance(n, ast.Call) and (getattr(n.func, "attr", None) == "skip" or getattr(n.func, "id", None) == "skip")
               for n in ast.walk(node))


def _of_test(fn) -> list[tuple[int, int]]:
    """The guards of one test: its ``skipif`` decorators, and ``if <guard>: pytest.skip`` in its body."""
    out = [g for d in fn.decorator_list if "skipif" in ast.dump(d) and (g := _guarded(d)) is not None]
    out += [g for n in ast.walk(fn) if isinstance(n, ast.If) and _skips(n) and (g := _guarded(n.test)) is not None]
    return out


@functools.lru_cache(maxsize=256)
def _file_guards(path: str) -> tuple[tuple[int, int] | None, dict[str, tuple[int, int]]]:
    """(the module's own guard: ``pytestmark``, the guard of each test by name) for one test file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError):
        return None, {}
    module = [g for n in tree.body if isinstance(n, ast.Assign)
              and any(getattr(t, "id", None) == "pytestmark" for t in n.targets) and (g := _guarded(n.value))]
    tests = {}
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test"):
            got = _of_test(n)
            if got:
                tests[n.name] = max(got)
    return (max(module) if module else None), tests


def required(path: str, test: str) -> tuple[int, int] | None:
    """The compute capability test ``test`` of file ``path`` needs (its guards and its module's,
    the highest), or None: it runs on any GPU."""
    module, tests = _file_guards(path)
    got = [g for g in (module, tests.get(test.split("::")[-1].split("[")[0])) if g is not None]
    return max(got) if got else None


__all__ = ["GUARDS", "required"]
