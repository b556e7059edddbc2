"""Translate a repro between nvFuser frontends and eras, keeping what it computes.

Why this exists: nvFuser 0.2.36 removed the legacy ``nvfuser`` frontend, so three years of
legacy repros (``from nvfuser import ...``, ``from torch._C._nvfuser import ...``) no longer run;
and even on 0.2.35 a 2022/2023 script fails (``axes=`` or ``define_constant`` are gone).

``upgrade(program, "nvfuser_direct")`` rewrites a legacy program for the direct frontend;
``upgrade(program, "nvfuser")`` re-emits an old legacy program in final (0.2.35) legacy syntax;
a direct program can also go back to legacy. Each rewrite is one small function below, applied
statement by statement. The result keeps ``source``, so header comments, the ``with`` block, the
inputs list and ``fd.execute`` print as they were; a statement that is rewritten keeps the origin
of the one it replaces (the printer then keeps the comments above it).

What has no equivalent in the target frontend (``batch_norm``, ``index_put_accumulate``, ...)
raises ``ScriptError`` at the statement that uses it.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from .errors import ScriptError
from .ops import BindError, bind, lookup
from .model import DEFINE_SCALAR, DIRECT, FRONTENDS, LEGACY, OUTPUT, Dialect, DType, Program, Ref, Stmt, map_refs

DIRECT_DIALECT = Dialect(frontend=DIRECT, module=DIRECT, spellings=frozenset())
LEGACY_DIALECT = Dialect(frontend=LEGACY, module=LEGACY, spellings=frozenset())

# keyword spellings that no current frontend accepts (they must not survive an upgrade)
ERA_KEYWORDS = ("axes", "symbolic_sizes", "contiguous", "output_shape", "original_shape")

# the DataType nvFuser infers for a Python number (bool first: it is an int too)
_SCALAR_DTYPE = ((bool, "Bool"), (int, "Int"), (float, "Double"), (complex, "ComplexDouble"))


def upgrade(program: Program, to: str) -> Program:
    """``program`` rewritten for frontend ``to`` (``nvfuser_direct`` or ``nvfuser``), same meaning."""
    if to not in FRONTENDS:
        raise ValueError(f"unknown frontend {to!r} (expected one of: {', '.join(FRONTENDS)})")
    src = program.dialect.frontend
    if src == LEGACY and to == DIRECT:
        return _Upgrader(program, _LEGACY_TO_DIRECT, DIRECT).run(DIRECT_DIALECT)
    if src == LEGACY and to == LEGACY:
        return _Upgrader(program, _LEGACY_TO_LEGACY, LEGACY).run(LEGACY_DIALECT)
    if src == DIRECT and to == LEGACY:
        return _Upgrader(program, _DIRECT_TO_LEGACY, LEGACY).run(LEGACY_DIALECT)
    return program  # direct -> direct: nothing to do


def upgrade_text(text: str, path: str = "<script>", to: str = DIRECT) -> str:
    """Parse ``text``, upgrade it, print it."""
    from .program.reader import parse
    from .program.printer import to_source
    return to_source(upgrade(parse(text, path), to))


# ---------------------------------------------------------------------------------------------
# the driver
# ---------------------------------------------------------------------------------------------
@dataclass
class _Ctx:
    """What the rules share while walking the statements in order."""
    program: Program
    target: str
    names: set[str]                                   # every name in use (for fresh names)
    counter: int                                      # next number for a fresh T<n>/S<n> name
    subst: dict[str, object] = field(default_factory=dict)    # name -> value that replaces its uses
    shape_of: dict[str, Ref] = field(default_factory=dict)    # V -> T for ``V = fd.ops.shape(T)``
    era_contiguous: bool = False                      # the script spells ``contiguous=`` (2022-2023)

    def fresh(self, prefix: str) -> str:
        while True:
            name = f"{prefix}{self.counter}"
            self.counter += 1
            if name not in self.names:
                self.names.add(name)
                return name

    def fail(self, stmt: Stmt, message: str):
        path = getattr(self.program.source, "path", "<script>")
        line, col = (stmt.origin.line, stmt.origin.col) if stmt.origin is not None else (1, 1)
        raise ScriptError(message, path, line, col)


class _Upgrader:
    def __init__(self, program: Program, rules, target: str):
        self.program, self.rules, self.target = program, rules, target
        names = {n for s in program.stmts for n in s.outs if n is not None}
        names |= {n for s in program.stmts for n in s.uses()}
        names.add(program.fd_name)
        nums = [int(m.group(1)) for n in names if (m := re.fullmatch(r"[A-Za-z_]+(\d+)", n))]
        self.ctx = _Ctx(program, target, names, max(nums, default=-1) + 1,
                        era_contiguous="contiguous" in program.dialect.spellings)

    def run(self, dialect: Dialect) -> Program:
        out: list[Stmt] = []
        for stmt in self.program.stmts:
            new = [_substitute(stmt, self.ctx)]
            # a name bound again no longer stands for what it stood for before
            for n in stmt.outs:
                self.ctx.subst.pop(n, None)
                self.ctx.shape_of.pop(n, None)
            for rule in self.rules:
                new = [r for s in new for r in rule(s, self.ctx)]
            for s in new:
                _check_binds(s, stmt, self.ctx)
            out.extend(new)
        return self.program.replace(dialect=dialect, stmts=tuple(out))


def _make(call: str, outs: tuple, args: tuple = (), kwargs: tuple = (), frontend: str = DIRECT,
          origin=None) -> Stmt:
    """A new statement, bound through the catalog like a parsed one."""
    bound = bind(lookup(call), tuple(args), tuple(kwargs), frontend)
    return Stmt(tuple(outs), call, bound.args, bound.npos, origin=origin)


def _positional(call: str, frontend: str) -> list[str]:
    """Names of the parameters of ``call`` that ``frontend`` takes positionally, in order."""
    return [p.name for p in lookup(call).params_for(frontend) if not p.keyword_only]


# ---------------------------------------------------------------------------------------------
# rules used by every direction
# ---------------------------------------------------------------------------------------------
def _substitute(stmt: Stmt, ctx: _Ctx) -> Stmt:
    """Replace uses of removed names (legacy vectors, ``at`` results) by what they stood for."""
    if not ctx.subst or not any(n in ctx.subst for n in stmt.uses()):
        return stmt
    args = tuple((k, map_refs(v, lambda r: ctx.subst.get(r.name, r))) for k, v in stmt.args)
    return dataclasses.replace(stmt, args=args)


def _check_binds(stmt: Stmt, original: Stmt, ctx: _Ctx) -> None:
    """Every rewritten statement must be a valid call in the target frontend; a statement that
    is not (an op or keyword with no equivalent) is reported where the original stands."""
    spec = lookup(stmt.call)
    if spec is None:
        ctx.fail(original, f"fd.{stmt.call} is unknown to fmin's op catalog")
    if ctx.target not in spec.frontends:
        ctx.fail(original, _no_equivalent(original, ctx.target))
    pos = [v for _, v in stmt.args[:stmt.npos]]
    kws = [(k, v) for k, v in stmt.args[stmt.npos:]]
    try:
        bind(spec, tuple(pos), tuple(kws), ctx.target)
    except BindError as e:
        ctx.fail(original, f"cannot translate fd.{original.call} to {ctx.target}: {e}")


def _no_equivalent(stmt: Stmt, target: str) -> str:
    name = f"fd.{stmt.call}" if not stmt.is_op else f"fd.ops.{stmt.op}"
    if target == DIRECT:
        return (f"{name} has no equivalent in the direct frontend (nvfuser_direct); rewrite this "
                f"statement by hand, or run the script as it is on nvFuser <= 0.2.35")
    return f"{name} has no equivalent in the legacy nvfuser frontend; rewrite this statement by hand"


def define_constant_to_scalar(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """``define_constant(v, dtype)`` (deprecated in 2023-05, gone since) is ``define_scalar(v, dtype=...)``:
    same value, same dtype (a missing dtype is inferred from the value, as both calls do)."""
    if stmt.call != "define_constant":
        return [stmt]
    value = stmt.arg("value")
    dtype = stmt.arg("dtype")
    if dtype is None:  # written out as define_scalar infers it, like today's repros print it
        dtype = next((DType(name) for t, name in _SCALAR_DTYPE if isinstance(value, t)), None)
    args = [("value", value)] + ([("dtype", dtype)] if dtype is not None else [])
    return [dataclasses.replace(stmt, call=DEFINE_SCALAR, args=tuple(args), npos=1)]


def contiguous_to_contiguity(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """2022-era ``contiguous=[...]`` had one bool per dim, broadcast dims included, in logical
    order. Today's ``contiguity`` must be None exactly at broadcast dims (shape entry 1) and is
    listed in allocation order when ``stride_order`` is given, else nvFuser rejects it ("The
    contiguity of a broadcast/reduction dimension must be None"). A later script that still put a
    bool at a broadcast dim gets the same repair (only those entries change)."""
    if not stmt.is_tensor_decl:
        return [stmt]
    if stmt.has("contiguous"):  # the 2022 parameter: becomes today's contiguity, in place
        shape, old = stmt.arg("shape"), stmt.arg("contiguous")
        n = len(shape) if isinstance(shape, tuple) else 0
        order = stmt.arg("stride_order") or ()
        alloc = sorted(range(n), key=lambda d: -order[d]) if order and sorted(order) == list(range(n)) \
            else list(range(n))
        new = tuple(None if shape[d] == 1 else old[d] for d in alloc) if isinstance(old, tuple) else old
        args = tuple(("contiguity", new) if k == "contiguous" else (k, v) for k, v in stmt.args)
        return [dataclasses.replace(stmt, args=args)]
    flags, shape = stmt.arg("contiguity"), stmt.arg("shape")
    if not isinstance(flags, tuple) or not isinstance(shape, tuple) or len(flags) != len(shape):
        return [stmt]
    order = stmt.arg("stride_order") or ()
    n = len(shape)
    valid_order = isinstance(order, tuple) and sorted(order) == list(range(n))
    alloc = sorted(range(n), key=lambda d: -order[d]) if order and valid_order else list(range(n))
    if ctx.era_contiguous:
        new = tuple(None if shape[d] == 1 else flags[d] for d in alloc)
    else:
        new = tuple(None if shape[d] == 1 else f for f, d in zip(flags, alloc))
    if new == flags:
        return [stmt]
    return [stmt.with_arg("contiguity", new)]


def drop_original_shape(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """Before 0.0.22 ``reshape`` also took ``original_shape``; the input's own shape has always
    been what counts, so it is dropped."""
    if stmt.call == "ops.reshape" and stmt.has("original_shape"):
        return [stmt.without_arg("original_shape")]
    return [stmt]


def fix_positional(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """A positional argument is kept positional only while it lands on the same parameter in the
    target frontend (``sdpfa_fwd`` gained ``bias, mask`` before ``dropout_p``); from the first
    one that would not, arguments are written with their keyword."""
    if not stmt.npos or lookup(stmt.call) is None:
        return [stmt]
    pos = _positional(stmt.call, ctx.target)
    k = 0
    while k < stmt.npos and k < len(pos) and stmt.args[k][0] == pos[k]:
        k += 1
    return [stmt] if k == stmt.npos else [dataclasses.replace(stmt, npos=k)]


def rename_params(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """Some parameters are named differently in the two frontends (the catalog's
    ``OpSpec.renamed``: legacy ``gather(arg1, ...)``, ``triu(input, ...)`` are direct ``arg``):
    such an argument takes the target's name (unless the target's name is given too)."""
    spec = lookup(stmt.call)
    if spec is None or not spec.renamed:
        return [stmt]
    to_target = dict(spec.renamed) if ctx.target == DIRECT else {d: old for old, d in spec.renamed}
    given = {k for k, _ in stmt.args}
    args = tuple((to_target[k] if k in to_target and to_target[k] not in given else k, v) for k, v in stmt.args)
    return [stmt] if args == stmt.args else [dataclasses.replace(stmt, args=args)]


def fill_required(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """A parameter the target requires but the source frontend defaults (direct ``var``'s
    ``correction=1``, legacy ``iota``'s ``start``/``step``, ``sdpfa_bwd``'s ``dropout_p``) is
    written out with the source's default, which is what the statement meant."""
    spec = lookup(stmt.call)
    if spec is None:
        return [stmt]
    given = {k for k, _ in stmt.args}
    src_default = {p.name: p.default for p in spec.params_for(_other(ctx.target)) if not p.required}
    for p in spec.params_for(ctx.target):
        if p.required and p.name not in given and p.name in src_default:
            stmt = stmt.with_arg(p.name, src_default[p.name])
    return [stmt]


