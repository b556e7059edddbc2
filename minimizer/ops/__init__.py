"""The op catalog: one ``OpSpec`` per ``fd`` call, the single table that the parser, the
backends, the passes and the fuzzer read. Family modules register their entries on import."""
from __future__ import annotations

from .dims import NOT_FOLLOWED, POINTWISE, DimRule, NotFollowed, Reach
from .spec import (BOTH, DIRECT_ONLY, GEN_CATEGORIES, LEGACY_ONLY, REQUIRED, Bound, BindError, Ctx, Gen,
                   OpSpec, Param, ValueParam, Drawn, bind, generated, literal_value, not_generated)
from .registry import CATALOG, FAMILIES, lookup, op_names, register

# importing the family modules fills CATALOG
from . import define, elementwise, reductions, shape, indexing, creation, linalg, grouped, scans, norm, quantize  # noqa: E402,F401

__all__ = ["NOT_FOLLOWED", "POINTWISE", "DimRule", "NotFollowed", "Reach", "BOTH", "DIRECT_ONLY", "GEN_CATEGORIES",
           "LEGACY_ONLY", "REQUIRED", "Bound", "BindError", "Ctx", "Gen", "OpSpec", "Param", "ValueParam", "Drawn", "bind", "generated",
           "literal_value", "not_generated", "CATALOG", "FAMILIES", "lookup", "op_names", "register"]
