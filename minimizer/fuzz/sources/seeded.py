"""Seeded fuzzing (``fmin fuzz --seeds DIR...``): each program of a campaign is a real fusion (a
seed) changed by a few ``mutate`` mutations, instead of a small generated program.

Bugs users file need the structure of a real fusion (RoPE slice/cat chains, norm backwards,
attention blocks) around them; the seeds bring it. Seeds are every script fmin reads
(``program.reader``: corpus scripts, a folder of repros, Thunder/nvFuser dumps), a legacy one
upgraded to the campaign's frontend (``upgrade``), as ``reduce`` does. A seed that cannot be read
or fails the static check is reported once (``file:line:col``) and left out; a missing folder is
a usage error.

Seeds are drawn as ops^-1.5 (``seed_weights``): a program's time grows about linearly with its
seed's ops, so a seed's share of the campaign's time falls slowly with its size (AFL's rule: the
slow get less energy), instead of the largest seeds taking most of it.

Reproducibility is the generator's (``generate``): chunk ``k`` is one ``@given`` run seeded by
``chunk_seed(seed, k)`` drawing (seed file, mutations) from Hypothesis data, so an example id
``SEED.CHUNK.INDEX`` with the same ``--seeds`` regenerates the same program (``program_for``).
The seeds are parsed once per process (``load``'s cache): a worker or a replay never re-reads
them per program.

A seeded finding carries its seed file (``seeds`` in ``finding.json``, counted like the dtypes).
An order or layout change of *segmentation* of a seed (both variants run, other kernels) is the
seed issue's question — does segmentation depend on the input order? — and a finding of its own
(``found_as`` ``segmentation``, key ``<backend> segmentation depends on the input order (<kinds>)``,
both segment graphs in ``finding.json``); its kind stays ``order-dependent``/``layout-dependent``
so it is reduced and filed as those are.
"""
from __future__ import annotations

import bisect
import dataclasses
import itertools
import math
import os
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import HealthCheck, Phase, given, seed as hseed, settings, strategies as st

from ...errors import ScriptError, UsageError
from ...model import Program
from ...program import validity
from ...program.reader import ending_at_execute, parse_file
from ...upgrade import upgrade
from ...harvest import nvfuser_tests
from ..store.key import SEGMENTATION, BucketKey
from .generate import CHUNK, Example, chunk_seed, fixed_constants, parse_id
from .mutate import mutated, trimmed


@dataclass(frozen=True)
class Seed:
    path: str
    program: Program
    info: object = field(compare=False, repr=False)
    #: (program, static check) at sizes a campaign can afford (``mutate.trimmed``), or None where
    #: the seed fits as written
    small: tuple | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class SeededExample(Example):
    seed_file: str = ""               # the seed file it was mutated from (not the campaign seed)
    mutations: tuple[str, ...] = ()
    large: bool = False               # the seed is over ``mutate.TRIM_ELEMENTS`` (trimmed unless drawn as written)


@dataclass
class Seeds:
    seeds: list[Seed]
    unreadable: list[str]             # ``file:line:col: why`` of each seed left out
    #: per nvFuser checkout among the folders: its fusion functions found, read, left out by reason
    harvests: list = field(default_factory=list)
    #: seeds set aside on this GPU: name -> the compute capability their nvFuser test requires
    set_aside: dict[str, tuple[int, int]] = field(default_factory=dict)


_CACHE: dict[tuple, Seeds] = {}


def scripts_in(dirs) -> list[str]:
    """Every ``*.py`` under the folders (a file named directly is itself), sorted per folder, each
    once (``--seeds corpus corpus/seeds`` does not weigh corpus/seeds twice)."""
    out, seen = [], set()
    for d in dirs:
        if os.path.isfile(d):
            out.append(d)
            continue
        if not os.path.isdir(d):
            raise UsageError(f"--seeds {d}: no such directory")
        checkout = nvfuser_tests.checkout_of(d)
        if checkout is not None:   # an nvFuser checkout or its tests/python: the tests' fusions, traced
            out += nvfuser_tests.scripts(checkout, under=d)
            continue
        for root, subdirs, files in os.walk(d):
            subdirs[:] = sorted(x for x in subdirs if not x.startswith("."))
            out += [os.path.join(root, f) for f in sorted(files) if f.endswith(".py")]
    return [p for p in out if not (os.path.realpath(p) in seen or seen.add(os.path.realpath(p)))]


