"""The reference semantics of a fusion body: run its statements with the catalog's torch
references, checking what nvFuser checks.

Two callers share this one interpreter:
* fmin's own ``FusionDefinition`` (reference and inductor backends) runs it on real tensors in a
  worker process;
* the reducer and the fuzzer run it on ``meta`` tensors in the fmin process (no data, no script
  code: only statements from the model) to learn every value's shape, dtype and strides, and to
  reject an ill-formed candidate before any backend sees it.

Errors are ``FusionError`` with nvFuser-like messages and a ``kind``: ``definition`` (what
nvFuser rejects while the fusion is defined), ``input`` (inputs that do not match their
``define_tensor``: user errors, never bugs) and ``runtime`` (a reference implementation failed).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import torch

from .. import dtypes
from ..ops import CATALOG, Ctx, fp4, literal_value
from ..ops.shape import with_stride_order
from ..model import DEFINE_TENSOR, DEFINE_VECTOR, LEGACY, OUTPUT, SCALAR_DEFS, DType, Ref, Stmt, is_input_decl


#: a fusion without outputs is an error, as in nvFuser: ``nvfuser_direct``'s
#: ``FusionDefinition.execute`` raises ``NotImplementedError("Fusion is empty!")`` when
#: ``validate_definition`` finds no outputs (python/nvfuser_direct/__init__.py). The reference
#: backend and the static check both follow this one rule (``run``).
EMPTY_FUSION = "Fusion is empty! (the fusion has no outputs)"


class FusionError(Exception):
    """``partial``: what the run computed before the error (a ``Result`` whose ``values`` cover
    the statements before ``stmt_index``), when it was asked to keep values — what a reduction
    of an original fmin's reference rejects still knows (``static.check_partial``)."""

    def __init__(self, message: str, kind: str = "definition", stmt_index: int | None = None):
        super().__init__(message)
        self.kind = kind
        self.stmt_index = stmt_index
        self.partial: "Result | None" = None

    def describe(self, program) -> str:
        """The error with the statement it comes from: ``line 12 (T5 = fd.ops.reshape(...)): ...``."""
        i = self.stmt_index
        if i is None or not 0 <= i < len(program.stmts):
            return str(self)
        s = program.stmts[i]
        line = f"line {s.origin.line}" if s.origin is not None else f"statement {i + 1}"
        outs = ", ".join(n or "_" for n in s.outs)
        return f"{line} ({(outs + ' = ') if outs else ''}fd.{s.call}(...)): {self}"


@dataclass
class TensorFacts:
    """What nvFuser knows about a tensor beyond its value: which dims are broadcast, and whether
    it is a pad's output (``cat(manual_padding=True)`` needs that)."""
    bcast: tuple[bool, ...]
    padded: bool = False


@dataclass
class Result:
    outputs: list[Any]                       # fusion outputs (aliased ones excluded), in order
    env: dict[str, Any] = field(default_factory=dict)        # name -> value, as last bound
    facts: dict[str, TensorFacts] = field(default_factory=dict)
    values: list[dict[str, Any]] = field(default_factory=list)  # per statement: outs -> value
    # statement index -> {param: [dims]}: broadcast dims whose extent had to be narrowed to 1
    narrowed: dict[int, dict[str, list[int]]] = field(default_factory=dict)


def _kind_of(v: Any) -> str:
    if isinstance(v, torch.Tensor):
        return "tensor"
    if isinstance(v, tuple):
        return "vector"
    return "scalar"


def input_count(stmts: Sequence[Stmt]) -> int:
    n = 0
    for s in stmts:
        if s.is_vector_def and isinstance(s.arg("values"), int):
            n += s.arg("values")
        elif is_input_decl(s):
            n += 1
    return n


