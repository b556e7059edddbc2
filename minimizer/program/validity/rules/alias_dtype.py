"""alias-dtype: an input written by an output has that output's dtype."""
from __future__ import annotations

from ..aliasing import AliasRule, gpu_writes, written_values
from ..base import violation_at, register
from ..reading import dtype_name


@register
class AliasDtype(AliasRule):
    name = "alias-dtype"
    statement = ("an input written by an output has that output's dtype: nvFuser checks none and writes "
                 "the value's bytes into the input's buffer")
    order = 30
    needs = frozenset({"static", "definitions"})

    def static(self, program, facts, at):
        found = []
        for i in sorted(i for writes in gpu_writes(program, at).values() for i in writes):
            written = written_values(program, facts, i)
            if written is not None and written[2].dtype != written[3].dtype:
                out, name, v, t = written
                found.append(violation_at(program, i, self.name, f"{out} ({dtype_name(v)}) is written into "
                                                                 f"{name} ({dtype_name(t)})"))
        return found
