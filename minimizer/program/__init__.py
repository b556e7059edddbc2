"""Reading scripts (``reader``), writing them (``printer``), the reference semantics of a fusion
body (``interpret``), the edits every rewrite is built from (``edits``) and the static check
(``static``). The values they work on live in ``minimizer.model``; the op catalog
(``minimizer.ops``) sits between the two, so nothing here is imported by the catalog.
"""
from ..model import (DIRECT, LEGACY, Dialect, DType, Origin, Program, Ref, ScalarArg, Stmt, TensorArg,
                     is_input_decl)
from .printer import to_source
from .reader import parse, parse_file

__all__ = ["DIRECT", "LEGACY", "Dialect", "DType", "Origin", "Program", "Ref", "ScalarArg", "Stmt",
           "TensorArg", "is_input_decl", "parse", "parse_file", "to_source"]
