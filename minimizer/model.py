"""The program model: one repro script as immutable values.

A ``Program`` is what every pass, backend and report works on. It is deliberately close to the
script text (names as written, positional/keyword style, era spellings) so that printing an
untouched program gives the original bytes back, yet normalised enough (arguments bound to the op
catalog's canonical parameter names) that passes can reason about ops without re-parsing.

Everything here is frozen: a pass builds a new Program with ``dataclasses.replace``. Source
positions and original syntax nodes ride along in fields excluded from equality, so two programs
that mean the same compare equal whatever their history.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Iterator, Union

LEGACY = "nvfuser"
DIRECT = "nvfuser_direct"
FRONTENDS = (LEGACY, DIRECT)


@dataclass(frozen=True)
class Ref:
    """A use of a fusion value (tensor, scalar or vector) by the name it was bound to."""
    name: str

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DType:
    """``DataType.<name>`` in the script."""
    name: str

    def __repr__(self) -> str:
        return f"DataType.{self.name}"


# An argument value: None, bool, int, float, complex, str, Ref, DType, or a tuple of values
# (a list literal in the script; lists are tuples here so that values stay hashable).
Value = Union[None, bool, int, float, complex, str, Ref, DType, tuple]


def refs_in(value: Value) -> Iterator[Ref]:
    """Every Ref inside a (possibly nested) value, in order."""
    if isinstance(value, Ref):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from refs_in(v)


def map_refs(value: Value, fn) -> Value:
    """The value with every Ref replaced by ``fn(ref)`` (which returns a Value)."""
    if isinstance(value, Ref):
        return fn(value)
    if isinstance(value, tuple):
        return tuple(map_refs(v, fn) for v in value)
    return value


@dataclass(frozen=True)
class Origin:
    """Where a model element came from: the syntax node (for verbatim reprinting), its position,
    and the element as first parsed (reprinting verbatim is allowed only while it still equals
    that)."""
    node: Any
    line: int
    col: int
    parsed: Any = None
    # per parameter, the argument's original text where it names module-level constants
    # (``shape=[M, N]``): a re-rendered statement keeps it while the value is unchanged
    texts: tuple[tuple[str, str], ...] = ()
    # ``fd.from_pytorch(<call_args>)``: the statement was read from that call (see reader)
    from_pytorch: str | None = None


#: the calls of the fusion body that are not ops (``Stmt.call``); test them with the matchers
#: below (``Stmt.is_output``, ``is_tensor_decl``, ``is_scalar_def``, ``is_vector_def``), and
#: write them with these names
OUTPUT = "add_output"
DEFINE_TENSOR = "define_tensor"
DEFINE_SCALAR = "define_scalar"
DEFINE_VECTOR = "define_vector"
#: ``define_constant`` is the 2022 frontend's ``define_scalar`` with a value
SCALAR_DEFS = (DEFINE_SCALAR, "define_constant")


@dataclass(frozen=True)
class Stmt:
    """One line of the fusion body: ``outs = fd.<call>(args)`` or ``fd.add_output(...)``.

    ``call`` is ``define_tensor``, ``define_scalar``, ``define_vector``, ``add_output`` or
    ``ops.<op>``. ``args`` holds (canonical parameter name, value) pairs in the order written; the
    first ``npos`` were written positionally. ``outs`` holds the bound names (None for ``_``);
    ``tuple_target`` records the ``T5, = ...`` form.
    """
    outs: tuple[str | None, ...]
    call: str
    args: tuple[tuple[str, Value], ...]
    npos: int = 0
    tuple_target: bool = False
    origin: Origin | None = field(default=None, compare=False, repr=False)

    @property
    def op(self) -> str:
        """The op name without the ``ops.`` prefix (``add``), or the define/add_output call."""
        return self.call[4:] if self.call.startswith("ops.") else self.call

    @property
    def is_op(self) -> bool:
        return self.call.startswith("ops.")

    @property
    def is_output(self) -> bool:
        """``fd.add_output(...)``."""
        return self.call == OUTPUT

    @property
    def is_tensor_decl(self) -> bool:
        """``fd.define_tensor(...)`` (also what ``fd.from_pytorch(x)`` is read as)."""
        return self.call == DEFINE_TENSOR

    @property
    def is_scalar_def(self) -> bool:
        """``fd.define_scalar(...)`` or 2022's ``define_constant``: an input when its value is
        None, else a constant."""
        return self.call in SCALAR_DEFS

    @property
    def is_vector_def(self) -> bool:
        """``fd.define_vector(...)``: legacy; an int value declares that many scalar inputs."""
        return self.call == DEFINE_VECTOR

    def arg(self, name: str, default: Value = None) -> Value:
        for k, v in self.args:
            if k == name:
                return v
        return default

    def has(self, name: str) -> bool:
        return any(k == name for k, _ in self.args)

    def uses(self) -> list[str]:
        """Names this statement reads, in order, with repeats."""
        return [r.name for _, v in self.args for r in refs_in(v)]

    def with_arg(self, name: str, value: Value) -> "Stmt":
        """A copy with one argument replaced (appended as a keyword if absent)."""
        if self.has(name):
            args = tuple((k, value if k == name else v) for k, v in self.args)
        else:
            args = self.args + ((name, value),)
        return dataclasses.replace(self, args=args)

    def without_arg(self, name: str) -> "Stmt":
        idx = [i for i, (k, _) in enumerate(self.args) if k == name]
        if not idx:
            return self
        i = idx[0]
        npos = self.npos - 1 if i < self.npos else self.npos
        return dataclasses.replace(self, args=self.args[:i] + self.args[i + 1:], npos=npos)


@dataclass(frozen=True)
class TensorArg:
    """A concrete tensor in the ``inputs`` list: what the script builds, and how."""
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: str  # nvFuser DataType name
    device: str = "cuda"
    origin: Origin | None = field(default=None, compare=False, repr=False)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def device_index(self) -> int | None:
        """The device index written in the script (``cuda:1`` -> 1); None for ``cuda`` (the current
        device) or a device without an index (``cpu``)."""
        _, sep, index = self.device.partition(":")
        return int(index) if sep and index.isdigit() else None

    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def is_contiguous(self) -> bool:
        """torch's notion (strides of extent-1 dims do not matter), but for an expanded dim (stride
        0, extent not 1), which never is: torch calls every empty tensor contiguous, so an empty
        input with an expanded dim was taken for a row-major one and written with stride 1 there,
        where nvFuser's definition of the input (a broadcast) needs 0."""
        if any(st == 0 and n != 1 for n, st in zip(self.shape, self.strides)):
            return False
        return self.strides == contiguous_strides(self.shape) or _contig_ignoring_unit(self.shape, self.strides)


