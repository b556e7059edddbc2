"""What fmin knows about a backend without running anything (``Facts``): its names, where
``--backend auto`` tries it, what its workers cost, what its outcomes report. Frozen: a backend
module declares them once, and the memory plan, the pools, the checks and the reports read them."""
from __future__ import annotations

from dataclasses import dataclass

from .options import RunOptions


@dataclass(frozen=True)
class Facts:
    """``name``: the ``--backend`` value. ``summary``: what it is in a few words (its part of
    ``--backend``'s help). ``display_name``: how reports name it ("" means ``name``).
    ``auto_rank``: its place in the order ``--backend auto`` tries backends (lowest first; the
    first this machine can run is taken, the last when none can); None: never chosen by ``auto``.

    ``worker_bytes``: host memory a worker holds before it runs anything (torch and the backend
    imported), what ``oracle.memory.plan`` adds to each run. ``fuses``: it compiles the fusion into
    kernels that keep intermediates out of memory (a run then needs at least its inputs and
    outputs); False: it computes op by op, as the reference does, and peaks like it
    (``program.memory.Estimate``). ``warm_up``: what a worker's first run costs, said while workers
    start ("" for nothing worth saying).

    ``non_kernel``: scheduler names whose segments launch no kernel of their own (nvFuser's
    expression evaluator and no-op segments). ``reports_segments``: its outcomes say how the fusion
    was segmented, so checks that read segments (``--kernels``, ``--segments`` ...) can be asked of
    it. ``runs_as_written``: ``python SCRIPT`` shows what it confirmed (the script's own imports are
    what ran); False: fmin's FusionDefinition stood behind the script's ``nvfuser`` imports.
    ``translation_only``: options of a run of fmin's translation with the backend's compiler left
    out (a wrong result that run already shows is fmin's: the fuzzer's differential triage); None:
    nothing of fmin's stands between the script and the backend. ``debug_env``: worker variables
    that only make the backend print debug output (nvFuser's dumps): an attachment neither sets
    them nor is confirmed with them (``fuzz/filing/standalone.py``)."""
    name: str
    summary: str = ""
    display_name: str = ""
    auto_rank: int | None = None
    worker_bytes: int = 1 << 30
    fuses: bool = True
    warm_up: str = ""
    non_kernel: frozenset[str] = frozenset()
    reports_segments: bool = False
    runs_as_written: bool = False
    translation_only: RunOptions | None = None
    debug_env: frozenset[str] = frozenset()

    @property
    def title(self) -> str:
        """The name reports use (``display_name``, else ``name``)."""
        return self.display_name or self.name

    @property
    def standalone_needs_fmin(self) -> bool:
        """A filed attachment's standalone run imports fmin (its launcher stands in front of the
        backend), so it is given this fmin on ``PYTHONPATH``: every backend that does not run
        scripts as written (``runs_as_written``, the one home of that fact)."""
        return not self.runs_as_written
