"""Helpers shared by the passes that the program model has no use for: whether names are bound
once, and where the input declarations are. What a value is, its names in the script's style
and declaring an input for it are the program model's (``program.declare``)."""
from __future__ import annotations

from ...model import Program, is_input_decl


def bound_once(program: Program) -> bool:
    """Every name is bound by one statement only (no ``T7 = f(T7)``)."""
    seen: set[str] = set()
    for s in program.stmts:
        for n in s.outs:
            if n is None:
                continue
            if n in seen:
                return False
            seen.add(n)
    return True


def input_decls(program: Program) -> list[int]:
    return [i for i, s in enumerate(program.stmts) if is_input_decl(s)]
