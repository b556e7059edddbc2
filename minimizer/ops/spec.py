"""What the catalog knows about one ``fd`` call, and how call arguments bind to it.

The parser, fmin's own ``FusionDefinition`` (reference and inductor backends), the passes and the
fuzzer all bind arguments through ``bind`` here, so a call means the same thing to each of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..model import DIRECT, LEGACY, DType, Ref
from .dims import DimRule

BOTH = frozenset({LEGACY, DIRECT})
LEGACY_ONLY = frozenset({LEGACY})
DIRECT_ONLY = frozenset({DIRECT})


# keyword spellings of 2022-2023 legacy scripts, renamed since; never valid in nvfuser_direct
ERA_SPELLINGS = frozenset({"axes", "symbolic_sizes", "output_shape", "original_shape"})


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()

# Parameter kinds. They drive the binder's type checks (what nvFuser would reject with a
# TypeError), the static checks, and the fuzzer's generators.
KINDS = frozenset({
    "tensor",        # a Tensor value
    "scalar",        # a Scalar value, or (direct frontend) a Python number
    "operand",       # tensor or scalar
    "tensors",       # list of tensors
    "int", "bool", "float", "number",  # Python literals (or Scalar values where nvFuser accepts them)
    "ints",          # list of ints
    "shape",         # list of ints and/or Scalars, or a legacy Vector
    "contiguity",    # list of True/False/None, or a bool
    "dtype",         # DataType.X
    "any",
})


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    default: Any = REQUIRED
    aliases: tuple[str, ...] = ()        # era spellings accepted on input (``axes`` for ``dims``)
    frontends: frozenset = BOTH          # a parameter that exists in one frontend only
    keyword_only: bool = False
    # a bool that legacy repros print as 0/1 (nvFuser's C++ printer writes the bool as an int:
    # ``slice(..., manual_normalization=0)``); ``fmin upgrade`` gives the direct frontend a bool
    int_in_legacy: bool = False

    def __post_init__(self):
        assert self.kind in KINDS, self.kind

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


#: The operand dtype categories of the fuzzer, in the order it lists an op's input dtypes:
#: ``"f"`` floating (Float, Half, BFloat16, Double), ``"i"`` integral (Int, Int32), ``"b"`` Bool.
GEN_CATEGORIES = ("f", "i", "b")


#: The step families the fuzzer draws a step from, simplest first (what Hypothesis shrinks
#: towards); a ``Gen`` names one. A new family of generated ops adds its name here.
STEP_FAMILIES = ("unary", "binary", "ternary", "cast", "copy", "reduction", "broadcast", "shape", "scan")

#: ``Gen.write(B, name, x, P, force) -> bool``: write ``fd.ops.<name>`` for operand ``x``.
Write = Callable[[Any, str, Any, Any, "str | None"], bool]


@dataclass(frozen=True)
class Gen:
    """How the fuzzer (``minimizer/fuzz/sources/strategies.py``) generates an op; ``OpSpec.generate``.

    ``step`` names the step family it is drawn in (one of ``STEP_FAMILIES``); None: the op is
    not generated, and ``why`` says why. ``f``/``i``/``b``: the op's place among the family's
    ops drawn for an operand of that category (0 = the first, the simplest: what Hypothesis
    shrinks towards; ties go by catalog order); None: not drawn for that category. ``dtypes``:
    the only operand dtypes it is drawn for within those categories (``var`` needs Float or
    Double; empty: every dtype of them). ``min_rank``: the rank ``op_calls`` gives its operand at
    least; ``needs``: what that operand must also have (``"broadcast-dim"``: an extent-1
    broadcast dim, for squeeze and expand; ``"non-broadcast-dim"``: a dim that is not one, for
    cat).

    ``write(B, name, x, P, force)`` writes the call, defined in the op's family module beside
    it (one function per kind of op; the fuzzer keeps no per-op branch). It appends to the
    fuzzer's ``builder.Builder`` ``B`` (``B.op(name, args, kwargs, bcast=, n_out=, full=)``,
    ``B.const``, ``B.const_for``, ``B.partner(x, P, pred)``, ``B.max_rank``) for the operand
    ``x`` (a ``builder.Value``: ``name``, ``shape``, ``dtype``, ``cat``, ``bcast``, ``full``,
    ``meta``, ``broadcasts_with``), every choice drawn from ``P`` (``P(n)``, ``P.flag(pct)``,
    ``P.perm(n)``: 0 is the simplest). It returns False when ``x`` does not suit the op; with
    ``force`` (the op asked for by name, ``op_calls``) it must not write another op instead."""
    step: str | None
    f: int | None = None
    i: int | None = None
    b: int | None = None
    dtypes: tuple[str, ...] = ()
    min_rank: int = 1
    needs: str = ""
    why: str = ""
    write: Write | None = field(default=None, compare=False)

    def __post_init__(self):
        assert self.needs in ("", "broadcast-dim", "non-broadcast-dim"), self.needs
        assert (self.step is None) == bool(self.why), "a Gen says a step family, or why there is none"
        assert self.step is None or self.step in STEP_FAMILIES, self.step

    def rank(self, category: str) -> int | None:
        """The op's place for an operand of ``category`` (``"f"``, ``"i"``, ``"b"``), or None."""
        return getattr(self, category)

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(c for c in GEN_CATEGORIES if self.rank(c) is not None)


