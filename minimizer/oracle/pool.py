"""Persistent worker processes that run scripts with a timeout each, surviving crashes and hangs.

A worker is started once (imports torch and its backend: the slow part) and then serves requests.
A request that kills the worker (segfault, abort, ``os._exit``) comes back as ``crash``; one that
runs past its timeout as ``timeout``; in both cases the worker is killed (its whole process group)
and a fresh one is started for the next request. Nothing of a script runs in the fmin process.

A process is only trusted as long as nothing is known to be wrong with it: an answer that says
``retire`` (a poisoned CUDA context) gets it replaced before its next request, and a crash or hang
of a process that had run other scripts is the program's only if a fresh process repeats it
(``Pool._confirmed``; else it is fmin's or the machine's fault, ``not_reproduced``).

The timeout adapts: once a few runs have been measured it becomes ``max(floor, factor × the
slowest run seen)``, capped by the configured maximum, so a hang is noticed quickly without
cutting off a legitimately slow compile.
"""
from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from .. import phases
from ..backends import RunOptions, get as get_backend
from .outcome import Outcome


@dataclass
class Request:
    """One script to run: its text, the path it is reported under, how (``RunOptions``; a pool
    fills in what the request leaves at the default from its own options) and, rarely, its own
    timeout."""
    script: str
    path: str = "<script>"
    options: RunOptions = field(default_factory=RunOptions)
    timeout: float | None = None


class WorkerClosed(RuntimeError):
    """The worker (or its pool) was closed — the command is stopping: Ctrl-C, SIGTERM, an error —
    before or while a request ran on it. The request has no outcome (its process was killed by
    the close, not by the script, so a "crash" would be a lie), and no process is started for it:
    a close leaves nothing running."""


