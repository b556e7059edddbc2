"""Rename (cosmetic, last): canonical names in statement order, in the frontend's style, so that
equal programs print equal and a reader sees ``T0, T1, S2, ...`` without gaps. Legacy scripts
number all values with one counter (``T0``, ``S1``, ``V2``: nvFuser's repro style); direct scripts
count tensors (``tv0``...) and scalars (``c0``...) separately. Every binding gets a name of its
own, so rebinding (``T7 = fd.ops.segment_set(T7)``) disappears. One candidate, a fixpoint.
"""
from __future__ import annotations

import dataclasses

from ...model import LEGACY, map_refs
from .base import Candidates, Pass
from ...program.declare import kind_of, prefix


def canonical_names(program, info) -> list[tuple[str | None, ...]]:
    """The new ``outs`` of every statement."""
    shared = program.dialect.frontend == LEGACY
    counters: dict[str, int] = {}
    out = []
    for i, s in enumerate(program.stmts):
        names = []
        for n in s.outs:
            if n is None:
                names.append(None)
                continue
            p = prefix(program, kind_of(info.value(i, n)))
            key = "" if shared else p
            k = counters.get(key, 0)
            counters[key] = k + 1
            names.append(f"{p}{k}")
        out.append(tuple(names))
    return out


def cost(program, info) -> int:
    """How many bindings do not have their canonical name (0 where the static check could not
    tell every value's kind: a program fmin's reference rejects keeps its names)."""
    if info is not None and not getattr(info, "complete", True):
        return 0
    new = canonical_names(program, info)
    return sum(1 for s, ns in zip(program.stmts, new) for a, b in zip(s.outs, ns) if a != b)


def rename(program, info):
    new = canonical_names(program, info)
    env: dict[str, str] = {}
    stmts = []
    for s, ns in zip(program.stmts, new):
        args = tuple((k, map_refs(v, lambda r: dataclasses.replace(r, name=env.get(r.name, r.name))))
                     for k, v in s.args)
        stmts.append(dataclasses.replace(s, args=args, outs=ns))
        for a, b in zip(s.outs, ns):
            if a is not None:
                env[a] = b
    return program.replace(stmts=tuple(stmts))


class Rename(Pass):
    name = "rename"
    cosmetic = True

    def candidates(self, program, info, start=0) -> Candidates:
        if start == 0 and cost(program, info) > 0:
            yield 0, rename(program, info)
