"""What a backend is: the ``Backend`` protocol, the typed ``RunOptions`` a run is asked with, and the
registry that the command line, the pools and the workers find backends in.

A backend is one class in one module, decorated with ``@register``: the registry imports every
module of this package and every plugin module named in ``FMIN_PLUGINS`` (``minimizer.plugins``),
so adding a backend is adding its file (and its tests). Everything fmin needs to know about a
backend is a class attribute of it (its worker's memory, its warm-up, its display name, its place
in ``--backend auto``, its ``--help`` line), so no other module keeps a table by backend name. A
backend object lives in two processes: in fmin it answers ``available``, ``worker_env`` and what
its segments mean (``non_kernel``); in a worker process it ``warm``s once and then runs scripts.
Nothing reaches a worker but its command line, its environment (``worker_env``) and, per request,
a ``RunOptions`` — there is no side channel.
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import pkgutil
import sys
import threading
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import plugins
from . import decisions
from .signature import generic_classify

#: the launcher's last line on stdout (``backends/launch.py``): ``fmin-launch: {outcome JSON}``
LAUNCH_LINE = "fmin-launch: "
#: what a segmentation finding's standalone script raises (``Backend.segmentation_script``)
SPLITS_DIFFER = "the segmentation differs"


@dataclass(frozen=True)
class RunOptions:
    """How one script is to be run. Sent to the worker with each request as JSON.

    ``seed``            torch seed set before the script runs (every backend)
    ``want_values``     save the last ``fd.execute``'s inputs (after execution) and outputs (every backend)
    ``time_execute``    execute the last fusion this many more times, warm, and report the median
                        (``--slower``; every backend)
    ``fp64``            compute every floating value in float64 (the exact reference; ``reference``)
    ``perturb``         with ``fp64``: every floating input moved by a few ulps of the program's narrowest
                        floating dtype, signs drawn from this seed (0: none; ``reference``): another
                        legitimate exact result, for the ill-conditioned elements of a wrong result
    ``narrow_scans``    half/bfloat16 ``cumsum``/``cumprod`` accumulate in their own dtype, as a scan kernel
                        may: True in order, "low"/"high" at the bound of any order (``ops/scans.py``;
                        ``reference``)
    ``narrow_attention`` flash attention's P and dS rounded to the query's dtype before the matmuls that
                        read them, as ATen's flash kernels do (``ops/linalg.NARROW_P``; ``reference``)
    ``eager``           run Inductor's translation without compiling it (fuzz triage; ``inductor``)
    ``inductor_config`` Inductor config patched around every compile (``--inductor-config``; ``inductor``)
    ``standalone``      run it as a maintainer would: the script's own checks of its outputs run (a wrong
                        result's attachment ends with one, ``fuzz/attachment.py``); inside fmin's runs they
                        are skipped, fmin judges outputs itself (every backend; ``backends/launch.py``)
    """
    seed: int = 0
    want_values: bool = False
    time_execute: int = 0
    fp64: bool = False
    perturb: int = 0
    narrow_scans: bool | str = False
    narrow_attention: bool = False
    eager: bool = False
    inductor_config: tuple[tuple[str, Any], ...] = ()
    standalone: bool = False

    def replace(self, **kw) -> "RunOptions":
        return dataclasses.replace(self, **kw)

    def over(self, defaults: "RunOptions") -> "RunOptions":
        """These options, with every field left at its default taken from ``defaults`` (a pool's
        options for all its runs under a request's own)."""
        blank = RunOptions()
        return RunOptions(**{f.name: getattr(self, f.name) if getattr(self, f.name) != getattr(blank, f.name)
                             else getattr(defaults, f.name) for f in dataclasses.fields(self)})

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d["inductor_config"] = [list(kv) for kv in self.inductor_config]
        return d

    @classmethod
    def from_json(cls, d: dict | None) -> "RunOptions":
        d = dict(d or {})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown run options: {', '.join(sorted(unknown))}")
        if "inductor_config" in d:
            d["inductor_config"] = tuple((k, v) for k, v in d["inductor_config"])
        return cls(**d)


class Backend:
    """One way of running a repro script. Subclasses set ``name`` and implement ``warm`` and
    ``run_script``; the rest has defaults."""

    name: ClassVar[str] = ""
    #: what it is, in a few words: its part of ``--backend``'s help (``help_text``)
    summary: ClassVar[str] = ""
    #: how reports and summaries name it ("nvFuser splits a 4-op fusion ..."); "" means ``name``
    display_name: ClassVar[str] = ""
    #: its place in the order ``--backend auto`` tries backends (lowest first; the first this
    #: machine can run is taken, the last when none can); None: never chosen by ``auto``
    auto_rank: ClassVar[int | None] = None
    #: bytes a worker process holds before it runs anything (torch and the backend imported):
    #: what ``oracle.memory.plan`` adds to each run on the host
    worker_bytes: ClassVar[int] = 1 << 30
    #: whether it compiles the fusion into kernels that keep intermediates out of memory (a run
    #: then needs at least its inputs and outputs); False: it computes op by op, as the
    #: reference does, and peaks like it (``program.memory.Estimate``)
    fuses: ClassVar[bool] = True
    #: what a worker's first run costs, said while workers start ("" for nothing worth saying)
    warm_up: ClassVar[str] = ""
    #: scheduler names whose segments launch no kernel of their own (nvFuser's expression
    #: evaluator and no-op segments); every other segment is a kernel
    non_kernel: ClassVar[frozenset[str]] = frozenset()
    #: its outcomes say how the fusion was segmented (segments, schedulers, the graph): checks
    #: that read segments (``--kernels``, ``--segments``, ...) can be asked of it
    reports_segments: ClassVar[bool] = False
    #: ``python SCRIPT`` shows what it confirmed: the script's own imports are what ran. False:
    #: what ran was fmin's FusionDefinition standing behind the script's ``nvfuser`` imports, so
    #: a script it confirmed shows it only through fmin (``see_command``)
    runs_as_written: ClassVar[bool] = False

    @property
    def title(self) -> str:
        """The name reports use (``display_name``, else ``name``)."""
        return self.display_name or self.name

    # ---- in fmin ----
    def available(self, device: str | None = None) -> bool:
        """Can this machine run it on ``device`` (libraries importable, a GPU where one is
        needed, a compiler)? Asked in fmin before any worker starts: a command on a backend
        that is not available stops with ``unavailable_reason``."""
        return True

    def unavailable_reason(self, device: str | None = None) -> str:
        return f"the {self.name} backend cannot run here"

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
        ``python SCRIPT`` cannot (``runs_as_written`` False: the script is written for nvFuser, and
        a machine without it stops at its import); None where ``python SCRIPT`` does."""
        if self.runs_as_written:
            return None
        import shlex
        config = [a for k, v in inductor_config for a in ("--inductor-config", f"{k}={v if isinstance(v, str) else json.dumps(v)}")]
        return shlex.join(["fmin", "check", script, "--backend", self.name, *config])

    # ---- a filed attachment, run as a maintainer runs it (``fuzz/standalone.py``) ----
    #: options of a run of fmin's own translation with the backend's compiler left out: a wrong
    #: result that run already shows is fmin's translation, not the backend (the fuzzer's
    #: differential triage); None: the backend runs the script as written, there is nothing of
    #: fmin's in between to suspect
    translation_only: ClassVar[RunOptions | None] = None
    #: worker variables that only make the backend print debug output (nvFuser's dumps): not the
    #: user's path, so an attachment neither sets them nor is confirmed with them; a failure that
    #: needs them is the debug code's own (``fuzz/standalone.py``: ``dump_only``)
    debug_env: ClassVar[frozenset[str]] = frozenset()

    @property
    def standalone_needs_fmin(self) -> bool:
        """The standalone run imports fmin (its launcher stands in front of the backend), so it is
        given this fmin on ``PYTHONPATH``: every backend that does not run scripts as written
        (``runs_as_written``, the one home of that fact)."""
        return not self.runs_as_written

    def standalone_command(self, text: str, device: str, config: list[str]) -> tuple[list[str] | None, str]:
        """(argv, "") that runs the attachment ``text`` as ``repro.min.py`` in the current
        directory, or (None, why this machine cannot). ``config``: the header's ``KEY=VALUE``
        backend settings. By default fmin's launcher (``backends/launch.py``): the worker's run of
        the script, once, in a fresh process, with the script's own check active."""
        if not self.available(device):
            return None, f"the {self.name} backend cannot run on {device} here: {self.unavailable_reason(device)}"
        return [sys.executable, "-m", "minimizer.backends.launch", self.name, device, "repro.min.py", *config], ""

    def run_words(self, device: str, config: list[str]) -> str:
        """The attachment header's ``# run it:`` line (``standalone_command`` in words)."""
        cfg = " ".join(config)
        return (f"python -m minimizer.backends.launch {self.name} {device} repro.min.py" + (f" {cfg}" if cfg else "")
                + f" (fmin's FusionDefinition in front of {self.name})")

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

    # ---- what a finding of it means (the bug list's classes, ``fuzz/classes.py``) ----
    def expected_segmentation(self, ops: frozenset[str], changed: frozenset[str]) -> str | None:
        """Why a segmentation that changes with the inputs' layout or order is what the backend is
        meant to do, or None. ``ops``: the minimized program's ops; ``changed``: the scheduler
        kinds whose counts change. Any backend: a ``reshape`` alone is a view of a tensor whose
        memory allows one and a copy (a kernel) of one whose memory does not, as torch's is."""
        if ops == {"reshape"} and changed <= {"pointwise", "expr_eval", "no_op"}:
            return "a reshape of a tensor whose layout allows no view is a copy kernel, not a view (as in torch)"
        return None

    def by_design(self, kind: str, differs: str | None, dtypes: frozenset[str]) -> str | None:
        """Why a difference of ``kind`` (``differs``: what differs for a wrong result) in a program
        of these dtypes is a documented semantic difference of the backend from eager torch, not
        a bug, or None (the default: no such difference is documented)."""
        return None

    # ---- in a worker ----
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


_REGISTRY: dict[str, Backend] = {}
_LOADED = [False]
_LOAD_LOCK = threading.RLock()   # threads may ask at once: none may see a half-filled registry


def register(cls: type[Backend]) -> type[Backend]:
    """Class decorator: make a backend known by its ``name`` (one a module elsewhere has
    registered already is refused: a plugin must not replace a backend silently)."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    old = _REGISTRY.get(cls.name)
    if old is not None and type(old).__module__ != cls.__module__:
        raise ValueError(f"backend {cls.name!r} of {cls.__module__} is already registered by {type(old).__module__}")
    _REGISTRY[cls.name] = cls()
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


def auto_order() -> tuple[str, ...]:
    """The backends ``--backend auto`` tries, in order (``Backend.auto_rank``)."""
    _load()
    ranked = [(b.auto_rank, n) for n, b in _REGISTRY.items() if b.auto_rank is not None]
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
    return ("how scripts are run: " + "; ".join(f"{n}: {get(n).summary or 'no summary'}" for n in listed)
            + f". Default for every command: auto = the first of {', '.join(order)} that this machine can run")


def cuda_usable() -> bool:
    """Whether torch sees a CUDA device (no CUDA context is created)."""
    try:
        import torch
        return bool(torch.cuda.is_available())
    except Exception:
        return False


__all__ = ["cuda_usable", "RunOptions", "Backend", "register", "names", "get", "resolve", "auto_order", "help_text"]
