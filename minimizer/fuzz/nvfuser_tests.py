"""Seeds from an nvFuser checkout's Python tests (optional: only where a user has a checkout).

nvFuser's own tests (``tests/python/**/test_*.py``) define hundreds of fusions the developers
thought worth testing, each as a nested ``def fusion_func(fd)`` beside an ``inputs = [...]``
inside a test method. Each such pair becomes a standalone script of the form fmin reads
(``docs/script-forms.md``: the fusion function, ``with FusionDefinition() as fd``, the inputs
list, ``fd.execute(inputs)``), written into a scratch folder that ``seeded.load`` then reads like
any other: a test fusion that is not a self-contained script (helpers, loops, parametrized
shapes) is reported unreadable there, once, never run. Nothing of the checkout is copied into
fmin; only the user's machine sees the extracted scripts.
"""
from __future__ import annotations

import ast
import os
import textwrap

HEADER = "import torch\nfrom nvfuser import FusionDefinition, DataType\n\n"


def is_checkout(path: str) -> bool:
    """A folder that looks like an nvFuser source checkout (``csrc/`` and ``tests/python/``)."""
    return os.path.isdir(os.path.join(path, "csrc")) and os.path.isdir(os.path.join(path, "tests", "python"))


def _calls_fd(fn: ast.FunctionDef) -> bool:
    if not fn.args.args:
        return False
    fd = fn.args.args[0].arg
    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == fd
               for n in ast.walk(fn))


def fusions_in(text: str) -> list[tuple[str, str]]:
    """(test name, standalone script) for each test function of ``text`` that defines one fusion
    function and assigns ``inputs`` (the last assignment before the fusion is the one used)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    out = []
    for test in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name.startswith("test")):
        fusions = [n for n in test.body if isinstance(n, ast.FunctionDef) and _calls_fd(n)]
        inputs = [n for n in test.body if isinstance(n, ast.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0], ast.Name) and n.targets[0].id == "inputs"]
        if len(fusions) != 1 or not inputs:
            continue
        fn = fusions[0]
        src = [textwrap.dedent(ast.get_source_segment(text, n, padded=True) or "") for n in (inputs[-1], fn)]
        out.append((test.name, HEADER + src[0] + "\n\n" + src[1] + "\n\n"
                    f"with FusionDefinition() as fd:\n    {fn.name}(fd)\n\nfd.execute(inputs)\n"))
    return out


def extract(checkout: str, dest: str) -> list[str]:
    """Every test fusion of ``checkout`` written under ``dest`` as ``<test file>__<test>.py``;
    the paths written."""
    os.makedirs(dest, exist_ok=True)
    written = []
    root = os.path.join(checkout, "tests", "python")
    for d, subdirs, files in os.walk(root):
        subdirs.sort()
        for f in sorted(x for x in files if x.startswith("test_") and x.endswith(".py")):
            with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for name, script in fusions_in(text):
                p = os.path.join(dest, f"{f[:-3]}__{name}.py")
                with open(p, "w", encoding="utf-8") as fh:
                    fh.write(script)
                written.append(p)
    return written


__all__ = ["is_checkout", "fusions_in", "extract"]