def run(stmts: Sequence[Stmt], inputs: Sequence[Any], *, frontend: str = LEGACY,
        ctx: Ctx | None = None, check_inputs: bool = True, keep_values: bool = False,
        upcast: bool = False, free: bool | None = None, perturb: int = 0, watch=None) -> Result:
    """Execute ``stmts`` on ``inputs`` (tensors and Python scalars in inputs-list order).

    ``upcast``: the fp64 reference. Inputs are checked as declared, then every fp32/fp16/bf16
    tensor is computed in float64, and a float dtype an op asks for (a cast, a reduction's or a
    creation op's ``dtype``) becomes Double: the program's arithmetic without its roundings, which
    tells "computes something else" from "rounds differently" (see ``oracle.compare``). An input
    aliased by an output then ends as a float64 tensor holding the exact value written into it.
    ``perturb`` (with ``upcast``): each floating input is first moved by ``PERTURB_ULPS`` of the
    program's narrowest floating dtype, up or down by a sign drawn from this seed (``perturbed``):
    another legitimate exact result, to tell an ill-conditioned element from a wrong one.

    ``free`` (unless ``keep_values``): each value leaves ``env`` after its last use
    (``last_uses``), so the peak is the live set, not every intermediate; fusion outputs and
    aliased inputs stay. ``Result.env`` then holds those only.

    A ``FusionError`` carries the statement it comes from and, with ``keep_values``, what was
    computed before it (``FusionError.partial``).

    ``watch(i, stmt, spec, args, results)``: called for every op with its resolved arguments,
    before it runs (``results`` None) and after (``validity.ValueWatch``: the rules that need
    values, on a real run).

    A fusion without outputs is an error (``EMPTY_FUSION``), raised after its statements ran."""
    n_expected = input_count(stmts)
    free = FREE_DEAD_VALUES if free is None else free
    last_use = last_uses(stmts) if free and not keep_values else {}
    if check_inputs and len(inputs) != n_expected:
        raise FusionError(f"Expected {n_expected} inputs but got {len(inputs)}", "input")
    r = _Run(inputs, n_expected, ctx or Ctx(frontend=frontend), check_inputs, upcast)
    if upcast and perturb:
        r.perturb = (torch.Generator().manual_seed(perturb), PERTURB_ULPS * narrowest_eps(stmts, inputs))
    r.watch = watch
    for i, s in enumerate(stmts):
        try:
            out_vals = r.step(i, s)
        except FusionError as e:
            raise _partial(e, i, keep_values, r.outputs, r.env, r.facts, r.per_stmt, r.narrowed) from e.__cause__
        if keep_values:
            r.per_stmt.append(out_vals)
        elif free and i in last_use:
            for name in last_use[i]:
                r.env.pop(name, None)
    if not any(s.is_output for s in stmts):
        raise _partial(FusionError(EMPTY_FUSION, "definition"), None, keep_values, r.outputs, r.env, r.facts,
                       r.per_stmt, r.narrowed)
    r.write_aliases()
    return Result(r.outputs, r.env, r.facts, r.per_stmt, r.narrowed)


