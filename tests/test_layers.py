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
    {"plugins", "commandline"},
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


# ---------------------------------------------------------------- the fuzz path, and the reduction's passes
#: ``minimizer.fuzz``'s subpackages along a finding's path, bottom to top: a module of one imports
#: only modules of earlier ones. The store is the shared record at the bottom, so every later
#: stage may import it; the path sources -> judging -> store -> filing -> bug list has no arrow
#: back. The real imports this allows, as they stand:
#:
#:   store     nothing of fuzz (but ``KNOWN_UPWARD`` below)
#:   sources   nothing of fuzz
#:   judging   store (``keys`` -> ``record``)
#:   filing    store
#:   buglist   store, judging (``page`` -> ``keys``)
#:   campaign  store, sources, judging, filing, buglist
FUZZ_LAYERS = ["store", "sources", "judging", "filing", "buglist", "campaign"]

#: imports against ``FUZZ_LAYERS`` allowed for now: none (the store imports nothing above it)
KNOWN_UPWARD: set = set()


def _fuzz_stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "fuzz" and parts[2] in FUZZ_LAYERS else None


def fuzz_edges(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(importing module, imported module) of every import between two fuzz stages."""
    return {(m, t) for m, targets in graph.items() for t in targets
            if _fuzz_stage(m) and _fuzz_stage(t) and _fuzz_stage(m) != _fuzz_stage(t)}


def fuzz_upward(graph: dict[str, set[str]], known=frozenset()) -> list[str]:
    """Imports of a later fuzz stage than the importer's, but those in ``known``."""
    level = {s: k for k, s in enumerate(FUZZ_LAYERS)}
    return sorted(f"{m} -> {t}" for m, t in fuzz_edges(graph)
                  if level[_fuzz_stage(t)] > level[_fuzz_stage(m)] and (m, t) not in known)


def passes_from_outside(graph: dict[str, set[str]]) -> list[str]:
    """Imports of ``reduce.passes`` (the package or a module of it) by a module outside ``reduce``:
    what reduction and mutation share lives in ``program/`` (``declare``, ``extents``, ``cuts``)."""
    top = next(iter(graph)).split(".")[0] if graph else "minimizer"
    inside, passes = f"{top}.reduce", f"{top}.reduce.passes"
    return sorted(f"{m} -> {t}" for m, targets in graph.items() for t in targets
                  if (t == passes or t.startswith(passes + ".")) and not (m == inside or m.startswith(inside + ".")))


def test_every_fuzz_module_is_on_the_path():
    """Every module of ``minimizer.fuzz`` but its ``__init__`` is in a stage of ``FUZZ_LAYERS``."""
    fuzz = {m for m in module_graph() if m.startswith("minimizer.fuzz.")}
    assert fuzz and {m for m in fuzz if _fuzz_stage(m) is None} == set()


def test_no_fuzz_stage_imports_a_later_one():
    bad = fuzz_upward(module_graph(), KNOWN_UPWARD)
    assert not bad, "imports against FUZZ_LAYERS:\n" + "\n".join(bad)


def test_no_module_outside_reduce_imports_the_passes():
    bad = passes_from_outside(module_graph())
    assert not bad, "reduce.passes imported from outside reduce (use program.declare/extents/cuts):\n" + "\n".join(bad)


def test_the_fuzz_path_reader_sees_real_edges():
    """The readers are not blind: real imports of the source are among what they see — downward
    ones of the fuzz path, and the driver's import of the passes inside ``reduce``."""
    graph = module_graph()
    edges = fuzz_edges(graph)
    assert ("minimizer.fuzz.campaign.run", "minimizer.fuzz.store.store") in edges
    assert ("minimizer.fuzz.filing.filing", "minimizer.fuzz.store.record") in edges
    assert ("minimizer.fuzz.buglist.page", "minimizer.fuzz.judging.property") in edges
    assert "minimizer.reduce.passes" in graph["minimizer.reduce.driver"]


def test_the_fuzz_path_checks_catch_an_arrow_back(tmp_path):
    """On a made-up package: an upward import (function-local too) is caught, a downward one and a
    known one are not; the passes imported from the fuzzer are caught, from the driver not."""
    files = {
        "minimizer/__init__.py": "",
        "minimizer/fuzz/__init__.py": "",
        "minimizer/fuzz/store/__init__.py": "",
        "minimizer/fuzz/store/record.py": "def load():\n    from ..buglist import page\n",
        "minimizer/fuzz/store/findings.py": "from ..judging import keys\n",
        "minimizer/fuzz/judging/__init__.py": "",
        "minimizer/fuzz/judging/keys.py": "from ..store import record\n",
        "minimizer/fuzz/buglist/__init__.py": "",
        "minimizer/fuzz/buglist/page.py": "",
        "minimizer/fuzz/sources/__init__.py": "",
        "minimizer/fuzz/sources/mutate.py": "from ...reduce.passes.shapes import resize\n",
        "minimizer/reduce/__init__.py": "",
        "minimizer/reduce/driver.py": "from .passes import PASSES\n",
        "minimizer/reduce/passes/__init__.py": "PASSES = []\n",
        "minimizer/reduce/passes/shapes.py": "resize = None\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    graph = module_graph(tmp_path / "minimizer")
    known = {("minimizer.fuzz.store.findings", "minimizer.fuzz.judging.keys")}
    assert fuzz_upward(graph, known) == ["minimizer.fuzz.store.record -> minimizer.fuzz.buglist.page"]
    assert len(fuzz_upward(graph)) == 2
    assert passes_from_outside(graph) == ["minimizer.fuzz.sources.mutate -> minimizer.reduce.passes.shapes"]


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
