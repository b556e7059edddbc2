"""Programs for a campaign, reproducibly: a campaign seed and an example id give back the same
program on any machine with the same fmin and Hypothesis versions.

Hypothesis is driven through its public API: a chunk of ``CHUNK`` programs is one ``@given`` run
with ``@seed(chunk seed)``, generation phase only, no example database, no deadline or health
checks, and a test body that only collects the drawn programs (it never fails, so Hypothesis
never shrinks: the fuzzer's findings are minimized by fmin's reducer, which knows nvFuser). The
chunk seed mixes the campaign seed and the chunk number, so shards of one campaign
(``--shard i/n`` takes the chunks ``c`` with ``c % n == i``) never repeat each other's programs.

An example id is ``<campaign seed>.<chunk>.<index>``; ``program_for(id)`` regenerates it.

Hypothesis (>= 6.131) draws about one value in twenty from a pool of constants that includes
every literal in the *local* modules loaded at the time (files outside site-packages and the
standard library): which of fmin's modules a process had imported, and whether fmin runs from a
checkout or an install, changed the programs an id gave (measured: 12 chunks of seed 2031 hashed
differently after importing ``backends.nvfuser_log`` or ``fuzz.campaign.run``). ``fixed_constants``
keeps that pool empty while a chunk is drawn, so an id means one program wherever it is drawn.
"""
from __future__ import annotations

import contextlib
import hashlib
import threading
from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, given, seed as hseed, settings

from ...model import Program
from .strategies import programs

CHUNK = 32


@dataclass(frozen=True)
class Example:
    id: str
    program: Program


def chunk_seed(campaign_seed: int, chunk: int) -> int:
    h = hashlib.sha256(f"fmin-fuzz:{campaign_seed}:{chunk}".encode()).digest()
    return int.from_bytes(h[:8], "big")


_CONSTANTS_LOCK = threading.Lock()


@contextlib.contextmanager
def fixed_constants():
    """Draw with Hypothesis's built-in constants only, not those of the local modules loaded in
    this process (see the module docstring). Hypothesis offers no setting for it, so its
    provider's lookup is replaced for the duration (and its cache of allowed constants cleared on
    both sides); a Hypothesis without that lookup draws no local constants and is left alone."""
    try:
        from hypothesis.internal.conjecture import providers
        lookup, Constants, cache = providers._get_local_constants, providers.Constants, providers.CONSTANTS_CACHE
    except (ImportError, AttributeError):
        yield
        return
    empty = Constants()
    with _CONSTANTS_LOCK:
        providers._get_local_constants = lambda: empty
        cache.cache.clear()
        try:
            yield
        finally:
            providers._get_local_constants = lookup
            cache.cache.clear()


def chunk(campaign_seed: int, k: int, *, frontend: str | None = None, max_ops: int = 12,
          size: int = CHUNK) -> list[Example]:
    """The ``size`` programs of chunk ``k`` (fewer if Hypothesis runs out of distinct ones)."""
    got: list[Program] = []

    @hseed(chunk_seed(campaign_seed, k))
    @settings(max_examples=size, database=None, phases=[Phase.generate], deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(programs(frontend=frontend, max_ops=max_ops))
    def collect(p):
        got.append(p)

    with fixed_constants():
        collect()
    return [Example(f"{campaign_seed}.{k}.{i}", p) for i, p in enumerate(got)]


def parse_id(example_id: str) -> tuple[int, int, int]:
    try:
        s, c, i = (int(x) for x in example_id.split("."))
    except ValueError:
        raise ValueError(f"expected an example id SEED.CHUNK.INDEX (e.g. 0.3.17), got {example_id!r}") from None
    return s, c, i


def example_seed(example_id: str) -> int:
    """A seed of one example's own (the metamorphic oracle's permutation is drawn from it); a
    feedback-derived example (``seedqueue``: ``PARENT+SEED.CHUNK.INDEX``) has its last link's."""
    s, c, i = parse_id(example_id.rsplit("+", 1)[-1])
    return chunk_seed(s, c) + i


def program_for(example_id: str, *, frontend: str | None = None, max_ops: int = 12) -> Program:
    s, c, i = parse_id(example_id)
    ex = chunk(s, c, frontend=frontend, max_ops=max_ops)
    if i >= len(ex):
        raise ValueError(f"chunk {c} of seed {s} has {len(ex)} programs; no index {i}")
    return ex[i].program
