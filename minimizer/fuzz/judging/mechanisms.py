"""Known mechanisms of wrong results: a cause told from a minimal program's structure, whatever ops surround it.

A wrong result's key names its minimal repro's ops (``keys.mismatch_key``), which is right while
fmin knows nothing better: two repros of other ops are two rows until a person says otherwise.
Where a maintainer has said it — a ``var`` over a reduction's output divides by the extent that
reduction removed, however the reduction is spelled (``max``, ``welford``, ``sum``); an output
written in place into a non-contiguous input comes back wrong whatever computed it, the bug
tracked upstream as NVIDIA/Fuser#5356 — the repro's structure says which cause it is, and the key
names that mechanism instead of the ops (``BucketKey.mechanism``), with the upstream issue where
one is known (``BucketKey.upstream``). So the rows of one cause become one row, and the next repro
of it, with ops no earlier one had, joins that row.

A mechanism is read from the *minimal* program only (``keys.bucket_key`` with ``minimized``): a
generated program's dozen ops hold a ``var`` of a ``sum`` by chance, a minimal repro holds it
because the bug needs it. A program that breaks a validity rule gets none: its wrong result is the
rule's (``keys.broken_rules``), not the compiler's.

``MECHANISMS`` is the table of known causes (their words, the difference they explain, the issue
upstream); a new one is an entry here with the structure that shows it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...model import Program, Ref
from ...ops import CATALOG
from ...program.edits import definitions

#: ops whose result holds its operand's values (a copy, a cast): a reduction's output read
#: through them is still that output
_SEE_THROUGH = frozenset(s.name for k, s in CATALOG.items()
                         if k.startswith("ops.") and s.tags & {"copy", "dtype-cast"})
#: reductions: ops whose output drops (or keeps as 1) the dimensions they reduce
_REDUCTIONS = frozenset(s.name for k, s in CATALOG.items() if k.startswith("ops.") and s.family == "reduction")
#: the variance ops
_VARIANCE = frozenset({"var", "var_mean"})


@dataclass(frozen=True)
class Mechanism:
    """One known cause: the key's words for it, the kind of difference it explains (``values``,
    ``aliasing``), the issue that tracks it upstream (None: none known) and the structure of a
    minimal program that shows it."""
    words: str
    difference: str
    upstream: str | None
    shown_by: Callable[[Program], bool]


def _producer(program: Program, at: int, ref) -> int | None:
    """The index of the statement whose binding ``ref`` (a ``Ref`` read by statement ``at``) sees."""
    if not isinstance(ref, Ref):
        return None
    return definitions(program)[at].get(ref.name)


def _reads_a_reduction(program: Program, at: int) -> bool:
    """Does statement ``at`` read, directly or through copies and casts, a reduction's output?"""
    i = _producer(program, at, program.stmts[at].arg("arg"))
    while i is not None:
        s = program.stmts[i]
        if s.op in _REDUCTIONS:
            return True
        if s.op not in _SEE_THROUGH:
            return False
        first = next((v for _, v in s.args if isinstance(v, Ref)), None)
        i = _producer(program, i, first)
    return False


def variance_of_a_reduction(program: Program) -> bool:
    """A ``var`` or ``var_mean`` whose operand is a reduction's output."""
    return any(s.op in _VARIANCE and _reads_a_reduction(program, i) for i, s in enumerate(program.stmts))


def _not_row_major(decl) -> bool:
    """Is the tensor ``decl`` defines laid out other than contiguous row-major: a dimension marked
    non-contiguous (``contiguity`` False), or an allocation order other than the logical one
    (``stride_order`` not descending, as a transposed tensor has)?"""
    contiguity = decl.arg("contiguity")
    if contiguity is False or (isinstance(contiguity, tuple) and False in contiguity):
        return True
    order = decl.arg("stride_order")
    return isinstance(order, tuple) and list(order) != sorted(order, reverse=True)


def written_into_a_strided_input(program: Program) -> bool:
    """An output written in place (``add_output(v, alias_input)``) into a fusion input that is
    not contiguous row-major."""
    for i, s in enumerate(program.stmts):
        if not s.is_output:
            continue
        j = _producer(program, i, s.arg("alias_input"))
        if j is not None and program.stmts[j].is_tensor_decl and _not_row_major(program.stmts[j]):
            return True
    return False


VARIANCE_OF_REDUCTION = Mechanism("var of a reduction output divides by the reduced extent", "values", None,
                                  variance_of_a_reduction)
STRIDED_INPLACE_WRITE = Mechanism("an output written in place into a non-contiguous input", "aliasing",
                                  "NVIDIA/Fuser#5356", written_into_a_strided_input)

#: the known mechanisms, first match wins
MECHANISMS: tuple[Mechanism, ...] = (VARIANCE_OF_REDUCTION, STRIDED_INPLACE_WRITE)


def mechanism_of(program: Program | None, difference: str) -> Mechanism | None:
    """The known mechanism a minimal ``program`` whose outputs differ by ``difference`` shows, or None."""
    if program is None:
        return None
    return next((m for m in MECHANISMS if m.difference == difference and m.shown_by(program)), None)


__all__ = ["Mechanism", "MECHANISMS", "VARIANCE_OF_REDUCTION", "STRIDED_INPLACE_WRITE", "mechanism_of",
           "variance_of_a_reduction", "written_into_a_strided_input"]
