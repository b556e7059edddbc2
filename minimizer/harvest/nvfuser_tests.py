"""Seeds from an nvFuser checkout's Python tests (optional: only where a user has a checkout).

nvFuser's own tests (``tests/python/**/test_*.py``) define hundreds of fusions the developers
thought worth testing, most as a function of ``fd`` nested in a test, some at module level, as
helpers, as a class's ``definition(self)``, inside loops or parametrized tests. What a fusion
needs (sizes, dtypes, inputs built by helpers) is bound by the test as it runs, so the fusions
are traced by running the tests in a worker process (``worker``: a test file is
arbitrary code, never run in fmin) and written as standalone scripts into a scratch folder, one
per process and checkout (``scripts``), removed when the process ends. The seeds read from them
are named ``<checkout>/tests/python/<file>::<test>::<function>`` (``shown``): the same in every
process given the same checkout, so an example id replays, and a finding names a test a user can
open rather than a deleted scratch file.

``Report`` counts every fusion function (``fusion_functions``: a function whose first parameter
is used as ``fd`` — ``P.ops``, ``P.define_*``, ``P.add_output``, ``P.from_pytorch``), those read
as seeds, and those left out, by reason. Nothing of the checkout is copied into fmin.
"""
from __future__ import annotations

import ast
import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field

from . import guards

#: seconds the worker may take over a whole checkout
HARVEST_SECONDS = 1800
_FD_ATTRS = ("ops", "add_output", "from_pytorch")
_POSITION = re.compile(r"^\S+:\d+:\d+: ")


def is_checkout(path: str) -> bool:
    """A folder that looks like an nvFuser source checkout (``csrc/`` and ``tests/python/``)."""
    return os.path.isdir(os.path.join(path, "csrc")) and os.path.isdir(os.path.join(path, "tests", "python"))


def checkout_of(path: str) -> str | None:
    """The checkout whose tests ``--seeds PATH`` names: PATH itself, or the checkout that holds
    PATH inside its ``tests/python`` (nvFuser's CI names ``tests/python``), spelt as the user spelt
    PATH (``tests/python`` -> ``.``) so the seeds' names stay relative; None for any other folder."""
    if not os.path.isdir(path):
        return None
    if is_checkout(path):
        return path
    real, up = os.path.realpath(path), path
    for _ in range(real.count(os.sep)):
        up = os.path.join(up, os.pardir)
        real = os.path.dirname(real)
        if is_checkout(real):
            inside = os.path.relpath(os.path.realpath(path), os.path.join(real, "tests", "python"))
            return os.path.normpath(up) if not inside.startswith(os.pardir) else None
    return None


def test_files(checkout: str) -> list[str]:
    """``tests/python/**/test_*.py``, sorted."""
    out = []
    for d, subdirs, files in os.walk(os.path.join(checkout, "tests", "python")):
        subdirs[:] = sorted(x for x in subdirs if not x.startswith((".", "__")))
        out += [os.path.join(d, f) for f in sorted(files) if f.startswith("test_") and f.endswith(".py")]
    return out


def _uses_as_fd(fn: ast.FunctionDef) -> bool:
    """Its first parameter is used as a ``FusionDefinition`` in its own body (a nested function
    or class has its own parameters)."""
    if not fn.args.args:
        return False
    p = fn.args.args[0].arg
    todo = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == p \
                and (n.attr in _FD_ATTRS or n.attr.startswith("define_")):
            return True
        todo += [c for c in ast.iter_child_nodes(n)
                 if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))]
    return False


#: methods of a ``FusionDefinition`` subclass that nvFuser calls once the definition is complete, to
#: schedule it: an op added there is an error nvFuser reports, never part of a fusion
SCHEDULE_HOOKS = ("schedule", "multidevice_schedule")


