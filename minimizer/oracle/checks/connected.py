"""``--connected``: the fusion is one connected piece.

A reduction under a segment-count property can end in pieces that have nothing to do with each
other (a reshape of one input beside a slice of another): each piece makes a segment, together
they meet the count, and the result explains nothing. Connected means every live statement is
joined to every other through tensor values (shared scalar constants do not join); judged on the
program alone, before any run. Part of the default property of a segmented original that is
itself connected.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Check, Missing, Trial, register


def pieces(program, info) -> int:
    from ...program.edits import tensor_components
    return len(tensor_components(program, info))


@register
@dataclass(frozen=True)
class Connected(Check):
    name: ClassVar[str] = "connected"
    order: ClassVar[int] = 5
    needs_outcome: ClassVar[bool] = False

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--connected", action="store_true",
                       help="the fusion stays one connected piece (through tensors; judged before running)")

    @classmethod
    def from_args(cls, args):
        return cls() if getattr(args, "connected", False) else None

    def static(self, program, info):
        n = pieces(program, info)
        return (True, "one connected fusion") if n == 1 else (False, f"{n} unconnected pieces")

    def gather(self, trial: Trial):
        try:
            return pieces(trial.program, trial.info)
        except Exception as e:
            return Missing(f"cannot tell whether it is connected: {type(e).__name__}: {e}")

    def holds(self, o, evidence=None):
        if not isinstance(evidence, int):
            return False, "not judged"
        return (True, "one connected fusion") if evidence == 1 else (False, f"{evidence} unconnected pieces")

    def describe(self):
        return "one connected fusion"
