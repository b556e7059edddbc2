"""``fmin isolate GOOD BAD``: which differences between two scripts explain their different outcomes?

1. Align. Inputs are matched by their declaration (call, dtype, rank, broadcast pattern) and by how
   they are used (the ops that read them and where), best score first, then declaration order.
   The remaining statements are aligned as sequences (``difflib``) by their op and literal
   arguments; a pair whose operands differ once BAD's names are mapped to GOOD's is a changed op.
2. List the differences as atomic ``Change``s: the input order; per matched input its dtype, shape,
   layout (contiguity, stride_order, strides) or any other declaration argument; inputs and
   statements only in GOOD (deleted) or only in BAD (inserted); changed statements.
3. ``apply(changes)`` builds GOOD with those changes made (all of them gives BAD, renamed).
   Programs that do not check statically (``program.static.is_valid``) are "unresolved".
4. ``ddmin`` finds the smallest set of changes that, applied to GOOD, gives BAD's outcome; and the
   smallest set that, undone in BAD, gives GOOD's.

Supported: programs whose statements align in order after input matching, with insertions and
deletions. Not supported: reordered statements (they show as a deletion plus an insertion) and
scripts without an ``inputs`` list.
"""
from __future__ import annotations

import dataclasses
import difflib
import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from .backends import get as get_backend
from .model import Program, Ref, Stmt, TensorArg, is_input_decl, map_refs, refs_in
from .oracle.checks.segments import plural
from .oracle.context import RunContext
from .oracle.outcome import boundary_change, outcome_key, outcome_words
from .oracle.session import Session, Verdict
from .reduce.ddmin import ddmin

_LAYOUT_ARGS = ("contiguity", "stride_order", "contiguous")
_SHAPE_ARGS = ("shape", "symbolic_sizes", "sizes")


class IsolateError(ValueError):
    """Two scripts fmin cannot align (said in words)."""


# ---------------------------------------------------------------- alignment
def _literal(v):
    """A value with every Ref replaced by a placeholder (what the sequence alignment compares)."""
    return map_refs(v, lambda r: Ref("·"))


def _skey(s: Stmt) -> tuple:
    return (s.call, tuple((k, _literal(v)) for k, v in s.args))


def _broadcast(s: Stmt) -> tuple:
    shape = s.arg("shape", None)
    if shape is None:
        shape = s.arg("symbolic_sizes", None)
    if isinstance(shape, tuple):
        return tuple(d == 1 for d in shape)
    return ()


def _coarse(s: Stmt) -> tuple:
    return (s.call, repr(s.arg("dtype")), len(_broadcast(s)), _broadcast(s))


def _uses(program: Program) -> dict[str, Counter]:
    """input name -> Counter of (op, argument name) of the statements reading it (one level) and
    of the statements reading those (two levels, marked)."""
    out: dict[str, Counter] = {}
    names = {s.outs[0] for s in program.input_stmts() if s.outs and s.outs[0]}
    direct: dict[str, set[str]] = {}
    for s in program.stmts:
        for k, v in s.args:
            for r in refs_in(v):
                if r.name in names:
                    out.setdefault(r.name, Counter())[(s.op, k)] += 1
                    direct.setdefault(r.name, set()).update(n for n in s.outs if n)
    for n, outs in direct.items():
        for s in program.stmts:
            for k, v in s.args:
                if any(r.name in outs for r in refs_in(v)):
                    out[n][("+" + s.op, k)] += 1
    return out


