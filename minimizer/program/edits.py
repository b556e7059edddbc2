"""Def-use facts about a Program and the edits every pass is built from.

Names may be bound more than once (``T7 = fd.ops.segment_set(T7)``), so a use refers to the
latest binding before it; everything here works on statement positions, not bare names. Edits
keep a program well formed: removing an input declaration removes its ``inputs`` entry, dead
statements disappear with ``dce``, and replaced uses stop at a rebinding.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..model import InputArg, Program, Ref, Stmt, is_input_decl, map_refs


@dataclass(frozen=True)
class Binding:
    stmt: int        # index of the statement that binds the name
    name: str


def definitions(program: Program) -> list[dict[str, int]]:
    """For each statement i, the map name -> index of the statement whose binding it sees."""
    seen: dict[str, int] = {}
    out = []
    for i, s in enumerate(program.stmts):
        out.append(dict(seen))
        for n in s.outs:
            if n is not None:
                seen[n] = i
    return out


def final_bindings(program: Program) -> dict[str, int]:
    """Name -> index of the statement whose binding a statement appended at the end would see."""
    seen: dict[str, int] = {}
    for i, s in enumerate(program.stmts):
        for n in s.outs:
            if n is not None:
                seen[n] = i
    return seen


def producers(program: Program) -> list[list[int]]:
    """For each statement, the indices of the statements producing the values it uses."""
    defs = definitions(program)
    return [[defs[i][n] for n in s.uses() if n in defs[i]] for i, s in enumerate(program.stmts)]


def users(program: Program) -> dict[int, list[int]]:
    """Statement index -> indices of the statements that use one of its results."""
    out: dict[int, list[int]] = {i: [] for i in range(len(program.stmts))}
    for i, ps in enumerate(producers(program)):
        for p in set(ps):
            out[p].append(i)
    return out


def live(program: Program) -> set[int]:
    """Statements an output depends on (outputs included)."""
    prods = producers(program)
    keep = {i for i, s in enumerate(program.stmts) if s.is_output}
    todo = list(keep)
    while todo:
        i = todo.pop()
        for p in prods[i]:
            if p not in keep:
                keep.add(p)
                todo.append(p)
    return keep


def tensor_components(program: Program, info) -> list[set[int]]:
    """The live statements grouped by what joins them through *tensor* values (def-use, both
    ways; shared scalar constants do not join two pieces): one set per connected piece of the
    fusion. ``info`` is the program's static check (it knows which values are tensors)."""
    def is_tensor_value(j: int, name: str) -> bool:
        v = info.value(j, name) if info is not None else None
        return v is None or hasattr(v, "shape")

    # statements that make only host values (constants, scalar arithmetic, size queries) belong
    # to no piece: a constant used on both sides must not join them
    keep = {i for i in live(program)
            if program.stmts[i].is_output or not program.stmts[i].outs
            or any(n is not None and is_tensor_value(i, n) for n in program.stmts[i].outs)}
    parent = {i: i for i in keep}

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    defs = definitions(program)
    for i in keep:
        s = program.stmts[i]
        for name in s.uses():
            j = defs[i].get(name)
            if j is None or j not in keep or not is_tensor_value(j, name):
                continue
            parent[find(i)] = find(j)
    groups: dict[int, set[int]] = {}
    for i in keep:
        groups.setdefault(find(i), set()).add(i)
    return sorted(groups.values(), key=min)


def upstream(program: Program, i: int) -> set[int]:
    """Statements that statement ``i`` depends on, transitively (``i`` itself excluded)."""
    prods = producers(program)
    seen: set[int] = set()
    todo = list(prods[i])
    while todo:
        k = todo.pop()
        if k not in seen:
            seen.add(k)
            todo.extend(prods[k])
    return seen


