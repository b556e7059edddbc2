"""The options that the commands running scripts share, and the run context built from them.

Backend, device, workers, timeout, torch seed, memory and Inductor config mean the same in
``check``, ``reduce``, ``isolate`` and ``fuzz``, so they are declared and read in one place; a
backend or property this machine cannot judge is refused here (exit 2) before any worker starts.
``--ray`` and its companions live here too: ``check`` and ``fuzz`` both take them.
"""
from __future__ import annotations

import argparse
import sys

from ..argtypes import POSITIVE_SECONDS, number
from ..errors import UsageError


def _default_device() -> str:
    try:
        import torch
        return "cuda" if torch.cuda.is_available() else "cpu"
    except Exception:
        return "cpu"


def add_run_options(p: argparse.ArgumentParser, plans_memory: bool = True) -> None:
    """The options every command that runs scripts shares; one default backend for all of them.
    ``plans_memory``: False for a command that plans no memory (``fuzz``: its ``--max-memory`` is
    kept out of its help and refused, ``cli.fuzz.cmd_fuzz``)."""
    from ..backends import help_text, names
    p.add_argument("--backend", default="auto", choices=["auto", *names()], help=help_text())
    p.add_argument("--device", choices=["cpu", "cuda"], default=None,
                   help="device for the reference and inductor backends (default: cuda if available)")
    p.add_argument("--jobs", type=_jobs, default=None,
                   help="worker processes (default 1), or 'auto' (every visible GPU, several workers per GPU: "
                        "compiles, not kernels, are the bottleneck; on the CPU half the cores)")
    p.add_argument("--timeout", type=POSITIVE_SECONDS, default=600.0, help="seconds one script may take (default 600)")
    p.add_argument("--seed", type=int, default=0, help="torch seed set before each script runs")
    p.add_argument("--max-memory", type=_size, default=None, metavar="SIZE",
                   help="memory fmin may plan with (e.g. 8G; default: what the device has available). A script "
                        "whose runs do not fit is refused before it runs; --jobs is lowered to what fits"
                   if plans_memory else argparse.SUPPRESS)
    p.add_argument("--inductor-config", action="append", default=[], metavar="KEY=VALUE",
                   help="Inductor config for every compile (repeatable; VALUE read as JSON, else a string), "
                        "e.g. cpp.inject_relu_bug_TESTING_ONLY=accuracy")


def _inductor_config(items: list[str]) -> dict:
    from ..argtypes import key_values
    try:
        return key_values(items)
    except ValueError as e:
        raise UsageError(f"--inductor-config: {e}") from None


def _size(text: str) -> int:
    from ..oracle.memory import parse_size
    try:
        return parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _jobs(text: str):
    if text == "auto":
        return "auto"
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of workers or 'auto', got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1 worker, got {n}")
    return n


def resolve_jobs(args) -> None:
    """``--jobs auto`` becomes a number once the device is known; not given, 1. What was given is
    kept as ``jobs_given`` (with ``--ray`` it counts actors, and not given means the cluster's)."""
    if not hasattr(args, "jobs"):
        return
    args.jobs_given = args.jobs
    if args.jobs is None:
        args.jobs = 1
    elif args.jobs == "auto":
        from ..oracle.pool import auto_jobs
        args.jobs = auto_jobs(args.device or _default_device())


#: the ADDRESS ``--ray`` takes (``check`` reads a word that is not one, but a file, as a script)
RAY_ADDRESS = r"(auto|local|ray://\S+|[\w.\-\[\]:]+:\d+)"


def add_ray_options(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help=f"{what} on a Ray cluster (needs Ray: pip install 'ray>=2.50'): one actor per worker slot, each with warm "
                        "workers; --jobs N actors (default: as many as the cluster's CPUs, or GPUs with "
                        "--ray-gpus-per-actor, hold). ADDRESS: auto (the cluster `ray start` made), HOST:PORT, "
                        "ray://HOST:PORT, local; omitted: RAY_ADDRESS, else the cluster started here, else a new "
                        "local one")
    p.add_argument("--ray-cpus-per-actor", type=number(float, 0, inclusive=False), default=1.0, metavar="N",
                   help="CPUs Ray reserves for each actor (default 1)")
    p.add_argument("--ray-gpus-per-actor", type=number(float, 0), default=None, metavar="N",
                   help="GPUs Ray reserves for each actor; fractional shares a GPU (0.25: four actors compile and "
                        "run on each GPU at once); default 0.25 with --device cuda, else 0")