def untranslatable(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """What the target frontend lacks and no rule rewrote cannot be translated faithfully: ops
    (legacy ``batch_norm``, ``index_put_accumulate``; direct ``complex``, ``cumprod``,
    quantization), arguments (legacy ``rand_like(rng_seed=)``, direct ``cumsum(init=)``) and
    ``DataType.Index`` (direct only). Report it at the statement rather than guess. An argument
    given as None that the target lacks meant "not given" and is dropped."""
    spec = lookup(stmt.call)
    if spec is None:
        return [stmt]
    if ctx.target not in spec.frontends:
        ctx.fail(stmt, _no_equivalent(stmt, ctx.target))
    if ctx.target == LEGACY and any(DType("Index") in _flat(v) for _, v in stmt.args):
        ctx.fail(stmt, "DataType.Index exists only in the direct frontend; use DataType.Int")
    have = {p.name for p in spec.params_for(ctx.target)}
    for k, v in stmt.args:
        if k not in have and v is not None:
            ctx.fail(stmt, f"fd.{stmt.call}: argument '{k}' has no equivalent in {ctx.target}")
    if any(k not in have for k, _ in stmt.args):
        args = tuple((k, v) for k, v in stmt.args if k in have)
        npos = sum(1 for k, _ in stmt.args[:stmt.npos] if k in have)
        stmt = dataclasses.replace(stmt, args=args, npos=npos)
    return [stmt]


def _flat(v) -> list:
    return [x for e in v for x in _flat(e)] if isinstance(v, tuple) else [v]


def _other(frontend: str) -> str:
    return LEGACY if frontend == DIRECT else DIRECT


# ---------------------------------------------------------------------------------------------
# legacy -> direct
# ---------------------------------------------------------------------------------------------
def inline_vectors(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """Direct has no Vector: ``V = fd.define_vector([S1, S2], dtype=DataType.Int)`` is removed and
    ``[S1, S2]`` written wherever V was used (``shape=V`` -> ``shape=[S1, S2]``), which is what
    nvFuser itself prints since 0.2.10. ``define_vector(n)`` (n scalar inputs, passed flattened in
    ``inputs``) becomes n ``define_scalar(None, dtype=DataType.Int)`` lines, in the same input
    order; V's uses get the list of their names."""
    if not stmt.is_vector_def:
        return [stmt]
    values = stmt.arg("values")
    v = stmt.outs[0] if stmt.outs else None
    if isinstance(values, int) and not isinstance(values, bool):
        names = [ctx.fresh("S") for _ in range(values)]
        new = [_make(DEFINE_SCALAR, (n,), (None,), (("dtype", DType("Int")),),
                     origin=stmt.origin if i == 0 else None) for i, n in enumerate(names)]
        if v is not None:
            ctx.subst[v] = tuple(Ref(n) for n in names)
        return new
    if isinstance(values, Ref):  # a vector named again: the same list
        values = ctx.subst.get(values.name, values)
    if not isinstance(values, tuple):
        ctx.fail(stmt, "fd.define_vector: expected a list of scalars or an int")
    if v is not None:
        ctx.subst[v] = values
    return []


def at_to_size(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """Legacy ``S = fd.ops.at(V, index=i)`` reads one entry of a Vector. On ``V = fd.ops.shape(T)``
    that is ``fd.ops.size(T, dim=i)``; on a vector that was inlined it is the entry itself, which
    then stands wherever S was used."""
    if stmt.call == "ops.shape" and stmt.outs and stmt.outs[0] is not None:
        ctx.shape_of[stmt.outs[0]] = stmt.arg(_positional(stmt.call, LEGACY)[0])
        return [stmt]
    if stmt.call != "ops.at":
        return [stmt]
    vec_p, idx_p = _positional(stmt.call, LEGACY)[:2]
    vec, idx = stmt.arg(vec_p), stmt.arg(idx_p)
    if not isinstance(idx, int) or isinstance(idx, bool):
        ctx.fail(stmt, "fd.ops.at: the index must be an int to translate it")
    out = stmt.outs[0] if stmt.outs else None
    if isinstance(vec, Ref) and vec.name in ctx.shape_of:
        dim_p = _positional("ops.size", DIRECT)[1]
        return [_make("ops.size", stmt.outs, (ctx.shape_of[vec.name],), ((dim_p, idx),), origin=stmt.origin)]
    if isinstance(vec, tuple):
        if not -len(vec) <= idx < len(vec):
            ctx.fail(stmt, f"fd.ops.at: index {idx} is out of range for a vector of {len(vec)} entries")
        entry = vec[idx]
        if isinstance(entry, Ref):
            if out is not None:
                ctx.subst[out] = entry
            return []
        return [_make(DEFINE_SCALAR, stmt.outs, (entry,), (("dtype", DType("Int")),), origin=stmt.origin)]
    ctx.fail(stmt, "fd.ops.at: expected a vector from fd.ops.shape or fd.define_vector")


def tensor_sizes_to_size(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """Legacy ``S3, S4, S5, = fd.ops.tensor_sizes(T0)`` returns one Int scalar per dim; direct
    asks for each with ``fd.ops.size(T0, dim=i)`` (a ``_`` target needs no statement)."""
    if stmt.call != "ops.tensor_sizes":
        return [stmt]
    arg = stmt.arg(_positional(stmt.call, LEGACY)[0])
    dim_p = _positional("ops.size", DIRECT)[1]
    new = []
    for i, name in enumerate(stmt.outs):
        if name is not None:
            new.append(_make("ops.size", (name,), (arg,), ((dim_p, i),), origin=None if new else stmt.origin))
    return new


def alpha_to_mul(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """Legacy-only ``add_alpha(a, b, alpha)`` / ``sub_alpha`` are ``a ± b * alpha`` (nvFuser builds
    exactly ``mul`` then ``add``/``sub``); direct has no fused form, so both ops are written."""
    if stmt.call not in ("ops.add_alpha", "ops.sub_alpha"):
        return [stmt]
    a_p, b_p, alpha_p = _positional(stmt.call, LEGACY)[:3]
    tmp = ctx.fresh("T")
    op = "ops.add" if stmt.call == "ops.add_alpha" else "ops.sub"
    mul = _make("ops.mul", (tmp,), (stmt.arg(b_p), stmt.arg(alpha_p)), origin=stmt.origin)
    res = _make(op, stmt.outs, (stmt.arg(a_p), Ref(tmp)))
    return [mul, dataclasses.replace(res, tuple_target=stmt.tuple_target)]


def flags_to_bool(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """Legacy repros print some bools as ints (the catalog's ``Param.int_in_legacy``:
    ``slice(..., manual_normalization=0|1)``, ``cat(..., manual_padding=0|1)``, the C++ bool
    printed as an int); the direct frontend is given real bools."""
    spec = lookup(stmt.call)
    for p in spec.params_for(LEGACY) if spec is not None else ():
        v = stmt.arg(p.name)
        if p.int_in_legacy and isinstance(v, int) and not isinstance(v, bool):
            stmt = stmt.with_arg(p.name, bool(v))
    return [stmt]


def output_stride_order(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """Legacy ``fd.add_output(T, stride_order=[..])`` lays the output out in that order; direct
    says the same with ``T' = fd.ops.stride_order(T, stride_order=[..])`` and outputs T'."""
    if not stmt.is_output or stmt.arg("stride_order") is None:
        return [stmt]
    out_p = _positional(stmt.call, LEGACY)[0]
    value = stmt.arg(out_p)
    if stmt.arg("alias_input") is not None:
        ctx.fail(stmt, "fd.add_output: stride_order together with an aliased input cannot be translated")
    new = ctx.fresh("T")
    order = _make("ops.stride_order", (new,), (value,), (("stride_order", stmt.arg("stride_order")),),
                  origin=stmt.origin)
    return [order, _make(OUTPUT, (), (Ref(new),))]


_LEGACY_TO_DIRECT = (define_constant_to_scalar, contiguous_to_contiguity, inline_vectors, at_to_size,
                     tensor_sizes_to_size, alpha_to_mul, flags_to_bool, drop_original_shape,
                     output_stride_order, rename_params, untranslatable, fill_required, fix_positional)

# an old legacy script in 0.2.35 legacy syntax: only what that version no longer accepts changes
_LEGACY_TO_LEGACY = (define_constant_to_scalar, contiguous_to_contiguity, drop_original_shape, fix_positional)


# ---------------------------------------------------------------------------------------------
# direct -> legacy
# ---------------------------------------------------------------------------------------------
def numbers_to_scalars(stmt: Stmt, ctx: _Ctx) -> list[Stmt]:
    """Legacy ops take no Python numbers where a Scalar goes: each one becomes its own
    ``S = fd.define_scalar(value, dtype=...)`` line before the op (dtype as direct infers it:
    bool -> Bool, int -> Int, float -> Double, complex -> ComplexDouble). Lists (shapes) stay."""
    spec = lookup(stmt.call)
    if spec is None or not stmt.is_op:
        return [stmt]
    kinds = {p.name: p.kind for p in spec.params_for(LEGACY)}
    pre: list[Stmt] = []
    args = []
    for k, v in stmt.args:
        if kinds.get(k) in ("operand", "scalar") and v is not None and not isinstance(v, (Ref, tuple, DType, str)):
            dt = next(name for t, name in _SCALAR_DTYPE if isinstance(v, t))
            s = ctx.fresh("S")
            pre.append(_make(DEFINE_SCALAR, (s,), (v,), (("dtype", DType(dt)),), frontend=LEGACY))
            v = Ref(s)
        args.append((k, v))
    if not pre:
        return [stmt]
    if stmt.origin is not None:  # comments above the op go above its constants
        pre[0] = dataclasses.replace(pre[0], origin=stmt.origin)
        stmt = dataclasses.replace(stmt, origin=None)
    return pre + [dataclasses.replace(stmt, args=tuple(args))]


_DIRECT_TO_LEGACY = (rename_params, untranslatable, fill_required, numbers_to_scalars, fix_positional)


__all__ = ["upgrade", "upgrade_text", "ERA_KEYWORDS", "DIRECT_DIALECT", "LEGACY_DIALECT"]
