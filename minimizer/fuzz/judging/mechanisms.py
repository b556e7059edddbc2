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

A mechanism is read from the *minimal* program (``keys.bucket_key`` with ``minimized``): a
generated program's dozen ops hold a ``var`` of a ``sum`` by chance, a minimal repro holds it
because the bug needs it. Some structure is pinned down before a reduction too, by the tensor the
run names wrong: an input written in place (``input K (after execute)``) or an output holding the
value written in place — the write is known, so are the layout it writes into and the op that made
its value; an output computed from a read of an input written beside it (``Mechanism.shown_in_place``). A program that breaks a validity rule gets none: its wrong
result is the rule's (``keys.broken_rules``), not the compiler's.

``MECHANISMS`` is the table of known causes (their words, the difference they explain, the issue
upstream); a new one is an entry here with the structure that shows it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ...model import Program, Ref, is_input_decl, refs_in
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
#: ops nvFuser evaluates on the host with ATen (its expression evaluator), not in a kernel
_HOST_EVALUATED = frozenset(s.name for k, s in CATALOG.items() if k.startswith("ops.") and "host-evaluated" in s.tags)


@dataclass(frozen=True)
class Mechanism:
    """One known cause: the key's words for it, the kind of difference its key says
    (``difference``: ``values``, ``aliasing``) and every kind it explains (``explains``: an in-place
    write that goes wrong may show in the input written or in an output holding the same value),
    the issue that tracks it upstream (None: none known), the structure of a minimal program that
    shows it, and (``shown_in_place``, None: never) the structure that shows it in any program,
    given the tensor its run names wrong (``wrong_tensor``)."""
    words: str
    difference: str
    upstream: str | None
    shown_by: Callable[[Program], bool]
    explains: frozenset = frozenset()
    shown_in_place: Callable[[Program, tuple[str, int]], bool] | None = None

    def explains_difference(self, what: str) -> bool:
        return what == self.difference or what in self.explains


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
    if isinstance(order, tuple) and list(order) != sorted(order, reverse=True):
        return True
    return _gapped(decl.arg("sizes"), decl.arg("strides"))


def _gapped(sizes, strides) -> bool:
    """Do explicit ``sizes``/``strides`` (``define_tensor(sizes=[8], strides=[16])``, from which
    nvFuser derives the contiguity) leave a gap or another order than row-major? Extent-1 and
    expanded (stride 0) dims say nothing about it."""
    if not (isinstance(sizes, tuple) and isinstance(strides, tuple)) or len(sizes) != len(strides):
        return False
    expected = 1
    for n, st in reversed(list(zip(sizes, strides))):
        if not isinstance(n, int) or not isinstance(st, int) or n == 1 or st == 0:
            continue
        if st != expected:
            return True
        expected *= n
    return False


def _writes(program: Program) -> list[int]:
    """The ``add_output(v, alias_input)`` statements: the in-place writes."""
    return [i for i, s in enumerate(program.stmts) if s.is_output and isinstance(s.arg("alias_input"), Ref)]


def strided_write(program: Program, at: int) -> bool:
    """Does the in-place write at statement ``at`` write into a fusion input that is not
    contiguous row-major?"""
    j = _producer(program, at, program.stmts[at].arg("alias_input"))
    return j is not None and program.stmts[j].is_tensor_decl and _not_row_major(program.stmts[j])


def written_into_a_strided_input(program: Program) -> bool:
    """An output written in place (``add_output(v, alias_input)``) into a fusion input that is
    not contiguous row-major."""
    return any(strided_write(program, i) for i in _writes(program))


def host_evaluated_write(program: Program, at: int) -> bool:
    """Is the value the in-place write at ``at`` writes the result of an op nvFuser evaluates on
    the host with ATen (catalog tag ``host-evaluated``: ``linear``, ``matmul``, ``sdpfa_fwd`` ...),
    not one a generated kernel computes?"""
    j = _producer(program, at, program.stmts[at].arg("output"))
    return j is not None and program.stmts[j].op in _HOST_EVALUATED


def host_evaluated_written_in_place(program: Program) -> bool:
    """An op nvFuser evaluates on the host, its result written in place into a fusion input."""
    return any(host_evaluated_write(program, i) for i in _writes(program))


def _ancestors(program: Program, at: int, ref) -> set[int]:
    """The statements whose results the value ``ref`` (read by statement ``at``) is computed from,
    its own producer included."""
    defs = definitions(program)
    todo, seen = [(at, ref)], set()
    while todo:
        k, r = todo.pop()
        j = defs[k].get(r.name) if isinstance(r, Ref) else None
        if j is None or j in seen:
            continue
        seen.add(j)
        todo += [(j, v) for v in _refs(program.stmts[j])]
    return seen


def _reads_beside(program: Program, among=None) -> list[int]:
    """The ops (of ``among``; None: all) that read a fusion input written in place by a write
    whose value they do not feed: reads nvFuser must order before that write."""
    defs = definitions(program)
    out = []
    for w in _writes(program):
        target = program.stmts[w].arg("alias_input")
        source = _ancestors(program, w, program.stmts[w].arg("output"))
        for i, s in enumerate(program.stmts):
            if not s.is_op or i in source or (among is not None and i not in among):
                continue
            if any(r.name == target.name and defs[i].get(r.name) == defs[w].get(target.name) for r in _refs(s)):
                out.append(i)
    return out