def not_generated(why: str) -> Gen:
    """``OpSpec.generate`` of an op the fuzzer does not generate, with the reason."""
    return Gen(None, why=why)


def generated(step: str, write: Write | None, every: str = "", special: dict[str, Write] | None = None,
              **orders: str) -> dict[str, Gen]:
    """``Gen`` entries of a family's ops from their orders, simplest first: ``generated("unary",
    w, f="neg abs exp", i="neg abs")`` gives ``neg`` rank 0 and ``abs`` rank 1 for float and int
    operands and ``exp`` rank 2 for floats only; ``every="permute reshape"``: one order for
    every category. ``write`` writes each of them, but those ``special`` names a writer for."""
    ranks: dict[str, dict[str, int]] = {}
    for cat in GEN_CATEGORIES:
        for k, name in enumerate((every or orders.get(cat, "")).split()):
            ranks.setdefault(name, {})[cat] = k
    special = special or {}
    assert set(special) <= set(ranks), sorted(set(special) - set(ranks))
    return {name: Gen(step, **r, write=special.get(name, write)) for name, r in ranks.items()}


@dataclass(frozen=True)
class Drawn:
    """Values a fusion input is written with at random where no one list of them is needed (an
    index tensor: any values within the indexed extent will do, and which ones is the bug's
    business): integers in ``[0, high)``, and where ``distinct`` names a dim, no two equal along it
    (``scatter``: torch picks one of two writes to one element arbitrarily). What a ``ValueParam``'s
    ``make`` returns besides an exact tuple of values; ``program.validity.misfit`` says whether an
    input's layout can hold them, the printer writes them (``printer.render_input``)."""
    high: int
    distinct: int | None = None


@dataclass(frozen=True)
class ValueParam:
    """A parameter whose *values* decide what the op computes, so that random values make the
    program meaningless (``grouped_mm``'s ``offsets``: cumulative group ends; an index tensor: a
    position along the indexed extent, past which a kernel reads or writes memory that is not the
    tensor's). ``rule`` is the ``program.validity`` rule id a program breaks when they are wrong;
    ``problem(args)`` says what is wrong with the values an op is given (None: they are fine, or
    they cannot be read: ``meta`` tensors), ``make(args)`` the values a fusion input read there is
    written with, from the other arguments' shapes (``args`` as ``OpSpec.ref`` takes them, on
    ``meta`` tensors too): an exact tuple (a 1-D input holds those), or ``Drawn`` (a range drawn
    at random, for any shape and layout). The printer writes such an input with ``make``'s values
    (``program.validity.input_values``), also when a change of the extents makes the written ones
    stale; the static check refuses a program where they cannot be written or where ``problem``
    already knows them wrong (a constant or a scalar input: ``select``'s index), the value rule
    ``rule`` judges every real run, and the seeded mutations never rebuild an input such a
    parameter reads (``fuzz/mutate.py``: in another dtype, or as a broadcast, it is no index)."""
    name: str
    rule: str
    make: Callable[[dict], "tuple[int, ...] | Drawn"] = field(compare=False)
    problem: Callable[[dict], "str | None"] = field(compare=False)


def values_readable(t) -> bool:
    """Whether tensor ``t``'s values can be read here: not on ``meta`` (the static check), not
    while Dynamo or ``make_fx`` traces (fake tensors). A ``ValueParam``'s ``problem`` and a
    reference that reads values (``grouped_mm``) ask first."""
    import torch
    return t.device.type != "meta" and not torch.compiler.is_compiling() and torch._guards.detect_fake_mode(t) is None