class _Run:
    """One execution: what each name holds (``env``), the IR facts of tensors, the outputs, and
    the inputs still to be taken."""

    def __init__(self, inputs: Sequence[Any], n_expected: int, ctx: Ctx, check_inputs: bool, upcast: bool):
        self.inputs, self.n_expected, self.ctx = inputs, n_expected, ctx
        self.check_inputs, self.upcast = check_inputs, upcast
        self.env: dict[str, Any] = {}
        self.facts: dict[str, TensorFacts] = {}
        self.outputs: list[Any] = []
        self.aliases: list[tuple[torch.Tensor, torch.Tensor]] = []
        self.per_stmt: list[dict[str, Any]] = []
        self.narrowed: dict[int, dict[str, list[int]]] = {}
        self.it = iter(enumerate(inputs))
        self.perturb: tuple[torch.Generator, float] | None = None   # (signs, relative step): ``run``
        self.originals: dict[int, torch.Tensor] = {}   # id of an upcast input -> the caller's tensor
        self.watch = None

    def step(self, i: int, s: Stmt) -> dict[str, Any]:
        """Statement ``i``; returns the values it defined. An error of a reference becomes a
        ``FusionError`` of kind ``runtime``."""
        spec = CATALOG.get(s.call)
        if spec is None:
            raise FusionError(f"unknown call fd.{s.call}", "definition", i)
        try:
            define = self.DEFINITIONS.get(s.call)
            if define is not None:
                return define(self, i, s)
            return _run_op(spec, s, i, self.resolve, self.ctx, self.env, self.facts, self.narrowed, self.upcast,
                           self.watch)
        except FusionError:
            raise
        except (RuntimeError, ValueError, TypeError, IndexError, NotImplementedError) as e:
            raise FusionError(f"fd.{s.call}: {type(e).__name__}: {_first_line(e)}", "runtime", i) from e

    def next_input(self, i_stmt: int) -> tuple[int, Any]:
        """(position, value) of the next value of the inputs list."""
        try:
            return next(self.it)
        except StopIteration:
            raise FusionError(f"Expected {self.n_expected} inputs but got {len(self.inputs)}", "input", i_stmt)

    def resolve(self, v, i_stmt: int):
        """A model value as a reference sees it: names to what they hold, ``DataType.X`` to ``"X"``."""
        if isinstance(v, Ref):
            if v.name not in self.env:
                raise FusionError(f"name '{v.name}' is used before it is defined", "definition", i_stmt)
            return self.env[v.name]
        if isinstance(v, DType):
            return v.name
        if isinstance(v, tuple):
            return tuple(self.resolve(x, i_stmt) for x in v)
        return v

    def define_tensor(self, i: int, s: Stmt) -> dict[str, Any]:
        k, t = self.next_input(i)
        if _declares_fp4(s) and fp4.is_fp4(t):
            t = _unpack_input(s, k, t, self.check_inputs)
        elif self.check_inputs:
            check_tensor_input(s, k, t)
        self.facts[s.outs[0]] = TensorFacts(_declared_bcast(s, t))
        if self.upcast and isinstance(t, torch.Tensor) and t.dtype in _UPCAST + (torch.float64,):
            orig = t
            t = perturbed(t.to(torch.float64), *self.perturb) if self.perturb else t.to(torch.float64)
            if t is not orig:
                self.originals[id(t)] = orig
        self.env[s.outs[0]] = t
        return {s.outs[0]: t}

    def define_scalar(self, i: int, s: Stmt) -> dict[str, Any]:
        """``define_scalar``/``define_constant``: a constant, or (value None) the next input."""
        value = s.arg("value")
        if value is None:
            k, value = self.next_input(i)
            if self.check_inputs:
                check_scalar_input(s, k, value)
            if isinstance(value, torch.Tensor):
                value = value.item()
        elif isinstance(value, Ref):
            value = self.resolve(value, i)
        value = _cast_scalar(value, s.arg("dtype"))
        self.env[s.outs[0]] = value
        return {s.outs[0]: value}

    def define_vector(self, i: int, s: Stmt) -> dict[str, Any]:
        """A Vector of ints: the given values, or (an int n) the next n inputs."""
        vals = s.arg("values")
        if isinstance(vals, int):
            vals = tuple(self.next_input(i)[1] for _ in range(vals))
        else:
            vals = self.resolve(vals, i)
        self.env[s.outs[0]] = tuple(int(v) for v in vals)
        return {s.outs[0]: self.env[s.outs[0]]}

    def add_output(self, i: int, s: Stmt) -> dict[str, Any]:
        """An output (laid out by ``stride_order``), or, with ``alias_input``, a write into that
        input once the fusion is computed."""
        val = self.resolve(s.arg("output"), i)
        alias = s.arg("alias_input")
        if alias is not None:
            self.aliases.append((self.resolve(alias, i), val))
        else:
            order = s.arg("stride_order")
            if order is not None and isinstance(val, torch.Tensor):
                _check_output_stride_order(order, val.ndim, i)
                if order:
                    val = with_stride_order(val, order)
            if fp4.is_fp4(val):   # as nvFuser hands it to torch
                val = _packed_output(val, i)
            self.outputs.append(val)
        return {}

    DEFINITIONS = {DEFINE_TENSOR: define_tensor, **dict.fromkeys(SCALAR_DEFS, define_scalar),
                   DEFINE_VECTOR: define_vector, OUTPUT: add_output}

    def write_aliases(self) -> None:
        """In-place aliased outputs are written once the whole fusion has been computed."""
        for dst, src in self.aliases:
            if dst.device.type != "meta":
                dst.copy_(src)
                if id(dst) in self.originals:   # the fp64 reference: the caller's input gets the exact value
                    self.originals[id(dst)].data = dst


#: ``run``'s default for ``free`` (``scripts/bench_memory.py`` turns it off to measure what it saves)
FREE_DEAD_VALUES = True


def _partial(e: FusionError, i: int | None, keep_values: bool, outputs, env, facts, per_stmt, narrowed) -> FusionError:
    """``e`` with the statement it comes from and, when values are kept, what was computed
    before it."""
    if e.stmt_index is None and i is not None:
        e.stmt_index = i
    if keep_values and e.partial is None:
        e.partial = Result(list(outputs), dict(env), dict(facts), list(per_stmt), dict(narrowed))
    return e