@dataclass(frozen=True)
class ScalarArg:
    """A Python scalar in the ``inputs`` list."""
    value: bool | int | float | complex
    origin: Origin | None = field(default=None, compare=False, repr=False)


InputArg = Union[TensorArg, ScalarArg]


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(strides))


def _contig_ignoring_unit(shape, strides) -> bool:
    """torch's notion: strides of size-1 dims do not matter."""
    acc = 1
    for s, st in zip(reversed(shape), reversed(strides)):
        if s == 1:
            continue
        if st != acc:
            return False
        acc *= s
    return True


@dataclass(frozen=True)
class Dialect:
    """How the script is spelled.

    ``frontend`` is the module the script's ``FusionDefinition`` comes from (``nvfuser`` legacy
    or ``nvfuser_direct``); ``module`` the exact import path written (``torch._C._nvfuser`` in
    2022 scripts). ``spellings`` lists era-specific keyword names in use (``axes``,
    ``symbolic_sizes``, ``contiguous``, ``output_shape``, ``original_shape``), so a rewritten
    statement is printed in the same era as its neighbours.
    """
    frontend: str = LEGACY
    module: str = LEGACY
    spellings: frozenset[str] = frozenset()
    # how the script names DataType: ``DataType``, ``DT`` (``from nvfuser import DataType as DT``)
    # or ``nvf.DataType`` (``import nvfuser as nvf``); re-rendered statements spell it the same way
    datatype: str = "DataType"

    @property
    def is_legacy(self) -> bool:
        return self.frontend == LEGACY


@dataclass(frozen=True)
class Program:
    """A whole repro: the fusion body and the concrete inputs it is executed with.

    ``func_name`` is the name of the fusion function (``def nvfuser_fusion_id0(fd)``), or None
    when the fusion body is written inline under ``with FusionDefinition() as fd:``: then the
    ``with`` block itself is the fusion, and the printer keeps that form.

    ``source`` (not compared) is the parsed script (see ``reader.Source``); without it the printer
    emits a fresh canonical script.
    """
    dialect: Dialect
    func_name: str | None
    stmts: tuple[Stmt, ...]
    inputs: tuple[InputArg, ...] | None  # None when the script never builds an inputs list
    fd_name: str = "fd"
    source: Any = field(default=None, compare=False, repr=False)

    # ---- structure queries used by passes, backends and reports ----
    def input_stmts(self) -> list[Stmt]:
        """The statements that declare fusion inputs, in definition order (which is the order the
        ``inputs`` list must follow)."""
        return [s for s in self.stmts if is_input_decl(s)]

    def op_stmts(self) -> list[Stmt]:
        return [s for s in self.stmts if s.is_op]

    def output_stmts(self) -> list[Stmt]:
        return [s for s in self.stmts if s.is_output]

    def output_indices(self) -> list[int]:
        """Where the ``add_output`` statements are, in order."""
        return [i for i, s in enumerate(self.stmts) if s.is_output]

    def n_ops(self) -> int:
        return len(self.op_stmts())

    def replace(self, **kw) -> "Program":
        return dataclasses.replace(self, **kw)


def output_stmt(value: Ref) -> Stmt:
    """``fd.add_output(value)``, written positionally."""
    return Stmt((), OUTPUT, (("output", value),), npos=1)


def is_input_decl(s: Stmt) -> bool:
    """define_tensor always; define_scalar with value None (a runtime scalar); legacy
    ``define_vector(size)`` (an int) makes that many scalar inputs."""
    if s.is_tensor_decl:
        return True
    if s.is_scalar_def:
        return s.arg("value", None) is None
    if s.is_vector_def:
        return isinstance(s.arg("values"), int)
    return False
