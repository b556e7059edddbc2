"""The seed queue of a feedback campaign (``fmin fuzz --seeds DIR... --feedback``).

A seeded program whose run showed a decision feature no earlier program of the campaign showed
(``feedback.Coverage``) joins the queue; later chunks draw part of their programs from the queue
instead of from the seed files: a queue entry is mutated again (``derive``), so a mutant that made
nvFuser take a new decision is explored further, as AFL keeps an input that took a new edge.

The rules, each chosen so that a program still replays from its id alone:

* **Ids are ancestry.** A derived program's id is its parent's id, ``+``, and the id of the chunk
  slot it took: ``0.3.5+0.7.2`` is slot ``0.7.2`` mutating the program of ``0.3.5``. ``derive``
  draws its mutations from a Hypothesis run seeded by the slot's id alone, so ``program_for``
  rebuilds any chain from ``--seeds``: the first link is an ordinary seeded example
  (``seeded.program_for``), each later link ``derive`` on the one before. No queue is stored.
* **Which slots.** Once the queue has entries a chunk may see, each slot is derived from an entry
  with probability ``FROM_QUEUE``, decided by the slot's own ``random.Random(example_seed)``.
* **Energy.** An entry is drawn with weight ``min(new features, NOVELTY_CAP)`` times the seeds'
  cost weight (``seeded.seed_weights``: ops^-1.5): novel and cheap entries are drawn most.
  Chains stop at ``MAX_DEPTH`` links (a deeper entry is not queued). Only programs that ran
  (status ok) are queued: a failure is a finding, and its mutants mostly fail the same way.
* **Determinism.** Chunk ``p`` (the p-th the campaign generates) sees the entries admitted from
  chunks up to ``p - lag``, ``lag`` = 1 + the runner's window in chunks; the campaign takes the
  results of those chunks before generating it (``campaign._Campaign.settle``). Results are
  taken in example order, so the queue, and every program, depends on ``--seed`` and ``--jobs``
  (the window), not on timing.
* **Across nights.** The entries a campaign admitted are kept in its corpus (``store.learned``,
  each with its program's text) and the next campaign started from that corpus starts with them,
  ready for its first chunk (``Queue.carry``); a program derived from one keeps the chain of ids,
  so it replays from ``--seeds`` as any other.
"""
from __future__ import annotations

import bisect
import itertools
import math
import random
from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, given, seed as hseed, settings, strategies as st

from ...model import Program
from ...program import parse, to_source, validity
from . import seeded
from .generate import CHUNK, example_seed, fixed_constants
from .mutate import mutated

#: joins a derived program's id to its parent's
LINK = "+"
#: links of a chain at most: an entry this deep is not queued
MAX_DEPTH = 6
#: the share of a chunk's slots derived from the queue once it has entries for the chunk
FROM_QUEUE = 0.5
#: new features counted for an entry's weight at most (one program with 30 new features, the
#: first of a kind, must not take the queue)
NOVELTY_CAP = 4


@dataclass(frozen=True)
class DerivedExample(seeded.SeededExample):
    #: (example id, mutations) of each link, from the seeded example to this one
    chain: tuple = ()

    def ancestry(self) -> dict:
        """What ``finding.json`` records of it (``Bucket.ancestry``)."""
        return {"seed_file": self.seed_file, "chain": [{"id": i, "mutations": list(m)} for i, m in self.chain]}


def chain_of(e: seeded.SeededExample) -> tuple:
    return e.chain if isinstance(e, DerivedExample) else ((e.id, tuple(e.mutations)),)


