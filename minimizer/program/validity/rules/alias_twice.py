"""alias-twice: an input is written by one add_output at most."""
from __future__ import annotations

from ..aliasing import AliasRule, gpu_writes
from ..base import violation_at, register


@register
class AliasTwice(AliasRule):
    name = "alias-twice"
    statement = "an input is written by one add_output at most: two writes into one buffer have no order"
    order = 50

    def static(self, program, facts, at):
        return [violation_at(program, writes[1], self.name, f"{name} is written by {len(writes)} outputs")
                for name, writes in gpu_writes(program, at).items() if len(writes) > 1]
