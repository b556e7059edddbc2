"""``--layout-dependent``: does the memory layout of a fusion's inputs matter?

``program.variants.relayout`` gives every plain row-major input of rank >= 2 another allocation
order (its two innermost dims swapped), so the fusion computes the same function of the same
logical tensors; a failure or a different segmentation for that layout is worth a look.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...program.variants import relayout
from ..outcome import Outcome, boundary_change, confirmed, outcome_key, outcome_words
from .base import Check, Missing, Trial, register


@dataclass
class LayoutResult:
    changed: list[str]
    original: Outcome | None
    outcome: Outcome | None = None
    skipped: str | None = None
    program: object = None         # the relayouted program and its text (the fuzzer files a failing one)
    text: str | None = None

    @property
    def found(self) -> bool:
        return self.outcome is not None and outcome_key(self.outcome) != outcome_key(self.original)

    def words(self) -> str:
        if self.skipped:
            return self.skipped
        what = "swapping the two innermost dims in memory of " + ", ".join(self.changed)
        if self.found:
            change = boundary_change(self.original, self.outcome)
            return (f"{what} gives {outcome_words(self.outcome)} instead of {outcome_words(self.original)}"
                    + (f": {change}" if change else ""))
        return f"{what} keeps {outcome_words(self.original)}"

    def to_json(self) -> dict:
        return {"found": self.found, "changed": self.changed, "original": outcome_words(self.original),
                "outcome": outcome_words(self.outcome) if self.outcome is not None else None, "words": self.words()}


def gather_layout(trial: Trial) -> "LayoutResult | Missing":
    from ...program import to_source
    try:
        r = relayout(trial.program)
    except Exception as e:   # a script the model cannot relayout: say so rather than fail the run
        return Missing(f"could not change the input layouts: {type(e).__name__}: {e}")
    if r is None:
        return LayoutResult([], trial.outcome, skipped="no plain input of rank >= 2 whose layout can change")
    prog, changed = r
    text = to_source(prog)
    return LayoutResult(changed, trial.outcome, confirmed(lambda: trial.run(text=text), trial.outcome),
                        program=prog, text=text)


@register
@dataclass(frozen=True)
class LayoutDependent(Check):
    """Giving the plain inputs another memory layout (same logical values) changes the outcome:
    status/signature, segment count or scheduler multiset."""
    name: ClassVar[str] = "layout-dependent"
    reads_segments: ClassVar[bool] = True
    order: ClassVar[int] = 62
    cost: ClassVar[int] = 4

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--layout-dependent", action="store_true",
                       help="the outcome changes when the plain inputs of rank >= 2 get another memory layout "
                            "(their two innermost dims swapped in memory; same logical values)")

    @classmethod
    def from_args(cls, args):
        return cls() if getattr(args, "layout_dependent", False) else None

    def gather(self, trial: Trial):
        return gather_layout(trial) if trial.outcome is not None else None

    def holds(self, o, evidence=None):
        if not isinstance(evidence, LayoutResult):
            return False, "no relayouted run"
        return evidence.found, evidence.words()

    def describe(self):
        return "the outcome depends on the inputs' memory layout"
