"""Where a command's units of work run: the runner protocols.

A command decides *what* to run and keeps every result in its own order (a campaign generates,
buckets and writes the corpus; ``check`` prints its rows); a runner only decides *where* the units
run — this machine's warm pools (``fuzz.campaign.local.LocalRunner``, ``check.LocalChecks``) or actors
on a Ray cluster (``cluster.RayRunner``). Because the units are the same functions wherever they
run, a seed gives the same programs, verdicts and buckets on a cluster as on one machine.

The protocols live here, below the commands that program against them (``check`` and ``fuzz``)
and beside ``RunContext``, which gives the local runners their pools. They are structural
(``typing.Protocol``): a runner does not inherit from them, it has their members; the
``runtime_checkable`` ones let a test (``tests/test_runners.py``) check every runner's members.

* ``Runner`` — a campaign's: ``judge_example(example, text)``, ``reduce(key, meta, outcome, bucket_dir)``
  and ``recheck(job)`` return futures of what ``fuzz.campaign.local.judge_example``, ``reduce_bucket``
  and ``recheck_bucket`` return; ``window`` is how many programs the campaign keeps submitted ahead
  of the one it waits for, ``reduce_slots`` how many buckets it reduces at once, ``n`` how many
  slots judge at once (0 until entered, where the slots are counted then); ``describe()`` a line for
  the summary. Entering starts the workers (or actors), leaving stops them.
* ``Checks`` — ``fmin check``'s: ``check(request, property, seed)`` returns a future of the
  script's ``Outcome`` and, with a property, ``property.verdict_for_script``'s verdict (else None).
* ``Slot`` — one slot's half of a remote runner (``cluster.actor.SlotActor``): the same units,
  run where the slot's warm pools are and answered directly rather than as futures (the remote
  runner makes the futures); ``reduce`` gets the bucket's files in its ``job`` (the slot's node
  has no corpus) and gives back every file it wrote.
"""
from __future__ import annotations

from concurrent.futures import Future
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Checks(Protocol):
    """Where ``fmin check`` runs its scripts (a context manager: workers start on entry)."""

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: Any) -> Any: ...

    def check(self, req: Any, prop: Any, seed: int) -> Future: ...


@runtime_checkable
class Runner(Protocol):
    """Where a fuzz campaign's programs are judged and its buckets reduced and rechecked."""

    window: int
    reduce_slots: int
    n: int

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: Any) -> Any: ...

    def judge_example(self, example: Any, text: str) -> Future: ...

    def reduce(self, key: str, meta: dict, outcome: dict | None, bucket_dir: str) -> Future: ...

    def recheck(self, job: dict) -> Future: ...

    def describe(self) -> str: ...


@runtime_checkable
class Slot(Protocol):
    """One slot of a remote runner: ``ready`` starts its workers and says where it is, ``close``
    stops them; the units answer directly."""

    def ready(self) -> dict: ...

    def judge_example(self, example: Any, text: str) -> Any: ...

    def reduce(self, job: dict) -> dict: ...

    def recheck(self, job: dict) -> dict: ...

    def check(self, req: Any, prop: Any, seed: int) -> tuple: ...

    def close(self) -> None: ...


__all__ = ["Checks", "Runner", "Slot"]
