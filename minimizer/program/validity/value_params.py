"""The rules on the values of an op's parameter (a catalog ``ValueParam``, ``ops.spec``): judged
on every real run, and kept by construction where they can be: ``input_values`` gives the values a
fusion input read there must hold, and the printer writes the input with them."""
from __future__ import annotations

from ...model import Program, Ref
from ...ops import lookup
from .. import static
from .base import Rule
from .reading import definitions, value_of


class ValueParamRule(Rule):
    """A value rule whose check is the catalog's: each ``ValueParam`` named after the rule
    (``ValueParam.rule``) of an op it judges says what is wrong with the values it is given. A
    rule of this kind is its name, statement, order and the tag of the ops that read such values."""

    def before(self, s, spec, args):
        for vp in spec.value_params:
            why = vp.problem(args) if vp.rule == self.name else None
            if why:
                return f"fd.ops.{s.op}: {why}"
        return None


def input_values(program: Program) -> dict[str, tuple[int, ...]]:
    """Input name -> the values it must hold for the program to be well defined, where a catalog
    ``ValueParam`` reads the input directly (``grouped_mm``'s offsets): the printer writes the
    input with them, so a harvested seed, a generated or mutated program and a reduction's new
    input obey the value rule by construction. The first reader of an input decides."""
    readers = [(i, s, lookup(s.call)) for i, s in enumerate(program.stmts) if s.is_op]
    readers = [(i, s, spec) for i, s, spec in readers if spec is not None and spec.value_params]
    if not readers:
        return {}
    inputs = {s.outs[0] for s in program.stmts if s.is_tensor_decl and s.outs and s.outs[0]}
    info, defs, out = static.check_partial(program), definitions(program), {}
    for i, s, spec in readers:
        args = {k: value_of(info, defs, v.name) if isinstance(v, Ref) else v for k, v in s.args}
        for vp in spec.value_params:
            read = s.arg(vp.name)
            if isinstance(read, Ref) and read.name in inputs and read.name not in out:
                try:
                    out[read.name] = tuple(vp.make(args))
                except (ValueError, TypeError, KeyError, AttributeError):   # operands that do not fit
                    continue
    return out