def input_slots(program: Program) -> dict[int, list[int]]:
    """Input declaration index -> the positions of its values in the ``inputs`` list."""
    out, k = {}, 0
    for i, s in enumerate(program.stmts):
        if s.is_vector_def and isinstance(s.arg("values"), int):
            out[i] = list(range(k, k + s.arg("values")))
            k += s.arg("values")
        elif is_input_decl(s):
            out[i] = [k]
            k += 1
    return out


def remove_stmts(program: Program, drop: set[int]) -> Program:
    """Drop statements (and, for input declarations, their ``inputs`` entries)."""
    if not drop:
        return program
    slots = input_slots(program)
    gone = {k for i in drop for k in slots.get(i, [])}
    stmts = tuple(s for i, s in enumerate(program.stmts) if i not in drop)
    inputs = program.inputs
    if inputs is not None and gone:
        inputs = tuple(a for k, a in enumerate(inputs) if k not in gone)
    return program.replace(stmts=stmts, inputs=inputs)


def dce(program: Program) -> Program:
    """Remove every statement no output depends on, unused inputs included."""
    keep = live(program)
    return remove_stmts(program, set(range(len(program.stmts))) - keep)


def replace_uses(program: Program, at: int, name: str, value) -> Program:
    """Replace uses of the binding of ``name`` made by statement ``at`` with ``value`` (a Ref or
    a constant), in the statements after it up to the next rebinding of ``name``."""
    stmts = list(program.stmts)
    for j in range(at + 1, len(stmts)):
        s = stmts[j]
        if name in s.uses():
            args = tuple((k, map_refs(v, lambda r: value if r.name == name else r)) for k, v in s.args)
            stmts[j] = dataclasses.replace(s, args=args)
        if name in s.outs:
            break
    return program.replace(stmts=tuple(stmts))


def insert_input(program: Program, at: int, stmt: Stmt, arg: InputArg) -> Program:
    """Insert an input declaration as statement ``at`` with its value at the matching place of
    the ``inputs`` list (inputs follow declaration order)."""
    k = sum(len(v) for i, v in input_slots(program).items() if i < at)
    stmts = program.stmts[:at] + (stmt,) + program.stmts[at:]
    inputs = program.inputs[:k] + (arg,) + program.inputs[k:] if program.inputs is not None else None
    return program.replace(stmts=stmts, inputs=inputs)


def fresh_name(program: Program, prefix: str) -> str:
    taken = {n for s in program.stmts for n in s.outs if n}
    k = 0
    while f"{prefix}{k}" in taken:
        k += 1
    return f"{prefix}{k}"


def size(program: Program) -> tuple[int, int, int]:
    """(ops, inputs, outputs): what a reduction makes smaller, most important first."""
    return (program.n_ops(), len(program.input_stmts()), len(program.output_stmts()))


def smaller(program: Program, cand: Program) -> bool:
    """Whether a candidate, once dead code is gone, is smaller by the driver's size order."""
    return size(dce(cand)) < size(program)


def replace_input(program: Program, decl: int, stmt: Stmt | None, arg) -> Program:
    """Replace the declaration at ``decl`` (a one-value input) and/or its ``inputs`` entry."""
    stmts = list(program.stmts)
    if stmt is not None:
        stmts[decl] = stmt
    inputs = program.inputs
    if arg is not None and inputs is not None:
        k = input_slots(program)[decl][0]
        inputs = inputs[:k] + (arg,) + inputs[k + 1:]
    return program.replace(stmts=tuple(stmts), inputs=inputs)


def input_arg(program: Program, decl: int):
    """The ``inputs`` entry of the one-value input declared at statement ``decl`` (None for a
    legacy ``define_vector(size)`` or a script without an inputs list)."""
    slots = input_slots(program).get(decl)
    if not slots or len(slots) != 1 or program.inputs is None:
        return None
    return program.inputs[slots[0]]


__all__ = ["Binding", "definitions", "final_bindings", "producers", "users", "live", "upstream", "input_slots",
           "remove_stmts", "dce", "replace_uses", "insert_input", "replace_input", "input_arg", "tensor_components",
           "fresh_name", "size", "smaller", "Ref"]
