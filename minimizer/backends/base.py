"""What a backend is, in three parts, and the registry that the command line, the pools and the
workers find backends in.

* ``Runner``: what a worker process calls to run scripts (``warm`` once, then ``run_script`` per
  request, ``analyze_log`` and ``decision_features`` on what it printed). Nothing reaches a worker
  but its command line, its environment (``Backend.worker_env``) and, per request, a
  ``RunOptions`` — there is no side channel.
* ``Facts`` (``facts.py``): frozen facts fmin reads without running anything (names, worker
  memory, whether outcomes report segments ...).
* ``Policy`` (``policy.py``): what a finding of it means for the bug list (what is by design, which
  segmentations are expected), read by the fuzz layer only.

A backend is one ``Backend`` class in one module, decorated with ``@register``: it declares its
``facts``, its ``runner`` class and its ``policy``, and answers in fmin what needs more than a fact
(``available``, ``worker_env``, root causes, how a filed attachment runs standalone). The registry
imports every module of this package and every plugin module named in ``FMIN_PLUGINS``
(``minimizer.plugins``), so adding a backend is adding its file (and its tests); no other module
keeps a table by backend name.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import threading
from typing import ClassVar

from .. import plugins
from . import decisions
from .facts import Facts
from .options import RunOptions
from .policy import Policy
from .signature import generic_classify

#: the launcher's last line on stdout (``backends/launch.py``): ``fmin-launch: {outcome JSON}``
LAUNCH_LINE = "fmin-launch: "
#: what a segmentation finding's standalone script raises (``Backend.segmentation_script``)
SPLITS_DIFFER = "the segmentation differs"


class Runner:
    """What a worker process calls to run scripts of one backend: made once per worker
    (``runner_for``), it ``warm``s once and then runs every request. ``facts``: its backend's."""

    def __init__(self, facts: Facts):
        self.facts = facts

    def warm(self, device: str) -> dict:
        """Import and set up once per worker; returns the environment to record in outcomes."""
        raise NotImplementedError

    def run_script(self, text: str, path: str, device: str, options: RunOptions,
                   values_path: str | None) -> dict:
        """Run one script; returns an outcome dict (see ``oracle.outcome.Outcome``)."""
        raise NotImplementedError

    def analyze_log(self, result: dict, log: str) -> None:
        """Read what the run printed (file descriptors 1 and 2) into ``result``."""

    def decision_features(self, result: dict, log: str) -> list[str]:
        """What the compiler decided on this run, as features (``decisions``): by default those
        every result has (status, schedulers, segment count, boundaries, outputs); a backend
        whose log says more (nvFuser's rejected merges) adds it. Called in the worker after
        ``analyze_log``, from what it already read: no extra run."""
        return decisions.generic(result)

    def poisoned(self, result: dict, device: str) -> str | None:
        """Why this worker process must run nothing more after ``result``, or None. A reason
        goes back with the answer (``retire``): the pool replaces the process before it is given
        another script, whose failure would otherwise be filed as that script's own. By default,
        a failed run on a GPU that left the CUDA context unusable (a sticky error: an illegal
        address or a device-side assert, raised by an nvFuser kernel, a Triton kernel or eager
        torch alike) — every later script in the process would fail with it."""
        if result.get("status") == "ok" or not str(device).startswith("cuda"):
            return None
        return None if _cuda_works() else "a sticky CUDA error: this process's CUDA context is unusable"


def _cuda_works() -> bool:
    """Does this process's CUDA context still run a kernel (True where CUDA was never used)?"""
    try:
        import torch
        if not torch.cuda.is_initialized():
            return True
        torch.cuda.synchronize()
        torch.empty(1, device="cuda").add_(1)
        torch.cuda.synchronize()
        return True
    except Exception:
        return False


