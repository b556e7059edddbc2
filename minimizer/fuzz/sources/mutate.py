"""Mutations of a real fusion (seeded fuzzing): small edits that keep a program valid, drawn from
Hypothesis data like the generator's programs, so a mutated seed replays from its example id.

Bugs users file come from fusions of 20–200 ops whose failure needs the structure around it; the
generator's ≤12-op programs cannot have that structure, a seed has it. Each mutation changes one
thing the generative findings showed nvFuser is sensitive to (shapes, broadcast and expanded
extents, dtypes, layouts, input order, contiguity, unused inputs, a repeated operand, an op of the
same catalog family, an inserted cast or ``segment_set``, an output written into an input, a
duplicated branch, a cut sub-graph). A mutation only *proposes*: ``apply`` keeps a result only if
the static check accepts it, the rules of ``program.validity`` included (an invalid mutation is
discarded, never a finding), so each mutation can be a plain description of its edit; those that
would often break a rule (a dtype changed under an aliased write) stay away from it. The edits are the program model's (``program.edits``,
``program.variants``), and those the reduction's passes are built from too (``program.extents``:
resizing every use of an extent; ``program.declare``: declaring an input from a meta tensor;
``program.cuts``: cutting outputs, at an intermediate, a region to inputs) — one home each.
"""
from __future__ import annotations

import dataclasses

import torch
from hypothesis import strategies as st

from ... import dtypes
from ...model import DType, Program, Ref, Stmt, TensorArg, is_input_decl, map_refs, output_stmt
from ...ops.registry import CATALOG, lookup
from ...program import cuts, edits, validity, variants
from ...program.declare import bcast_flags, tensor_input
from ...program.extents import resize, sites

FLOATS = ("Float", "Half", "BFloat16", "Double")
#: how many mutations a seeded program gets (the first is what Hypothesis would shrink towards)
MAX_MUTATIONS = 3


def _tensor_inputs(p: Program, info) -> list[tuple[int, str, TensorArg, torch.Tensor]]:
    """(statement, name, inputs entry, meta value) of every one-value tensor input, but those an
    op reads as a ``ValueParam`` (an index, ``grouped_mm``'s offsets: rebuilt in another dtype or
    as a broadcast, they are no index) and, in a program whose extents are bound
    (``_has_extent_bound``), the other operands of such an op."""
    out = []
    users = edits.users(p)
    bound = _has_extent_bound(p)
    for i, s in enumerate(p.stmts):
        if _index_read(p, users, i, bound):
            continue
        if s.is_tensor_decl and s.outs and s.outs[0]:
            a = edits.input_arg(p, i)
            t = info.value(i, s.outs[0])
            if isinstance(a, TensorArg) and isinstance(t, torch.Tensor):
                out.append((i, s.outs[0], a, t))
    return out


def _tensor_values(p: Program, info) -> list[tuple[int, str, torch.Tensor]]:
    """(statement, name, meta value) of every tensor an op or declaration binds."""
    return [(i, n, info.value(i, n)) for i, s in enumerate(p.stmts) if s.is_op or s.is_tensor_decl
            for n in s.outs if n and isinstance(info.value(i, n), torch.Tensor)]


def _pick(data, xs, label):
    return data.draw(st.sampled_from(xs), label=label) if xs else None


# Values an op's ``ValueParam`` reads (an index, ``grouped_mm``'s offsets) are the printer's to
# write where they are a fusion input, valid for whatever extents (``validity.input_values``), so
# mutations change extents freely. A value the fusion computes and reads there (an ``argsort``
# result read by ``scatter``: ``validity.computed_values``) holds what its inputs give it, bound to
# the seed's extents (the static check cannot see it): a program with one keeps its extents, and
# the operands of such ops.
def _has_extent_bound(p: Program) -> bool:
    """Whether the program's extents bound values no printer writes (see above)."""
    return bool(validity.computed_values(p))


