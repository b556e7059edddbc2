"""alias-twice: an input is written by one add_output at most, and an output into one input."""
from __future__ import annotations

from ..aliasing import AliasRule, gpu_writes
from ..base import violation_at, register


@register
class AliasTwice(AliasRule):
    name = "alias-twice"
    statement = ("an input is written by one add_output at most, and a value into one input at most: two "
                 "writes into one buffer have no order, and nvFuser keeps one alias per output (a second "
                 "input for the same output replaces the first, which is then never written)")
    order = 50

    def static(self, program, facts, at):
        writes = gpu_writes(program, at)
        found = [(ws[1], f"{name} is written by {len(ws)} outputs") for name, ws in writes.items() if len(ws) > 1]
        into: dict[str, list[tuple[int, str]]] = {}
        for name, ws in writes.items():
            for i in ws:
                into.setdefault(self._written(program, i), []).append((i, name))
        for value, targets in into.items():
            targets.sort()
            inputs = sorted({name for _, name in targets})
            if value is not None and len(inputs) > 1:   # at the first write into another input
                second = next(i for i, name in targets if name != targets[0][1])
                found.append((second, f"{value} is written into {len(inputs)} inputs ({', '.join(inputs)})"))
        return [violation_at(program, i, self.name, why) for i, why in sorted(found)]

    @staticmethod
    def _written(program, i: int) -> str | None:
        """The name of the value statement ``i`` writes (None: not a named value)."""
        out = program.stmts[i].arg("output")
        return getattr(out, "name", None)
