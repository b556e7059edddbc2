"""What makes a fusion program well defined: the rules a program must obey before a difference
between nvFuser and the reference can be nvFuser's bug.

A program that breaks one of these rules has no single right answer: nvFuser (or CUDA under it)
may legitimately compute something else than fmin's reference, so a wrong result or a failure of
such a program is not evidence of a bug (Csmith and YARPGen keep C programs free of undefined
behaviour by construction for the same reason). Each rule has an id, a one-line statement and,
in ``tests/test_validity.py``, a real program from the fuzz corpus that breaks it.

Two kinds of rules:

* **static** rules read the program and its static check (shapes and dtypes on ``meta``
  tensors): ``violations(program)`` lists what a program breaks, for a generated or mutated
  program (discarded before it runs), a reduction's candidate (``static.check(rules=...)``) and a
  stored finding (``merge-findings`` reclassifying the corpus offline);
* **value** rules need the values: ``ValueWatch`` is handed to the reference interpreter
  (``interpret.run(watch=...)``), which calls it after every op of a real run in a worker, so
  the fuzzer's differential oracle and a recheck of a stored program learn them from the
  reference's run (``Outcome.undefined``).

What the rules say about nvFuser was read in its source (NVIDIA/Fuser): ``Fusion::aliasOutputToInput``
(csrc/fusion.cpp) accepts any output for any fusion input, checks no dtype (the Python tutorial
says so: "alias_input does not check if output and alias_input have the same type"), and
fusion.h calls the in-place alias "not always safe", used by batch norm's running statistics, and
"not aware of segmentation": a kernel or a segment that reads the input is not ordered after the
one that writes it. Shifts, integer overflow, division by zero and float-to-integer conversions
out of range are undefined in C++ and CUDA, which nvFuser's kernels are written in. ``grouped_mm``
evaluates ``at::_grouped_mm``, which writes nothing past its last offset (``ops/grouped.py``).

A rule on the values of an op's parameter (a catalog ``ValueParam``: ``grouped_mm``'s offsets,
every index op's index) is also kept by construction where it can be: ``input_values`` gives the
values a fusion input read there must hold (exact ones, or ``Drawn`` in a range), and the printer
writes the input with them, however a mutation or reduction changed the extents. It is a static
rule as well, of what can be told without values: a fusion input whose layout cannot hold them
(``misfit``: an expanded dim where scatter's indices must differ, an indexed extent of 0), and a
value the program states (``select``'s index as a constant or a scalar input) that ``problem``
finds wrong. A reduction's candidate that breaks one is refused before anything runs
(``enforced_for``): it says nothing about the original, which keeps the rule.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from ..model import Program, Ref, Stmt, TensorArg, is_input_decl
from ..ops.spec import Drawn
from . import static
from .interpret import FusionError

#: rule id -> the rule in one line (what a maintainer is told when a program breaks it)
RULES = {
    "alias-not-input": "an output is written (add_output(out, alias_input)) only into a fusion input: "
                       "nvFuser's aliasOutputToInput asserts 'alias source can only be a fusion input'",
    "alias-cpu": "an output is written only into an input on the GPU: a CPU scalar input (is_cpu) is no "
                 "memory a kernel writes; nvFuser asserts 'KernelExecutor does not support the Fusion provided'",
    "alias-dtype": "an input written by an output has that output's dtype: nvFuser checks none and writes "
                   "the value's bytes into the input's buffer",
    "alias-shape": "an input written by an output has that output's shape, one element per index (no "
                   "expanded, stride-0 dim): the write is an element-by-element copy into its memory",
    "alias-twice": "an input is written by one add_output at most: two writes into one buffer have no order",
    "alias-read": "an input written by an output is read only where it is written: the written value is "
                  "computed from it and everything computed from it is elementwise, of its shape "
                  "(batch norm's running statistics); a reduction, broadcast, shape op, matmul, scan or "
                  "segment_set reading it, or a write of a value not computed from it, may see elements "
                  "already overwritten by another thread or segment: nvFuser does not order them",
    "shift-amount": "a shift amount lies in [0, bit width of the shifted dtype): other amounts are "
                    "undefined in C++ and CUDA",
    "int-overflow": "an integer result fits its dtype (computed in float64 by the reference): signed "
                    "overflow is undefined in C++ and CUDA",
    "int-division": "an integer division or remainder has no zero divisor (nor MIN / -1): undefined in "
                    "C++ and CUDA",
    "cast-out-of-range": "a float cast to an integer dtype is finite and within its range: other "
                         "conversions are undefined in C++ and CUDA",
    "grouped-mm-offsets": "grouped_mm's offsets are the groups' ends along the extent they split: "
                          "non-decreasing from 0 and ending at that extent (no empty group where they "
                          "split k); ATen's at::_grouped_mm leaves what lies past the last offset unwritten",
    "index-range": "an index lies in [0, n), n the extent of the dim it indexes (index_select, select, gather, "
                   "take_along_axis, index_put_accumulate, embedding_fwd): nvFuser's kernels address memory "
                   "with it unchecked, a device-side assert or garbage on the GPU, and torch refuses it",
    "scatter-index": "scatter's indices lie in [0, n), n the extent of dim of the tensor scattered into, and are "
                     "distinct along dim: of two writes to one element torch picks one arbitrarily "
                     "(torch.Tensor.scatter_'s documentation)",
}

#: the rules of the catalog's ``ValueParam``s: value rules, and static where the program says enough
VALUE_PARAM_RULES = ("grouped-mm-offsets", "index-range", "scatter-index")
#: rules decided on the program and its static check; the others need values (``ValueWatch``)
STATIC_RULES = ("alias-not-input", "alias-cpu", "alias-dtype", "alias-shape", "alias-twice", "alias-read",
                "shift-amount") + VALUE_PARAM_RULES
VALUE_RULES = ("shift-amount", "int-overflow", "int-division", "cast-out-of-range") + VALUE_PARAM_RULES

#: ops that read a tensor's metadata, not its elements
_METADATA = frozenset({"shape", "size", "at", "tensor_sizes"})
_SHIFTS = frozenset({"bitwise_left_shift", "bitwise_right_shift", "logical_right_shift"})
#: integer arithmetic that can overflow, recomputed in float64 by ``ValueWatch``
_ARITH = frozenset({"add", "sub", "mul", "neg", "abs", "sum", "prod", "cumsum", "cumprod", "add_alpha", "sub_alpha"})
_DIVISIONS = frozenset({"div", "fmod", "remainder", "mod"})


@dataclass(frozen=True)
class Violation:
    """One broken rule: its id, what breaks it, and where (the statement index; its line where the
    program was read from a script)."""
    rule: str
    message: str
    stmt: int | None = None
    line: int | None = None

    def __str__(self) -> str:
        at = f"line {self.line}: " if self.line else f"statement {self.stmt + 1}: " if self.stmt is not None else ""
        return f"{at}{self.rule}: {self.message}"

    def to_json(self) -> dict:
        return {"rule": self.rule, "message": self.message, "stmt": self.stmt, "line": self.line}

    @classmethod
    def from_json(cls, d: dict) -> "Violation":
        return cls(d["rule"], d.get("message", ""), d.get("stmt"), d.get("line"))


def _at(program: Program, i: int | None, rule: str, message: str) -> Violation:
    s = program.stmts[i] if i is not None and 0 <= i < len(program.stmts) else None
    return Violation(rule, message, i, s.origin.line if s is not None and s.origin is not None else None)


class InvalidProgram(FusionError):
    """A well-formed program that breaks a rule of this module (``violations``: which, where)."""

    def __init__(self, violations):
        first = violations[0]
        super().__init__(f"invalid program ({first.rule}): {first.message}", "definition", first.stmt)
        self.violations = violations


def check(program: Program, rules=None) -> "static.Info":
    """``static.check`` (well formed), then the static ``rules`` of this module it must also obey
    (None: none; a fuzz program is held to all of them, a reduction's candidate to those its
    original obeys): ``InvalidProgram`` where it breaks one."""
    info = static.check(program)
    if rules:
        broken = [v for v in violations(program, info) if v.rule in rules]
        if broken:
            raise InvalidProgram(broken)
    return info


def violations(program, info=None) -> list[Violation]:
    """The static rules ``program`` breaks (a ``Program``, or a script's text, read as ``fmin``
    reads it). ``info``: its static check, where the caller has it. A program the static check
    rejects is judged on what it computed before the rejected statement."""
    if isinstance(program, str):
        from .reader import parse
        program = parse(program)
    if not _needs_facts(program):
        return []
    if info is None:
        info = static.check_partial(program)
    return _alias_violations(program, info) + _shift_violations(program, info) + _value_param_violations(program, info)


def _needs_facts(program: Program) -> bool:
    """Whether any static rule can apply at all (most generated programs: no alias, no shift, no
    op with a ``ValueParam``)."""
    from ..ops import lookup
    return any((s.is_output and s.arg("alias_input") is not None) or s.op in _SHIFTS
               or (s.is_op and getattr(lookup(s.call), "value_params", ())) for s in program.stmts)


def _value(info, defs: dict[str, int], name: str):
    i = defs.get(name)
    return info.value(i, name) if i is not None else None


def _definitions(program: Program) -> dict[str, int]:
    defs: dict[str, int] = {}
    for i, s in enumerate(program.stmts):
        for n in s.outs:
            if n:
                defs[n] = i
    return defs


def _alias_violations(program: Program, info) -> list[Violation]:
    defs = _definitions(program)
    inputs = {s.outs[0]: i for i, s in enumerate(program.stmts) if s.is_tensor_decl and s.outs and s.outs[0]}
    found: list[Violation] = []
    writers: dict[str, list[int]] = {}
    for i, s in enumerate(program.stmts):
        target, out = s.arg("alias_input"), s.arg("output")
        if not s.is_output or not isinstance(target, Ref):
            continue
        if target.name not in inputs:
            found.append(_at(program, i, "alias-not-input", f"{out} is written into {target.name}, "
                                                            f"which is not a fusion input"))
            continue
        if program.stmts[inputs[target.name]].arg("is_cpu") is True:
            found.append(_at(program, i, "alias-cpu", f"{out} is written into {target.name}, a CPU scalar input"))
            continue
        writers.setdefault(target.name, []).append(i)
        found += _alias_fit(program, info, defs, i, out, target.name)
    for name, at in writers.items():
        if len(at) > 1:
            found.append(_at(program, at[1], "alias-twice", f"{name} is written by {len(at)} outputs"))
        why = _alias_read(program, info, defs, name, [program.stmts[k].arg("output") for k in at])
        if why:
            found.append(_at(program, at[0], "alias-read", why))
    return found


def _alias_fit(program: Program, info, defs, i: int, out, name: str) -> list[Violation]:
    """The dtype and shape rules of one aliased output ``out`` written into input ``name``."""
    v, t = _value(info, defs, out.name) if isinstance(out, Ref) else None, _value(info, defs, name)
    if not isinstance(v, torch.Tensor) or not isinstance(t, torch.Tensor):
        return []
    found = []
    if v.dtype != t.dtype:
        found.append(_at(program, i, "alias-dtype", f"{out} ({_dt(v)}) is written into {name} ({_dt(t)})"))
    if tuple(v.shape) != tuple(t.shape):
        found.append(_at(program, i, "alias-shape", f"{out} {list(v.shape)} is written into {name} "
                                                    f"{list(t.shape)}"))
    elif any(st == 0 and n > 1 for st, n in zip(_input_strides(program, name), t.shape)):
        found.append(_at(program, i, "alias-shape", f"{out} is written into {name}, whose memory has an "
                                                    f"expanded (stride 0) dim"))
    return found


def _input_strides(program: Program, name: str) -> tuple[int, ...]:
    """The strides of the tensor the inputs list passes for input ``name`` (none where unknown)."""
    a = _input_arg(program, name)
    return a.strides if isinstance(a, TensorArg) else ()


def _input_arg(program: Program, name: str):
    """What the inputs list passes for input ``name`` (None where unknown)."""
    k = 0
    for s in program.stmts:
        if is_input_decl(s):
            if s.outs and s.outs[0] == name:
                return program.inputs[k] if program.inputs is not None and k < len(program.inputs) else None
            k += 1
    return None


def _dt(t: torch.Tensor) -> str:
    from .. import dtypes
    return dtypes.from_torch(t.dtype)


def _alias_read(program: Program, info, defs, name: str, written) -> str | None:
    """Why input ``name``, written by the outputs ``written``, is read where the write may race
    the read (None: it is not read, or only by an elementwise computation of the written value)."""
    names, bad = computed_from(program, info, name)
    if bad:
        return bad
    if len(names) > 1 and not any(isinstance(w, Ref) and w.name in names and w.name != name for w in written):
        return f"{name} is read by the fusion and written with a value not computed from it"
    return None


def computed_from(program: Program, info, name: str) -> tuple[set[str], str | None]:
    """The names of every value computed from ``name`` (itself included; reading its metadata
    does not count), and why one of them is not an elementwise value of its shape (None: all are)."""
    defs = _definitions(program)
    shape = tuple(getattr(_value(info, defs, name), "shape", ()))
    cone, bad = {name}, None
    for i, s in enumerate(program.stmts):
        if not s.is_op or not cone.intersection(s.uses()) or s.op in _METADATA:
            continue
        for n in s.outs:
            v = info.value(i, n) if n else None
            if isinstance(v, torch.Tensor) and (not _elementwise(s) or tuple(v.shape) != shape):
                bad = bad or f"{name} is written by an output and read by fd.ops.{s.op} ({n} {list(v.shape)})"
            if n:
                cone.add(n)
    return cone, bad


def _elementwise(s: Stmt) -> bool:
    from ..ops import lookup
    spec = lookup(s.call)
    return spec is not None and spec.elementwise and s.op != "segment_set"


def _shift_violations(program: Program, info) -> list[Violation]:
    """Constant shift amounts out of range (a tensor's amounts are values: ``ValueWatch``)."""
    defs = _definitions(program)
    found = []
    for i, s in enumerate(program.stmts):
        if s.op not in _SHIFTS or not s.is_op:
            continue
        args = [v for _, v in s.args]
        x, amount = (args + [None, None])[:2]
        t = _value(info, defs, x.name) if isinstance(x, Ref) else None
        k = _constant(program, defs, amount)
        bits = _bits(t.dtype) if isinstance(t, torch.Tensor) else None
        if bits is not None and isinstance(k, int) and not 0 <= k < bits:
            found.append(_at(program, i, "shift-amount", f"fd.ops.{s.op} shifts {_dt(t)} by {k}"))
    return found


def _constant(program: Program, defs, v):
    """An int literal, or the value of a ``define_scalar`` constant; None otherwise."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, Ref) and v.name in defs:
        s = program.stmts[defs[v.name]]
        if s.is_scalar_def and isinstance(s.arg("value"), int) and not isinstance(s.arg("value"), bool):
            return s.arg("value")
    return None


def _bits(dtype: torch.dtype) -> int | None:
    if dtype.is_floating_point or dtype.is_complex or dtype == torch.bool:
        return None
    return torch.iinfo(dtype).bits


def aliased_inputs(program: Program) -> dict[str, list[str]]:
    """Input name -> the names of the values written into it (``add_output(v, alias_input=x)``)."""
    out: dict[str, list[str]] = {}
    for s in program.stmts:
        target, v = s.arg("alias_input"), s.arg("output")
        if s.is_output and isinstance(target, Ref) and isinstance(v, Ref):
            out.setdefault(target.name, []).append(v.name)
    return out


def enforced_for(program: Program, info=None) -> frozenset[str]:
    """The static rules a reduction of ``program`` keeps its candidates to: every rule the
    original obeys. A rule the user's original already breaks does not bind its candidates (the
    reduction must stay free to approach the user's program), but a candidate never breaks a rule
    the original keeps (a faithful reduction of a valid program stays valid)."""
    broken = {v.rule for v in violations(program, info)}
    return frozenset(r for r in STATIC_RULES if r not in broken)


def _value_reads(program: Program, info=None):
    """(statement, its ``ValueParam``, the op's arguments as its static check resolves them, the
    fusion input whose values the parameter reads or None: ``_copied_from``) of every op with
    one; ``info``: the static check, where the caller has it."""
    from ..ops import lookup
    readers = [(i, s, lookup(s.call)) for i, s in enumerate(program.stmts) if s.is_op]
    readers = [(i, s, spec) for i, s, spec in readers if spec is not None and spec.value_params]
    if not readers:
        return []
    info, defs = info if info is not None else static.check_partial(program), _definitions(program)
    return [(i, vp, {k: _value(info, defs, v.name) if isinstance(v, Ref) else v for k, v in s.args},
             _copied_from(program, defs, s.arg(vp.name)))
            for i, s, spec in readers for vp in spec.value_params]


def _copied_from(program: Program, defs, read) -> str | None:
    """The fusion input whose values ``read`` (an argument) holds: the input itself, or the one a
    chain of copies (ops tagged ``copy``: ``segment_set``, which a mutation inserts anywhere)
    copies; None where the fusion computes them (or ``read`` is a literal)."""
    from ..ops import lookup
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


_NOT_MADE = (ValueError, TypeError, KeyError, AttributeError, IndexError)   # operands that do not fit


def input_values(program: Program, info=None) -> dict[str, "tuple[int, ...] | Drawn"]:
    """Input name -> the values it must hold for the program to be well defined, where a catalog
    ``ValueParam`` reads the input (directly or through copies: ``_copied_from``; ``grouped_mm``'s
    offsets, an index): the printer writes the input with them, so a harvested seed, a generated
    or mutated program and a reduction's new input obey the value rule by construction. The first
    reader of an input decides exact values; ranges of several readers meet (the smallest extent
    bounds them all)."""
    tensors = {s.outs[0] for s in program.stmts if s.is_tensor_decl and s.outs and s.outs[0]}
    out: dict = {}
    for _, vp, args, src in _value_reads(program, info):
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
    from ..ops import lookup
    defs, out = _definitions(program), set()
    for s in program.stmts:
        spec = lookup(s.call) if s.is_op else None
        for vp in getattr(spec, "value_params", ()):
            read = s.arg(vp.name)
            if isinstance(read, Ref) and _copied_from(program, defs, read) is None:
                out.add(read.name)
    return out


def misfit(values: "tuple[int, ...] | Drawn", a) -> str | None:
    """Why the input ``a`` (a ``TensorArg``) cannot hold ``values`` (``input_values``'s), or None:
    exact values need a 1-D integer input of their length, one element each (no expanded dim);
    a range needs an integer input, a non-empty range where it has elements, and distinct values
    along a dim need that dim not expanded and no longer than the range."""
    from .. import dtypes
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


def _value_param_violations(program: Program, info) -> list[Violation]:
    """The ``ValueParam`` rules, as far as the program tells without running it: a value it
    states (``select``'s index as a constant or a scalar input; tensors on ``meta`` say nothing),
    and a fusion input read there whose layout cannot hold valid values (``misfit``: the printer
    could not write it valid)."""
    found = []
    for i, vp, args, src in _value_reads(program, info):
        s = program.stmts[i]
        try:
            why = vp.problem(args)
        except (RuntimeError,) + _NOT_MADE:   # operands the op refuses: the static check's to say
            why = None
        a = _input_arg(program, src) if src is not None and why is None else None
        if isinstance(a, TensorArg):
            try:
                bad = misfit(vp.make(args), a)
            except _NOT_MADE:
                bad = None
            why = f"input {src} cannot hold valid {vp.name} values: {bad}" if bad else None
        if why:
            found.append(_at(program, i, vp.rule, f"fd.ops.{s.op}: {why}"))
    return found


def _int_operand(v) -> torch.Tensor | None:
    """An integer operand as a tensor (a Python int too); None for anything else."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return torch.tensor(v)
    if isinstance(v, torch.Tensor) and _bits(v.dtype) is not None:
        return v
    return None


class ValueWatch:
    """The value rules, checked during a real reference run: ``interpret.run(watch=w)`` calls
    ``w(i, stmt, spec, args, results)`` for every op with its resolved arguments, before it runs
    and with its results. ``found`` lists each rule broken, once per statement and rule."""

    def __init__(self):
        self.found: list[Violation] = []

    def __call__(self, i: int, s: Stmt, spec, args: dict[str, Any], results) -> None:
        """Called before the op runs (``results`` None: the division rule, which torch enforces on
        the CPU by raising) and after it."""
        name = spec.name
        try:
            if results is None:
                self._value_params(i, s, spec, args)
                if name in _DIVISIONS:
                    self._division(i, s, args)
            elif name in _SHIFTS:
                self._shift(i, s, args)
            elif name in _ARITH:
                self._overflow(i, s, spec, args, results)
            elif name == "cast":
                self._cast(i, s, args, results)
        except (RuntimeError, TypeError, ValueError):   # a check that cannot run judges nothing
            return

    def _add(self, i: int, s: Stmt, rule: str, message: str) -> None:
        line = s.origin.line if s.origin is not None else None
        if not any(v.rule == rule and v.stmt == i for v in self.found):
            self.found.append(Violation(rule, message, i, line))

    def _value_params(self, i, s, spec, args) -> None:
        """The catalog's ``ValueParam`` rules: values that decide what the op computes."""
        for vp in spec.value_params:
            why = vp.problem(args)
            if why:
                self._add(i, s, vp.rule, f"fd.ops.{s.op}: {why}")

    def _shift(self, i, s, args) -> None:
        x, k = args.get("lhs"), _int_operand(args.get("rhs"))
        bits = _bits(x.dtype) if isinstance(x, torch.Tensor) else None
        if bits is not None and k is not None and k.numel() and bool(((k < 0) | (k >= bits)).any()):
            self._add(i, s, "shift-amount", f"fd.ops.{s.op} shifts {_dt(x)} by amounts from {int(k.min())} "
                                            f"to {int(k.max())}")

    def _overflow(self, i, s, spec, args, results) -> None:
        out = results[0] if isinstance(results, tuple) else results
        if not isinstance(out, torch.Tensor) or _bits(out.dtype) is None or out.dtype == torch.uint8:
            return
        wide = {k: (v.to(torch.float64) if isinstance(v, torch.Tensor) and _bits(v.dtype) else v)
                for k, v in args.items()}
        from ..ops import Ctx
        exact = spec.ref(Ctx(device=out.device, frontend="nvfuser_direct"), **wide)
        exact = exact[0] if isinstance(exact, tuple) else exact
        if not isinstance(exact, torch.Tensor) or not exact.is_floating_point():
            return
        info = torch.iinfo(out.dtype)
        if exact.numel() and bool(((exact > info.max) | (exact < info.min)).any()):
            self._add(i, s, "int-overflow", f"fd.ops.{s.op} gives {_dt(out)} values beyond its range "
                                            f"(up to {float(exact.abs().max()):.3g})")

    def _division(self, i, s, args) -> None:
        a, b = _int_operand(args.get("lhs")), _int_operand(args.get("rhs"))
        if a is None or b is None:
            return
        if bool((b == 0).any()):
            self._add(i, s, "int-division", f"fd.ops.{s.op} divides by zero")
        elif a.dtype != torch.bool and bool(((a == torch.iinfo(a.dtype).min) & (b == -1)).any()):
            self._add(i, s, "int-division", f"fd.ops.{s.op} divides the smallest {_dt(a)} by -1")

    def _cast(self, i, s, args, results) -> None:
        x = args.get("arg")
        out = results[0] if isinstance(results, tuple) else results
        if not isinstance(x, torch.Tensor) or not isinstance(out, torch.Tensor) or not x.is_floating_point():
            return
        bits = _bits(out.dtype)
        if bits is None or not x.numel():
            return
        info = torch.iinfo(out.dtype)
        xd = x.to(torch.float64)
        bad = ~torch.isfinite(xd) | (xd.trunc() > info.max) | (xd.trunc() < info.min)
        if bool(bad.any()):
            self._add(i, s, "cast-out-of-range", f"fd.ops.cast of {_dt(x)} to {_dt(out)}: "
                                                 f"{int(bad.sum())} values are not finite or out of range")


__all__ = ["RULES", "STATIC_RULES", "VALUE_RULES", "VALUE_PARAM_RULES", "Violation", "ValueWatch", "violations",
           "enforced_for", "computed_from", "aliased_inputs", "input_values", "misfit", "computed_values"]