def last_uses(stmts: Sequence[Stmt]) -> dict[int, list[str]]:
    """Statement index -> the names whose value is read for the last time there (and is not a
    fusion output, not an aliased input, not rebound later: those must stay). What the reference
    frees as it goes: a script with gigabyte inputs would otherwise hold every intermediate at
    once. A name bound but never read is freed at its own statement."""
    keep: set[str] = set()
    for s in stmts:
        if s.is_output:
            for v in (s.arg("output"), s.arg("alias_input")):
                if isinstance(v, Ref):
                    keep.add(v.name)
    last: dict[str, int] = {}
    for i, s in enumerate(stmts):
        for name in s.uses():
            last[name] = i
        for name in s.outs:
            if name is not None:
                last.setdefault(name, i)
                last[name] = max(last[name], i)
    out: dict[int, list[str]] = {}
    for name, i in last.items():
        if name not in keep:
            out.setdefault(i, []).append(name)
    return out


_UPCAST = (torch.float32, torch.float16, torch.bfloat16)
_UPCAST_NAMES = ("Float", "Half", "BFloat16")
_FLOATS = {"Double": torch.float64, "Float": torch.float32, "Half": torch.float16, "BFloat16": torch.bfloat16}
#: how far ``run(perturb=)`` moves each floating input, in units of the narrowest dtype's eps: a
#: few roundings, as much as a legitimate implementation's intermediates may differ by
PERTURB_ULPS = 2.0


def narrowest_eps(stmts: Sequence[Stmt], inputs: Sequence[Any] = ()) -> float:
    """The eps of the narrowest floating dtype the program declares or is given (float64's if
    none): the rounding every value of it may carry. fp4 inputs do not count: nothing computes on
    them (torch has no ``finfo`` for them either)."""
    found = [t.dtype for t in inputs if isinstance(t, torch.Tensor) and t.dtype.is_floating_point
             and not fp4.is_fp4(t)]

    def walk(v):
        if isinstance(v, DType) and v.name in _FLOATS:
            found.append(_FLOATS[v.name])
        elif isinstance(v, tuple):
            for x in v:
                walk(x)
    for st in stmts:
        for _, v in st.args:
            walk(v)
    return max((torch.finfo(d).eps for d in found), default=torch.finfo(torch.float64).eps)


def perturbed(t: torch.Tensor, signs: torch.Generator, rel: float) -> torch.Tensor:
    """``t`` (float64) with each element times ``1 ± rel``, the signs drawn from ``signs`` on the
    CPU (the same for every device)."""
    s = torch.randint(0, 2, tuple(t.shape), generator=signs).to(torch.float64).mul_(2 * rel).sub_(rel).add_(1)
    return torch.empty_like(t).copy_(t * s.to(t.device))


def _run_op(spec, s: Stmt, i: int, resolve, ctx: Ctx, env, facts, narrowed, upcast=False,
            watch=None) -> dict[str, Any]:
    kw = {}
    given = dict(s.args)
    for p in spec.params_for(ctx.frontend):
        if p.name in given:
            kw[p.name] = literal_value(p, given[p.name], resolve(given[p.name], i), ctx.frontend)
        elif not p.required:
            kw[p.name] = p.default
        else:
            raise FusionError(f"fd.ops.{spec.name}() missing required argument '{p.name}'", "definition", i)
        if upcast and p.kind == "dtype" and kw[p.name] in _UPCAST_NAMES and "format-dtype" not in spec.tags:
            kw[p.name] = "Double"
    for p in spec.params_for(ctx.frontend):
        v = kw.get(p.name)
        if p.kind == "tensor" and p.required and not isinstance(v, torch.Tensor):
            raise FusionError(f"fd.ops.{spec.name}() argument '{p.name}' expects a tensor, "
                              f"got a {_kind_of(v)}", "definition", i)
        if ctx.frontend == LEGACY and p.kind in ("operand", "scalar") and p.name in given \
                and not isinstance(given[p.name], Ref) and given[p.name] is not None:
            raise FusionError(f"fd.ops.{spec.name}(): the legacy frontend takes no Python number "
                              f"for '{p.name}'; define it with fd.define_scalar", "definition", i)
    if _computes_on_fp4(spec, kw):
        raise FusionError(f"fd.ops.{spec.name}: Float4_e2m1fn is a storage type: cast it to Float "
                          "before computing on it", "definition", i)
    if spec.ir_check is not None:
        problem = spec.ir_check(kw, lambda p: _operand_facts(given.get(p), facts))
        if problem:
            raise FusionError(f"fd.ops.{spec.name}: {problem}", "definition", i)
    bcast = None
    if spec.elementwise:
        bcast, cut = _check_broadcast(spec, s, i, kw, given, facts)
        if cut:
            narrowed[i] = cut
            for name, dims in cut.items():
                for d in dims:
                    kw[name] = kw[name].narrow(d, 0, 1)
    kw = host_scalars_to_device(kw)
    if watch is not None:
        watch(i, s, spec, kw, None)   # before: a reference may raise on what the rules forbid
    result = spec.ref(ctx, **kw)
    results = tuple(result) if spec.n_outputs != 1 else (result,)
    if watch is not None:
        watch(i, s, spec, kw, results)
    if spec.n_outputs > 1 and len(results) != spec.n_outputs:
        raise FusionError(f"fd.ops.{spec.name} produced {len(results)} values, expected {spec.n_outputs}",
                          "runtime", i)
    if s.outs and len(s.outs) != len(results):
        raise FusionError(f"fd.ops.{spec.name} returns {len(results)} value(s), "
                          f"but {len(s.outs)} name(s) are assigned", "definition", i)
    out_vals = {}
    for name, val in zip(s.outs, results):
        if name is None:
            continue
        env[name] = val
        out_vals[name] = val
        if isinstance(val, torch.Tensor):
            if spec.elementwise and bcast is not None and len(bcast) == val.ndim:
                flags = bcast
            else:
                flags = _propagate_bcast(spec, kw, given, facts, val)
            facts[name] = TensorFacts(flags, padded="padded-output" in spec.tags)
    return out_vals