def fusion_functions(tree: ast.Module) -> list[tuple[ast.FunctionDef, str]]:
    """(function, the test it is defined in or ``""``) for each fusion function, in line order."""
    out = []

    def visit(node, test):
        for child in ast.iter_child_nodes(node):
            inner = test
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if _uses_as_fd(child) and not (isinstance(node, ast.ClassDef) and child.name in SCHEDULE_HOOKS):
                    out.append((child, test))
                # a test defined inside another (an indentation slip: nothing calls it) is a test of
                # its own: the harvest runs it as pytest would had it been at module level
                nested = isinstance(node, ast.FunctionDef) and node.name.startswith("test") and test
                inner = child.name if child.name.startswith("test") and (not test or nested) else test
            visit(child, inner)
    visit(tree, "")
    return sorted(out, key=lambda x: x[0].lineno)


@dataclass
class Harvest:
    """One checkout's traced fusions: the worker's rows, the scratch folder, the seeds' names."""
    checkout: str
    scratch: str
    rows: list[dict]
    #: the script path -> its row
    by_script: dict[str, dict] = field(default_factory=dict)
    #: the script path -> None (read) or why the reader left it out
    read: dict[str, str | None] = field(default_factory=dict)
    #: the checkout as the user named it (``--seeds ../Fuser``): seeds are named under it, so a
    #: finding names no directory of the machine that ran the campaign
    given: str = ""


_HARVESTS: dict[str, Harvest] = {}