def match_inputs(good: Program, bad: Program) -> list[tuple[int | None, int | None]]:
    """(GOOD input index, BAD input index) pairs: matched, GOOD-only (None) or BAD-only."""
    g, b = good.input_stmts(), bad.input_stmts()
    gu, bu = _uses(good), _uses(bad)

    def name(s):
        return s.outs[0] if s.outs else None

    scores = []
    for i, gs in enumerate(g):
        for j, bs in enumerate(b):
            if gs.call != bs.call:
                continue
            cg, cb = _coarse(gs), _coarse(bs)
            ug, ub = gu.get(name(gs), Counter()), bu.get(name(bs), Counter())
            common = sum((ug & ub).values())
            total = max(1, sum((ug | ub).values()))
            score = (4 * (cg == cb) + 2 * (cg[2:] == cb[2:]) + 2 * (cg[1] == cb[1])
                     + 4 * common / total + (gs.args == bs.args))
            scores.append((-score, abs(i - j), i, j))
    scores.sort()
    gi, bj, pairs = set(), set(), []
    for _, _, i, j in scores:
        if i in gi or j in bj:
            continue
        gi.add(i)
        bj.add(j)
        pairs.append((i, j))
    pairs += [(i, None) for i in range(len(g)) if i not in gi]
    pairs += [(None, j) for j in range(len(b)) if j not in bj]
    return pairs


@dataclass
class MStmt:
    """One merged non-input statement: GOOD's version, BAD's (renamed into GOOD's names), or both."""
    good: Stmt | None
    bad: Stmt | None
    good_line: int | None = None
    bad_line: int | None = None


@dataclass
class MInput:
    good: Stmt | None
    bad: Stmt | None                 # renamed to the merged name
    good_arg: object = None
    bad_arg: object = None
    good_pos: int | None = None
    bad_pos: int | None = None

    @property
    def name(self) -> str:
        return (self.good or self.bad).outs[0]


@dataclass(frozen=True)
class Change:
    """One atomic difference. ``kind``: order, input-field, input-add, input-del, op-add, op-del,
    op-change."""
    id: int
    kind: str
    target: int | None          # index into inputs or stmts of the Alignment
    fields: tuple[str, ...] = ()
    words: str = ""

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "words": self.words}


def _line(s: Stmt | None) -> int | None:
    return s.origin.line if s is not None and s.origin is not None else None


def _show(s: Stmt) -> str:
    """A statement in one short line (for reports)."""
    def v(x):
        if isinstance(x, tuple):
            return "[" + ", ".join(v(y) for y in x) + "]"
        return repr(x)
    outs = ", ".join(n or "_" for n in s.outs)
    args = ", ".join(v(val) if i < s.npos else f"{k}={v(val)}" for i, (k, val) in enumerate(s.args))
    return (f"{outs} = " if outs else "") + f"fd.{s.call}({args})"


@dataclass
class Alignment:
    good: Program
    bad: Program
    inputs: list[MInput]
    stmts: list[MStmt]
    changes: list[Change] = field(default_factory=list)

    def apply(self, ids) -> Program:
        """GOOD with the changes ``ids`` made."""
        ids = set(ids)
        by = [self.changes[i] for i in sorted(ids)]
        order_bad = any(c.kind == "order" for c in by)
        fields: dict[int, set[str]] = {}
        add_in = {c.target for c in by if c.kind == "input-add"}
        del_in = {c.target for c in by if c.kind == "input-del"}
        add_st = {c.target for c in by if c.kind == "op-add"}
        del_st = {c.target for c in by if c.kind == "op-del"}
        chg_st = {c.target for c in by if c.kind == "op-change"}
        for c in by:
            if c.kind == "input-field":
                fields.setdefault(c.target, set()).update(c.fields)
        ins = []
        for k, mi in enumerate(self.inputs):
            if mi.good is None and k not in add_in:
                continue
            if mi.bad is None and k in del_in:
                continue
            if mi.good is None:
                ins.append((k, mi.bad, mi.bad_arg))
                continue
            s, a = mi.good, mi.good_arg
            for f in sorted(fields.get(k, ())):
                if f.startswith("arg:"):   # a concrete tensor's field
                    if isinstance(a, TensorArg) and isinstance(mi.bad_arg, TensorArg):
                        a = dataclasses.replace(a, **{f[4:]: getattr(mi.bad_arg, f[4:])})
                    else:
                        a = mi.bad_arg
                elif mi.bad.has(f):
                    s = s.with_arg(f, mi.bad.arg(f))
                else:
                    s = s.without_arg(f)
            ins.append((k, s, a))
        key = (lambda t: self._order_key(t[0], bad=True)) if order_bad else (lambda t: self._order_key(t[0], bad=False))
        ins.sort(key=key)
        stmts = [s for _, s, _ in ins]
        for k, ms in enumerate(self.stmts):
            if ms.good is None:
                if k in add_st:
                    stmts.append(ms.bad)
            elif ms.bad is None:
                if k not in del_st:
                    stmts.append(ms.good)
            else:
                stmts.append(ms.bad if k in chg_st else ms.good)
        inputs = tuple(a for _, _, a in ins) if self.good.inputs is not None else None
        return self.good.replace(stmts=tuple(stmts), inputs=inputs, source=None)

    def _order_key(self, k: int, bad: bool):
        mi = self.inputs[k]
        pos = mi.bad_pos if bad else mi.good_pos
        if pos is not None:
            return (pos, 0)
        # an input only in the other program: after the input that precedes it there
        other = mi.good_pos if bad else mi.bad_pos
        best = -1
        for m in self.inputs:
            mine, theirs = (m.bad_pos, m.good_pos) if bad else (m.good_pos, m.bad_pos)
            if mine is not None and theirs is not None and theirs < other:
                best = max(best, mine)
        return (best, 1 + other)


