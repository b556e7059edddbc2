"""Does the memory layout of a fusion's inputs matter? (``--layout-dependent``, fuzz metamorphic)

``relayout`` gives every plain row-major input of rank >= 2 another allocation order (its two
innermost dims swapped, declared with ``stride_order`` and the matching strides in the ``inputs``
list), so the fusion computes the same function of the same logical tensors; only the layout
nvFuser sees changes. A compiler may legitimately pick other kernels for another layout, but a
different result, a failure, or a different segment count is worth a look: the fuzzer's
metamorphic oracle and this check report it.

Inputs declared in the 2022 ``contiguous=``/``sizes=`` styles, with ``False`` contiguity flags,
expanded dims or a ``stride_order`` already are left alone: their layout is the script's point.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..program.model import Program, TensorArg, is_input_decl
from .order import confirmed, outcome_key, outcome_words
from .outcome import Outcome


def _swapped_alloc(rank: int) -> tuple[int, ...]:
    return tuple(range(rank - 2)) + (rank - 1, rank - 2)


def _strides(shape, alloc) -> tuple[int, ...]:
    out, acc = [0] * len(shape), 1
    for d in reversed(alloc):
        out[d] = acc
        acc *= max(shape[d], 1)
    return tuple(out)


def _relayout_one(s, a: TensorArg):
    shape, contig = s.arg("shape"), s.arg("contiguity")
    if (s.call != "define_tensor" or not isinstance(shape, tuple) or s.has("sizes") or s.has("contiguous")
            or s.arg("stride_order") is not None or not isinstance(contig, tuple)):
        return None
    n = a.ndim
    if n < 2 or len(shape) != n or len(contig) != n or any(c is False for c in contig) or not a.is_contiguous():
        return None
    if any(st == 0 and sz != 1 for sz, st in zip(a.shape, a.strides)):
        return None
    if a.shape[-1] == 1 or a.shape[-2] == 1:   # swapping with a size-1 dim changes nothing
        return None
    alloc = _swapped_alloc(n)
    order = [0] * n
    for pos, d in enumerate(alloc):
        order[d] = n - 1 - pos
    bcast = [shape[d] == 1 for d in range(n)]
    new_contig = tuple(None if bcast[d] else True for d in alloc)
    stmt = s.with_arg("contiguity", new_contig).with_arg("stride_order", tuple(order))
    return stmt, TensorArg(a.shape, _strides(a.shape, alloc), a.dtype, a.device)


def relayout(program: Program) -> tuple[Program, list[str]] | None:
    """The program with every eligible input in the swapped layout, and the names changed; None
    if no input is eligible."""
    from ..reduce.passes.common import input_arg, replace_input
    changed = []
    for i, s in enumerate(program.stmts):
        if not is_input_decl(s):
            continue
        a = input_arg(program, i)
        if not isinstance(a, TensorArg):
            continue
        r = _relayout_one(s, a)
        if r is None:
            continue
        program = replace_input(program, i, *r)
        changed.append(s.outs[0] if s.outs else f"<input {i}>")
    return (program, changed) if changed else None


@dataclass
class LayoutResult:
    changed: list[str]
    original: Outcome | None
    outcome: Outcome | None = None
    skipped: str | None = None

    @property
    def found(self) -> bool:
        return self.outcome is not None and outcome_key(self.outcome) != outcome_key(self.original)

    def words(self) -> str:
        if self.skipped:
            return self.skipped
        what = "swapping the two innermost dims in memory of " + ", ".join(self.changed)
        if self.found:
            return f"{what} gives {outcome_words(self.outcome)} instead of {outcome_words(self.original)}"
        return f"{what} keeps {outcome_words(self.original)}"

    def to_json(self) -> dict:
        return {"found": self.found, "changed": self.changed, "original": outcome_words(self.original),
                "outcome": outcome_words(self.outcome) if self.outcome is not None else None, "words": self.words()}


def gather(text: str, path: str, seed: int, outcome: Outcome, pool) -> LayoutResult:
    """Run the relayouted program on ``pool`` (``property.evaluate``'s step for ``--layout-dependent``)."""
    from ..program import parse, to_source
    from .pool import Request
    r = relayout(parse(text, path))
    if r is None:
        return LayoutResult([], outcome, skipped="no plain input of rank >= 2 whose layout can change")
    prog, changed = r
    req = Request(to_source(prog), path, seed)
    return LayoutResult(changed, outcome, confirmed(lambda: pool.run(req), outcome))