def is_host_scalar(v: Any) -> bool:
    """A 0-dim CPU tensor: what nvFuser takes for a ``define_tensor(shape=[], is_cpu=True)`` input,
    a scalar operand that lives on the host."""
    return isinstance(v, torch.Tensor) and v.ndim == 0 and v.device.type == "cpu"


def host_scalars_to_device(kw: dict[str, Any]) -> dict[str, Any]:
    """An op's operands with every host scalar (``is_host_scalar``) moved to the device of its
    other tensor operands, when that is not the CPU.

    Why: nvFuser computes an expression that has a device tensor operand on that device and reads
    a CPU scalar operand's value there (its ``PropagateCpuScalarsPass``: such an expression's
    outputs are device tensors). torch lets a 0-dim CPU tensor join a CUDA one in most pointwise
    ops but not all (``logical_or``, ``where``, some comparisons and bitwise ops refuse), and the
    reference would file its own refusal as a finding. Doing it here, at every op's boundary,
    covers every op at once. An expression whose only tensor operands are host scalars keeps them
    on the host, as nvFuser does (its outputs are CPU scalars too)."""
    device = next((t.device for t in _tensors(kw.values()) if not is_host_scalar(t)), None)
    if device is None or device.type == "cpu":
        return kw
    return {k: _to_device(v, device) for k, v in kw.items()}


def _tensors(values):
    for v in values:
        if isinstance(v, torch.Tensor):
            yield v
        elif isinstance(v, (tuple, list)):
            yield from _tensors(v)


def _to_device(v: Any, device: torch.device) -> Any:
    if is_host_scalar(v):
        return v.to(device)
    if isinstance(v, (tuple, list)):
        return type(v)(_to_device(x, device) for x in v)
    return v


#: the ops that take fp4 tensors: casts, copies and the ops that only move values (the CPU
#: kernels of these work on one code per byte; nvFuser's runtime has no fp4 arithmetic)
_TAKES_FP4 = frozenset({"cast", "set", "segment_set", "broadcast_in_dim", "broadcast", "expand", "reshape",
                        "permute", "squeeze", "slice", "cat", "stride_order", "shape", "size", "tensor_sizes",
                        "select", "index_select", "scaled_mm"})


def _computes_on_fp4(spec, kw) -> bool:
    """Any other op given an fp4 tensor: torch's meta kernels would let it through, its CPU
    kernels (even ``pad``'s fill) and nvFuser's runtime would not."""
    return spec.name not in _TAKES_FP4 and any(fp4.is_fp4(v) for v in kw.values())


def _in_flags(kw, given, facts, param="arg"):
    g = given.get(param)
    t = kw.get(param)
    f = facts.get(g.name) if isinstance(g, Ref) else None
    if f is None or not isinstance(t, torch.Tensor) or len(f.bcast) != t.ndim:
        return None
    return f.bcast


def _operand_facts(value, facts):
    """Facts of the operand(s) given for one parameter: one, a list for a list, or None."""
    if isinstance(value, tuple):
        return [_operand_facts(v, facts) for v in value]
    return facts.get(value.name) if isinstance(value, Ref) else None