def _rename(s: Stmt, names: dict[str, str], outs: tuple) -> Stmt:
    args = tuple((k, map_refs(v, lambda r: Ref(names.get(r.name, r.name)))) for k, v in s.args)
    return dataclasses.replace(s, args=args, outs=outs)


def _input_fields(g: Stmt, b: Stmt, ga, ba) -> list[tuple[str, tuple[str, ...]]]:
    """(group, argument names) of the declaration/tensor fields that differ, grouped so that a
    change keeps the declaration and its concrete tensor consistent."""
    keys = [k for k, _ in g.args] + [k for k, _ in b.args if not g.has(k)]
    diff = [k for k in keys if g.arg(k, "<absent>") != b.arg(k, "<absent>") or g.has(k) != b.has(k)]
    groups: dict[str, list[str]] = {}
    for k in diff:
        grp = "dtype" if k == "dtype" else "shape" if k in _SHAPE_ARGS else "layout" if k in _LAYOUT_ARGS else k
        groups.setdefault(grp, []).append(k)
    if isinstance(ga, TensorArg) and isinstance(ba, TensorArg):
        for f, grp in (("dtype", "dtype"), ("shape", "shape"), ("strides", "layout"), ("device", "device")):
            if getattr(ga, f) != getattr(ba, f):
                groups.setdefault(grp, []).append("arg:" + f)
    elif ga != ba:
        groups.setdefault("value", []).append("arg:value")
    return [(grp, tuple(v)) for grp, v in groups.items()]


def align(good: Program, bad: Program) -> Alignment:
    """GOOD and BAD merged (inputs matched, other statements paired by a diff, BAD's names renamed
    into GOOD's), with the list of atomic changes that turn GOOD into BAD."""
    _check_alignable(good, bad)
    fresh = _FreshNames({n for p in (good, bad) for s in p.stmts for n in s.outs if n})
    names: dict[str, str] = {}       # BAD name -> merged name
    inputs = _merge_inputs(good, bad, names, fresh)
    g_ops = [s for s in good.stmts if not is_input_decl(s)]
    b_ops = [s for s in bad.stmts if not is_input_decl(s)]
    stmts = _merge_stmts(good, g_ops, b_ops, _pair_statements(g_ops, b_ops), names, fresh)
    al = Alignment(good, bad, inputs, stmts)
    al.changes = _changes(al)
    return al


def _check_alignable(good: Program, bad: Program) -> None:
    if good.inputs is None or bad.inputs is None:
        raise IsolateError("both scripts need an inputs list (fmin cannot run one without it)")
    for p, what in ((good, "GOOD"), (bad, "BAD")):
        if any(s.is_vector_def and is_input_decl(s) for s in p.stmts):
            raise IsolateError(f"{what} uses legacy define_vector(size) inputs: not supported by isolate")
    if len(good.input_stmts()) != len(good.inputs) or len(bad.input_stmts()) != len(bad.inputs):
        raise IsolateError("the inputs list does not have one value per declared input")


