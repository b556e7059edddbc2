"""``RayRunner``: a campaign's (or a batch check's) work on a Ray cluster.

One long-lived actor per worker slot (``actor.SlotActor``: warm pools of the backend and the
reference), each given one unit of work at a time by a dispatcher thread in the driver, so a slow
compile holds up only its own slot. The campaign itself — generation, the order results are taken
in, bucketing, the corpus, the reports — stays in the driver (``fuzz.campaign``); this is only
where its units of work run.

Failures: a unit whose actor dies (``ActorDiedError``, a lost node, ``ray.kill``) is put back at
the head of the queue and run on another slot, up to ``max_attempts`` times in all; the dead
slot is probed — an actor Ray restarted (``max_restarts``) comes back warm, one that is gone is
replaced by a new actor (up to ``replacements``). A unit that *raises* (a bug, not a lost actor)
fails its future at once. When no slot is left, the queued units fail with the last error.
"""
from __future__ import annotations

import os
import signal
import threading
from collections import Counter, deque
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import UsageError
from ..fuzz.sources import generate
from ..fuzz.store.record import Bucket
from ..fuzz.campaign.options import CampaignOptions, window_for
from .actor import RESUME_FILES, SlotActor

#: fmin is on no package registry, so the hint names what its ``ray`` extra installs (pyproject.toml)
INSTALL_HINT = "Ray is not installed: pip install 'ray>=2.50' (fmin's ray extra; from a checkout: pip install -e '.[ray]')"


class ClusterError(RuntimeError):
    """The cluster could not do the work (no actor left, none could start)."""


def import_ray():
    try:
        import ray
    except ImportError:
        raise UsageError(f"--ray: {INSTALL_HINT}") from None
    return ray


@dataclass
class RayOptions:
    address: str | None = None       # None: ray.init()'s default (RAY_ADDRESS, the cluster `ray start` made here,
    #                                  else a new local one); "auto", "HOST:PORT", "ray://HOST:PORT", "local"
    actors: int | None = None        # None: as many as the cluster's GPUs (with gpus_per_actor) or CPUs allow
    cpus_per_actor: float = 1.0
    gpus_per_actor: float = 0.0      # fractional: 0.25 puts four actors (four compiles at once) on one GPU
    max_restarts: int = 2            # Ray restarts a crashed actor this often (its pools start afresh)
    max_attempts: int = 3            # runs of one unit whose actor was lost, in all
    replacements: int | None = None  # new actors for ones that are gone (default: one per actor)
    ship_code: bool = True           # send this fmin to the actors (runtime_env py_modules)
    on_dispatch: Callable | None = None   # test hook: (runner, slot, method) after each unit is dispatched


def code_root() -> str:
    """The directory holding this fmin's ``minimizer`` package."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def connect(ray_opt: RayOptions) -> bool:
    """Join (or start) the Ray cluster; True when this call started the connection (so the
    runner shuts it down again). With ``ship_code``, this fmin travels with the job
    (``runtime_env`` ``py_modules``: Ray uploads the package once and every node imports it), so
    the nodes need fmin's dependencies (torch, libcst, hypothesis, rich; nvFuser for its backend)
    but not fmin itself, and never run another version of it."""
    import logging
    ray = import_ray()
    if ray.is_initialized():
        return False
    env = {}
    if ray_opt.ship_code:
        env = {"py_modules": [os.path.join(code_root(), "minimizer")], "excludes": ["__pycache__", "*.pyc"]}
    # a cluster of this machine alone ("local") listens on the loopback: Ray would otherwise bind
    # the address of the default route, which a sandbox or a laptop off its network may not route
    local = {"_node_ip_address": "127.0.0.1"} if ray_opt.address == "local" else {}
    ray.init(address=ray_opt.address or None, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING, runtime_env=env or None, **local)
    return True


#: the handlers ``ray.init`` replaces in the driver (it installs a SIGTERM handler that exits)
_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def signal_handlers() -> dict:
    """This process's handlers of ``_SIGNALS``, to put back when the connection this process
    started is closed: ``ray.shutdown`` leaves Ray's in place, so a process that goes on after a
    campaign (a test session calling ``main()``, a notebook) would keep answering signals Ray's way."""
    return {s: signal.getsignal(s) for s in _SIGNALS}


def restore_signal_handlers(saved: dict) -> None:
    for s, h in saved.items():
        try:
            signal.signal(s, h if h is not None else signal.SIG_DFL)
        except ValueError:   # not the main thread: nothing was changed from here either
            pass


def auto_actors(ray_opt: RayOptions) -> int:
    """As many actors as the cluster's resources hold: its GPUs over ``gpus_per_actor`` when
    actors take GPUs, else its CPUs over ``cpus_per_actor``."""
    ray = import_ray()
    res = ray.cluster_resources()
    if ray_opt.gpus_per_actor > 0:
        n = int(res.get("GPU", 0) / ray_opt.gpus_per_actor + 1e-9)
    else:
        n = int(res.get("CPU", 0) / max(ray_opt.cpus_per_actor, 1e-3) + 1e-9)
    return max(1, n)


