"""The package's layers (docs/architecture.md): every top-level module or subpackage of
``minimizer`` imports only from layers below its own, so there is no import cycle between them and
each concept can be read without the ones built on it. Imports are read from the source (static
and function-local alike), not from what happens to be loaded."""
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
    {"isolate", "check"},
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
