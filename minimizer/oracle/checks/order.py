"""``--order-dependent``: does the order of a fusion's inputs matter?

``program.variants.permute_inputs`` reorders the input declarations and the ``inputs`` list
together, so the fusion computes the same values; only the order nvFuser sees them in changes.
``search`` tries permutations, smallest first (single adjacent swaps, then any single swap, then
the reversal, then a few seeded random permutations, a bounded number in all), and stops at the
first whose outcome differs from the original's in status/signature, segment count or scheduler
multiset. ``search`` takes a function from Programs to Outcomes, so tests can feed fakes.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Iterator

from ...model import Program
from ...program.variants import input_names, permute_inputs
from ..outcome import Outcome, boundary_change, confirmed, outcome_key, outcome_words
from .base import Check, Missing, Trial, register


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
        change = boundary_change(self.original, self.outcome)
        return (f"{describe_permutation(self.perm, self.names)} gives {outcome_words(self.outcome)} "
                f"instead of {outcome_words(self.original)}" + (f": {change}" if change else ""))

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


@register
@dataclass(frozen=True)
class OrderDependent(Check):
    """Permuting the fusion inputs (declarations and ``inputs`` list together) changes the outcome:
    status/signature, segment count or scheduler multiset."""
    name: ClassVar[str] = "order-dependent"
    reads_segments: ClassVar[bool] = True
    order: ClassVar[int] = 60
    cost: ClassVar[int] = 5
    max_swaps: int = 28
    n_random: int = 4
    seed: int = 0

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--order-dependent", action="store_true",
                       help="the outcome (status, segments, schedulers) changes when the fusion inputs are permuted "
                            "(declarations and inputs list together); reports the smallest permutation found")

    @classmethod
    def from_args(cls, args):
        return cls() if getattr(args, "order_dependent", False) else None

    def gather(self, trial: Trial):
        if trial.outcome is None:
            return None
        try:
            program = trial.program
        except Exception as e:   # a script the model cannot reorder: say so rather than fail the run
            return Missing(f"could not permute the inputs: {type(e).__name__}: {e}")
        from ...program import to_source
        n = len(getattr(trial.pools.primary, "workers", [])) or 1

        def run_many(ps: list[Program]) -> list[Outcome]:
            return trial.run_many([to_source(p) for p in ps])

        try:
            return search(program, trial.outcome, run_many if n > 1 else (lambda p: run_many([p])[0]),
                          max_swaps=self.max_swaps, n_random=self.n_random, seed=self.seed, batch=n)
        except Exception as e:
            return Missing(f"could not permute the inputs: {type(e).__name__}: {e}")

    def holds(self, o, evidence=None):
        if not isinstance(evidence, OrderResult):
            return False, "no permuted runs"
        return evidence.found, evidence.words()

    def describe(self):
        return "the outcome depends on the input order"
