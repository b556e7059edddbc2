"""The op catalog: one ``OpSpec`` per ``fd`` call, the single table that the parser, the
backends, the passes and the fuzzer read. Family modules register their entries on import."""
from __future__ import annotations

from .spec import BOTH, DIRECT_ONLY, LEGACY_ONLY, REQUIRED, Bound, BindError, Ctx, OpSpec, Param, bind, literal_value
from .registry import CATALOG, FAMILIES, lookup, op_names, register

# importing the family modules fills CATALOG
from . import define, elementwise, reductions, shape, indexing, creation, linalg, scans, norm  # noqa: E402,F401

__all__ = ["BOTH", "DIRECT_ONLY", "LEGACY_ONLY", "REQUIRED", "Bound", "BindError", "Ctx", "OpSpec",
           "Param", "bind", "literal_value", "CATALOG", "FAMILIES", "lookup", "op_names", "register"]