def read_seed(path: str, frontend: str | None) -> Seed:
    """One seed, upgraded to ``frontend`` where it is written for another; ScriptError if fmin
    cannot read it or its program fails the static check."""
    try:
        p = ending_at_execute(parse_file(path))   # the seed's own code after fd.execute is not the fusion's
    except ScriptError:
        raise
    except Exception as e:
        raise ScriptError(f"{type(e).__name__}: {e}", path) from None
    if frontend and p.dialect.frontend != frontend:
        try:
            p = upgrade(p, frontend)
        except Exception as e:
            raise ScriptError(f"cannot upgrade to {frontend}: {e}", path) from None
    try:
        info = validity.check(p, rules=validity.STATIC_RULES)   # an invalid seed gives invalid programs
    except Exception as e:
        stmt = getattr(e, "stmt_index", None)
        origin = p.stmts[stmt].origin if isinstance(stmt, int) and 0 <= stmt < len(p.stmts) else None
        raise ScriptError(f"the static check rejects it: {e}", path, origin.line if origin else 1,
                          origin.col if origin else 1) from None
    if validity.input_values(p):
        # values an op's parameter must hold (grouped_mm's offsets, an index): the script's own inputs cannot
        # be read for them, so the seed is written afresh, its inputs holding valid ones
        p = p.replace(source=None)
    # a fusion without ops (an input forwarded to an output) is a seed too: its inputs take the
    # shape, dtype and layout mutations, and an inserted cast or segment_set gives it a kernel
    return Seed(path, p, info, trimmed(p, info))


def load(dirs, frontend: str | None = None, capability: tuple[int, int] | None = None) -> Seeds:
    """The readable seeds under ``dirs`` and why the others are not (cached per process).
    ``capability``: the GPU's compute capability (None: unknown, every seed kept); a seed from an
    nvFuser test that skips itself below a higher one (``harvest.guards``) is set aside: on this
    GPU nvFuser's contract for it is that it does not run, so whatever it does is no finding."""
    key = (tuple(dirs), frontend, capability)
    if key not in _CACHE:
        got, bad, aside = [], [], {}
        for path in scripts_in(dirs):
            shown = nvfuser_tests.shown(path)   # a traced test fusion's name, else the path
            need = nvfuser_tests.needs(path) if capability is not None else None
            if need is not None and need > capability:
                aside[shown] = need
                nvfuser_tests.note(path, f"set aside: its test needs compute capability {need[0]}.{need[1]}")
                continue
            try:
                s = read_seed(path, frontend)
                got.append(s if shown == path else dataclasses.replace(s, path=shown))
                nvfuser_tests.note(path, None)
            except ScriptError as e:
                bad.append(str(e).replace(path, shown))
                nvfuser_tests.note(path, str(e))
        checkouts = dict.fromkeys(c for c in map(nvfuser_tests.checkout_of, dirs) if c is not None)
        _CACHE[key] = Seeds(got, bad, [nvfuser_tests.harvest_report(c) for c in checkouts], set_aside=aside)
    return _CACHE[key]


#: a large seed's program keeps the real sizes when 0 is drawn from ``integers(0, AS_WRITTEN - 1)``:
#: about one in ten (Hypothesis favours the bounds; 16 of 155 measured), the others start trimmed
AS_WRITTEN = 16
#: the name a trimmed start has among a seeded program's mutations
TRIM = "trim"


#: a seed's weight is WEIGHT_UNITS / ops^1.5 (at least 1), an integer for ``pick``
WEIGHT_UNITS = 1 << 15


