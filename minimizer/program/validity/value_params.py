"""The rules on the values of an op's parameter (a catalog ``ValueParam``, ``ops.spec``:
``grouped_mm``'s offsets, every index op's index): judged on every real run, statically where the
program tells enough, and kept by construction where they can be: ``input_values`` gives the
values a fusion input read there must hold (exact ones, or ``Drawn`` in a range), and the printer
writes the input with them, however a mutation or reduction changed the extents.

Statically, a rule of this kind finds a fusion input whose layout cannot hold valid values
(``misfit``: an expanded dim where scatter's indices must differ, an indexed extent of 0) and a
value the program states (``select``'s index as a constant or a scalar input) that ``problem``
finds wrong; a reduction's candidate that breaks one is refused before anything runs
(``enforced_for``): it says nothing about the original, which keeps the rule."""
from __future__ import annotations

from ... import dtypes
from ...model import Program, Ref, TensorArg, is_input_decl
from ...ops import lookup
from ...ops.spec import Drawn
from .. import static
from .base import Rule, violation_at
from .reading import definitions, input_arg, value_of

_NOT_MADE = (ValueError, TypeError, KeyError, AttributeError, IndexError)   # operands that do not fit


class ValueParamRule(Rule):
    """A rule whose check is the catalog's: each ``ValueParam`` named after the rule
    (``ValueParam.rule``) of an op it judges says what is wrong with the values it is given. A
    rule of this kind is its name, statement, order and the tag of the ops that read such values."""
    needs = frozenset({"static", "definitions"})

    def static(self, program, facts, at):
        """What the program tells without values: a stated value ``problem`` finds wrong, a fusion
        input read here whose layout cannot hold valid values (``misfit``)."""
        found = []
        for i, vp, args, src in value_reads(program, facts["static"], facts["definitions"], at):
            if vp.rule == self.name:
                why = _static_problem(program, vp, args, src)
                if why:
                    found.append(violation_at(program, i, self.name, f"fd.ops.{program.stmts[i].op}: {why}"))
        return found

    def before(self, s, spec, args):
        for vp in spec.value_params:
            why = vp.problem(args) if vp.rule == self.name else None
            if why:
                return f"fd.ops.{s.op}: {why}"
        return None


def _static_problem(program: Program, vp, args, src) -> str | None:
    """What is wrong with one ``ValueParam``'s read, as far as the program tells (None: nothing
    known; tensors on ``meta`` say nothing)."""
    try:
        why = vp.problem(args)
    except (RuntimeError,) + _NOT_MADE:   # operands the op refuses: the static check's to say
        why = None
    a = input_arg(program, src) if src is not None and why is None else None
    if isinstance(a, TensorArg):
        try:
            bad = misfit(vp.make(args), a)
        except _NOT_MADE:
            bad = None
        why = f"input {src} cannot hold valid {vp.name} values: {bad}" if bad else None
    return why


def value_reads(program: Program, info=None, defs=None, at=None):
    """(statement index, its ``ValueParam``, the op's arguments as its static check resolves them,
    the fusion input whose values the parameter reads or None: ``copied_from``) of every op with
    one (of the statements ``at``, where given); ``info``, ``defs``: the static check and the
    definitions, where the caller has them."""
    idx = range(len(program.stmts)) if at is None else at
    readers = [(i, program.stmts[i]) for i in idx if program.stmts[i].is_op]
    readers = [(i, s, spec) for i, s in readers for spec in (lookup(s.call),) if spec is not None and spec.value_params]
    if not readers:
        return []
    info = info if info is not None else static.check_partial(program)
    defs = defs if defs is not None else definitions(program)
    return [(i, vp, {k: value_of(info, defs, v.name) if isinstance(v, Ref) else v for k, v in s.args},
             copied_from(program, defs, s.arg(vp.name)))
            for i, s, spec in readers for vp in spec.value_params]


