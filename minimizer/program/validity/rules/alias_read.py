"""alias-read: an input written by an output is read only where it is written."""
from __future__ import annotations

from ....model import Ref
from ..aliasing import AliasRule, computed_from, gpu_writes
from ..base import violation_at, register


@register
class AliasRead(AliasRule):
    name = "alias-read"
    statement = ("an input written by an output is read only where it is written: the written value is "
                 "computed from it and everything computed from it is elementwise, of its shape "
                 "(batch norm's running statistics); a reduction, broadcast, shape op, matmul, scan or "
                 "segment_set reading it, or a write of a value not computed from it, may see elements "
                 "already overwritten by another thread or segment: nvFuser does not order them")
    order = 60
    needs = frozenset({"static"})

    def static(self, program, facts, at):
        found = []
        for name, writes in gpu_writes(program, at).items():
            why = self._why(program, facts["static"], name, [program.stmts[k].arg("output") for k in writes])
            if why:
                found.append(violation_at(program, writes[0], self.name, why))
        return found

    @staticmethod
    def _why(program, info, name: str, written) -> str | None:
        """Why input ``name``, written by the outputs ``written``, is read where the write may race
        the read (None: it is not read, or only by an elementwise computation of the written value)."""
        names, bad = computed_from(program, info, name)
        if bad:
            return bad
        if len(names) > 1 and not any(isinstance(w, Ref) and w.name in names and w.name != name for w in written):
            return f"{name} is read by the fusion and written with a value not computed from it"
        return None