def _propagate_bcast(spec, kw, given, facts, out: torch.Tensor) -> tuple[bool, ...]:
    """Which output dims are broadcasts in nvFuser's IR: the op's own ``bcast_rule`` where it
    has one (ops that make or move broadcast dims); otherwise a dim is a broadcast iff its
    extent is 1 (close enough for the check)."""
    default = tuple(d == 1 for d in out.shape)
    if spec.bcast_rule is None:
        return default
    try:
        flags = spec.bcast_rule(kw, _in_flags(kw, given, facts))
    except (KeyError, IndexError, StopIteration, TypeError):
        return default
    return tuple(flags) if flags is not None and len(flags) == out.ndim else default


def _check_broadcast(spec, s, i, kw, given, facts):
    """nvFuser broadcasts only dims that are broadcast in its IR (declared extent 1, expanded, or
    made by broadcast ops); a symbolic dim whose runtime extent happens to be 1 does not stretch
    to match another operand, unlike torch. Conversely a broadcast dim stays a broadcast whatever
    extent it was expanded to, so it stretches to the other operands' extent.

    Returns the output's broadcast flags and, per operand, the broadcast dims whose extent differs
    from the result's and must be narrowed to 1 for torch to compute what nvFuser computes."""
    operands = []
    for name, v in kw.items():
        if isinstance(v, torch.Tensor):
            g = given.get(name)
            f = facts.get(g.name) if isinstance(g, Ref) else None
            b = f.bcast if f is not None and len(f.bcast) == v.ndim else tuple(d == 1 for d in v.shape)
            operands.append((name, v, b))
    if not operands:
        return None, {}
    rank = max(v.ndim for _, v, _ in operands)
    out_b, extent_of = [], []
    for d in range(rank):
        extents = set()
        all_b = True
        for _, v, b in operands:
            k = d - (rank - v.ndim)
            if k < 0:
                continue
            if not b[k]:
                all_b = False
                extents.add(v.shape[k])
        if len(extents) > 1:
            raise FusionError(f"fd.ops.{spec.name}: extents {sorted(extents)} of dim {d} do not match and "
                              f"none of these dims is a broadcast", "definition", i)
        out_b.append(all_b)
        extent_of.append(next(iter(extents)) if extents else None)
    cut: dict[str, list[int]] = {}
    for name, v, b in operands:
        for k in range(v.ndim):
            d = k + rank - v.ndim
            if b[k] and extent_of[d] is not None and v.shape[k] not in (1, extent_of[d]):
                cut.setdefault(name, []).append(k)
    return tuple(out_b), cut


def _first_line(e: Exception) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else ""


def _cast_scalar(value, dtype: DType | None):
    if dtype is None or isinstance(value, torch.Tensor) or value is None:
        return value
    name = dtype.name
    if name == "Bool":
        return bool(value)
    if name in dtypes.INTEGRAL:
        return int(value)
    if name in dtypes.FLOATING:
        return float(value)
    if name in dtypes.COMPLEX:
        return complex(value)
    return value


def _check_output_stride_order(order, ndim: int, i: int) -> None:
    """What the legacy ``add_output(output, stride_order)`` binding checks
    (python_frontend/python_bindings.cpp)."""
    order = tuple(order) if isinstance(order, (tuple, list)) else (order,)
    if order and len(order) != ndim:
        raise FusionError("fd.add_output: stride_order needs to be either empty or the same length of "
                          "Tensor `output`", "definition", i)
    if any(not 0 <= v < len(order) for v in order):
        raise FusionError(f"fd.add_output: stride_order elements need to be within [0, {len(order)})",
                          "definition", i)
    if len(set(order)) != len(order):
        raise FusionError("fd.add_output: duplicated elements in stride_order detected!", "definition", i)


# ---- input validation, the way nvFuser's executor checks arguments ----
def declared_shape(s: Stmt) -> tuple[int, ...] | None:
    shape = s.arg("shape")
    if shape is None and s.arg("sizes") is not None:
        sizes = s.arg("sizes")
        static = bool(s.arg("static_sizes", False))
        return tuple(d if (static or d == 1) else -1 for d in sizes)
    return tuple(shape) if isinstance(shape, tuple) else None


