"""The catalog table itself, separate from the entries so that family modules can register."""
from __future__ import annotations

from .spec import OpSpec

CATALOG: dict[str, OpSpec] = {}
FAMILIES = ("define", "unary", "binary", "ternary", "reduction", "scan", "shape", "index",
            "creation", "random", "matmul", "attention", "norm", "special")


def register(spec: OpSpec) -> OpSpec:
    assert spec.family in FAMILIES, (spec.name, spec.family)
    key = spec.name if spec.family == "define" else "ops." + spec.name
    assert key not in CATALOG, f"duplicate catalog entry {key}"
    CATALOG[key] = spec
    return spec


def lookup(call: str) -> OpSpec | None:
    """The spec for ``define_tensor``/``add_output``/... or ``ops.<name>``; None if unknown."""
    return CATALOG.get(call)


def op_names(family: str | None = None) -> list[str]:
    """Names of ``fd.ops`` entries, optionally of one family, in registration order."""
    return [s.name for k, s in CATALOG.items()
            if k.startswith("ops.") and (family is None or s.family == family)]