#: What ``OpSpec.tags`` may say, and who reads it.
TAGS = {
    "padded-output": "the result counts as a pad (the interpreter: cat(manual_padding=True) needs pads)",
    "layout": "the result's layout is the point of the op (the reducer's ValueToInput keeps it when "
              "the op's result becomes an input)",
    "format-dtype": "its dtype arguments select a kernel format, not a rounding (the fp64 reference "
                    "keeps them)",
    "random_if_dropout": "random when its dropout_p is not 0 (program/unjudged.py: its program's values "
                         "are not judged)",
    # what the rules of a well-defined program (``program.validity``) judge: each rule names the
    # tags of the ops it applies to, so no rule keeps a list of op names of its own
    "alias-write": "with an alias_input, writes its output into that fusion input in place (the alias rules)",
    "fusion-output": "marks a value as a fusion output (cpu-output: an output computed from GPU data)",
    "segment-output": "its result is a segment's output, as a fusion output is a fusion's (cpu-output)",
    "shift": "shifts its lhs by its rhs bits (shift-amount)",
    "int-arith": "integer arithmetic whose result can overflow its dtype (int-overflow: recomputed in float64)",
    "division": "divides its lhs by its rhs (int-division: no zero divisor, no MIN / -1)",
    "dtype-cast": "converts its operand to its dtype argument (cast-out-of-range)",
    "group-offsets": "reads the groups' ends from a tensor of offsets (grouped-mm-offsets)",
    "index-read": "reads positions along an indexed extent from its index parameter (index-range)",
    "index-scatter": "writes to the positions its index parameter holds along an extent (scatter-index)",
    "host-evaluated": "nvFuser evaluates it on the host with ATen (its expression evaluator), not in a generated "
                      "kernel (judging/mechanisms.py: its result written in place)",
    "copy": "its result holds the values of its first bypass parameter, element for element along the same "
            "dims (program/validity/value_params.py follows an index read through it back to the fusion input it copies, "
            "which the printer writes valid)",
}


def tagged(tags: dict[str, str]) -> dict[str, frozenset]:
    """Op name -> its tags, from tag -> the names of the ops that carry it (space separated):
    what a family module that registers its ops in loops passes as each op's ``tags``."""
    out: dict[str, frozenset] = {}
    for tag, names in tags.items():
        assert tag in TAGS, tag
        for name in names.split():
            out[name] = out.get(name, frozenset()) | {tag}
    return out