def copied_from(program: Program, defs, read) -> str | None:
    """The fusion input whose values ``read`` (an argument) holds: the input itself, or the one a
    chain of copies (ops tagged ``copy``: ``segment_set``, which a mutation inserts anywhere)
    copies; None where the fusion computes them (or ``read`` is a literal)."""
    name = read.name if isinstance(read, Ref) else None
    for _ in range(len(program.stmts) + 1):
        i = defs.get(name)
        if i is None:
            return None
        s = program.stmts[i]
        if is_input_decl(s):
            return name
        spec = lookup(s.call) if s.is_op else None
        src = s.arg(spec.bypass[0]) if spec is not None and "copy" in spec.tags and spec.bypass else None
        if not isinstance(src, Ref):
            return None
        name = src.name
    return None


def input_values(program: Program, info=None) -> dict[str, "tuple[int, ...] | Drawn"]:
    """Input name -> the values it must hold for the program to be well defined, where a catalog
    ``ValueParam`` reads the input (directly or through copies: ``copied_from``): the printer
    writes the input with them, so a harvested seed, a generated or mutated program and a
    reduction's new input obey the value rule by construction. The first reader of an input
    decides exact values; ranges of several readers meet (the smallest extent bounds them all)."""
    tensors = {s.outs[0] for s in program.stmts if s.is_tensor_decl and s.outs and s.outs[0]}
    out: dict = {}
    for _, vp, args, src in value_reads(program, info):
        if src not in tensors:
            continue
        try:
            made = vp.make(args)
        except _NOT_MADE:
            continue
        made = made if isinstance(made, Drawn) else tuple(made)
        had = out.get(src)
        if had is None:
            out[src] = made
        elif isinstance(had, Drawn) and isinstance(made, Drawn):
            out[src] = Drawn(min(had.high, made.high), had.distinct if had.distinct is not None else made.distinct)
    return out


def computed_values(program: Program) -> set[str]:
    """Names that an op's ``ValueParam`` reads and the fusion computes (an ``argsort`` result read
    by ``scatter`` as its index): their values come from the fusion's inputs, not from the printer
    (``input_values``), so a change of extents may put them out of range, which only a run tells
    (the value rule). Where none is, every such value is an input written valid for any extents."""
    defs, out = definitions(program), set()
    for s in program.stmts:
        spec = lookup(s.call) if s.is_op else None
        for vp in getattr(spec, "value_params", ()):
            read = s.arg(vp.name)
            if isinstance(read, Ref) and copied_from(program, defs, read) is None:
                out.add(read.name)
    return out


def misfit(values: "tuple[int, ...] | Drawn", a) -> str | None:
    """Why the input ``a`` (a ``TensorArg``) cannot hold ``values`` (``input_values``'s), or None:
    exact values need a 1-D integer input of their length, one element each (no expanded dim);
    a range needs an integer input, a non-empty range where it has elements, and distinct values
    along a dim need that dim not expanded and no longer than the range."""
    if not isinstance(a, TensorArg):
        return "it is not a tensor"
    if a.dtype not in dtypes.INTEGRAL:
        return f"it is {a.dtype}, not an integer dtype"
    if not isinstance(values, Drawn):
        if a.shape != (len(values),) or (a.strides[0] < 1 and len(values) > 1):
            return f"{len(values)} values do not fit a tensor of shape {list(a.shape)} and strides {list(a.strides)}"
        return None
    if a.numel() == 0:
        return None
    if values.high < 1:
        return "the extent it indexes is 0: no index is valid"
    d = values.distinct
    if d is not None and d < a.ndim and a.shape[d] > 1:
        if a.strides[d] == 0:
            return f"its dim {d} is expanded (stride 0), so its indices along it cannot differ"
        if a.shape[d] > values.high:
            return f"{a.shape[d]} distinct indices along its dim {d} do not fit in [0, {values.high})"
    return None
