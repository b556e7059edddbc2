"""alias-not-input: an output is written only into a fusion input."""
from __future__ import annotations

from ..aliasing import AliasRule, fusion_inputs, written_input
from ..base import violation_at, register


@register
class AliasNotInput(AliasRule):
    name = "alias-not-input"
    statement = ("an output is written (add_output(out, alias_input)) only into a fusion input: "
                 "nvFuser's aliasOutputToInput asserts 'alias source can only be a fusion input'")
    order = 10

    def static(self, program, facts, at):
        inputs = fusion_inputs(program)
        return [violation_at(program, i, self.name, f"{program.stmts[i].arg('output')} is written into {name}, "
                                                    f"which is not a fusion input")
                for i in at for name, where in [written_input(program, i, inputs)] if where == "not-input"]