def derive(program: Program, info, link_id: str) -> tuple[Program, list[str]]:
    """``program`` changed by 1-3 mutations drawn from a Hypothesis run seeded by ``link_id``
    alone (the second example of a two-example run: the first is Hypothesis's all-zero draw)."""
    got = []

    @hseed(example_seed(link_id))
    @settings(max_examples=2, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(st.data())
    def draw(data):
        got.append(mutated(data, program, info))

    with fixed_constants():
        draw()
    return got[-1]


def derived(parent: seeded.SeededExample, info, link_id: str) -> DerivedExample | None:
    """The program of slot ``link_id`` mutating ``parent``'s, or None where no mutation applied."""
    p, names = derive(parent.program, info, link_id)
    if not names:
        return None
    return DerivedExample(f"{parent.id}{LINK}{link_id}", p, parent.seed_file, tuple(parent.mutations) + tuple(names),
                          parent.large, chain_of(parent) + ((link_id, tuple(names)),))


def static_info(program: Program):
    """The static check's facts the mutations read (as a seed's: ``seeded.read_seed``)."""
    return validity.check(program, rules=validity.STATIC_RULES)


def program_for(example_id: str, dirs, *, frontend: str | None = None,
                capability: tuple[int, int] | None = None) -> seeded.SeededExample:
    """The program of any seeded example id, a derived one's by rebuilding its chain."""
    first, *rest = example_id.split(LINK)
    e = seeded.program_for(first, dirs, frontend=frontend, capability=capability)
    for link in rest:
        d = derived(e, static_info(e.program), link)
        if d is None:
            raise ValueError(f"{example_id}: no mutation of {e.id}'s program applies in slot {link}")
        e = d
    return e


def weight(new: int, ops: int) -> int:
    """An entry's energy: its novelty (capped) times the seeds' cost weight (ops^-1.5)."""
    cost = max(1, math.isqrt(seeded.WEIGHT_UNITS * seeded.WEIGHT_UNITS // max(1, ops) ** 3))
    return min(new, NOVELTY_CAP) * cost


@dataclass
class Entry:
    example: seeded.SeededExample
    info: object
    new: int            # decision features it was the first to show
    position: int       # the chunk position it was judged in
    weight: int
    carried: bool = False   # learned by an earlier campaign (``Queue.carry``), not this one

    def to_json(self) -> dict:
        return {"id": self.example.id, "seed_file": self.example.seed_file, "new_features": self.new,
                "weight": self.weight, "depth": len(chain_of(self.example))}

    def state(self) -> dict:
        """What the next campaign needs to start with this entry (``store.learned``)."""
        e = self.example
        return {**self.to_json(), "program": to_source(e.program), "mutations": list(e.mutations),
                "large": e.large, "chain": [[i, list(m)] for i, m in chain_of(e)]}


def carried_entry(state: dict) -> Entry | None:
    """An ``Entry.state`` read back, ready for any chunk; None where its program no longer reads or
    checks (written by another fmin, say)."""
    try:
        program = parse(state["program"])
        chain = tuple((i, tuple(m)) for i, m in state["chain"])
        e = DerivedExample(state["id"], program, state["seed_file"], tuple(state["mutations"]), bool(state["large"]),
                           chain)
        return Entry(e, static_info(program), int(state["new_features"]), -(10 ** 9), int(state["weight"]),
                     carried=True)
    except Exception:
        return None


def lag_for(window: int) -> int:
    """Chunks between a result and the first chunk that may draw on it: the runner keeps
    ``window`` programs in flight, so later results are not in yet when a chunk is generated."""
    return 1 + -(-max(1, window) // CHUNK)


class Queue:
    def __init__(self, lag: int = 2):
        self.entries: list[Entry] = []
        self.lag = lag

    def admit(self, e, new: int, position: int) -> Entry | None:
        """``e`` queued for showing ``new`` new features, unless it is too deep or its program
        fails the static check the mutations need."""
        if new <= 0 or not isinstance(e, seeded.SeededExample) or len(chain_of(e)) >= MAX_DEPTH:
            return None
        try:
            info = static_info(e.program)
        except Exception:
            return None
        ent = Entry(e, info, new, position, weight(new, len(e.program.op_stmts())))
        self.entries.append(ent)
        return ent

    def carry(self, states: list[dict]) -> int:
        """The entries an earlier campaign learned (``Entry.state``), ready from the first chunk;
        returns how many could be read back."""
        got = [x for x in map(carried_entry, states) if x is not None]
        self.entries[:0] = got
        return len(got)

    def ready(self, position: int) -> list[Entry]:
        return [x for x in self.entries if x.position <= position - self.lag]

    def mix(self, examples: list, position: int) -> list:
        """Chunk ``position``'s examples, each slot derived from a ready entry with probability
        ``FROM_QUEUE`` (by the slot's own seed), the entry drawn by weight."""
        pool = self.ready(position)
        if not pool:
            return examples
        bounds = list(itertools.accumulate(x.weight for x in pool))
        out = []
        for e in examples:
            rng = random.Random(example_seed(e.id))
            if rng.random() >= FROM_QUEUE:
                out.append(e)
                continue
            parent = pool[bisect.bisect_right(bounds, rng.randrange(bounds[-1]))]
            out.append(derived(parent.example, parent.info, e.id) or e)
        return out

    def to_json(self) -> list[dict]:
        return [x.to_json() for x in self.entries]


__all__ = ["LINK", "MAX_DEPTH", "FROM_QUEUE", "NOVELTY_CAP", "DerivedExample", "Entry", "Queue", "derive",
           "derived", "program_for", "weight", "lag_for", "chain_of", "static_info", "carried_entry"]