class _FreshNames:
    """New names ``<base>_b<k>`` that neither script uses (``k`` counts up across all calls)."""

    def __init__(self, taken: set[str]):
        self.taken, self.k = taken, 0

    def __call__(self, base: str) -> str:
        while True:
            n = f"{base}_b{self.k}"
            self.k += 1
            if n not in self.taken:
                self.taken.add(n)
                return n


def _merge_inputs(good: Program, bad: Program, names: dict[str, str], fresh: _FreshNames) -> list[MInput]:
    """Matched inputs in GOOD's order (BAD-only ones last); a BAD input takes its GOOD match's name,
    or keeps its own unless GOOD uses it (records BAD name -> merged name in ``names``)."""
    g_in, b_in = good.input_stmts(), bad.input_stmts()
    good_outs = {n for s in good.stmts for n in s.outs}
    inputs: list[MInput] = []
    for i, j in sorted(match_inputs(good, bad), key=lambda p: (p[0] if p[0] is not None else 1e9, p[1] or 0)):
        gs = g_in[i] if i is not None else None
        bs = b_in[j] if j is not None else None
        if bs is not None:
            merged = gs.outs[0] if gs is not None else (bs.outs[0] if bs.outs[0] not in good_outs
                                                        else fresh(bs.outs[0]))
            names[bs.outs[0]] = merged
            bs = dataclasses.replace(bs, outs=(merged,))
        inputs.append(MInput(gs, bs, good.inputs[i] if i is not None else None,
                             bad.inputs[j] if j is not None else None, i, j))
    return inputs