def _refs(s) -> list[Ref]:
    """The values statement ``s`` reads, in lists too (``cat``'s tensors)."""
    return [r for _, v in s.args for r in refs_in(v)]


def read_beside_a_write(program: Program) -> bool:
    """A fusion input written in place and also read by an op that the written value is not
    computed from: a read nvFuser must order before the write (``segment_inplace_update``), so a
    wrong result of that read is the write seen too early."""
    return bool(_reads_beside(program))


#: the first tensor a wrong result's words name: ``output 1 (...)`` or ``input 0 (after execute)``
_WRONG = re.compile(r"^[^:]*: (output|input) (\d+)(?= \(after execute\)| \(|:)")


def mechanism_of(program: Program | None, difference: str, *, minimal: bool = True,
                 words: str | None = None) -> Mechanism | None:
    """The known mechanism ``program`` shows, whose outputs differ by ``difference``, or None.
    A ``minimal`` program shows any mechanism its structure holds; another (a generated program,
    not yet reduced) only one that its wrong tensor, the one ``words`` (the finding's) name
    first, pins down (``shown_in_place``)."""
    if program is None:
        return None
    if minimal:
        return next((m for m in MECHANISMS if m.explains_difference(difference) and m.shown_by(program)), None)
    wrong = wrong_tensor(program, words)
    if wrong is None:
        return None
    return next((m for m in MECHANISMS if m.shown_in_place is not None and m.explains_difference(difference)
                 and m.shown_in_place(program, wrong)), None)


def wrong_tensor(program: Program, words: str | None) -> tuple[str, int] | None:
    """(``"input"``, its declaration's index) or (``"output"``, its ``add_output``'s index): the
    tensor ``words`` name first as wrong (``... differ from the reference: output 1 (float32[8]):
    ...``; inputs and outputs numbered as ``fd.execute`` takes and returns them), or None."""
    m = _WRONG.search(words or "")
    if m is None:
        return None
    k = int(m.group(2))
    if m.group(1) == "input":
        at = [i for i, s in enumerate(program.stmts) if is_input_decl(s)]
    else:
        at = [i for i, s in enumerate(program.stmts) if s.is_output and s.arg("alias_input") is None]
    return (m.group(1), at[k]) if k < len(at) else None


def writes_of(program: Program, wrong: tuple[str, int]) -> list[int]:
    """The in-place writes that put the wrong tensor's value where it was read: those into the
    wrong input, or those that write the very value the wrong output returns."""
    what, at = wrong
    s = program.stmts[at]
    if what == "input":
        return [w for w in _writes(program) if program.stmts[w].arg("alias_input").name == s.outs[0]]
    v = s.arg("output")
    return [w for w in _writes(program) if isinstance(v, Ref) and program.stmts[w].arg("output") == v]


def _strided_in_place(program: Program, wrong: tuple[str, int]) -> bool:
    return any(strided_write(program, w) for w in writes_of(program, wrong))


def _host_evaluated_in_place(program: Program, wrong: tuple[str, int]) -> bool:
    return any(host_evaluated_write(program, w) for w in writes_of(program, wrong))


def _read_beside_in_place(program: Program, wrong: tuple[str, int]) -> bool:
    """The wrong output is computed from a read of an input that a write beside it (one whose
    value the read does not feed) writes in place."""
    what, at = wrong
    if what != "output":
        return False
    return bool(_reads_beside(program, _ancestors(program, at, program.stmts[at].arg("output"))))


VARIANCE_OF_REDUCTION = Mechanism("var of a reduction output divides by the reduced extent", "values", None,
                                  variance_of_a_reduction)
#: a minimal repro holding the write needs it, whichever tensor shows the damage: the input
#: written, or an output holding the value written
STRIDED_INPLACE_WRITE = Mechanism("an output written in place into a non-contiguous input", "aliasing",
                                  "NVIDIA/Fuser#5356", written_into_a_strided_input, frozenset({"values"}),
                                  _strided_in_place)
HOST_EVALUATED_INPLACE_WRITE = Mechanism("the result of a host-evaluated op written in place is lost", "aliasing",
                                         None, host_evaluated_written_in_place, frozenset(), _host_evaluated_in_place)
READ_BESIDE_INPLACE_WRITE = Mechanism("a read of an input written in place sees the write", "values", None,
                                      read_beside_a_write, frozenset({"aliasing"}), _read_beside_in_place)

#: the known mechanisms, first match wins
MECHANISMS: tuple[Mechanism, ...] = (VARIANCE_OF_REDUCTION, STRIDED_INPLACE_WRITE, HOST_EVALUATED_INPLACE_WRITE,
                                     READ_BESIDE_INPLACE_WRITE)

__all__ = ["Mechanism", "MECHANISMS", "VARIANCE_OF_REDUCTION", "STRIDED_INPLACE_WRITE", "HOST_EVALUATED_INPLACE_WRITE",
           "READ_BESIDE_INPLACE_WRITE", "mechanism_of", "wrong_tensor", "writes_of", "variance_of_a_reduction",
           "written_into_a_strided_input", "host_evaluated_written_in_place", "read_beside_a_write"]