def declared_contiguity(s: Stmt, rank: int):
    """Contiguity flags in allocation order, a None for broadcast dims."""
    c = s.arg("contiguity")
    shape = declared_shape(s) or ()
    old = s.arg("contiguous")
    if isinstance(old, tuple) and len(old) == len(shape):
        # 2022-2023 ``contiguous``: per logical dim, a flag even at broadcast dims
        alloc = _alloc_dims(s.arg("stride_order") or (), rank)
        return tuple(None if shape[d] == 1 else old[d] for d in alloc)
    if c is None and isinstance(old, bool):
        c = old
    if s.arg("sizes") is not None and c is None:
        return tensor_descriptor(s.arg("sizes"), s.arg("strides") or ())[0]
    if c is None:
        c = False
    if isinstance(c, bool):
        order = s.arg("stride_order") or ()
        alloc = _alloc_dims(order, rank)
        return tuple(None if shape[d] == 1 else c for d in alloc)
    return tuple(c)


def tensor_descriptor(sizes, strides) -> tuple[tuple, tuple]:
    """(contiguity in allocation order, stride order) that ``define_tensor(sizes=, strides=)``
    (and so ``fd.from_pytorch``) derives from a tensor's sizes and strides: nvFuser's
    ``computeTensorDescriptor`` (python/python_common/python_utils.cpp), ported as written.
    Broadcast dims (stride 0 or size 1) get contiguity None and keep their logical position."""
    sizes, strides = list(sizes), list(strides)
    if len(sizes) != len(strides):
        raise FusionError("The number of sizes does not match the number of strides.", "definition")
    n = len(sizes)
    dims = [{"index": i, "size": sizes[i], "stride": strides[i], "order": -1, "contig": None} for i in range(n)]
    order = sorted((d for d in dims if d["stride"] != 0), key=lambda d: -d["stride"])  # stable, like std
    for d in (d for d in dims if d["stride"] == 0):
        order.insert(d["index"], d)

    def bcast(d):
        return d["stride"] == 0 or d["size"] == 1

    i = 0
    while i < n:
        order[i]["order"] = n - 1 - i
        if bcast(order[i]):
            i += 1
            continue
        first, i, expected = i, i + 1, 1
        while i < n:
            order[i]["order"] = n - 1 - i
            if not bcast(order[i]):
                expected = order[i]["stride"] * order[i]["size"]
                break
            i += 1
        order[first]["contig"] = order[first]["stride"] == expected
    stride_order = [-1] * n
    for d in order:
        stride_order[d["index"]] = d["order"]
    return tuple(d["contig"] for d in order), tuple(stride_order)


def _stride_order(s: Stmt) -> tuple:
    """The declared stride order: written, or derived from ``strides=``."""
    if s.arg("sizes") is not None and s.arg("contiguity") is None:
        return tensor_descriptor(s.arg("sizes"), s.arg("strides") or ())[1]
    return tuple(s.arg("stride_order") or ())


def _alloc_dims(order, rank) -> list[int]:
    """Logical dims from outermost to innermost allocation position."""
    if not order:
        return list(range(rank))
    return sorted(range(rank), key=lambda d: -order[d])


def _declared_bcast(s: Stmt, t) -> tuple[bool, ...]:
    """Broadcast dims of an input: declared extent 1, or an expanded dim (contiguity None)."""
    shape = declared_shape(s)
    if shape is None:
        strides = t.stride() if isinstance(t, torch.Tensor) else ()
        return tuple(st == 0 for st in strides)
    flags = [d == 1 for d in shape]
    c = s.arg("contiguity")
    if c is None and s.arg("sizes") is not None:
        c = declared_contiguity(s, len(shape))
    if isinstance(c, tuple) and len(c) == len(shape):
        alloc = _alloc_dims(_stride_order(s), len(shape))
        for pos, flag in enumerate(c):
            if flag is None:
                flags[alloc[pos]] = True
    return tuple(flags)


