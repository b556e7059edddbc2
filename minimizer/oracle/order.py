"""Does the order of a fusion's inputs matter? (``--order-dependent``)

``permute_inputs`` reorders the input declarations and the ``inputs`` list together, so the
fusion computes the same values; only the order nvFuser sees them in changes. ``search`` tries
permutations, smallest first (single adjacent swaps, then any single swap, then the reversal, then
a few seeded random permutations, a bounded number in all), and stops at the first whose outcome
differs from the original's in status/signature, segment count or scheduler multiset.

Nothing here runs a script itself: ``search`` takes a function from a Program to its Outcome, so
tests can feed fake outcomes and ``gather`` (called by ``property.evaluate``) feeds pool runs.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..program.model import Program, is_input_decl
from .outcome import Outcome


def outcome_key(o: Outcome | None) -> tuple:
    """What "the outcome changed" compares: status and signature, segment count, scheduler multiset."""
    if o is None:
        return ("not run",)
    scheds = tuple(sorted(str(s).strip().lower() for s in o.schedulers)) if o.schedulers is not None else None
    return (o.status, o.signature, o.segments, scheds)


def confirmed(run: Callable[[], Outcome], original: Outcome | None) -> Outcome:
    """A variant's outcome (``run()``); a crash or hang that differs from ``original``'s is run
    once more and believed only if it repeats: the machine can kill or stall one run (out of
    memory, load), and that must not pass for order or layout dependence."""
    o = run()
    if o.status in ("crash", "timeout") and outcome_key(o) != outcome_key(original):
        o = run()
    return o


def outcome_words(o: Outcome | None) -> str:
    """``3 segments [reduction×2, transpose]`` or ``error `sig```: an outcome in a few words."""
    if o is None:
        return "no outcome"
    if not o.ok:
        return f"{o.status} `{o.signature}`"
    if o.segments is None:
        return "ok"
    words = f"{o.segments} segment" + ("" if o.segments == 1 else "s")
    if o.schedulers:
        from collections import Counter
        c = Counter(str(s) for s in o.schedulers)
        words += " [" + ", ".join(k if v == 1 else f"{k}×{v}" for k, v in sorted(c.items())) + "]"
    return words


def input_names(program: Program) -> list[str]:
    """The declared input names, in definition order."""
    return [s.outs[0] if s.outs and s.outs[0] else f"<input {k}>" for k, s in enumerate(program.input_stmts())]


def permute_inputs(program: Program, perm) -> Program:
    """The program with its input declarations in the order ``perm`` (new position k holds the
    declaration that was k-th in ``perm[k]``), moved together to the top of the body, the other
    statements in their order, and the ``inputs`` list reordered to match. Declarations use no
    values, so the program stays well formed and computes the same thing."""
    decl_idx = [i for i, s in enumerate(program.stmts) if is_input_decl(s)]
    perm = list(perm)
    if sorted(perm) != list(range(len(decl_idx))):
        raise ValueError(f"not a permutation of {len(decl_idx)} inputs: {perm}")
    decls = [program.stmts[i] for i in decl_idx]
    rest = [s for i, s in enumerate(program.stmts) if not is_input_decl(s)]
    names = [n for s in decls for n in s.outs if n]
    for s in rest:   # a name bound by a non-declaration before its declaration would be shadowed
        if any(n in names for n in s.outs if n):
            early = [n for n in s.outs if n in names]
            raise ValueError(f"input name {early[0]} is also bound by another statement; cannot reorder")
    stmts = tuple(decls[k] for k in perm) + tuple(rest)
    inputs = program.inputs
    if inputs is not None:
        slots, k = [], 0
        for s in decls:
            n = s.arg("values") if s.call == "define_vector" else 1
            slots.append(list(range(k, k + n)))
            k += n
        if k != len(inputs):
            raise ValueError(f"{len(inputs)} values in the inputs list for {k} declared inputs")
        inputs = tuple(inputs[j] for p in perm for j in slots[p])
    return program.replace(stmts=stmts, inputs=inputs)


def candidates(n: int, *, max_swaps: int = 28, n_random: int = 4, seed: int = 0) -> Iterator[tuple[str, list[int]]]:
    """(description kind, permutation): adjacent swaps, other swaps (``max_swaps`` swaps in all),
    the reversal, then ``n_random`` seeded random permutations; none repeated, never the identity."""
    ident = list(range(n))
    seen = {tuple(ident)}

    def swap(i, j):
        p = list(ident)
        p[i], p[j] = p[j], p[i]
        return p

    swaps = [(i, i + 1) for i in range(n - 1)] + [(i, j) for d in range(2, n) for i in range(n - d) for j in [i + d]]
    for i, j in swaps[:max_swaps]:
        p = swap(i, j)
        seen.add(tuple(p))
        yield "swap", p
    rev = ident[::-1]
    if tuple(rev) not in seen:
        seen.add(tuple(rev))
        yield "reversal", rev
    rng = random.Random(seed)
    tries = 0
    made = 0
    while made < n_random and tries < 20 * max(1, n_random) and n > 1:
        tries += 1
        p = list(ident)
        rng.shuffle(p)
        if tuple(p) in seen:
            continue
        seen.add(tuple(p))
        made += 1
        yield "random", p


def describe_permutation(perm, names: list[str]) -> str:
    moved = [k for k, p in enumerate(perm) if p != k]
    if len(moved) == 2:
        i, j = moved
        return f"swapping inputs {i} ({names[i]}) and {j} ({names[j]})"
    if list(perm) == list(range(len(perm)))[::-1]:
        return "reversing the input order"
    return "reordering the inputs as [" + ", ".join(names[p] for p in perm) + "]"


@dataclass
class OrderResult:
    """What the search found: the first permutation (if any) whose outcome differs."""
    names: list[str]
    original: Outcome | None
    tried: int = 0
    perm: list[int] | None = None
    kind: str | None = None
    outcome: Outcome | None = None
    skipped: str | None = None          # why nothing could be tried
    seen: list[tuple[list[int], str]] = field(default_factory=list)   # (perm, outcome words)

    @property
    def found(self) -> bool:
        return self.perm is not None

    def words(self) -> str:
        if self.skipped:
            return self.skipped
        if not self.found:
            return f"none of {self.tried} input orders tried changes the outcome ({outcome_words(self.original)})"
        return (f"{describe_permutation(self.perm, self.names)} gives {outcome_words(self.outcome)} "
                f"instead of {outcome_words(self.original)}")

    def to_json(self) -> dict:
        return {"found": self.found, "tried": self.tried, "perm": self.perm, "kind": self.kind,
                "order": [self.names[p] for p in self.perm] if self.perm else None,
                "original": outcome_words(self.original), "outcome": outcome_words(self.outcome) if self.found else None,
                "words": self.words()}


def search(program: Program, original: Outcome, outcome_of: Callable[[Program], Outcome], *,
           max_swaps: int = 28, n_random: int = 4, seed: int = 0, batch: int = 1) -> OrderResult:
    """Try permutations smallest first; stop at the first whose outcome key differs from
    ``original``'s. ``outcome_of`` may also take a list of programs when ``batch`` > 1 (then it
    must return a list of outcomes)."""
    names = input_names(program)
    res = OrderResult(names, original)
    if len(names) < 2:
        res.skipped = f"the fusion has {len(names)} input{'s' if len(names) != 1 else ''}: nothing to reorder"
        return res
    want = outcome_key(original)
    todo = list(candidates(len(names), max_swaps=max_swaps, n_random=n_random, seed=seed))
    for start in range(0, len(todo), max(1, batch)):
        chunk = todo[start:start + max(1, batch)]
        progs = []
        for _, p in chunk:
            try:
                progs.append(permute_inputs(program, p))
            except ValueError as e:
                res.skipped = str(e)
                return res
        outs = outcome_of(progs) if batch > 1 else [outcome_of(progs[0])]
        for (kind, p), o, prog in zip(chunk, outs, progs):
            res.tried += 1
            res.seen.append((p, outcome_words(o)))
            if outcome_key(o) != want and o.status in ("crash", "timeout"):
                o = confirmed(lambda: outcome_of([prog])[0] if batch > 1 else outcome_of(prog), original)
                res.seen.append((p, outcome_words(o) + " (re-run)"))
            if outcome_key(o) != want:
                res.perm, res.kind, res.outcome = p, kind, o
                return res
    return res


def gather(check, text: str, path: str, seed: int, outcome: Outcome, pool) -> OrderResult:
    """Run the permuted programs of ``text`` on ``pool`` (``property.evaluate``'s gathering step
    for ``--order-dependent``)."""
    from ..program import parse, to_source
    from .pool import Request
    program = parse(text, path)
    n = len(getattr(pool, "workers", [])) or 1

    def run_one(p: Program) -> Outcome:
        return pool.run(Request(to_source(p), path, seed))

    def run_many(ps):
        if hasattr(pool, "run_many"):
            return pool.run_many([Request(to_source(p), path, seed) for p in ps])
        return [run_one(p) for p in ps]

    return search(program, outcome, run_many if n > 1 else run_one, max_swaps=check.max_swaps,
                  n_random=check.n_random, seed=check.seed, batch=n)
