"""The package's layers (docs/architecture.md): every top-level module or subpackage of
``minimizer`` imports only from layers below its own, so there is no import cycle between them and
each concept can be read without the ones built on it; and no module imports itself back through
others inside a unit either (``oracle.outcome`` and ``oracle.rootcause`` once did, hidden by a
function-local import). Imports are read from the source (module-level, function-local and
``TYPE_CHECKING`` ones alike), not from what happens to be loaded."""
import ast
import pathlib
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parent.parent / "minimizer"

#: bottom to top; a unit may import units of its own layer only where named in SAME_LAYER
LAYERS = [
    {"errors", "dtypes", "model", "progress", "segments", "argtypes", "outdir", "phases", "interrupt"},
    {"plugins"},
    {"ops"},
    {"program"},
    {"frontend", "upgrade"},
    {"backends"},
    {"oracle"},
    {"report"},
    {"reduce"},
    {"isolate", "check", "harvest"},
    {"fuzz"},
    {"cluster"},
    {"cli"},
    {"__main__"},
]


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "<root>"


def imports() -> dict[str, set[tuple[str, str]]]:
    """unit -> {(imported unit, importing file)}."""
    out: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        module = ".".join(rel.parts)
        package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module.removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    if node.module:
                        targets.append(".".join(base + [node.module]))
                    else:
                        targets += [".".join(base + [a.name]) for a in node.names]
                elif node.module and node.module.startswith("minimizer"):
                    targets.append(node.module)
            elif isinstance(node, ast.Import):
                targets += [a.name for a in node.names if a.name.startswith("minimizer")]
            for t in targets:
                if t.startswith("minimizer.") and _unit(t) != _unit(module):
                    out[_unit(module)].add((_unit(t), str(rel)))
    return out


def test_every_unit_is_in_a_layer():
    units = {p.stem if p.is_file() else p.name for p in ROOT.iterdir()
             if (p.is_file() and p.suffix == ".py" and p.stem != "__init__")
             or (p.is_dir() and (p / "__init__.py").exists())}
    placed = set().union(*LAYERS)
    assert units <= placed, f"units not placed in a layer: {sorted(units - placed)}"


def test_no_import_goes_up_or_sideways():
    level = {u: k for k, layer in enumerate(LAYERS) for u in layer}
    bad = sorted(f"{where}: {unit} -> {target}" for unit, edges in imports().items() for target, where in edges
                 if target in level and unit in level and level[target] >= level[unit])
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


def test_the_import_reader_sees_real_edges():
    """The reader is not blind: a real downward edge of the source is among what it found."""
    level = {u: k for k, layer in enumerate(LAYERS) for u in layer}
    assert level["oracle"] > level["backends"]
    edges = imports()
    assert ("backends", "minimizer/oracle/pool") in edges["oracle"]   # a real downward edge is seen


# ---------------------------------------------------------------- circles between modules, at any depth
def module_graph(root: pathlib.Path = ROOT) -> dict[str, set[str]]:
    """module -> the modules of the package it names in an import (a package stands for its
    ``__init__``). ``from P import x`` names the submodule ``P.x`` when there is one, else ``P``
    itself; importing ``P.x`` is not counted as importing ``P`` (Python has ``P`` loading already
    when one of its modules runs, so that edge makes no circle)."""
    top = root.name
    paths = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        paths[".".join(parts[:-1] if path.name == "__init__.py" else parts)] = path
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    src = ".".join(base + ([node.module] if node.module else []))
                elif node.module and node.module.split(".")[0] == top:
                    src = node.module
                else:
                    continue
                named |= {f"{src}.{a.name}" if f"{src}.{a.name}" in paths else src for a in node.names}
            elif isinstance(node, ast.Import):
                named |= {a.name for a in node.names if a.name.split(".")[0] == top}
        graph[module] = {m for m in named if m in paths and m != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of more than one
    module (Tarjan's algorithm, iteratively: the package is deeper than Python's recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                scc = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    scc.append(w)
                    if w == v:
                        break
                if len(scc) > 1:
                    found.append(sorted(scc))
    return found


def test_no_import_circle_between_modules():
    found = circles(module_graph())
    assert found == [], "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_circle_finder_sees_circles_at_any_depth(tmp_path):
    """A circle closed by a function-local import two packages deep, one through a package's
    ``__init__`` and one under ``TYPE_CHECKING`` are all found; a chain without a way back is not."""
    files = {
        "pkg/__init__.py": "",
        "pkg/a/__init__.py": "from .b import thing\n",
        "pkg/a/b.py": "def thing():\n    from ..c.d import other\n    return other\n",
        "pkg/c/__init__.py": "",
        "pkg/c/d.py": "from ..a import b\nother = 1\n",
        "pkg/e.py": "from . import f\n",
        "pkg/f.py": "from pkg import e\n",
        "pkg/g.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .h import H\n",
        "pkg/h.py": "from .g import TYPE_CHECKING\nH = 1\n",
        "pkg/i.py": "from .e import f\n",
        "pkg/j/__init__.py": "from .k import K\n",
        "pkg/j/k.py": "from . import L\nK = 1\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    found = circles(module_graph(tmp_path / "pkg"))
    assert sorted(found) == [["pkg.a.b", "pkg.c.d"], ["pkg.e", "pkg.f"], ["pkg.g", "pkg.h"], ["pkg.j", "pkg.j.k"]]


# ---------------------------------------------------------------- the store is the fuzzer's lowest layer
#: the fuzz subpackages above the store: judging keys findings, the rest files, lists and runs them
ABOVE_THE_STORE = ("sources", "judging", "filing", "buglist", "campaign")


def test_store_imports_no_judging():
    """``minimizer.fuzz.store`` (a bucket's record and key, the store, merging, re-keying's
    mechanics) imports nothing of the fuzz subpackages above it: re-keying is handed today's rules
    (``judging.today``), a finding is the store's own type (``store.finding``)."""
    graph = module_graph()
    store = {m for m in graph if m.startswith("minimizer.fuzz.store")}
    assert "minimizer.fuzz.store.store" in store and "minimizer.fuzz.store.record" in store   # the reader sees it
    up = sorted(f"{m} -> {t}" for m in store for t in graph[m]
                if any(t == f"minimizer.fuzz.{p}" or t.startswith(f"minimizer.fuzz.{p}.") for p in ABOVE_THE_STORE))
    assert not up, "the store imports from above it:\n" + "\n".join(up)