class Backend:
    """One way of running a repro script, as fmin sees it. Subclasses set ``facts`` and
    ``runner`` (and ``policy`` where the default says too little); the methods have defaults."""

    facts: ClassVar[Facts]
    #: the worker side (``Runner``): what runs the scripts
    runner: ClassVar[type[Runner]] = Runner
    #: what its findings mean for the bug list (``Policy``)
    policy: ClassVar[Policy] = Policy()

    # ---- in fmin ----
    def available(self, device: str | None = None) -> bool:
        """Can this machine run it on ``device`` (libraries importable, a GPU where one is
        needed, a compiler)? Asked in fmin before any worker starts: a command on a backend
        that is not available stops with ``unavailable_reason``."""
        return True

    def unavailable_reason(self, device: str | None = None) -> str:
        return f"the {self.facts.name} backend cannot run here"

    def worker_env(self) -> dict[str, str]:
        """Environment variables its worker processes start with (the user's own win)."""
        return {}

    def translation(self, dialect) -> str | None:
        """The frontend a script of ``dialect`` must be translated to before this backend can run
        it (``fmin upgrade``'s target), or None when it runs as written."""
        return None

    def rootcause(self, signature: str, message: str | None) -> str:
        """What makes two failed runs one bug (``oracle.rootcause``): the signature with
        everything the backend prints about the particular program taken out. The signature
        itself by default (it is already free of addresses, line numbers and names)."""
        return signature

    def rootcause_particulars(self, signature: str, message: str | None) -> dict:
        """What the root cause leaves out that a bug-list row should still name (lists of
        names, joined when buckets merge): e.g. the functions one cause met. None by default."""
        return {}

    def refresh(self, outcome: dict, program) -> dict:
        """A stored outcome (``Outcome.to_json``) whose signature an older fmin made, brought to
        today's rules (``program``: the ``model.Program`` that ran, or None); unchanged by
        default. For re-keying a findings corpus without running anything."""
        return outcome

    def see_command(self, script: str, inductor_config: tuple = ()) -> str | None:
        """The command that shows on this machine what this backend confirmed of ``script``, where
        ``python SCRIPT`` cannot (``Facts.runs_as_written`` False: the script is written for
        nvFuser, and a machine without it stops at its import); None where ``python SCRIPT`` does."""
        if self.facts.runs_as_written:
            return None
        import shlex
        config = [a for k, v in inductor_config for a in ("--inductor-config", f"{k}={v if isinstance(v, str) else json.dumps(v)}")]
        return shlex.join(["fmin", "check", script, "--backend", self.facts.name, *config])

    # ---- a filed attachment, run as a maintainer runs it (``fuzz/filing/standalone.py``) ----
    def standalone_command(self, text: str, device: str, config: list[str]) -> tuple[list[str] | None, str]:
        """(argv, "") that runs the attachment ``text`` as ``repro.min.py`` in the current
        directory, or (None, why this machine cannot). ``config``: the header's ``KEY=VALUE``
        backend settings. By default fmin's launcher (``backends/launch.py``): the worker's run of
        the script, once, in a fresh process, with the script's own check active."""
        name = self.facts.name
        if not self.available(device):
            return None, f"the {name} backend cannot run on {device} here: {self.unavailable_reason(device)}"
        return [sys.executable, "-m", "minimizer.backends.launch", name, device, "repro.min.py", *config], ""

    def run_words(self, device: str, config: list[str]) -> str:
        """The attachment header's ``# run it:`` line (``standalone_command`` in words)."""
        cfg, name = " ".join(config), self.facts.name
        return (f"python -m minimizer.backends.launch {name} {device} repro.min.py" + (f" {cfg}" if cfg else "")
                + f" (fmin's FusionDefinition in front of {name})")

    def standalone_outcome(self, stdout: str, exit_code: int | None) -> dict | None:
        """The outcome fields (``status``, ``signature``, ``segments`` ...) a standalone run's
        output states, or None where only its traceback can tell (``classify_error`` then reads
        it). The launcher's last line says it (``LAUNCH_LINE``)."""
        line = next((ln for ln in reversed(stdout.splitlines()) if ln.startswith(LAUNCH_LINE)), None)
        return None if line is None else json.loads(line[len(LAUNCH_LINE):])

    def classify_error(self, error: BaseException) -> dict:
        """The outcome fields (``signature``, ``error_kind``) of an exception a standalone run's
        traceback ended with, as this backend's worker classifies it; the exception type and its
        masked first line by default."""
        return generic_classify(error)

    def segmentation_script(self, scripts: list[tuple[str, str]]) -> str | None:
        """The body of a standalone script that runs each of ``scripts`` ((what it is, its text):
        one program in two input layouts or orders), prints how the backend split each into
        kernels and raises ``AssertionError: <SPLITS_DIFFER>: ...`` when the splits
        differ; None where a script cannot see the split by itself (the launcher's outcome then
        says it: ``standalone_outcome``)."""
        return None