def _pair_statements(g_ops: list[Stmt], b_ops: list[Stmt]) -> list[tuple[int | None, int | None]]:
    """(GOOD index, BAD index) pairs of the non-input statements, in order: a diff over the
    statements, then, inside each differing block, a diff over their calls (statements of the
    same call pair up); an unpaired statement has None on the other side."""
    gk, bk = [_skey(s) for s in g_ops], [_skey(s) for s in b_ops]
    pairs: list[tuple[int | None, int | None]] = []
    sm = difflib.SequenceMatcher(None, gk, bk, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            pairs += [(i1 + d, j1 + d) for d in range(i2 - i1)]
            continue
        sub = difflib.SequenceMatcher(None, [g_ops[i].call for i in range(i1, i2)],
                                      [b_ops[j].call for j in range(j1, j2)], autojunk=False)
        for t2, a1, a2, c1, c2 in sub.get_opcodes():
            if t2 == "equal":
                pairs += [(i1 + a1 + d, j1 + c1 + d) for d in range(a2 - a1)]
            else:
                pairs += [(i1 + a, None) for a in range(a1, a2)]
                pairs += [(None, j1 + c) for c in range(c1, c2)]
    return pairs


def _merge_stmts(good: Program, g_ops: list[Stmt], b_ops: list[Stmt], pairs, names: dict[str, str],
                 fresh: _FreshNames) -> list[MStmt]:
    """The paired statements, BAD's renamed into the merged names: a paired BAD statement takes
    its GOOD partner's results' names, an unpaired one keeps its own unless they are taken."""
    good_names = {n for s in good.stmts for n in s.outs if n}
    stmts: list[MStmt] = []
    for i, j in pairs:
        gs = g_ops[i] if i is not None else None
        bs = None
        if j is not None:
            b = b_ops[j]
            if gs is not None and len(gs.outs) == len(b.outs):
                outs = gs.outs
            else:
                outs = tuple(None if n is None else (n if n not in good_names and n not in names.values()
                                                     else fresh(n)) for n in b.outs)
            bs = _rename(b, names, outs)
            for n, m in zip(b.outs, outs):
                if n is not None:
                    names[n] = m
        stmts.append(MStmt(gs, bs, _line(gs), _line(b_ops[j]) if j is not None else None))
    return stmts


def _changes(al: Alignment) -> list[Change]:
    """Every atomic difference, numbered: input order, then per input, then per statement."""
    found = _order_changes(al) + _input_changes(al) + _stmt_changes(al)
    return [Change(k, kind, target, tuple(fields), words) for k, (kind, target, fields, words) in enumerate(found)]


def _order_changes(al: Alignment) -> list[tuple]:
    both = [m for m in al.inputs if m.good_pos is not None and m.bad_pos is not None]
    g_order = [mi.name for mi in sorted(both, key=lambda m: m.good_pos)]
    b_order = [mi.name for mi in sorted(both, key=lambda m: m.bad_pos)]
    if g_order == b_order:
        return []
    return [("order", None, (), "input order as in BAD: " + ", ".join(_bad_name(al.bad, al, n) for n in b_order))]


def _input_changes(al: Alignment) -> list[tuple]:
    out: list[tuple] = []
    for k, mi in enumerate(al.inputs):
        if mi.good is None:
            out.append(("input-add", k, (), f"add input {mi.name} (BAD's {_orig_bad_name(al.bad, mi)}): "
                                             f"`{_show(mi.bad)}`"))
        elif mi.bad is None:
            out.append(("input-del", k, (), f"remove input {mi.name}"))
        else:
            for grp, fs in _input_fields(mi.good, mi.bad, mi.good_arg, mi.bad_arg):
                out.append(("input-field", k, fs, f"input {mi.name} (BAD's {_orig_bad_name(al.bad, mi)}): {grp} "
                                                  f"{_field_words(mi.good, mi.good_arg, fs)} -> "
                                                  f"{_field_words(mi.bad, mi.bad_arg, fs)}"))
    return out


def _stmt_changes(al: Alignment) -> list[tuple]:
    out: list[tuple] = []
    for k, ms in enumerate(al.stmts):
        if ms.good is None:
            out.append(("op-add", k, (), f"add `{_show(ms.bad)}`"
                        + (f" (BAD line {ms.bad_line})" if ms.bad_line else "")))
        elif ms.bad is None:
            out.append(("op-del", k, (), f"remove `{_show(ms.good)}`"
                        + (f" (GOOD line {ms.good_line})" if ms.good_line else "")))
        elif ms.good != dataclasses.replace(ms.bad, origin=ms.good.origin) and _ne(ms.good, ms.bad):
            out.append(("op-change", k, (), f"change `{_show(ms.good)}` to `{_show(ms.bad)}`"))
    return out


def _ne(a: Stmt, b: Stmt) -> bool:
    return (a.outs, a.call, a.args) != (b.outs, b.call, b.args)


def _orig_bad_name(bad: Program, mi: MInput) -> str:
    s = bad.input_stmts()[mi.bad_pos]
    return s.outs[0]


def _bad_name(bad: Program, al: Alignment, merged: str) -> str:
    for mi in al.inputs:
        if mi.name == merged and mi.bad_pos is not None:
            orig = _orig_bad_name(bad, mi)
            return merged if orig == merged else f"{merged} (BAD's {orig})"
    return merged


def _field_words(s: Stmt, a, fs) -> str:
    parts = []
    if any(not f.startswith("arg:") for f in fs):   # the declaration says it; the tensor follows
        fs = [f for f in fs if not f.startswith("arg:")]
    for f in fs:
        if f.startswith("arg:"):
            val = getattr(a, f[4:], a) if f != "arg:value" else a
            if isinstance(val, TensorArg):
                val = (val.shape, val.strides, val.dtype)
            parts.append(f"{f[4:]}={val!r}" if f != "arg:value" else repr(getattr(val, "value", val)))
        else:
            parts.append(f"{f}={s.arg(f, '(none)')!r}")
    if len(parts) == 1 and "=" in parts[0]:
        return parts[0].split("=", 1)[1]
    return ", ".join(parts)


# ---------------------------------------------------------------- the command
def isolate(good_path: str, bad_path: str, ctx: RunContext | None = None, *,
            run: Callable[[Program], object] | None = None, max_tests: int | None = 200) -> dict:
    """Align GOOD and BAD, run ddmin both ways, and return the report dict. Scripts run where
    ``ctx`` says (workers started here), or through ``run``, a map from a Program to an Outcome
    (tests)."""
    from .program import parse_file
    ctx = ctx or RunContext()
    good, bad = parse_file(good_path), parse_file(bad_path)
    al = align(good, bad)
    t0 = time.perf_counter()
    if run is not None:
        session = Session(lambda cands: [Verdict(True, outcome=run(c.program)) for c in cands],
                          static="strict", remember_invalid=True)
        return _isolate(al, session, good_path, bad_path, ctx, max_tests, t0, parallel=False)
    fit = ctx.fit_memory([(good_path, good, None), (bad_path, bad, None)])
    if fit.refused:   # a refusal starts nothing (exit 2)
        raise IsolateError("; ".join(f"{path}: {why}" for path, why in fit.refused.items()))
    ctx = fit.ctx
    from .progress import ProgressLine
    status = ProgressLine(ctx.quiet)
    status.starting(get_backend(ctx.backend), ctx.device, ctx.jobs,
                    f"to run GOOD and BAD ({plural(len(al.changes), 'difference')})")
    with ctx.pool() as pool:
        def judge(cands):
            outs = pool.run_many([ctx.request(c.text, os.path.abspath(bad_path)) for c in cands])
            status.show(f"[{time.perf_counter() - t0:6.0f}s] isolate: {plural(session.tests + len(cands), 'run')}")
            return [Verdict(True, outcome=o) for o in outs]

        session = Session(judge, static="strict", remember_invalid=True)
        try:
            return _isolate(al, session, good_path, bad_path, ctx, max_tests, t0, parallel=True)
        finally:
            status.done()


def _isolate(al: Alignment, session: Session, good_path, bad_path, ctx: RunContext, max_tests: int | None,
             t0: float, parallel: bool) -> dict:
    """ddmin both ways over the aligned differences; every change set is a candidate of the
    session (statically checked, cached by its text, run in batches)."""

    def outcomes_of(configs):
        """Outcomes of several change sets (None: statically invalid), the unknown ones run together."""
        seen = [session.consider(al.apply(frozenset(ids))) for ids in configs]
        todo = {}
        for c in seen:
            if c.to_run:
                todo.setdefault(c.text, c)
        ran = dict(zip(todo, session.judge([c.candidate() for c in todo.values()]))) if todo else {}
        out = []
        for c in seen:
            if c.skipped is not None:
                out.append(None)
            else:
                out.append((c.verdict or ran[c.text]).outcome)
        return out

    def outcome_of(ids):
        return outcomes_of([ids])[0]

    every = [c.id for c in al.changes]
    o_good, o_bad = outcome_of([]), outcome_of(every)
    if o_good is None or o_bad is None:
        raise IsolateError("the aligned GOOD or BAD program does not check statically; the alignment is not "
                           "supported for this pair")
    d = {"good": good_path, "bad": bad_path, "backend": ctx.backend,
         "outcome_good": outcome_words(o_good), "outcome_bad": outcome_words(o_bad),
         "boundary_change": boundary_change(o_good, o_bad),
         "changes": [c.to_json() for c in al.changes], "forward": None, "backward": None,
         "same_outcome": outcome_key(o_good) == outcome_key(o_bad)}
    if not d["same_outcome"]:
        for key, side in _directions(al, every, outcomes_of, o_good, o_bad, max_tests, ctx.jobs, parallel).items():
            d[key] = side
    d["runs"], d["invalid"] = session.tests, session.invalid
    d["seconds"] = round(time.perf_counter() - t0, 2)
    return d


def _directions(al: Alignment, every: list, outcomes_of, o_good, o_bad, max_tests, jobs: int,
                parallel: bool) -> dict:
    """Forward (the fewest changes that turn GOOD into BAD's outcome) and backward (the fewest
    undone in BAD that give GOOD's), each by ddmin over the change ids."""
    from .program import to_source
    kb, kg = outcome_key(o_bad), outcome_key(o_good)

    def tester(target_key, ids_to_prog):
        def many(subs):
            return [None if o is None else outcome_key(o) == target_key
                    for o in outcomes_of([ids_to_prog(s) for s in subs])]
        return (lambda sub: many([sub])[0]), many

    out = {}
    for key, target_key, base, target, ids_to_prog in (
            ("forward", kb, o_good, o_bad, lambda s: s),
            ("backward", kg, o_bad, o_good, lambda s: set(every) - set(s))):
        test, many = tester(target_key, ids_to_prog)
        sub, n = ddmin(every, test, max_tests=max_tests, test_many=many if parallel else None, jobs=jobs)
        out[key] = {"changes": sorted(sub), "tests": n, "holds": test(sub) is True,
                    "words": [al.changes[i].words for i in sorted(sub)],
                    "from": outcome_words(base), "to": outcome_words(target),
                    "script": to_source(al.apply(ids_to_prog(sub)))}
    return out


def _summary(side: dict, onto: str, forward: bool) -> str:
    ch = side["words"]
    verb, prep = ("applying", "to") if forward else ("undoing", "in")
    if not side["holds"]:
        return (f"no subset of the changes {verb[:-3]}ied {prep} {onto} reproduces {side['to']} "
                f"(within the test budget)") if forward else \
            f"undoing no subset of the changes in {onto} reproduces {side['to']} (within the test budget)"
    if not ch:
        return f"{onto} already gives {side['to']}"
    what = "; ".join(f"“{w}”" for w in ch)
    return f"{verb} only {what} {prep} {onto} turns {side['from']} into {side['to']}"


def to_markdown(d: dict) -> str:
    lines = [f"## Why `{os.path.basename(d['bad'])}` differs from `{os.path.basename(d['good'])}`", "",
             f"On the `{d['backend']}` backend GOOD gives **{d['outcome_good']}**, BAD gives "
             f"**{d['outcome_bad']}**" + (f": {d['boundary_change']}." if d.get("boundary_change") else "."), ""]
    if d["same_outcome"]:
        lines += ["The outcomes are the same: nothing to isolate.", ""]
    else:
        for key, onto in (("forward", "GOOD"), ("backward", "BAD")):
            side = d[key]
            lines.append(f"- {_summary(side, onto, key == 'forward')} ({len(side['changes'])} of "
                         f"{plural(len(d['changes']), 'difference')}, {plural(side['tests'], 'test')})")
        lines.append("")
    lines += [f"### The {plural(len(d['changes']), 'difference')} (GOOD's names)", ""]
    lines += [f"{c['id']}. {c['words']}" for c in d["changes"]] or ["(none)"]
    lines += ["", f"{plural(d['runs'], 'run')}, {plural(d['invalid'], 'invalid combination')} skipped, "
                  f"{d['seconds']} s.", ""]
    if not d["same_outcome"]:
        for key, title in (("forward", "GOOD with the minimal changes"),
                           ("backward", "BAD with the minimal changes undone")):
            lines += [f"<details><summary>{title}</summary>", "", "```python", d[key]["script"].rstrip("\n"),
                      "```", "", "</details>", ""]
    return "\n".join(lines)


def summary_lines(d: dict) -> list[str]:
    out = [f"GOOD: {d['outcome_good']}   BAD: {d['outcome_bad']}   ({plural(len(d['changes']), 'difference')})"]
    if d.get("boundary_change"):
        out.append(f"from GOOD to BAD {d['boundary_change']}")
    if d["same_outcome"]:
        out.append("the outcomes are the same: nothing to isolate")
        return out
    out.append(_summary(d["forward"], "GOOD", True))
    out.append(_summary(d["backward"], "BAD", False))
    return out


def write(d: dict, out_dir: str) -> None:
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "isolate.json"), "w", encoding="utf-8") as f:
        json.dump(d, f, indent=2, default=str)
    with open(os.path.join(out_dir, "isolate.md"), "w", encoding="utf-8") as f:
        f.write(to_markdown(d))
    for key, name in (("forward", "good_plus_changes.py"), ("backward", "bad_minus_changes.py")):
        if d.get(key):
            with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
                f.write(d[key]["script"])
