"""alias-shape: an input written by an output has that output's shape, one element per index."""
from __future__ import annotations

from ..aliasing import AliasRule, gpu_writes, written_values
from ..base import violation_at, register
from ..reading import input_strides


@register
class AliasShape(AliasRule):
    name = "alias-shape"
    statement = ("an input written by an output has that output's shape, one element per index (no "
                 "expanded, stride-0 dim): the write is an element-by-element copy into its memory")
    order = 40
    needs = frozenset({"static", "definitions"})

    def static(self, program, facts, at):
        found = []
        for i in sorted(i for writes in gpu_writes(program, at).values() for i in writes):
            written = written_values(program, facts, i)
            why = self._why(program, *written) if written is not None else None
            if why:
                found.append(violation_at(program, i, self.name, why))
        return found

    @staticmethod
    def _why(program, out, name, v, t) -> str | None:
        if tuple(v.shape) != tuple(t.shape):
            return f"{out} {list(v.shape)} is written into {name} {list(t.shape)}"
        if any(st == 0 and n > 1 for st, n in zip(input_strides(program, name), t.shape)):
            return f"{out} is written into {name}, whose memory has an expanded (stride 0) dim"
        return None
