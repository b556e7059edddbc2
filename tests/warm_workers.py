"""Warm worker processes shared by every pool of the test session, so that a pool costs a torch import once.

A worker process (``oracle.pool.Worker``) spends seconds importing torch and its backend before it
serves anything: tens of seconds each on a loaded 2-core machine, and the suite opens a pool in
dozens of places — test fixtures, ``run_script``, and the pools fmin's own commands open inside a
campaign, a reduction or a check. Here a worker that a pool closes while it is alive and idle goes
back to a short idle list instead of being shut down, and the next pool that starts a worker of the
same kind takes it. The kind is everything a worker process is started with: backend, device and
the environment it inherits (the pool's and the test's, ``PYTEST_CURRENT_TEST`` aside), so a test
that sets a variable for its workers gets fresh ones. What a worker serves between pools is what a
campaign's workers serve: request after request; a worker that crashed or timed out is killed as
before and never comes back.

Installed for the session by ``tests/conftest.py``; ``FMIN_TEST_FRESH_WORKERS=1`` turns it off
(every pool starts its own processes, as fmin does).
"""
from __future__ import annotations

import os
import threading

from minimizer.oracle.pool import Worker

#: idle processes kept per kind, and in all (a reference worker holds about 0.3 GB, an Inductor one more)
PER_KIND, IN_ALL = 2, 6
_NOT_INHERITED = ("PYTEST_CURRENT_TEST",)


def _kind(worker: Worker) -> tuple:
    env = {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}
    env.update(worker.env or {})
    # the command too: a test that puts a stand-in program there (``Worker.command``) gets its own processes
    return worker.backend, worker.device, tuple(worker.command(0)), tuple(sorted(env.items()))


class WarmWorkers:
    """The idle list, and ``Worker``'s start and shutdown routed through it while installed."""

    def __init__(self, per_kind: int = PER_KIND, in_all: int = IN_ALL):
        self.per_kind, self.in_all = per_kind, in_all
        self._idle: list[tuple[tuple, object, object, dict]] = []   # (kind, proc, resp, environment), oldest first
        self._lock = threading.Lock()
        self._real = (Worker._start, Worker._shutdown)
        self.started = self.reused = 0

    def install(self) -> None:
        start, shutdown = self._real
        warm = self

        def _start(worker: Worker) -> None:
            kind = _kind(worker)
            worker._warm_kind = kind
            if not warm._take(worker, kind):
                warm.started += 1
                start(worker)

        def _shutdown(worker: Worker) -> None:
            if not warm._give(worker):
                shutdown(worker)

        Worker._start, Worker._shutdown = _start, _shutdown

    def uninstall(self) -> None:
        Worker._start, Worker._shutdown = self._real
        with self._lock:
            idle, self._idle = self._idle, []
        for entry in idle:
            self._stop(entry)

    def _take(self, worker: Worker, kind: tuple) -> bool:
        with self._lock:
            for i, entry in enumerate(self._idle):
                if entry[0] == kind and entry[1].poll() is None:
                    del self._idle[i]
                    break
            else:
                return False
        _, worker.proc, worker.resp, worker.environment = entry
        self.reused += 1
        return True

    def _give(self, worker: Worker) -> bool:
        kind = getattr(worker, "_warm_kind", None)
        if kind is None or worker.proc is None or worker.proc.poll() is not None:
            return False
        if getattr(worker, "_user", None) is not None:   # running a request: the close kills it (WorkerClosed)
            return False
        evicted = []
        with self._lock:
            self._idle.append((kind, worker.proc, worker.resp, worker.environment))
            same = [e for e in self._idle if e[0] == kind]
            evicted += same[:max(0, len(same) - self.per_kind)]
            for e in evicted:
                self._idle.remove(e)
            while len(self._idle) > self.in_all:
                evicted.append(self._idle.pop(0))
        worker.proc = worker.resp = None
        for entry in evicted:
            self._stop(entry)
        return True

    def _stop(self, entry) -> None:
        """Shut an idle process down the way ``Worker`` does (its own shutdown, on a stand-in)."""
        kind, proc, resp, environment = entry
        stand_in = Worker(kind[0], kind[1], workdir=os.devnull)
        stand_in.proc, stand_in.resp = proc, resp
        self._real[1](stand_in)
