"""``RunContext``: where and how one command's scripts run — the backend, the device, how many
workers, the timeout, the torch seed, the options every run gets, the memory fmin may plan with.

It is built once from the command line (``cli``) and handed to whichever command runs —
``reduce``, ``isolate``, ``check``, ``fuzz`` — so that none of them keeps its own copy of these
settings or its own route to a backend: each asks the context for its pools, its requests and
its memory plan. What is a command's own (a reduction's output directory and replays, a
campaign's seed and corpus) stays in that command's options.
"""
from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from ..backends import RunOptions
from ..progress import ProgressLine
from .pool import Pool, Pools, Request


@dataclass(frozen=True)
class RunContext:
    backend: str = "reference"
    device: str = "cpu"
    jobs: int = 1
    timeout: float = 600.0
    #: torch seed set before each script runs (``--seed`` of reduce/check/isolate; a fuzz
    #: campaign's own ``--seed`` chooses programs, its runs use 0)
    seed: int = 0
    #: what every run gets (``--inductor-config``); a request's own non-default fields win
    options: RunOptions = RunOptions()
    #: ``--max-memory``: bytes fmin may plan with (None: what the device has)
    max_memory: int | None = None
    #: what a device has available (None: ask the device; tests give small fake limits)
    available_memory: "Callable[[str], int | None] | None" = None
    quiet: bool = False
    #: this invocation as a shell command, for the headers of what a command writes
    command: str | None = None

    def replace(self, **changes) -> "RunContext":
        return dataclasses.replace(self, **changes)

    # ---- runs ----
    def run_options(self, **fields) -> RunOptions:
        """A run's options: this context's seed and ``fields``, over the options of every run."""
        return RunOptions(**{"seed": self.seed, **fields}).over(self.options)

    def request(self, text: str, path: str, **fields) -> Request:
        return Request(text, path, self.run_options(**fields))

    def pool(self, backend: str | None = None, jobs: int | None = None) -> Pool:
        """A pool of warm workers for ``backend`` (default: the context's), closed by the caller."""
        return Pool(backend or self.backend, self.device, jobs=jobs or self.jobs, timeout=self.timeout,
                    options=self.options)

    @contextlib.contextmanager
    def judging_pools(self, jobs: int | None = None) -> Iterator[tuple[Pool, Pool]]:
        """``(pool, ref)``: warm workers for the backend and for the reference that judges it (one
        pool when the backend is the reference), closed on exit — what a fuzz campaign's runner
        (and each of its remote slots) judges and reduces on."""
        pool = self.pool(jobs=jobs)
        ref = pool if self.backend == "reference" else self.pool("reference", jobs=jobs)
        try:
            yield pool, ref
        finally:
            if ref is not pool:
                ref.close()
            pool.close()

    def pools(self, *, jobs: int | None = None, given: dict | None = None, extra_jobs: int | None = None) -> Pools:
        """The command's pools: the backend under test, and those its checks ask for, started on
        first use (``given``: warm pools of the caller, used and left open)."""
        return Pools(self.backend, self.device, jobs=jobs or self.jobs, timeout=self.timeout, options=self.options,
                     given=given, extra_jobs=extra_jobs)

    # ---- memory ----
    def fit_memory(self, scripts: Iterable[tuple], prop=None) -> "MemoryFit":
        """The one place a command's ``--jobs`` is fitted to memory, before any worker starts.
        ``scripts``: ``(name, program, info)`` for each script the command runs side by side
        (``info``: its static check, or None); ``prop``: the property whose checks add runs. A
        script whose runs do not fit even alone is refused (by name, with the sentence the user
        sees: each command decides what a refusal does); ``--jobs`` is lowered to what fits the
        largest of the others, said once on stderr. Planned against ``--max-memory`` where given."""
        jobs, refused, note = self.jobs, {}, None
        for name, program, info in scripts:
            p = self.memory_plan(program, prop, info=info)
            if p.refusal:
                refused[name] = p.refusal
            elif p.jobs < jobs:
                jobs, note = p.jobs, p.note
        if note:
            ProgressLine(self.quiet).note(f"fmin: {note}")
        return MemoryFit(self.replace(jobs=jobs), refused, note)

    def memory_plan(self, program, prop=None, info=None, jobs: int | None = None):
        """``oracle.memory.plan`` for one script under ``prop`` (the runs its checks add: the
        reference, its fp64 variant), with ``info`` when the caller has the static check's
        values already."""
        from .memory import plan
        return plan(program, self.backend, self.device, jobs or self.jobs,
                    reference=prop is not None and prop.runs_reference,
                    fp64=prop is not None and prop.runs_fp64_reference,
                    available_fn=self.available_memory, cap=self.max_memory, info=info)


@dataclass(frozen=True)
class MemoryFit:
    """What ``RunContext.fit_memory`` decided: the context to run with (``jobs`` lowered to what
    fits), the scripts refused (name -> why) and the note said about the lowering (None: none)."""
    ctx: RunContext
    refused: dict
    note: str | None = None


__all__ = ["MemoryFit", "RunContext"]
