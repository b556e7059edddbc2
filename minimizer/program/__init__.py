"""The program model (``model``), reading scripts (``reader``), writing them (``printer``) and the
reference semantics of a fusion body (``interpret``).

``parse``/``to_source`` are loaded lazily: the op catalog imports the model, and the parser
imports the op catalog.
"""
from .model import (DIRECT, LEGACY, Dialect, DType, Origin, Program, Ref, ScalarArg, Stmt, TensorArg,
                    is_input_decl)

__all__ = ["DIRECT", "LEGACY", "Dialect", "DType", "Origin", "Program", "Ref", "ScalarArg", "Stmt",
           "TensorArg", "is_input_decl", "parse", "parse_file", "to_source"]


def __getattr__(name):
    if name in ("parse", "parse_file"):
        import importlib
        return getattr(importlib.import_module(__name__ + ".reader"), name)
    if name == "to_source":
        from .printer import to_source
        return to_source
    raise AttributeError(name)