def shape(data, p, info):
    """Every use of one extent becomes another (1, smaller, larger): shapes stay consistent. Not
    drawn for a program whose extents bound a computed index (``_has_extent_bound``)."""
    if _has_extent_bound(p):
        return None
    old = _pick(data, sorted({s[-1] for s in sites(p)}), "extent")
    if old is None:
        return None
    return resize(p, old, data.draw(st.sampled_from([1, 2, max(1, old // 2), old + 1, old * 2]), label="new extent"))


#: the most elements one tensor of a seeded program has unless the seed is drawn as written
#: (``trimmed``): a seed at its real sizes (a layernorm backward at 16×512×4096: 300M elements
#: over its tensors) costs many seconds a program to run, save and compare, the same structure at
#: 2**20 elements a tensor well under one (measured: docs/benchmarks.md)
TRIM_ELEMENTS = 1 << 20


def trimmed(p: Program, info, limit: int = TRIM_ELEMENTS):
    """``(program, its static check)`` with extents halved until no tensor has more than ``limit``
    elements, or None where the seed fits already or cannot be resized (a computed index:
    ``_has_extent_bound``). The extents halved first are the largest tensor's
    outer ones (batch, sequence): a normalization's or a matmul's innermost extent decides which
    scheduler nvFuser picks, the outer ones mostly how many times it runs."""
    if _has_extent_bound(p):
        return None
    q, qi, changed = p, info, False
    for _ in range(64):
        big = max((t for _, _, t in _tensor_values(q, qi)), key=lambda t: t.numel(), default=None)
        if big is None or big.numel() <= limit:
            break
        have = {x[-1] for x in sites(q)}
        dims = list(big.shape)
        order = sorted({x for x in dims[:-1] if x in have and x >= 4}, reverse=True) + \
            ([dims[-1]] if dims and dims[-1] in have and dims[-1] >= 4 else [])
        for old in order:
            try:
                r = resize(q, old, old // 2)
                q, qi, changed = r, validity.check(r, rules=validity.STATIC_RULES), True
                break
            except Exception:   # an extent some op pins (a reshape's product, a slice's bound, an index)
                continue
        else:
            break
    return (q, qi) if changed else None


def _written(p: Program) -> set[str]:
    """Inputs an output is written into (``add_output(v, alias_input=x)``)."""
    return {a.name for st_ in p.stmts if st_.is_output for k, a in st_.args if k == "alias_input" and isinstance(a, Ref)}


def broadcast(data, p, info):
    """One dim of an input declared broadcast: extent 1, or expanded (stride 0) where larger; not
    an input an output is written into (torch refuses an in-place write to stride-0 memory)."""
    got = _pick(data, [x for x in _tensor_inputs(p, info) if x[1] not in _written(p)], "input")
    if got is None or got[3].ndim == 0:
        return None
    i, name, a, t = got
    flags = list(bcast_flags(p, info, name, t))
    flags[data.draw(st.integers(0, t.ndim - 1), label="dim")] = True
    made = tensor_input(p, name, t, flags)
    return None if made is None else edits.replace_input(p, i, *made)


def dtype(data, p, info):
    """One floating input in another floating dtype; not an input an output is written into (the
    written value keeps its dtype: ``alias-dtype``)."""
    got = _pick(data, [x for x in _tensor_inputs(p, info) if x[2].dtype in FLOATS and x[1] not in _written(p)],
                "input")
    if got is None:
        return None
    i, _, a, _ = got
    new = data.draw(st.sampled_from([d for d in FLOATS if d != a.dtype]), label="dtype")
    return edits.replace_input(p, i, p.stmts[i].with_arg("dtype", DType(new)), dataclasses.replace(a, dtype=new))


def layout(data, p, info):
    """One input in another memory layout (``stride_order``), same logical values."""
    got = _pick(data, [x for x in _tensor_inputs(p, info) if x[3].ndim >= 2], "input")
    if got is None:
        return None
    i, name, _, t = got
    alloc = data.draw(st.permutations(range(t.ndim)), label="alloc")
    made = tensor_input(p, name, t, bcast_flags(p, info, name, t), alloc)
    return None if made is None else edits.replace_input(p, i, *made)


def order(data, p, info):
    """The input declarations (and the inputs list) in another order."""
    n = len(p.input_stmts())
    if n < 2:
        return None
    try:
        return variants.permute_inputs(p, data.draw(st.permutations(range(n)), label="order"))
    except ValueError:
        return None


def contiguity(data, p, info):
    """One input non-contiguous: rows padded in memory, declared with contiguity False."""
    got = _pick(data, [x for x in _tensor_inputs(p, info) if x[2].is_contiguous() and x[3].ndim >= 1
                       and isinstance(p.stmts[x[0]].arg("contiguity"), tuple)], "input")
    if got is None:
        return None
    i, _, a, _ = got
    d = max(0, a.ndim - 2)
    strides = tuple(st_ * 2 if k <= d else st_ for k, st_ in enumerate(a.strides)) if a.ndim >= 2 \
        else (a.strides[0] * 2,)
    contig = tuple(None if c is None else False for c in p.stmts[i].arg("contiguity"))
    return edits.replace_input(p, i, p.stmts[i].with_arg("contiguity", contig),
                               dataclasses.replace(a, strides=strides))


def unused_input(data, p, info):
    """An extra input nothing reads, declared like one the fusion has."""
    got = _pick(data, _tensor_inputs(p, info), "like")
    if got is None:
        return None
    _, _, _, t = got
    made = tensor_input(p, edits.fresh_name(p, "U"), torch.empty(tuple(t.shape), dtype=t.dtype, device="meta"),
                        [False] * t.ndim)
    if made is None:
        return None
    decls = [i for i, s in enumerate(p.stmts) if is_input_decl(s)]
    at = data.draw(st.sampled_from(decls + [decls[-1] + 1]), label="at") if decls else 0
    return edits.insert_input(p, at, *made)


def _append(p: Program, stmt: Stmt) -> Program:
    """``stmt`` then an output of its result, at the end of the body."""
    return p.replace(stmts=p.stmts + (stmt, output_stmt(Ref(stmt.outs[0]))))


def repeat_operand(data, p, info):
    """``cat([x, x])`` of a value of the fusion, made an output."""
    got = _pick(data, [x for x in _tensor_values(p, info) if x[2].ndim >= 1], "value")
    if got is None:
        return None
    _, name, t = got
    dim = data.draw(st.integers(0, t.ndim - 1), label="dim")
    return _append(p, Stmt((edits.fresh_name(p, "R"),), "ops.cat", (("tensors", (Ref(name), Ref(name))), ("dim", dim)),
                           npos=1))


def _category(t) -> tuple[str, str] | None:
    """(``Gen`` category attribute ``f``/``i``/``b``, DataType name) of a tensor operand."""
    if not isinstance(t, torch.Tensor):
        return None
    name = dtypes.from_torch(t.dtype)
    return ("b" if t.dtype == torch.bool else "f" if t.dtype.is_floating_point else
            "i" if not t.dtype.is_complex else None, name)


def _swaps(s: Stmt, operand) -> list[str]:
    """Ops of ``s``'s catalog family that take its arguments and that the generator draws for its
    first operand's dtype (``Gen``'s category and dtypes): the static check runs on meta tensors,
    which do not know that ``bitwise_not`` has no float kernel, the catalog does."""
    spec, cat = lookup(s.call), _category(operand)
    if spec is None or spec.family not in ("unary", "binary", "ternary", "reduction") or cat is None or cat[0] is None:
        return []
    used = {k for k, _ in s.args}

    def drawn_for(o) -> bool:
        g = o.generate
        return g is not None and getattr(g, cat[0], None) is not None and (not g.dtypes or cat[1] in g.dtypes)
    return [k for k, o in CATALOG.items() if k.startswith("ops.") and k != s.call and o.family == spec.family
            and used <= {q.name for q in o.params} and not o.nondeterministic and drawn_for(o)]


def swap_op(data, p, info):
    """One op replaced by another of its catalog family taking the same arguments."""
    defs = edits.definitions(p)

    def first(i):
        """The first operand, or None where the tensor operands differ in kind (float, int,
        bool): an op drawn for the first's kind may have no kernel for the others'."""
        vals = [info.value(defs[i][r], r) for r in p.stmts[i].uses() if r in defs[i]]
        kinds = {_category(v)[0] for v in vals if isinstance(v, torch.Tensor)}
        return vals[0] if vals and len(kinds) <= 1 else None
    choices = [(i, _swaps(s, first(i))) for i, s in enumerate(p.stmts) if s.is_op]
    got = _pick(data, [x for x in choices if x[1]], "op")
    if got is None:
        return None
    new = data.draw(st.sampled_from(got[1]), label="swap")
    stmts = list(p.stmts)
    stmts[got[0]] = dataclasses.replace(stmts[got[0]], call=new)
    return p.replace(stmts=tuple(stmts))


def _insert_after(data, p, info, make, floating: bool = False, avoid=frozenset()) -> Program | None:
    """``y = make(x)`` right after ``x`` is bound, every later use of ``x`` reading ``y`` (``x`` a
    floating tensor where ``floating``, not one of ``avoid``)."""
    got = _pick(data, [x for x in _tensor_values(p, info) if (x[2].dtype.is_floating_point or not floating)
                       and x[1] not in avoid], "value")
    if got is None:
        return None
    i, name, t = got
    y = edits.fresh_name(p, "M")
    q = edits.replace_uses(p.replace(stmts=p.stmts[:i + 1] + (make(y, name, t),) + p.stmts[i + 1:]), i + 2, name,
                           Ref(y))
    # an output written into the input still writes the input: nvFuser aliases only into fusion
    # inputs (a write into the inserted copy would be filed as its internal assert)
    return q.replace(stmts=tuple(s.with_arg("alias_input", Ref(name))
                                 if s.is_output and s.arg("alias_input") == Ref(y) else s for s in q.stmts))


def cast(data, p, info):
    """A cast inserted after a floating value (to a floating dtype: an int or bool value cast to
    a float would reach ops the catalog has no float kernel for)."""
    d = data.draw(st.sampled_from(FLOATS), label="to")
    written = {v for vs in validity.aliased_inputs(p).values() for v in vs}   # their dtype is the input's
    return _insert_after(data, p, info, lambda y, x, t: Stmt((y,), "ops.cast", (("arg", Ref(x)), ("dtype", DType(d))),
                                                             npos=1), floating=True, avoid=written)


def segment_set(data, p, info):
    """A ``segment_set`` inserted after a value: a segment boundary where the seed had none (also
    between an input an output is written into and that write: nvFuser orders the writes into
    fusion inputs after the reads, across segments too)."""
    return _insert_after(data, p, info, lambda y, x, t: Stmt((y,), "ops.segment_set", (("x", Ref(x)),), npos=1))


def alias_output(data, p, info):
    """A value written into an input of its shape and dtype (``add_output(v, alias_input=x)``)
    that the validity rules allow (``program.validity``): never an input already written (two
    writes have no order) nor a value already written into another input (nvFuser keeps one
    alias per output), nor an input with stride-0 (expanded) dims (torch refuses the in-place
    write). The fusion may read the input elsewhere: nvFuser orders the write after the reads."""
    written = validity.aliased_inputs(p)
    taken = {v for vs in written.values() for v in vs}
    vals = []
    for _, x, a, t in _tensor_inputs(p, info):
        if 0 in a.strides or x in written:
            continue
        vals += [(n, x) for i, n, v in _tensor_values(p, info) if p.stmts[i].is_op and n not in taken
                 and (tuple(v.shape), v.dtype) == (tuple(t.shape), t.dtype)]
    got = _pick(data, vals, "value")
    if got is None:
        return None
    out = Stmt((), "add_output", (("output", Ref(got[0])), ("alias_input", Ref(got[1]))), npos=2)
    return p.replace(stmts=p.stmts + (out,))


def duplicate_branch(data, p, info):
    """The ops computing one value copied under fresh names, the copy an output."""
    got = _pick(data, [i for i, s in enumerate(p.stmts) if s.is_op and s.outs and s.outs[0]], "op")
    if got is None:
        return None
    cone = sorted(k for k in edits.upstream(p, got) | {got} if p.stmts[k].is_op)
    names: dict[str, str] = {}
    q, new = p, []
    for k in cone:
        s = p.stmts[k]
        outs = []
        for n in s.outs:
            if n:
                names[n] = edits.fresh_name(q, "D")
                q = q.replace(stmts=q.stmts + (Stmt((names[n],), "define_scalar", ()),))   # reserve the name
            outs.append(names.get(n) if n else None)
        args = tuple((k2, map_refs(v, lambda r: Ref(names.get(r.name, r.name)))) for k2, v in s.args)
        new.append(dataclasses.replace(s, outs=tuple(outs), args=args))
    out = output_stmt(Ref(new[-1].outs[0]))
    return p.replace(stmts=p.stmts + tuple(new) + (out,))


def cut(data, p, info):
    """A sub-graph cut out: a reduction pass's candidate (outputs dropped, the fusion cut at an
    intermediate, a region made inputs), so a 200-op seed also yields its smaller pieces."""
    made = data.draw(st.sampled_from([cuts.dropped_outputs, cuts.cuts_at_intermediates, cuts.values_to_inputs]),
                     label="cut")
    cands = []
    for _, c in made(p, info):
        cands.append(c)
        if len(cands) >= 8:
            break
    c = _pick(data, cands, "candidate")
    return None if c is None else edits.dce(c)


def _index_read(p: Program, users, i: int, bound: bool) -> bool:
    """Does an op read statement ``i``'s value as a parameter whose values must fit the others
    (``OpSpec.value_params``), or — ``bound``: ``_has_extent_bound`` — as any operand of such an op?"""
    name = p.stmts[i].outs[0] if p.stmts[i].outs else None
    specs = [(p.stmts[u], lookup(p.stmts[u].call)) for u in users[i]]
    return any(spec is not None and (bound and spec.value_params or _value_read(s, spec, name)) for s, spec in specs)


def _value_read(s: Stmt, spec, name) -> bool:
    return spec is not None and any(s.arg(vp.name) == Ref(name) for vp in spec.value_params)


#: every mutation kind, by name (the summary and tests name them)
MUTATIONS = {f.__name__: f for f in (shape, broadcast, dtype, layout, order, contiguity, unused_input, repeat_operand,
                                     swap_op, cast, segment_set, alias_output, duplicate_branch, cut)}


def apply(data, p: Program, info, name: str) -> tuple[Program, object] | None:
    """Mutation ``name`` on ``p`` (statically checked as ``info``): the result and its check, or
    None where it does not apply or the static check rejects it (discarded, not a finding)."""
    try:
        q = MUTATIONS[name](data, p, info)
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    if q is None or q == p:
        return None
    try:
        return q, validity.check(q, rules=validity.STATIC_RULES)
    except Exception:
        return None


#: draws per mutation before it is given up: many mutations do not apply to a given seed (no
#: floating input to cast, no second input to reorder), and a program none applied to is its seed
#: again, which the campaign skips as a duplicate (with one draw each, 20 % of a campaign's
#: seeded programs on the corpus seeds were such repeats, most of them of its smallest seeds)
TRIES = 3


def mutated(data, p: Program, info, max_mutations: int = MAX_MUTATIONS) -> tuple[Program, list[str]]:
    """``p`` changed by 1..``max_mutations`` drawn mutations, each drawn again where it does not
    apply or is discarded (up to ``TRIES`` times), and the names of those applied."""
    applied = []
    for _ in range(data.draw(st.integers(1, max_mutations), label="mutations")):
        for _ in range(TRIES):
            name = data.draw(st.sampled_from(sorted(MUTATIONS)), label="mutation")
            got = apply(data, p, info, name)
            if got is not None:
                (p, info), _ = got, applied.append(name)
                break
    return p, applied


__all__ = ["MUTATIONS", "MAX_MUTATIONS", "TRIES", "TRIM_ELEMENTS", "apply", "mutated", "trimmed"]