def check_tensor_input(s: Stmt, k: int, t: Any) -> None:
    name = s.outs[0]
    if not isinstance(t, torch.Tensor):
        raise FusionError(f"Expected input {k}, {name}, to be an at::Tensor but got scalar {t!r}", "input")
    shape = declared_shape(s)
    dtype = s.arg("dtype")
    want = dtypes.to_torch(dtype.name) if isinstance(dtype, DType) else torch.float32
    if t.dtype != want:
        raise FusionError(f"Expected input {k}, {name}, to be bound to a tensor of dtype "
                          f"{dtypes.from_torch(want)}, but got a tensor of dtype {dtypes.from_torch(t.dtype)}", "input")
    if shape is None:
        return
    if len(shape) != t.ndim:
        raise FusionError(f"Expected input {k}, {name}, to be a {len(shape)}-dim tensor, "
                          f"but got {t.ndim} dims {tuple(t.shape)}", "input")
    for d, (want_d, got) in enumerate(zip(shape, t.shape)):
        if want_d >= 0 and want_d != got and not (want_d == 1 and False):
            raise FusionError(f"Expected input {k}, {name}, dim {d} to have static extent {want_d}, "
                              f"but got {got}", "input")
    is_cpu = bool(s.arg("is_cpu", False))
    if is_cpu and t.device.type not in ("cpu", "meta"):
        raise FusionError(f"Expected input {k}, {name}, to be a CPU scalar tensor", "input")
    if is_cpu and t.ndim != 0:
        raise FusionError(f"Expected input {k}, {name}: only 0-dim tensors can be CPU tensors", "input")
    contig = declared_contiguity(s, t.ndim)
    if contig is None:
        return
    if len(contig) != t.ndim:
        raise FusionError(f"{name}: contiguity has {len(contig)} entries for a {t.ndim}-dim tensor", "definition")
    _check_strides(s, k, t, shape, contig)


def _check_strides(s: Stmt, k: int, t: torch.Tensor, shape, contig) -> None:
    """Strides against the declared contiguity, by nvFuser's validateAllocationSizesAndStrides.

    nvFuser skips the whole walk for an empty tensor (no element is ever
    addressed), and an expanded dim whose runtime extent is 1 may have any
    stride (its only element sits at offset 0 either way)."""
    name = s.outs[0]
    checked = t.numel() != 0
    alloc = _alloc_dims(_stride_order(s), t.ndim)
    sizes, strides = list(t.shape), list(t.stride())
    # walk allocation order inner to outer, as nvFuser's validateContiguity does
    expected_next = 1
    for pos in range(t.ndim - 1, -1, -1):
        d = alloc[pos]
        flag = contig[pos]
        if flag is None:
            if checked and shape[d] != 1 and sizes[d] != 1 and strides[d] != 0:
                raise FusionError(f"Expecting an expanded dimension on dimension {d} of input {k}, {name}, "
                                  f"but got stride {strides[d]}", "input")
            continue
        if shape[d] == 1:
            raise FusionError(f"{name}: the contiguity of a broadcast dimension must be None", "definition")
        if sizes[d] == 1:
            continue  # the stride of an extent-1 dim means nothing (as in torch)
        if checked and flag and strides[d] != expected_next:
            raise FusionError(f"Input {k}, {name}'s stride mismatch with contiguity info. dim {d}: "
                              f"expected stride {expected_next}, got {strides[d]}", "input")
        expected_next = strides[d] * sizes[d]


def _declares_fp4(s: Stmt) -> bool:
    dtype = s.arg("dtype")
    return isinstance(dtype, DType) and dtype.name == "Float4_e2m1fn"


def _unpack_input(s: Stmt, k: int, t: torch.Tensor, check: bool) -> torch.Tensor:
    """A packed ``float4_e2m1fn_x2`` input of a ``Float4_e2m1fn`` ``define_tensor``: checked as
    nvFuser sees it (the innermost allocation dim twice as long, the other strides counted in
    fp4 elements: ``getLastDimAdjustment``), then unpacked to one code per element."""
    if t.ndim == 0:
        raise FusionError(f"Expected input {k}, {s.outs[0]}: a Float4_e2m1fn tensor needs a dim to unpack", "input")
    inner = _alloc_dims(_stride_order(s), t.ndim)[-1]
    if check:
        sizes = [2 * n if d == inner else n for d, n in enumerate(t.shape)]
        strides = [st if d == inner else 2 * st for d, st in enumerate(t.stride())]
        check_tensor_input(s, k, torch.empty_strided(sizes, strides, dtype=t.dtype, device="meta"))
    return fp4.unpack(t, inner)


def _packed_output(val: torch.Tensor, i: int) -> torch.Tensor:
    try:
        return fp4.pack(val, fp4.innermost(val))
    except ValueError as e:
        raise FusionError(f"add_output: {e}", "definition", i) from e


def check_scalar_input(s: Stmt, k: int, v: Any) -> None:
    if isinstance(v, torch.Tensor) and v.ndim == 0:
        return
    if not isinstance(v, (bool, int, float, complex)):
        raise FusionError(f"Expected input {k}, {s.outs[0]}, to be a scalar but got {type(v).__name__}", "input")