@dataclass(frozen=True)
class OpSpec:
    """One ``fd.ops`` op (or ``fd.define_*``/``add_output``).

    ``ref(ctx, **args)`` is the torch reference: it receives every parameter (defaults filled in),
    with fusion values resolved (tensors as ``torch.Tensor``, scalars as Python numbers, vectors
    as tuples of ints, ``DataType.X`` as the string ``"X"``), and returns a tensor, a Python
    number, or a tuple of them when ``n_outputs > 1``. It must also work on ``meta`` tensors,
    which is how shapes and dtypes are inferred without computing anything.

    What each client of the catalog needs to know about the op, so that no client keeps an op
    table of its own (``tests/test_catalog_complete.py`` fails on an entry that leaves one out):
    ``generate`` (a ``Gen``: how the fuzzer generates it, or ``not_generated(why)``),
    ``dim_rule`` (a ``DimRule`` of ``ops.dims``, defined beside the ops of its kind: how
    FewerDims carries a dropped dim through it, or ``NOT_FOLLOWED``),
    ``renamed`` (``(legacy name, direct name)`` of each parameter the two frontends name
    differently: legacy ``gather(arg1, ...)`` is direct ``gather(arg, ...)``; ``fmin upgrade``
    renames it) and ``Param.int_in_legacy``; ``value_params`` (each a ``ValueParam``: a tensor
    parameter whose values, not only its shape, must fit the other arguments).

    ``bcast_rule``/``ir_check``/``tags`` carry what nvFuser's IR knows beyond values (see below).
    ``n_outputs`` is -1 for an op with one result per dim of its argument (``tensor_sizes``).
    ``bypass`` names the parameters whose value may stand in for the result when it has the
    result's shape and dtype (the reducer's "bypass an op" pass). ``elementwise`` ops take part
    in nvFuser's broadcast check (extents of non-broadcast dims must agree).
    """
    name: str
    family: str
    params: tuple[Param, ...]
    ref: Callable[..., Any] | None = None
    n_outputs: int = 1
    frontends: frozenset = BOTH
    nondeterministic: bool = False
    elementwise: bool = False
    bypass: tuple[str, ...] = ()
    doc: str = ""
    tags: frozenset = field(default_factory=frozenset)
    # nvFuser IR facts the torch reference cannot express (used by the interpreter):
    # ``bcast_rule(args, arg_bcast)`` -> which output dims are IR broadcasts, given the args and
    # the broadcast flags of the ``arg`` operand (None when unknown); ``ir_check(args, facts_of)``
    # -> a definition error nvFuser raises, or None (``facts_of(param)`` gives the operand facts,
    # a list for list parameters). ``tags``: keys of ``TAGS``.
    bcast_rule: Callable[..., Any] | None = None
    ir_check: Callable[..., Any] | None = None
    # other signatures of the same binding (pybind11 overloads), each a tuple of parameter names
    # taken positionally in that order (and only those): tried in order when ``params`` does
    # not fit, in a frontend that has all of them. Legacy ``add_output(output, stride_order)``.
    overloads: tuple[tuple[str, ...], ...] = ()
    generate: Gen | None = None
    dim_rule: DimRule | None = None
    renamed: tuple[tuple[str, str], ...] = ()
    value_params: tuple[ValueParam, ...] = ()

    def __post_init__(self):
        assert self.dim_rule is None or isinstance(self.dim_rule, DimRule), (self.name, self.dim_rule)
        assert self.tags <= TAGS.keys(), (self.name, self.tags)

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def params_for(self, frontend: str) -> tuple[Param, ...]:
        return tuple(p for p in self.params if frontend in p.frontends)

    def canonical_name(self, kw: str, frontend: str) -> tuple[str, bool] | None:
        """(canonical param name, whether an era alias was used) for a keyword, or None.
        Era spellings (``axes``...) exist only in the legacy frontend's history."""
        for p in self.params_for(frontend):
            if kw == p.name:
                return p.name, False
            if kw in p.aliases and (frontend == LEGACY or kw not in ERA_SPELLINGS):
                return p.name, True
        return None


class BindError(Exception):
    """Arguments that do not fit the op: nvFuser's ``TypeError: incompatible function arguments``."""

    def __init__(self, message: str, arg_index: int | None = None, keyword: str | None = None):
        super().__init__(message)
        self.arg_index = arg_index
        self.keyword = keyword


@dataclass(frozen=True)
class Bound:
    args: tuple[tuple[str, Any], ...]   # (canonical name, value) in the order written
    npos: int
    aliases_used: frozenset[str]        # era spellings seen (``axes``)


def literal_value(p: Param, written: Any, value: Any, frontend: str) -> Any:
    """The value an op sees for an argument written as ``written`` (resolved to ``value``).

    The direct frontend takes a Python number where a Scalar is expected, and types a Python
    ``bool`` there as an Int64 scalar: ``fd.ops.bitwise_and(T0, False)`` on a Bool ``T0`` is
    Int64, so is ``fd.ops.where(c, True, False)``, and ``fd.ops.pad(T0, w, True)`` on a Bool
    ``T0`` fails ("pad value must have the same dtype"); ``fd.define_scalar(False,
    dtype=DataType.Bool)`` stays Bool. Measured with nvFuser 0.2.36 (probe scripts and their
    recorded dtypes: ``tests/data/nvfuser/typing/``, docs/benchmarks.md); why (presumably the
    bindings' integer conversion accepting a bool first) was not. The legacy frontend takes no Python numbers for operands at all."""
    if frontend == DIRECT and p.kind in ("operand", "scalar") and isinstance(written, bool):
        return int(value)
    return value


def bind(spec: OpSpec, args: tuple, kwargs: tuple[tuple[str, Any], ...], frontend: str) -> Bound:
    """Bind positional and keyword arguments to ``spec``'s parameters for ``frontend``.

    Values are not type-checked here beyond what can be told from the model alone (see
    ``check_value``); the interpreter checks the rest when it knows what each name holds.
    """
    if frontend not in spec.frontends:
        other = "nvfuser_direct" if frontend == LEGACY else "the legacy nvfuser frontend"
        raise BindError(f"fd.ops.{spec.name} exists only in {other}" if spec.family != "define"
                        else f"fd.{spec.name} is not available in this frontend")
    params = spec.params_for(frontend)
    positional = [p for p in params if not p.keyword_only]
    try:
        return _bind(spec, params, positional, args, kwargs, frontend)
    except BindError as first:
        for names in spec.overloads:
            alt = tuple(spec.param(n) for n in names)
            if not all(frontend in p.frontends for p in alt):
                continue
            try:
                return _bind(spec, alt, list(alt), args, kwargs, frontend)
            except BindError:
                continue
        raise first