class _Slot:
    def __init__(self, index: int, handle):
        self.index, self.handle = index, handle
        self.info: dict = {}
        self.alive = True


class _Task:
    def __init__(self, method: str, args: tuple, future: Future):
        self.method, self.args, self.future = method, args, future
        self.attempts = 0
        self.started = False


class RayRunner:
    """A ``Runner`` for campaigns and a ``Checks`` for ``fmin check --ray`` (``oracle.runners``):
    each unit goes to a ``SlotActor`` (a ``Slot``) by the method of the same name."""

    def __init__(self, opt: CampaignOptions, ray_opt: RayOptions | None = None, *, max_actors: int | None = None):
        self.opt, self.ray_opt = opt, ray_opt or RayOptions()
        self.max_actors = max_actors
        self.window = generate.CHUNK
        self.reduce_slots = 1
        self.n = 0   # actors, once started (``__enter__``)
        self.stats: Counter = Counter()
        self.slots: list[_Slot] = []
        self.last_error: BaseException | None = None
        self._queue: deque[_Task] = deque()
        self._idle: deque[_Slot] = deque()
        self._inflight: dict[Any, tuple[_Slot, _Task]] = {}
        self._warming: dict[Any, _Slot] = {}
        self._cv = threading.Condition()
        self._stop = False
        self._owns = False
        self._signals: dict = {}
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ life cycle
    def __enter__(self):
        self._ray = ray = import_ray()
        self._signals = signal_handlers()
        self._owns = connect(self.ray_opt)
        try:
            res = ray.cluster_resources()
            for what, each in (("CPU", self.ray_opt.cpus_per_actor), ("GPU", self.ray_opt.gpus_per_actor)):
                if each > res.get(what, 0):   # no actor could ever start: say so rather than wait forever
                    raise UsageError(f"--ray: each actor asks for {each:g} {what}, and the cluster has "
                                     f"{res.get(what, 0):g} in all (--ray-{what.lower()}s-per-actor)")
            n = self.ray_opt.actors or auto_actors(self.ray_opt)
            if self.max_actors:
                n = min(n, self.max_actors)
            opts: dict = {"num_cpus": self.ray_opt.cpus_per_actor, "max_restarts": self.ray_opt.max_restarts,
                          "max_task_retries": 0}
            if self.ray_opt.gpus_per_actor > 0:
                opts["num_gpus"] = self.ray_opt.gpus_per_actor
            if self.ray_opt.ship_code and not self._owns:
                # a connection made by someone else (a test, a notebook) has no py_modules of ours:
                # its actors import fmin from where this one lives (one node, or a shared file system)
                path = os.pathsep.join(p for p in (code_root(), os.environ.get("PYTHONPATH")) if p)
                opts["runtime_env"] = {"env_vars": {"PYTHONPATH": path}}
            self._cls = ray.remote(SlotActor).options(**opts)
            self.n = n
            self.replacements_left = n if self.ray_opt.replacements is None else self.ray_opt.replacements
            with self._cv:
                for _ in range(n):
                    self._spawn()
            self.window = window_for(n)
            self.reduce_slots = n
            self._thread = threading.Thread(target=self._loop, name="fmin-ray-dispatch", daemon=True)
            self._thread.start()
        except BaseException:
            self._shutdown()
            raise
        return self

    def __exit__(self, *exc):
        self._shutdown()
        return False

    def _shutdown(self) -> None:
        ray = self._ray
        with self._cv:
            self._stop = True
            self._cv.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=30)
        closed = ClusterError("the Ray runner was closed before this unit finished")
        for t in list(self._queue) + [t for _, t in self._inflight.values()]:
            if not t.future.done():
                if t.started:
                    t.future.set_exception(closed)
                else:
                    t.future.cancel()
        busy = {id(s) for s, _ in self._inflight.values()}
        self._queue.clear()
        closes = []
        for s in self.slots:   # an idle actor closes its pools; a busy one (a timed campaign's end) is just killed
            if s.alive and id(s) not in busy and s.info:
                try:
                    closes.append(s.handle.close.remote())
                except Exception:
                    pass
        if closes:
            try:
                ray.wait(closes, num_returns=len(closes), timeout=30)
            except Exception:
                pass
        for s in self.slots:
            try:
                ray.kill(s.handle)
            except Exception:
                pass
        if self._owns:
            ray.shutdown()
            restore_signal_handlers(self._signals)
            self._owns = False

    def _spawn(self) -> None:
        """A new actor; it gets work once warm (``ready``)."""
        s = _Slot(len(self.slots), self._cls.remote(self.opt))
        self.slots.append(s)
        self._warming[s.handle.ready.remote()] = s

    # ------------------------------------------------------------ the runner protocol
    def judge_example(self, e, text: str) -> Future:
        return self._submit("judge_example", e, text)

    def reduce(self, key: str, meta: Bucket, outcome: dict | None, bucket_dir: str) -> Future:
        files = {}
        for name in ("original.py", *RESUME_FILES):
            p = os.path.join(bucket_dir, name)
            if os.path.exists(p):
                with open(p, encoding="utf-8") as f:
                    files[name] = f.read()
        return self._submit("reduce", {"meta": meta, "outcome": outcome, "files": files,
                                       "bucket_dir": os.path.abspath(bucket_dir)})

    def recheck(self, job: dict) -> Future:
        return self._submit("recheck", job)

    def check(self, req, prop, seed: int) -> Future:
        return self._submit("check", req, prop, seed)

    def describe(self) -> str:
        nodes = {s.info.get("node") or s.info.get("host") for s in self.slots if s.info}
        each = f"{self.ray_opt.cpus_per_actor:g} CPU" + (f", {self.ray_opt.gpus_per_actor:g} GPU"
                                                         if self.ray_opt.gpus_per_actor else "")
        where = ""
        try:
            where = f" at {self._ray.get_runtime_context().gcs_address}"
        except Exception:
            pass
        st = self.stats
        return (f"ray: {self.n} actors ({each} each) on {len(nodes)} node(s){where}; "
                f"{st['lost']} lost, {st['resubmitted']} re-run, {st['replaced']} replaced")

    # ------------------------------------------------------------ the dispatcher
    def _submit(self, method: str, *args) -> Future:
        f: Future = Future()
        with self._cv:
            if self._stop:
                raise ClusterError("the Ray runner is closed")
            self._queue.append(_Task(method, args, f))
            self._cv.notify_all()
        return f

    def _live(self) -> bool:
        return bool(self._idle or self._inflight or self._warming)

    def _assign(self) -> None:
        while self._idle and self._queue:
            t = self._queue.popleft()
            if not t.started:
                if not t.future.set_running_or_notify_cancel():
                    continue   # cancelled while queued (a campaign past its deadline)
                t.started = True
            s = self._idle.popleft()
            ref = getattr(s.handle, t.method).remote(*t.args)
            self._inflight[ref] = (s, t)
            self.stats["dispatched"] += 1
            if self.ray_opt.on_dispatch is not None:
                self.ray_opt.on_dispatch(self, s, t.method)

    def _fail_queue(self) -> None:
        err = ClusterError(f"no Ray actor left to run on (last error: {self.last_error!r})")
        while self._queue:
            t = self._queue.popleft()
            if t.started or t.future.set_running_or_notify_cancel():
                t.future.set_exception(err)

    def _loop(self) -> None:
        ray = self._ray
        while True:
            with self._cv:
                while not self._stop and not self._inflight and not self._warming and not (self._queue and self._idle):
                    if self._queue and not self._live():
                        self._fail_queue()
                    self._cv.wait(timeout=0.5)
                if self._stop:
                    return
                self._assign()
                refs = list(self._inflight) + list(self._warming)
            ready, _ = ray.wait(refs, num_returns=1, timeout=0.2)
            if ready:
                ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
            with self._cv:
                for ref in ready:
                    self._settle(ref)
                self._assign()
                if self._queue and not self._live():
                    self._fail_queue()

    def _settle(self, ref) -> None:
        ray = self._ray
        from ray.exceptions import RayActorError, RayTaskError
        if ref in self._warming:
            s = self._warming.pop(ref)
            try:
                s.info = ray.get(ref)
                self._idle.append(s)
            except Exception as err:   # died, or its workers could not start: replaced, within limits
                self.last_error = err.as_instanceof_cause() if isinstance(err, RayTaskError) else err
                self._retire(s)
            return
        s, t = self._inflight.pop(ref)
        try:
            result = ray.get(ref)
        except RayTaskError as err:   # the unit raised: its own error, the actor is fine
            self._idle.append(s)
            if not t.future.done():
                t.future.set_exception(err.as_instanceof_cause())
            return
        except (RayActorError, Exception) as err:   # the actor (or its node, or its object) is lost
            self.last_error = err
            self.stats["lost"] += 1
            t.attempts += 1
            if t.attempts >= self.ray_opt.max_attempts:
                t.future.set_exception(ClusterError(f"{t.method}: lost its actor {t.attempts} times ({err!r})"))
            else:
                self._queue.appendleft(t)
                self.stats["resubmitted"] += 1
            self._warming[s.handle.ready.remote()] = s   # restarted by Ray: warm again; gone: replaced
            return
        if not t.future.done():
            t.future.set_result(result)
        self._idle.append(s)

    def _retire(self, s: _Slot) -> None:
        s.alive = False
        try:
            self._ray.kill(s.handle)
        except Exception:
            pass
        if self.replacements_left > 0 and not self._stop:
            self.replacements_left -= 1
            self.stats["replaced"] += 1
            self._spawn()