_REGISTRY: dict[str, Backend] = {}
_LOADED = [False]
_LOAD_LOCK = threading.RLock()   # threads may ask at once: none may see a half-filled registry


def register(cls: type[Backend]) -> type[Backend]:
    """Class decorator: make a backend known by its ``facts.name`` (one a module elsewhere has
    registered already is refused: a plugin must not replace a backend silently)."""
    facts = getattr(cls, "facts", None)
    if not isinstance(facts, Facts) or not facts.name:
        raise ValueError(f"{cls.__name__} declares no Facts with a name")
    if not isinstance(cls.policy, Policy) or not (isinstance(cls.runner, type) and issubclass(cls.runner, Runner)):
        raise ValueError(f"{cls.__name__}: its policy is no Policy or its runner no Runner class")
    old = _REGISTRY.get(facts.name)
    if old is not None and type(old).__module__ != cls.__module__:
        raise ValueError(f"backend {facts.name!r} of {cls.__module__} is already registered by {type(old).__module__}")
    _REGISTRY[facts.name] = cls()
    return cls


def _load() -> None:
    if _LOADED[0]:
        return
    with _LOAD_LOCK:
        if _LOADED[0]:
            return
        package = __name__.rsplit(".", 1)[0]
        for m in pkgutil.iter_modules(importlib.import_module(package).__path__):
            if m.name not in ("base", "worker"):
                importlib.import_module(f"{package}.{m.name}")
        plugins.load()
        _LOADED[0] = True


def names() -> tuple[str, ...]:
    """Every registered backend, in a stable order."""
    _load()
    return tuple(sorted(_REGISTRY))


def get(name: str) -> Backend:
    _load()
    if name not in _REGISTRY:
        raise ValueError(f"unknown backend {name!r} (expected one of {', '.join(names())})")
    return _REGISTRY[name]


def runner_for(name: str) -> Runner:
    """A new ``Runner`` of backend ``name`` (a worker makes one, then warms it)."""
    b = get(name)
    return b.runner(b.facts)


def policy_of(name: str) -> Policy:
    """What the findings of backend ``name`` mean for the bug list."""
    return get(name).policy


def auto_order() -> tuple[str, ...]:
    """The backends ``--backend auto`` tries, in order (``Facts.auto_rank``)."""
    _load()
    ranked = [(b.facts.auto_rank, n) for n, b in _REGISTRY.items() if b.facts.auto_rank is not None]
    return tuple(n for _, n in sorted(ranked))


def resolve(name: str, device: str | None = None) -> str:
    """A backend name, with ``auto`` made concrete: the first of ``auto_order()`` this machine
    can run on ``device``, else the last of them (which then says why it cannot run). Raises
    ValueError for an unknown name."""
    if name != "auto":
        get(name)
        return name
    order = auto_order()
    for candidate in order:
        if get(candidate).available(device):
            return candidate
    return order[-1]


def help_text() -> str:
    """``--backend``'s help, from the registry: each backend's ``summary`` (``auto``'s candidates
    first, in their order), then what ``auto`` picks."""
    order = auto_order()
    listed = list(order) + [n for n in names() if n not in order]
    return ("how scripts are run: " + "; ".join(f"{n}: {get(n).facts.summary or 'no summary'}" for n in listed)
            + f". Default for every command: auto = the first of {', '.join(order)} that this machine can run")


def cuda_usable() -> bool:
    """Whether torch sees a CUDA device (no CUDA context is created)."""
    try:
        import torch
        return bool(torch.cuda.is_available())
    except Exception:
        return False


__all__ = ["cuda_usable", "Facts", "Policy", "RunOptions", "Runner", "Backend", "register", "names", "get", "runner_for",
           "policy_of", "resolve", "auto_order", "help_text"]