class Worker:
    """One worker process for one (backend, device).

    Its process is started, replaced and stopped by the thread running a request on it, and
    stopped by ``close`` from another one (the command's main thread, on its way out) at any
    moment of that: so every method works on the process it took (``proc`` is only ever read
    once into a local), a close marks the worker closed for good (nothing is started after it),
    and the answer pipe of a worker in use is closed by its user, never under its feet."""

    def __init__(self, backend: str, device: str, env: dict | None = None, start_timeout: float = 600.0,
                 workdir: str | None = None):
        self.backend, self.device = backend, device
        self.env = env
        self.start_timeout = start_timeout
        self.workdir = workdir or tempfile.mkdtemp(prefix="fmin-worker-")
        self.proc: subprocess.Popen | None = None
        self.resp = None
        self.environment: dict = {}
        self.served = 0
        self.answered = 0            # answers of the current process: 0 while it is fresh
        self.retired = 0             # processes replaced because an answer said so (``retire``)
        self._n = 0
        self._eof = False
        self._guard = threading.Lock()     # proc, resp, _user and _closed change together under it
        self._user: int | None = None      # the thread starting it or running a request on it
        self._closed = False

    @property
    def running(self) -> bool:
        proc = self.proc
        return proc is not None and proc.poll() is None

    @property
    def fresh(self) -> bool:
        """Does the next request run in a process that has run nothing yet (one started for it,
        or started ahead and not yet asked anything)?"""
        return not self.running or self.answered == 0

    @contextlib.contextmanager
    def _in_use(self):
        """The block starts the worker or runs a request on it, in this thread. A close that
        comes meanwhile kills the process and leaves its answer pipe to this thread (which may
        be reading it: a descriptor closed under a ``select`` may come back as another file's);
        it is closed here, on the way out."""
        me = threading.get_ident()
        with self._guard:
            if self._closed:
                raise WorkerClosed(f"the {self.backend} worker is closed")
            outer = self._user == me
            self._user = me
        try:
            yield
        finally:
            if not outer:
                with self._guard:
                    self._user = None
                    left = self.resp if self._closed else None
                    if left is not None:
                        self.resp = None
                _close(left)

    def start(self) -> None:
        t0 = time.perf_counter()
        try:
            with self._in_use():
                self._start()
        finally:
            phases.note(f"worker start {self.backend}", time.perf_counter() - t0)

    def _start(self) -> None:
        r, w = os.pipe()
        env = dict(os.environ)
        env.update(self.env or {})
        env.setdefault("PYTHONUNBUFFERED", "1")
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        try:
            with open(os.path.join(self.workdir, "worker.log"), "ab") as log:
                proc = subprocess.Popen(
                    self.command(w), stdin=subprocess.PIPE, stdout=log, stderr=log, pass_fds=(w,), env=env,
                    start_new_session=True, text=True)
        except BaseException:
            os.close(r)
            raise
        finally:
            os.close(w)
        with self._guard:
            self.proc, self.resp, self.answered = proc, os.fdopen(r, "r"), 0
            closed = self._closed
        if closed:   # closed while it was being made: the close found nothing to stop
            self.kill()
            raise WorkerClosed(f"the {self.backend} worker was closed while it started")
        line = self._readline(self.start_timeout)
        if line is None:
            tail = self._tail(os.path.join(self.workdir, "worker.log"))
            self.kill()
            if self._closed:
                raise WorkerClosed(f"the {self.backend} worker was closed while it started")
            raise RuntimeError(f"the {self.backend} worker did not start:\n{tail}")
        self.environment = json.loads(line).get("environment", {})

    def command(self, resp_fd: int) -> list[str]:
        """The worker process's command line: ``backends/worker.py``, answering on ``resp_fd``
        (a test puts a stand-in that speaks its protocol here)."""
        return [sys.executable, "-m", "minimizer.backends.worker", str(resp_fd), self.backend, self.device]

    def _readline(self, timeout: float) -> str | None:
        """One line from the worker, or None: no line within ``timeout`` (``_eof`` False), or the
        worker gone (``_eof`` True; also when its pipe was closed by a close)."""
        deadline = time.monotonic() + timeout
        buf = ""
        resp = self.resp
        try:
            if resp is None:
                raise ValueError("no answer pipe")
            fd = resp.fileno()
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                ready, _, _ = select.select([fd], [], [], left)
                if not ready:
                    return None
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    self._eof = True
                    return None  # EOF: the worker died
                buf += chunk.decode()
                if buf.endswith("\n"):
                    return buf
        except (OSError, ValueError):
            self._eof = True
            return None

    def run(self, req: Request, timeout: float, options: RunOptions | None = None) -> Outcome:
        """Run ``req`` with ``options`` (default: the request's own); raises ``WorkerClosed``
        where the worker is closed before or while it runs."""
        with self._in_use():
            if not self.running:
                self.kill()   # one that exited on its own: its pipes go with it
                self.start()
            return self._request(req, timeout, options or req.options)

    def _request(self, req: Request, timeout: float, options: RunOptions) -> Outcome:
        proc = self.proc
        if proc is None:
            raise WorkerClosed(f"the {self.backend} worker was closed")
        self._n += 1
        capture = os.path.join(self.workdir, f"req{self._n % 4}.log")
        values = os.path.join(self.workdir, f"values{self._n}.pt") if options.want_values else None
        msg = {"id": self._n, "script": req.script, "path": req.path, "device": self.device,
               "capture": capture, "values": values, "options": options.to_json()}
        t0 = time.perf_counter()
        try:
            proc.stdin.write(json.dumps(msg) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):   # gone, or closed by a close: the answer's absence says which
            pass
        self._eof = False
        line = self._readline(timeout)
        elapsed = time.perf_counter() - t0
        if line is None:
            if self._closed:
                raise WorkerClosed(f"the {self.backend} worker was closed while it ran {req.path}")
            return self._lost(proc, timeout, elapsed, capture)
        return self._answer(line, capture)

    def _lost(self, proc: subprocess.Popen, timeout: float, elapsed: float, capture: str) -> Outcome:
        """No answer: the worker hung (killed now) or died. Either way it is replaced."""
        alive = not self._eof
        if self._eof:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        code = proc.returncode
        self.kill()
        log = self._tail(capture)
        if alive:
            return Outcome("timeout", self.backend, signature="timeout",
                           message=f"no answer within {timeout:.0f} s; the worker was killed",
                           seconds=elapsed, environment=self.environment, log=log)
        sig = _signal_name(code)
        return Outcome("crash", self.backend, signature=f"crash: {sig}",
                       message=f"the worker died ({sig}) while running the script", error_kind="crash",
                       seconds=elapsed, environment=self.environment, log=log)

    def _answer(self, line: str, capture: str) -> Outcome:
        """The worker's answer as an ``Outcome``. One that says ``retire`` is the process's last
        (a poisoned CUDA context): it is killed here, before this worker is handed another
        request, which then starts a fresh one — never left to exit on its own while the next
        request is already written to it."""
        self.served += 1
        self.answered += 1
        d = json.loads(line)
        retire = d.pop("retire", None)
        out = Outcome.from_json(d)
        out.backend = self.backend
        out.log = self._tail(capture)
        if retire:
            self.retired += 1
            self.kill()
        return out

    def kill(self) -> int | None:
        """Kill the process (its whole group: compile pools of its own) and forget it; returns
        its exit code where it was reaped. Safe in any state — no process, one being started,
        replaced or killed by another thread — and from any thread: it stops the process it takes
        out of the worker, and only that one."""
        me = threading.get_ident()
        with self._guard:
            proc, self.proc = self.proc, None
            resp = self.resp if self._user in (None, me) else None   # else its user closes it
            if resp is not None:
                self.resp = None
        code = None
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                code = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            _close(proc.stdin)
        _close(resp)
        return code

    def close(self) -> None:
        self._shutdown()
        import shutil
        shutil.rmtree(self.workdir, ignore_errors=True)

    def _shutdown(self) -> None:
        """Close for good: an idle process is asked to exit (then killed: compile pools of its
        own may linger), one running a request is killed at once (its user sees ``WorkerClosed``)."""
        with self._guard:
            self._closed = True
            proc, idle = self.proc, self._user is None
        if proc is not None and idle and proc.poll() is None:
            try:
                proc.stdin.write(json.dumps({"op": "exit"}) + "\n")
                proc.stdin.flush()
                proc.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired, ValueError):
                pass
        self.kill()

    @staticmethod
    def _tail(path: str, n: int = 8000) -> str:
        try:
            with open(path, "rb") as f:
                f.seek(0, 2)
                size = f.tell()
                f.seek(max(0, size - n))
                return f.read().decode(errors="replace")
        except OSError:
            return ""


