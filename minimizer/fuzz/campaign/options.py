"""A campaign's options, and the defaults a campaign derives from them: the frontend it generates
for and how many programs a runner keeps submitted.

Its own module so that the runners (``local``, ``cluster.runner``) and the reports (``summary``)
can name a campaign's options without the campaign loop (``run``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...oracle.context import RunContext
from ..judging.oracles import ORACLES
from ..sources import generate


#: where a campaign keeps its findings when no ``--corpus`` is given: a directory of its own in the
#: working directory, so that a campaign started in a repository never writes into a findings
#: corpus that repository commits (fmin's own ``corpus/findings``, a project's known bugs)
DEFAULT_CORPUS = "fmin-findings"


@dataclass
class CampaignOptions:
    """What is a campaign's own; where and how its programs run is ``ctx`` (its ``seed`` is the
    torch seed of every run, 0 unless asked; this ``seed`` chooses the programs)."""
    ctx: RunContext = field(default_factory=lambda: RunContext(backend="inductor", timeout=300.0))
    seconds: float | None = None
    max_examples: int | None = None
    seed: int = 0
    shard: tuple[int, int] = (0, 1)
    corpus: str = DEFAULT_CORPUS
    junit: str | None = None
    summary: str | None = None
    frontend: str | None = None
    max_ops: int = 12
    oracles: tuple[str, ...] = ORACLES
    minimize: bool = True
    minimize_seconds: float = 300.0
    minimize_budget: float | None = None     # seconds for all minimizations of a campaign
    seeds: tuple[str, ...] = ()   # --seeds: mutate these folders' fusions instead of generating (``seeded``)
    resume: bool | None = None    # None: no progress record; True: record it and skip what it says was
    #                               judged; False: record it, starting over (``store.progress``)
    feedback: bool = False        # --feedback: seeded programs with new decisions join a queue (``seedqueue``)
    feedback_from: str | None = None   # --feedback-from: the corpus whose learned state it starts from (None: corpus)
    #: the GPU's compute capability (None: unknown or no GPU): seeds whose nvFuser test needs a
    #: newer one are set aside (``seeded.load``)
    capability: tuple[int, int] | None = None


def default_frontend(backend: str) -> str | None:
    """The frontend to generate for when none is asked: both (None), except where the backend
    cannot run legacy scripts as written (``Backend.translation``: nvFuser without its legacy
    module, 0.2.36 removed it) — a legacy program there could only be refused unjudged, half of
    a campaign's programs wasted."""
    from ...backends import get
    from ...model import Dialect
    return get(backend).translation(Dialect()) or None


#: programs a campaign keeps submitted per judging slot ahead of the one it waits for. Results
#: are taken in example order, so a slow program at the head holds every slot that has nothing
#: left to judge: with 2 per slot (the old depth) one compile 2x slower than the rest idled the
#: others. 16 per slot lets a head 16x slower than the median pass unnoticed; pending programs
#: cost a few KB each.
AHEAD_PER_SLOT = 16


def window_for(slots: int) -> int:
    """How many programs a runner with ``slots`` judging slots keeps submitted (``AHEAD_PER_SLOT``)."""
    return max(generate.CHUNK, AHEAD_PER_SLOT * max(1, slots))