def extract(checkout: str, dest: str, timeout: float = HARVEST_SECONDS) -> list[dict]:
    """Run the worker on ``checkout`` (scripts and ``manifest.json`` under ``dest``); its rows.
    A worker that fails or runs out of time leaves every fusion function unread, with why."""
    import minimizer
    root = os.path.dirname(os.path.dirname(os.path.abspath(minimizer.__file__)))
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "CUDA_VISIBLE_DEVICES": ""}
    os.makedirs(dest, exist_ok=True)
    p = subprocess.Popen([sys.executable, "-m", "minimizer.harvest.worker", checkout, dest], cwd=dest, env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
    manifest = os.path.join(dest, "manifest.json")
    if os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as f:
            return json.load(f)
    why = (err.decode(errors="replace").strip().splitlines() or [f"exit status {p.returncode}"])[-1]
    return [{"file": path, "line": fn.lineno, "name": fn.name, "test": test, "why": f"the harvest failed: {why}"}
            for path in test_files(checkout) for fn, test in static_functions(path)]


def static_functions(path: str):
    """The file's fusion functions read without running it (none where it does not parse)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return fusion_functions(ast.parse(f.read()))
    except SyntaxError:
        return []


def harvest(checkout: str) -> Harvest:
    """The checkout's harvest, traced once per process into a scratch folder removed at exit."""
    key = os.path.realpath(checkout)
    if key not in _HARVESTS:
        if not _HARVESTS:
            atexit.register(cleanup)
        scratch = tempfile.mkdtemp(prefix="fmin-nvfuser-tests-")
        h = Harvest(key, scratch, [], given=os.path.normpath(checkout))
        _HARVESTS[key] = h
        h.rows = extract(key, scratch)
        h.by_script = {r["script"]: r for r in h.rows if "script" in r}
    return _HARVESTS[key]


def cleanup() -> None:
    """Remove every scratch folder of this process (the seeds were parsed already)."""
    for h in _HARVESTS.values():
        shutil.rmtree(h.scratch, ignore_errors=True)
    _HARVESTS.clear()


def scripts(checkout: str, under: str | None = None) -> list[str]:
    """The scripts of the checkout's traced fusions, in the order of their names (``shown``);
    ``under``: only those of the test files in that folder of the checkout."""
    h = harvest(checkout)
    inside = os.path.realpath(under) + os.sep if under else ""
    return sorted((p for p, row in h.by_script.items() if os.path.realpath(row["file"]).startswith(inside)),
                  key=shown)


def _row_of(path: str) -> tuple[Harvest, dict] | None:
    for h in _HARVESTS.values():
        if path in h.by_script:
            return h, h.by_script[path]
    return None


def shown(path: str) -> str:
    """A seed's name: ``<checkout>/tests/python/<file>::<test>::<function>`` for a traced
    fusion (the test's class and its line when two fusions would share a name), else the path."""
    got = _row_of(path)
    if got is None:
        return path
    h, row = got
    name = _name(row, h.rows)
    if h.given and name.startswith(h.checkout + os.sep):
        name = os.path.normpath(os.path.join(h.given, name[len(h.checkout) + 1:]))
    return name


def _name(row: dict, rows: list[dict]) -> str:
    base = "::".join(x for x in (row["file"], row.get("test", ""), row["name"]) if x)
    twins = [r for r in rows if r is not row and r["file"] == row["file"] and r["name"] == row["name"]
             and r.get("test", "") == row.get("test", "")]
    return f"{base}@{row['line']}" if twins else base


def needs(path: str) -> tuple[int, int] | None:
    """The compute capability the test a traced fusion's script came from requires (its skip
    guards: ``guards.required``), or None: any GPU, or not a traced fusion."""
    got = _row_of(path)
    if got is None:
        return None
    row = got[1]
    return guards.required(row["file"], row.get("test", "")) if row.get("test") else None


def note(path: str, why: str | None) -> None:
    """What the reader made of a traced fusion's script: None when read, else why not."""
    got = _row_of(path)
    if got is not None:
        got[0].read[path] = why


def reason(why: str) -> str:
    """A reason's group: its first two parts (``the static check rejects it: fd.ops.slice``), three
    after an exception's name (``its test failed before running it: TypeError: <its message>``),
    numbers and quoted text out."""
    parts = _POSITION.sub("", why).split(": ")
    keep = 3 if len(parts) > 2 and re.fullmatch(r"[A-Z]\w*(Error|Exception)", parts[1]) else 2
    why = ": ".join(p[:60] for p in parts[:keep])
    why = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", why)
    return re.sub(r"\b\d+\b", "N", why)[:100]


@dataclass
class Report:
    """How many fusion functions a checkout's tests hold, how many were read as seeds, and why
    the others were left out (grouped; ``lines``: each one with its name)."""
    checkout: str
    found: int
    read: int
    reasons: Counter
    lines: list[str]

    def block(self, top: int = 8) -> str:
        """The campaign's start-up block: found, read, left out by reason (most first)."""
        out = [f"fmin: seeds from {self.checkout}: {self.found} fusion functions in tests/python, "
               f"{self.read} read ({100 * self.read / max(1, self.found):.0f} %), {self.found - self.read} left out"]
        out += [f"  {n:4d}  {why}" for why, n in self.reasons.most_common(top)]
        if len(self.reasons) > top:
            out.append(f"  {sum(n for _, n in self.reasons.most_common()[top:]):4d}  other reasons "
                       f"({len(self.reasons) - top})")
        return "\n".join(out)


def _status(row: dict, h: Harvest) -> str | None:
    """None when the fusion function is read as (part of) a seed, else why not."""
    if "script" in row:
        return h.read.get(row["script"], "not read")
    if "within" in row:
        outer = next((r for r in h.rows if r["file"] == row["file"] and r["line"] == row["within"]), None)
        return None if outer is not None and _status(outer, h) is None else "the fusion it ran within is left out"
    return row.get("why", "not traced")


def harvest_report(checkout: str) -> Report:
    """The checkout's counts, after ``seeded.load`` read its scripts."""
    h = harvest(checkout)
    reasons, lines, read = Counter(), [], 0
    for row in h.rows:
        why = _status(row, h)
        if why is None:
            read += 1
            continue
        reasons[reason(why)] += 1
        lines.append(f"{_name(row, h.rows)} (line {row['line']}): {_POSITION.sub('', why)}")
    return Report(h.checkout, len(h.rows), read, reasons, lines)


__all__ = ["is_checkout", "checkout_of", "static_functions", "test_files", "fusion_functions", "extract", "harvest", "scripts", "shown", "needs",
           "note", "reason", "cleanup", "Report", "harvest_report", "HARVEST_SECONDS"]