def _close(f) -> None:
    try:
        f and f.close()
    except (OSError, ValueError):
        pass


def visible_gpus() -> list[str]:
    """GPU ids this process may use, without initialising CUDA in the fmin process: from
    ``CUDA_VISIBLE_DEVICES`` if set, else from ``nvidia-smi -L``."""
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is not None:
        return [g.strip() for g in env.split(",") if g.strip() and g.strip() != "-1"]
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [str(i) for i, line in enumerate(l for l in out.splitlines() if l.startswith("GPU "))]


def auto_jobs(device: str, cpus: int | None = None, gpus: list[str] | None = None) -> int:
    """``--jobs auto``: workers for this machine. A candidate's time is mostly compilation (host
    CPU), its GPU time is milliseconds, so one worker per GPU would leave the GPUs idle: on GPUs,
    every visible GPU gets ``cpus / gpus / 2`` workers (at least 1, at most 8, so a worker's
    compile threads have a core to spare); on the CPU, ``cpus / 2`` workers (Inductor's C++
    compiles are themselves parallel)."""
    cpus = cpus or os.cpu_count() or 1
    if device.startswith("cuda"):
        gpus = visible_gpus() if gpus is None else gpus
        if gpus:
            per = max(1, min(8, cpus // len(gpus) // 2))
            return per * len(gpus)
    return max(1, cpus // 2)


def _signal_name(code: int | None) -> str:
    if code is None:
        return "unknown exit"
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def _note_run(backend: str, options: RunOptions, out: Outcome, seconds: float) -> None:
    """One run into the thread's ``phases`` record, by backend and kind (an fp64 reference, an
    eager translation are other costs than a compile): the round trip as fmin saw it, the
    worker's own time for the request, and the last ``fd.execute`` (compile and run, the floor a
    campaign cannot go below) where the worker timed one."""
    kind = backend + (" fp64" if options.fp64 else "") + (" eager" if options.eager else "")
    phases.note(f"run {kind}", seconds)
    phases.note(f"in worker {kind}", out.seconds or 0.0)
    if out.execute_seconds is not None:
        phases.note(f"execute {kind}", out.execute_seconds)


class Pool:
    """``jobs`` workers of one backend; ``run_many`` spreads requests over them. ``options``
    apply to every run (a request's own non-default options win)."""

    def __init__(self, backend: str = "reference", device: str = "cpu", jobs: int = 1,
                 timeout: float = 300.0, min_timeout: float = 30.0, timeout_factor: float = 10.0,
                 env: dict | None = None, options: RunOptions | None = None):
        self.backend, self.device = backend, device
        self.options = options or RunOptions()
        self.max_timeout, self.min_timeout, self.factor = timeout, min_timeout, timeout_factor
        env = {**get_backend(backend).worker_env(), **(env or {})}
        gpus = visible_gpus() if device.startswith("cuda") else []
        self.workers = []
        for k in range(max(1, jobs)):
            wenv = dict(env or {})
            if len(gpus) > 1:  # spread workers over the GPUs, round robin; each sees one as cuda:0
                wenv["CUDA_VISIBLE_DEVICES"] = gpus[k % len(gpus)]
            self.workers.append(Worker(backend, device, wenv))
        self._free = list(self.workers)
        self._lock = threading.Condition()
        self._closed = False
        self._slowest = 0.0
        self._measured = 0

    def timeout_for(self, req: Request) -> float:
        if req.timeout is not None:
            return req.timeout
        if self._measured < 3:
            return self.max_timeout
        return min(self.max_timeout, max(self.min_timeout, self.factor * self._slowest))

    def run(self, req: Request) -> Outcome:
        """``req``'s outcome; raises ``WorkerClosed`` once the pool is closed."""
        w = self._take()
        try:
            return self._confirmed(w, req, req.options.over(self.options))
        finally:
            with self._lock:
                self._free.append(w)
                self._lock.notify()

    def _take(self) -> Worker:
        t0 = time.perf_counter()
        with self._lock:
            while not self._free and not self._closed:
                self._lock.wait()
            if self._closed:
                raise WorkerClosed(f"the {self.backend} pool is closed")
            w = self._free.pop()
        phases.note("pool wait", time.perf_counter() - t0)
        return w

    def _confirmed(self, w: Worker, req: Request, options: RunOptions) -> Outcome:
        """``req`` on ``w``. A crash or hang of a process that had run other scripts before may
        be theirs (a context they poisoned, memory they hold), so it is believed only when a
        fresh process repeats it: the request runs once more (``w`` was replaced after it died).
        If the fresh process neither crashes nor hangs, the first outcome was no outcome of this
        program: ``not_reproduced`` (an environment failure, which is never a finding)."""
        fresh = w.fresh
        out = self._timed(w, req, options)
        if fresh or out.status not in LOST:
            return out
        again = self._timed(w, req, options)
        return again if again.status in LOST else not_reproduced(out, again)

    def _timed(self, w: Worker, req: Request, options: RunOptions) -> Outcome:
        t1 = time.perf_counter()
        out = w.run(req, self.timeout_for(req), options)
        _note_run(self.backend, options, out, time.perf_counter() - t1)
        if out.status in ("ok", "error"):
            self._slowest = max(self._slowest, out.seconds)
            self._measured += 1
        return out

    def start_all(self) -> int:
        """Start every worker not yet started, all at once (``start_workers``)."""
        return start_workers([self])

    def run_many(self, reqs: list[Request]):
        """Outcomes in request order."""
        with ThreadPoolExecutor(max_workers=len(self.workers)) as ex:
            return list(ex.map(self.run, reqs))

    def close(self) -> None:
        """Stop every worker, at any moment: requests waiting for a worker or running on one
        (other threads) end with ``WorkerClosed``, and nothing is started after it."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        for w in self.workers:
            w.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


#: the statuses that say the worker process is gone (died, or killed for hanging)
LOST = ("crash", "timeout")


def not_reproduced(first: Outcome, again: Outcome) -> Outcome:
    """The outcome of a request whose worker crashed or hung (``first``) where a fresh worker did
    not (``again``): not the program's failure but fmin's or the machine's (a process an earlier
    script left unusable, the machine killing or stalling it). Said as an environment failure
    (``triage``): never a finding, never a candidate kept, a refusal for an original."""
    what = "crashed" if first.status == "crash" else "hung"
    return Outcome("error", first.backend, signature=f"fmin: the worker {what}, a fresh worker did not",
                   message=f"fmin: the worker that ran it {what} ({first.signature}), a fresh worker ran it to "
                           f"{again.status}{f' ({again.signature})' if again.signature else ''}: a fault of fmin "
                           f"or of the machine, not the program's",
                   error_kind="environment", seconds=again.seconds, environment=again.environment or first.environment,
                   log=first.log)


def start_workers(pools: list["Pool"]) -> int:
    """Start every worker of ``pools`` not yet started, all at once: each is a fresh interpreter
    importing torch and its backend, seconds of CPU that run side by side here instead of one by
    one in front of the first requests. A worker that fails to start is left as it was: the
    request that needs it starts it again and reports why. The starts are recorded (``phases``)
    where the caller records. Returns how many started."""
    todo = [w for p in pools for w in p.workers if not w.running]
    if not todo:
        return 0
    into = phases.current()

    def start(w: Worker) -> tuple[bool, phases.Phases]:
        rec = phases.Phases()
        with phases.recording(rec):
            try:
                w.start()
                return True, rec
            except Exception:   # the first request meets the same failure and reports it
                return False, rec
    with ThreadPoolExecutor(max_workers=len(todo)) as ex:
        done = list(ex.map(start, todo))
    if into is not None:
        for _, rec in done:
            into.merge(rec)
    return sum(ok for ok, _ in done)


def run_script(path_or_text: str, *, backend: str = "reference", device: str = "cpu", seed: int = 0,
               want_values: bool = False, timeout: float = 300.0, path: str | None = None,
               options: RunOptions | None = None) -> Outcome:
    """Run one script in a fresh worker (convenience for tests and one-off checks)."""
    if path is None and os.path.exists(path_or_text):
        path = path_or_text
        with open(path_or_text, encoding="utf-8") as f:
            text = f.read()
    else:
        text = path_or_text
    with Pool(backend, device, jobs=1, timeout=timeout) as pool:
        opts = (options or RunOptions()).replace(seed=seed, want_values=want_values)
        out = pool.run(Request(text, path or "<script>", opts, timeout=timeout))
        if want_values and out.values_path:
            out.load_values()
        return out


class Pools:
    """Every pool one command uses, by backend name: the primary one (the backend under test)
    and those its checks ask for (the reference for ``--mismatch``, a baseline for ``--slower``),
    each started on first use with the same device, timeout and options, all closed together.
    Pools handed in (``given``: the warm pools of a fuzz campaign) are used and left open."""

    def __init__(self, primary: str, device: str = "cpu", jobs: int = 1, timeout: float = 600.0,
                 options: RunOptions | None = None, given: dict[str, Pool] | None = None,
                 extra_jobs: int | None = None):
        self.device, self.jobs, self.timeout = device, max(1, jobs), timeout
        self.options = options or RunOptions()
        self.extra_jobs = extra_jobs
        self._given = dict(given or {})
        self._own: dict[str, Pool] = {}
        self._lock = threading.Lock()
        self.name = primary
        self.primary = self.get(primary)

    @classmethod
    def of(cls, primary: Pool, **others: Pool) -> "Pools":
        """Pools over pools the caller already has (nothing is started or closed here)."""
        return cls(primary.backend, getattr(primary, "device", "cpu"), jobs=len(getattr(primary, "workers", ())) or 1,
                   options=getattr(primary, "options", None), given={**others, primary.backend: primary})

    def get(self, name: str) -> Pool:
        with self._lock:
            if name in self._given:
                return self._given[name]
            if name not in self._own:
                jobs = self.jobs if name == getattr(self, "name", name) else (self.extra_jobs or self.jobs)
                self._own[name] = Pool(name, self.device, jobs=jobs, timeout=self.timeout, options=self.options)
            return self._own[name]

    def close(self) -> None:
        for p in self._own.values():
            p.close()
        self._own.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