def _bind(spec: OpSpec, params, positional, args: tuple, kwargs, frontend: str) -> Bound:
    """Bind to one signature: ``params`` (all it accepts), ``positional`` (in order)."""
    allowed = {p.name for p in params}
    if len(args) > len(positional):
        raise BindError(f"{_call(spec)} takes at most {len(positional)} positional arguments "
                        f"({len(args)} given)", arg_index=len(positional))
    out: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for i, (p, v) in enumerate(zip(positional, args)):
        check_value(spec, p, v, arg_index=i)
        out.append((p.name, v))
        seen.add(p.name)
    aliases: set[str] = set()
    for kw, v in kwargs:
        hit = spec.canonical_name(kw, frontend)
        if hit is not None and hit[0] not in allowed:
            hit = None
        if hit is None:
            names = ", ".join(p.name for p in params)
            raise BindError(f"{_call(spec)} got an unexpected keyword argument '{kw}' "
                            f"(expected one of: {names})", keyword=kw)
        name, alias = hit
        if alias:
            aliases.add(kw)
        if name in seen:
            raise BindError(f"{_call(spec)} got multiple values for argument '{name}'", keyword=kw)
        check_value(spec, spec.param(name), v, keyword=kw)
        out.append((name, v))
        seen.add(name)
    missing = [p.name for p in params if p.required and p.name not in seen]
    if missing:
        raise BindError(f"{_call(spec)} missing required argument '{missing[0]}'")
    return Bound(tuple(out), len(args), frozenset(aliases))


def _call(spec: OpSpec) -> str:
    return f"fd.{spec.name}()" if spec.family == "define" else f"fd.ops.{spec.name}()"


_NUM = (bool, int, float, complex)


def check_value(spec: OpSpec, p: Param, v: Any, arg_index: int | None = None,
                keyword: str | None = None) -> None:
    """Reject values of the wrong syntactic kind (a list where a tensor is expected, a string
    where a dtype is expected). Whether a Ref names a tensor or a scalar is checked later."""
    def bad(what: str):
        raise BindError(f"{_call(spec)} argument '{p.name}' expects {what}, got {_show(v)}",
                        arg_index=arg_index, keyword=keyword)

    k = p.kind
    if v is None and (not p.required and p.default is None or k in ("any", "operand", "scalar", "number")):
        return
    if k == "tensor" and not isinstance(v, Ref):
        bad("a tensor")
    elif k in ("scalar", "operand") and not isinstance(v, (Ref,) + _NUM):
        bad("a tensor or scalar" if k == "operand" else "a scalar")
    elif k == "tensors" and not (isinstance(v, tuple) and all(isinstance(x, Ref) for x in v)):
        bad("a list of tensors")
    elif k == "dtype" and not isinstance(v, DType):
        bad("a DataType")
    elif k == "ints" and not (isinstance(v, int) and not isinstance(v, bool)
                              or isinstance(v, tuple) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        bad("a list of ints")
    elif k == "shape" and not (isinstance(v, Ref) or isinstance(v, tuple) and all(
            isinstance(x, Ref) or isinstance(x, int) and not isinstance(x, bool) for x in v)):
        bad("a list of ints or scalars")
    elif k == "contiguity" and not (isinstance(v, bool) or isinstance(v, tuple) and all(
            x is None or isinstance(x, bool) for x in v)):
        bad("a list of True/False/None")
    elif k == "int" and not (isinstance(v, (int, Ref)) and not isinstance(v, bool)):
        bad("an int")
    elif k == "bool" and not isinstance(v, (bool, int, Ref)):
        bad("a bool")
    elif k in ("float", "number") and not isinstance(v, _NUM + (Ref,)):
        bad("a number")


def _show(v: Any) -> str:
    if isinstance(v, tuple):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return repr(v)


@dataclass
class Ctx:
    """What a reference implementation may need beyond its arguments."""
    device: Any = "cpu"            # where creation ops put their results
    generator: Any = None          # torch.Generator for random ops (None on meta)
    frontend: str = DIRECT