def seed_weights(seeds: list[Seed]) -> list[int]:
    """How often each seed is drawn: as its op count to the power -1.5, exact in integers
    (``isqrt``) so a replay on any machine draws the same seed. A program's slot time grows about
    linearly with its seed's ops (measured: docs/fuzz.md, docs/benchmarks.md), so a seed's share
    of a campaign's *time* goes as about ops^-0.5: a 41-op seed gets a third of a 4-op one's.
    Equal time (weights 1/ops) kept too few programs a minute, and small seeds find more
    distinct root causes per slot-second than large ones: this is AFL's performance score (slow inputs get
    less energy) with the op count standing for the run time, which must be known before
    anything runs: a program replays from its id alone."""
    return [max(1, math.isqrt(WEIGHT_UNITS * WEIGHT_UNITS // max(1, len(s.program.op_stmts())) ** 3))
            for s in seeds]


def _uniform16(draw):
    """An integer uniform in ``[0, 2**16)``, 0 where Hypothesis shrinks. One ``st.integers`` over
    a range of thousands is not uniform in a chunk's 32 examples (Hypothesis favours small values:
    the first seeds took 66 % of the programs at a range of 20,000); one byte is, but for its
    bounds, so two bytes are drawn and mixed by an odd multiplier (a bijection that fixes 0) that
    scatters the favoured ``255`` high byte over the range instead of onto the last seed."""
    u = draw(st.integers(0, 255), label="seed") << 8 | draw(st.integers(0, 255), label="seed (low byte)")
    return u * 0x9E37 & 0xFFFF


class SeedTable:
    """The seeds in draw order (heaviest first, then by path) and their cumulative weights,
    built once per strategy rather than per draw."""

    def __init__(self, seeds: list[Seed], weights: list[int]):
        order = sorted(range(len(seeds)), key=lambda i: (-weights[i], seeds[i].path))
        self.seeds = [seeds[i] for i in order]
        self.bounds = list(itertools.accumulate(weights[i] for i in order))

    def pick(self, u: int) -> Seed:
        """The seed that ``u`` (uniform in ``[0, 2**16)``) falls on, each seed taking its
        weight's share; the smallest seeds come first, so that 0 (the shrunk draw) is the
        smallest."""
        return self.seeds[bisect.bisect_right(self.bounds, u * self.bounds[-1] >> 16)]


def pick(seeds: list[Seed], weights: list[int], u: int) -> Seed:
    """``SeedTable(seeds, weights).pick(u)``, for one draw."""
    return SeedTable(seeds, weights).pick(u)


def seeded_programs(seeds: list[Seed]):
    """A Hypothesis strategy of (seed, mutated program, mutation names). The seed is drawn by
    ``seed_weights``. A seed larger than a campaign can afford (``mutate.trimmed``) is mutated
    from its trimmed form but about one time in ten (``AS_WRITTEN``): sizes decide scheduling and
    segmentation too, so the real ones stay in the campaign, at a rate that does not let one
    multi-GB seed take most of its time."""
    table = SeedTable(seeds, seed_weights(seeds))

    @st.composite
    def draw(draw_):
        s = table.pick(_uniform16(draw_))
        p, info, first = s.program, s.info, []
        if s.small is not None and draw_(st.integers(0, AS_WRITTEN - 1), label="sizes") != 0:
            (p, info), first = s.small, [TRIM]
        p, names = mutated(_Data(draw_), p, info)
        return s, p, tuple(first + names)
    return draw()


class _Data:
    """``st.composite``'s ``draw`` as the ``data.draw`` the mutations call."""

    def __init__(self, draw):
        self.draw = draw


def chunk(campaign_seed: int, k: int, dirs, *, frontend: str | None = None, size: int = CHUNK,
          capability: tuple[int, int] | None = None) -> list[SeededExample]:
    """The ``size`` seeded programs of chunk ``k`` (``generate.chunk``'s scheme), of the seeds this
    GPU's ``capability`` keeps (``load``)."""
    seeds = load(dirs, frontend, capability).seeds
    if not seeds:
        return []
    got = []

    @hseed(chunk_seed(campaign_seed, k))
    @settings(max_examples=size, database=None, phases=[Phase.generate], deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(seeded_programs(seeds))
    def collect(x):
        got.append(x)

    with fixed_constants():
        collect()
    return [SeededExample(f"{campaign_seed}.{k}.{i}", p, s.path, names, s.small is not None)
            for i, (s, p, names) in enumerate(got)]


def program_for(example_id: str, dirs, *, frontend: str | None = None,
                capability: tuple[int, int] | None = None) -> SeededExample:
    s, c, i = parse_id(example_id)
    ex = chunk(s, c, dirs, frontend=frontend, capability=capability)
    if i >= len(ex):
        raise ValueError(f"chunk {c} of seed {s} has {len(ex)} seeded programs; no index {i}")
    return ex[i]


def segmentation_key(backend: str, kind: str, a, b) -> BucketKey:
    """``<backend> segmentation depends on the input order|layout (<scheduler kinds>)``: the
    scheduler kinds whose kernel counts differ, as ``keys.change_key`` counts them."""
    ca, cb = Counter(a.schedulers or ()), Counter(b.schedulers or ())
    names = tuple(sorted(k for k in set(ca) | set(cb) if ca[k] != cb[k]))
    what = "order" if kind == "order-dependent" else "layout"
    return BucketKey(SEGMENTATION, backend, variant=what, schedulers=names, seeded=True)


def as_segmentation(f, original, backend: str):
    """An order/layout finding where both variants run but segment differently, re-keyed as a
    segmentation finding with both segment graphs; any other finding unchanged."""
    from ...oracle.outcome import outcome_words
    v = f.outcome
    if f.kind not in ("order-dependent", "layout-dependent") or v is None or not v.ok or not original.ok:
        return f
    if (original.segments, sorted(original.schedulers or ())) == (v.segments, sorted(v.schedulers or ())):
        return f
    f.key = segmentation_key(backend, f.kind, original, v)
    f.found_as = "segmentation"
    f.words = f"as seeded: {outcome_words(original)}; varied: {outcome_words(v)} ({f.words})"
    f.marks = {**f.marks, "segment_graphs": {"seeded": original.graph, "varied": v.graph,
                                              "segments": [original.segments, v.segments]}}
    return f


def summary_rows(per_seed: Counter, seconds: Counter | None = None, large=None, top: int = 5) -> list[tuple[str, str]]:
    """The summary's rows of a seeded campaign: programs from seeds, the most used seeds, the
    seeds that took the most slot time (a seed whose programs are slow shows here first), and
    the programs of large seeds trimmed and as written (``large``: ``Phases`` of the two)."""
    if not per_seed:
        return []

    def short(k):
        return f"{os.path.basename(os.path.dirname(k))}/{os.path.basename(k)}"
    most = ", ".join(f"{short(k)} {v}" for k, v in per_seed.most_common(top))
    rows = [("seeded programs", f"{sum(per_seed.values())} from {len(per_seed)} seeds"), ("per seed (top)", most)]
    if seconds:
        slow = ", ".join(f"{short(k)} {v:.0f} s ({v / max(1, per_seed[k]):.1f} s each)"
                         for k, v in seconds.most_common(top))
        rows.append(("slot time per seed (top)", slow))
    if large is not None and large.data:
        rows.append(("large seeds' programs", ", ".join(
            f"{k} {large.count(k)} ({large.seconds(k) / max(1, large.count(k)):.1f} s each)"
            for k in ("trimmed", "as written") if large.count(k))))
    return rows


def findings_of(e, judged, backend: str) -> list:
    """A judged program's findings, a seeded one's with its seed file and its segmentation
    changes as their own finding (the generated program's untouched)."""
    if not isinstance(e, SeededExample):
        return judged.findings
    out = []
    for f in judged.findings:
        f = as_segmentation(f, judged.outcome, backend)
        f.traits = {**(f.traits or {}), "seeds": [e.seed_file]}
        out.append(f)
    return out


__all__ = ["Seed", "SeededExample", "Seeds", "load", "read_seed", "scripts_in", "chunk", "program_for",
           "seeded_programs", "seed_weights", "summary_rows", "segmentation_key", "as_segmentation", "findings_of"]