def _ray_device(args) -> str:
    """The device of a command: ``--device``; with ``--ray`` and GPUs asked for per actor, cuda
    (the driver's machine need not have one); else this machine's default."""
    if args.device:
        return args.device
    if getattr(args, "ray", None) is not None and getattr(args, "ray_gpus_per_actor", None):
        return "cuda"
    return _default_device()


def ray_options(args, device: str):
    """The ``RayOptions`` of ``--ray`` and its companions (None without ``--ray``)."""
    import re
    if args.ray is None:
        return None
    if args.ray and not re.fullmatch(RAY_ADDRESS, args.ray):
        raise UsageError(f"--ray: expected an address (auto, HOST:PORT, ray://HOST:PORT, local), got {args.ray!r}")
    from ..cluster import RayOptions
    from ..cluster.runner import import_ray
    import_ray()   # not installed: say so before anything is written
    given = getattr(args, "jobs_given", None)
    gpus = args.ray_gpus_per_actor
    if gpus is None:   # actors on cuda must be given a GPU share, or Ray hides the GPUs from them
        gpus = 0.25 if device.startswith("cuda") else 0.0
    return RayOptions(address=args.ray or None, actors=given if isinstance(given, int) else None,
                      cpus_per_actor=args.ray_cpus_per_actor, gpus_per_actor=gpus)


def _command_line(argv: list[str]) -> str:
    """This fmin invocation (``argv``, as typed, every option) as a shell command, for the headers
    of what it writes: what a reader re-runs to get the same result."""
    import shlex
    return shlex.join(["fmin", *argv])


def _backend(args) -> tuple[str, str]:
    """The concrete backend and device of a command; a backend this machine cannot run (nvFuser
    not importable, no CUDA, no compiler) is refused here, before any worker starts (exit 2).
    With ``--ray`` the actors run it, so this machine is not asked (see ``_ray_device``)."""
    from ..backends import get, resolve
    on_ray = getattr(args, "ray", None) is not None
    device = _ray_device(args) if on_ray else (args.device or _default_device())
    try:
        name = resolve(args.backend, device)
    except ValueError as e:
        raise UsageError(str(e)) from None
    b = get(name)
    if not on_ray and not b.available(device):
        raise UsageError(f"--backend {name}: {b.unavailable_reason(device)}")
    return name, device


def asked_property(args, backend: str):
    """The property the flags ask for (None: the default), refused (exit 2, before any run)
    where a flag cannot be judged on ``backend`` (``--kernels`` where no segments are reported)."""
    from ..backends import get
    from ..oracle.property import Property
    try:
        prop = Property.from_args(args)
    except ValueError as e:
        raise UsageError(str(e)) from None
    why = prop.unsupported_on(get(backend)) if prop is not None else None
    if why is not None:
        raise UsageError(why)
    return prop


def run_context(args, seed: int | None = None):
    """The run context of this command, built once from its arguments: backend and device
    (refused here when this machine cannot run them), workers, timeout, torch seed, the options
    of every run (``--inductor-config``), the memory it may plan with, quiet, the command line.
    ``seed``: the torch seed where the command's ``--seed`` means something else (a campaign's)."""
    from ..backends import RunOptions
    from ..oracle.context import RunContext
    backend, device = _backend(args)
    cfg = _inductor_config(getattr(args, "inductor_config", None) or [])
    return RunContext(backend=backend, device=device, jobs=args.jobs, timeout=args.timeout,
                      seed=args.seed if seed is None else seed,
                      options=RunOptions(inductor_config=tuple(sorted(cfg.items()))),
                      max_memory=getattr(args, "max_memory", None), quiet=bool(getattr(args, "quiet", False)),
                      command=_command_line(getattr(args, "argv", sys.argv[1:])))
