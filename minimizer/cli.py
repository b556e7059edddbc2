"""The ``fmin`` command line.

Every subcommand reads scripts through the parser first, so a script fmin cannot read stops with
``file:line:col: what was expected`` and exit code 2 before anything runs. Scripts themselves
run only in worker processes.
"""
from __future__ import annotations

import argparse
import os
import sys

from .argtypes import NON_NEGATIVE_INT, POSITIVE_INT, POSITIVE_SECONDS, number
from .errors import ScriptError, UsageError


def _default_device() -> str:
    try:
        import torch
        return "cuda" if torch.cuda.is_available() else "cpu"
    except Exception:
        return "cpu"


def _add_run_options(p: argparse.ArgumentParser, plans_memory: bool = True) -> None:
    """The options every command that runs scripts shares; one default backend for all of them.
    ``plans_memory``: False for a command that plans no memory (``fuzz``: its ``--max-memory`` is
    kept out of its help and refused, ``cmd_fuzz``)."""
    from .backends import help_text, names
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
    from .argtypes import key_values
    try:
        return key_values(items)
    except ValueError as e:
        raise UsageError(f"--inductor-config: {e}") from None


def _size(text: str) -> int:
    from .oracle.memory import parse_size
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


def _resolve_jobs(args) -> None:
    """``--jobs auto`` becomes a number once the device is known; not given, 1. What was given is
    kept as ``jobs_given`` (with ``--ray`` it counts actors, and not given means the cluster's)."""
    if not hasattr(args, "jobs"):
        return
    args.jobs_given = args.jobs
    if args.jobs is None:
        args.jobs = 1
    elif args.jobs == "auto":
        from .oracle.pool import auto_jobs
        args.jobs = auto_jobs(args.device or _default_device())


_RAY_ADDRESS = r"(auto|local|ray://\S+|[\w.\-\[\]:]+:\d+)"


def _add_ray_options(p: argparse.ArgumentParser, what: str) -> None:
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


def _ray_options(args, device: str):
    """The ``RayOptions`` of ``--ray`` and its companions (None without ``--ray``)."""
    import re
    if args.ray is None:
        return None
    if args.ray and not re.fullmatch(_RAY_ADDRESS, args.ray):
        raise UsageError(f"--ray: expected an address (auto, HOST:PORT, ray://HOST:PORT, local), got {args.ray!r}")
    from .cluster import RayOptions
    from .cluster.runner import import_ray
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
    from .backends import get, resolve
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


def _property(args, backend: str):
    """The property the flags ask for (None: the default), refused (exit 2, before any run)
    where a flag cannot be judged on ``backend`` (``--kernels`` where no segments are reported)."""
    from .backends import get
    from .oracle.property import Property
    try:
        prop = Property.from_args(args)
    except ValueError as e:
        raise UsageError(str(e)) from None
    why = prop.unsupported_on(get(backend)) if prop is not None else None
    if why is not None:
        raise UsageError(why)
    return prop


def _context(args, seed: int | None = None):
    """The run context of this command, built once from its arguments: backend and device
    (refused here when this machine cannot run them), workers, timeout, torch seed, the options
    of every run (``--inductor-config``), the memory it may plan with, quiet, the command line.
    ``seed``: the torch seed where the command's ``--seed`` means something else (a campaign's)."""
    from .backends import RunOptions
    from .oracle.context import RunContext
    backend, device = _backend(args)
    cfg = _inductor_config(getattr(args, "inductor_config", None) or [])
    return RunContext(backend=backend, device=device, jobs=args.jobs, timeout=args.timeout,
                      seed=args.seed if seed is None else seed,
                      options=RunOptions(inductor_config=tuple(sorted(cfg.items()))),
                      max_memory=getattr(args, "max_memory", None), quiet=bool(getattr(args, "quiet", False)),
                      command=_command_line(getattr(args, "argv", sys.argv[1:])))


def _add_check(sub) -> None:
    """fmin check: scripts in, a row each."""
    from .oracle.property import Property
    c = sub.add_parser("check", help=_HELP["check"])
    c.add_argument("scripts", nargs="*", metavar="SCRIPT")   # at least one (``--ray a.py`` may have taken it)
    _add_run_options(c)
    c.add_argument("--json", action="store_true", help="one JSON object per script and line")
    _add_ray_options(c, "run the scripts")
    Property.add_arguments(c)


def _add_reduce(sub) -> None:
    """fmin reduce (also: fmin SCRIPT)."""
    from .oracle.property import Property
    r = sub.add_parser("reduce", help=_HELP["reduce"])
    r.add_argument("script", metavar="SCRIPT")
    _add_run_options(r)
    Property.add_arguments(r)
    r.add_argument("--out", metavar="DIR", help="output directory (default: SCRIPT without .py, plus .fmin)")
    r.add_argument("--replays", type=POSITIVE_INT, default=3, help="runs of the original (and of the result) to detect "
                                                           "flakiness (default 3)")
    r.add_argument("--max-tests", type=NON_NEGATIVE_INT, default=None, help="stop after this many oracle calls")
    r.add_argument("--max-time", type=POSITIVE_SECONDS, default=None, help="stop after this many seconds (best so far kept)")
    r.add_argument("--no-resume", action="store_true", help="start from the original even if DIR holds a "
                                                            "best-so-far of the same reduction")
    r.add_argument("--allow-degenerate", action="store_true",
                   help="let candidates have zero-element, 0-d or all-broadcast tensors the original did not have, "
                        "and shrink extents to 1 (by default a reduction keeps them out: nvFuser gives such tensors "
                        "segments of their own)")
    r.add_argument("--keep-frontend", action="store_true",
                   help="reduce a legacy `nvfuser` script as written even where nvFuser has only nvfuser_direct "
                        "(by default fmin reduces its `fmin upgrade` translation there)")
    r.add_argument("-q", "--quiet", action="store_true", help="no status line")


def _add_isolate(sub) -> None:
    """fmin isolate GOOD BAD."""
    i = sub.add_parser("isolate", help=_HELP["isolate"])
    i.add_argument("good", metavar="GOOD")
    i.add_argument("bad", metavar="BAD")
    _add_run_options(i)
    i.add_argument("--out", metavar="DIR", help="where to write isolate.md/isolate.json (default: BAD without "
                                                ".py, plus .isolate)")
    i.add_argument("--max-tests", type=POSITIVE_INT, default=200, help="oracle calls per direction (default 200)")
    i.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def _out_dir(path: str, flag: str) -> None:
    """``path`` must be usable as the output directory of ``flag``: checked before anything runs
    (a command that finds out after its runs loses them)."""
    from .outdir import check_out_dir
    try:
        check_out_dir(path, flag)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _out_file(path: str | None, flag: str) -> None:
    """``path`` (when given) must be writable as the file of ``flag``: checked before anything runs."""
    from .outdir import check_out_file
    if path is None:
        return
    try:
        check_out_file(path, flag)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _add_fuzz(sub) -> None:
    """fmin fuzz: a campaign (or --replay, --recheck)."""
    from .fuzz.campaign.options import DEFAULT_CORPUS
    z = sub.add_parser("fuzz", help=_HELP["fuzz"])
    _add_run_options(z, plans_memory=False)
    z.add_argument("--time", type=POSITIVE_SECONDS, default=None, metavar="S", help="seconds of generating and judging, "
                   "counted once the workers have started (minimizing new findings comes after)")
    z.add_argument("--max-examples", type=NON_NEGATIVE_INT, default=None, metavar="N", help="programs to run (default 100 "
                   "when --time is not given)")
    z.add_argument("--shard", default="0/1", metavar="I/N", help="run the I-th of N disjoint shares of the "
                   "campaign (a CI matrix; merge the corpora with fmin merge-findings)")
    z.add_argument("--corpus", default=None, metavar="DIR", help=f"findings corpus (default {DEFAULT_CORPUS}, in the "
                   "working directory)")
    z.add_argument("--junit", metavar="FILE", help="JUnit XML: one test per bucket hit, a new bucket fails")
    z.add_argument("--summary", metavar="FILE", help="the campaign summary as JSON")
    z.add_argument("--frontend", choices=["nvfuser", "nvfuser_direct"], default=None,
                   help="generate for one frontend only (default: both; on nvfuser, only nvfuser_direct when the "
                        "legacy nvfuser module is not installed)")
    z.add_argument("--max-ops", type=POSITIVE_INT, default=12, help="ops per program at most (default 12)")
    z.add_argument("--seeds", nargs="+", metavar="DIR", default=None,
                   help="seeded fuzzing: each program is a fusion read from these folders' scripts (every form fmin "
                        "reads), changed by a few mutations (docs/fuzz.md 'Seeded fuzzing'); --replay needs them too")
    z.add_argument("--feedback", action="store_true",
                   help="with --seeds: a mutant whose run shows a compiler decision no earlier program showed "
                        "(another scheduler, merge-rejection reason, segment count) joins a queue that later "
                        "programs are mutated from (docs/fuzz.md 'Feedback'); what it learned is kept in the "
                        "corpus (DIR/feedback.json), and the next campaign on it starts from there")
    z.add_argument("--feedback-from", metavar="DIR", default=None,
                   help="with --feedback: start from what the campaigns of this findings corpus learned instead of "
                        "--corpus's own (a CI shard writes into an empty corpus but starts from the known bugs'); "
                        "what this campaign learns still goes to --corpus")
    from .fuzz.judging.oracles import names as oracle_names
    z.add_argument("--oracles", default=",".join(oracle_names()),
                   help=f"comma-separated subset of {','.join(oracle_names())}")
    z.add_argument("--no-minimize", action="store_true", help="store new findings without reducing them")
    z.add_argument("--minimize-time", type=POSITIVE_SECONDS, default=300.0, metavar="S",
                   help="seconds of reduction per new finding (default 300)")
    z.add_argument("--minimize-budget", type=POSITIVE_SECONDS, default=None, metavar="S",
                   help="seconds for all reductions of this campaign together (default: no limit); buckets "
                        "left unminimized are minimized by a later campaign on the same corpus")
    _add_fuzz_modes(z)


def _add_fuzz_modes(z) -> None:
    """What a campaign exits on, and the modes that are not a campaign (replay, recheck, Ray, resume)."""
    z.add_argument("--fail-on", choices=["new", "fmin", "never"], default="new",
                   help="exit 1 on any new finding (default), only on new findings in fmin's own code "
                        "(what CI on the CPU backends wants), or never")
    z.add_argument("--replay", metavar="ID", help="regenerate the program of example ID (SEED.CHUNK.INDEX, or a --feedback chain ID+ID+..., "
                   "from finding.json), print it and judge it; no campaign. Give the campaign's --frontend and "
                   "--max-ops (finding.json: generator)")
    z.add_argument("--recheck", action="store_true", help="no campaign: replay every bucket of the backend in "
                   "--corpus under its property (its minimal repro, else its original) and record which still "
                   "reproduce; those that do not are marked stale (after an nvFuser upgrade: the fixed ones); --summary writes "
                   "the rows as JSON")
    _add_ray_options(z, "judge the programs (and reduce the new buckets, or --recheck them)")
    z.add_argument("--resume", dest="resume", action="store_true", default=None,
                   help="record which examples were judged (DIR/campaign-BACKEND-DEVICE-SEED-IofN.jsonl) and skip "
                        "those a killed run already judged (the default with --ray)")
    z.add_argument("--no-resume", dest="resume", action="store_false",
                   help="judge every example again, starting the record over")
    z.add_argument("-q", "--quiet", action="store_true", help="no progress line")



def _add_merge(sub) -> None:
    """fmin merge-findings."""
    m = sub.add_parser("merge-findings", help=_HELP["merge-findings"])
    m.add_argument("sources", nargs="*", metavar="DIR")
    m.add_argument("--into", required=True, metavar="DIR")


def _add_new_bugs(sub) -> None:
    """fmin new-bugs KNOWN AFTER: the nightly CI gate."""
    g = sub.add_parser("new-bugs", help=_HELP["new-bugs"])
    g.add_argument("known", metavar="KNOWN", help="the findings corpus before the campaign (a copy)")
    g.add_argument("after", metavar="AFTER", help="the same corpus after the shards were merged into it")
    g.add_argument("--junit", metavar="FILE", help="JUnit XML: one test per Bugs row of AFTER, a new one fails")


def _add_upgrade(sub) -> None:
    """fmin upgrade."""
    u = sub.add_parser("upgrade", help=_HELP["upgrade"])
    u.add_argument("script", metavar="SCRIPT")
    u.add_argument("--to", choices=["nvfuser", "nvfuser_direct"], default="nvfuser_direct",
                   help="the frontend to write for: nvfuser_direct (default; nvFuser 0.2.36 and later have only "
                        "this one) or the legacy nvfuser")
    u.add_argument("-o", "--output", help="where to write (default: standard output); never the input file")


#: each command's line in ``fmin --help``, here rather than in its ``_add_*`` so that the top-level
#: help lists every command without building their options (which ask the registries, and so
#: import torch: seconds)
_HELP = {
    "check": "run scripts and report status, outputs and errors",
    "reduce": "reduce a script to a 1-minimal one that still shows the property (also: fmin SCRIPT)",
    "isolate": "which differences between a GOOD and a BAD script explain their different outcomes (delta "
               "debugging over the aligned differences)",
    "fuzz": "generate fusions with Hypothesis, run them through failure, differential and metamorphic oracles, "
            "and minimize each new finding into the corpus",
    "merge-findings": "merge findings corpora (e.g. a CI matrix's shards) into one, re-keyed with today's rules (a "
                      "bucket per root cause); `--into DIR` alone re-keys DIR in place",
    "new-bugs": "the CI gate: list the rows of AFTER's bug list (its Bugs section) whose root cause KNOWN's does "
                "not have; exit 1 when there is one",
    "upgrade": "re-emit a script for today's nvFuser frontend",
}
_ADD = {"check": _add_check, "reduce": _add_reduce, "isolate": _add_isolate, "fuzz": _add_fuzz,
        "merge-findings": _add_merge, "new-bugs": _add_new_bugs, "upgrade": _add_upgrade}
_COMMANDS = tuple(_ADD)


def version() -> str:
    """fmin's version: the installed distribution's, else the package's own ``__version__``."""
    try:
        from importlib.metadata import PackageNotFoundError, version as dist_version
        return dist_version("fmin")
    except (ImportError, PackageNotFoundError):
        from . import __version__
        return __version__


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only``, every command is listed but only that one has its options
    (what ``main`` builds: parsing then costs only what the command given needs)."""
    ap = argparse.ArgumentParser(prog="fmin", description="nvFuser repro minimizer and fuzzer")
    ap.add_argument("-V", "--version", action="version", version=f"fmin {version()}")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")
    for name, add in _ADD.items():
        if only is None or only == name:
            add(sub)
        else:
            sub.add_parser(name, help=_HELP[name])
    return ap


def main(argv: list[str] | None = None) -> int:
    """``_main`` with Ctrl-C and SIGTERM handled so that they cannot be lost (``interrupt``): a
    campaign writes its summary and bug list of what it did, a reduction its best so far, and the
    workers are stopped, instead of the process vanishing with nothing written. An interrupt
    that comes before or after the command's own handling (importing torch to build the parser
    takes seconds on a loaded machine) also ends with exit 130, not a traceback."""
    from .interrupt import handled
    try:
        with handled():
            return _main(argv)
    except KeyboardInterrupt:
        print("fmin: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str] | None) -> int:
    from . import commandline
    typed = list(sys.argv[1:] if argv is None else argv)
    argv = commandline.routed(typed, _COMMANDS)   # ``fmin [OPTIONS] repro.py`` is ``fmin reduce ...``
    try:   # only the command given has its options (``fmin --help``, ``--version``: none)
        commandline.check_scripts(argv, typed, _COMMANDS)   # a missing script: said before torch is imported
        ap = build_parser(argv[0] if argv and argv[0] in _COMMANDS else "")
    except UsageError as e:   # the registries import FMIN_PLUGINS' modules
        print(f"fmin: {e}", file=sys.stderr)
        return 2
    args = ap.parse_args(argv)
    args.argv = typed
    if args.cmd is None:
        ap.print_help()
        return 2
    try:
        _resolve_jobs(args)
        if args.cmd == "check":
            return cmd_check(args)
        if args.cmd == "upgrade":
            return cmd_upgrade(args)
        if args.cmd == "reduce":
            return cmd_reduce(args)
        if args.cmd == "isolate":
            return cmd_isolate(args)
        if args.cmd == "fuzz":
            return cmd_fuzz(args)
        if args.cmd == "merge-findings":
            return cmd_merge(args)
        if args.cmd == "new-bugs":
            return cmd_new_bugs(args)
    except ScriptError as e:
        print(f"fmin: {e}", file=sys.stderr)
        return 2
    except UsageError as e:
        print(f"fmin: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fmin: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:   # the reader went away (``fmin check ... | head``): nothing left to say
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except OSError as e:   # a path fmin cannot write or read (an --out under /proc, a full disk)
        where = f"{e.filename}: " if getattr(e, "filename", None) else ""
        print(f"fmin: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    return 2


def _read(path: str):
    from .program import parse_file
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    return parse_file(path)


def cmd_check(args) -> int:
    """Rows as scripts finish (see ``check.py``), each with its category (``fusion``: what fmin
    reduces; ``script``: the script's own code fails; ``environment``: this machine cannot run
    it). Exit 0 when every script ran ``ok`` (with property flags: when the property holds for
    every one), 1 otherwise; 2 for a script fmin cannot read, or (without property flags) one
    whose failure is the script's or the machine's. ``--ray``: the scripts run on a cluster."""
    import re
    from .check import Table, check_scripts, row_json, unreadable_json
    from .oracle.triage import ENVIRONMENT, SCRIPT
    if args.ray and not re.fullmatch(_RAY_ADDRESS, args.ray) and os.path.exists(args.ray):
        args.scripts.insert(0, args.ray)   # ``--ray a.py b.py``: a script, not an address
        args.ray = ""
    if not args.scripts:
        raise UsageError("check: the following arguments are required: SCRIPT")
    ctx = _context(args)
    ray_opt = _ray_options(args, ctx.device)
    prop = _property(args, ctx.backend)
    paths, refused, run_ctx, unreadable = _check_plan(args, ctx, prop)
    if args.json:   # every script asked about has a row, the unreadable ones first
        for path, why in unreadable:
            print(unreadable_json(path, why, ctx.device, ctx.backend), flush=True)
    table = None if args.json else Table(prop, lambda line: print(line, flush=True))
    failed = failing = unjudgeable = 0
    rows = check_scripts(paths, run_ctx, prop, refused=refused,
                         on_start=_check_start(ctx, ray_opt, len(paths) - len(refused), quiet=args.json),
                         runner=_check_runner(ctx, ray_opt))
    for n, row in enumerate(rows):
        if n == 0 and table is not None:
            table.header()
        failed += row.outcome.status != "ok"
        failing += row.verdict is not None and not row.verdict.holds
        unjudgeable += row.category in (SCRIPT, ENVIRONMENT)
        if table is not None:
            table.row(row)
        else:
            print(row_json(row, ctx.device, prop), flush=True)
    if unreadable or (unjudgeable and prop is None):   # with property flags, the property is the verdict
        return 2
    if prop is not None:
        return 1 if failing else 0
    return 1 if failed else 0


def _check_plan(args, ctx, prop):
    """Which scripts ``check`` runs: those fmin can read (the others are reported on stderr and
    returned as (path, why)), with those that do not fit in memory refused with a reason; and the
    context they run in (``--jobs`` fitted to memory). With ``--ray`` the actors' machines, not
    this one, run them."""
    unreadable, read = [], []
    for path in args.scripts:
        try:
            read.append((path, _read(path), None))  # static check first: a script fmin cannot read is not run
        except (ScriptError, UsageError) as e:
            print(f"fmin: {e}", file=sys.stderr)
            unreadable.append((path, str(e)))
    paths = [path for path, _, _ in read]
    if args.ray is not None:
        return paths, {}, ctx, unreadable
    fit = ctx.fit_memory(read, prop)
    return paths, fit.refused, fit.ctx, unreadable


def _check_runner(ctx, ray_opt):
    """Where ``check`` runs its scripts: here (None), or a Ray runner of ``n`` actors."""
    if ray_opt is None:
        return None
    from .cluster import RayRunner
    from .fuzz.campaign.options import CampaignOptions
    copt = CampaignOptions(ctx=ctx)
    return lambda n: RayRunner(copt, ray_opt, max_actors=n)


def _check_start(ctx, ray_opt, n_scripts: int, quiet: bool):
    from .progress import ProgressLine
    status = ProgressLine(quiet)

    def start(n: int) -> None:
        if ray_opt is None:
            from .backends import get as get_backend
            status.starting(get_backend(ctx.backend), ctx.device, n)
        else:
            status.note(f"fmin: running {n_scripts} script(s) on Ray actors ({ctx.backend} on {ctx.device}; "
                        "each actor starts its own workers)")
    return start


def cmd_reduce(args) -> int:
    from .oracle.original import Original
    from .reduce.reduction import PropertyDoesNotHold, ReduceOptions, Refused, reduce_script
    program = _read(args.script)  # a script fmin cannot read stops here, before any worker starts
    ctx = _context(args)
    prop = _property(args, ctx.backend)
    opt = ReduceOptions(out=args.out, replays=args.replays, max_tests=args.max_tests, max_seconds=args.max_time,
                        resume=not args.no_resume, allow_degenerate=args.allow_degenerate,
                        keep_frontend=args.keep_frontend)
    try:
        original = Original.parsed(args.script, program, backend=ctx.backend, keep_frontend=opt.keep_frontend)
        rep = reduce_script(args.script, prop, ctx, opt, original=original)
    except Refused as e:
        print(f"fmin: {args.script}: {e}\nfmin: nothing reduced, nothing written: fmin reduces failures of the "
              f"fusion, not of the script or the machine", file=sys.stderr)
        return 2
    except PropertyDoesNotHold as e:
        print(f"fmin: {args.script}: {e}", file=sys.stderr)
        return 1
    except ValueError as e:
        raise UsageError(str(e)) from None
    print(f"{args.script}: ops {rep['ops_before']} -> {rep['ops_after']}, inputs {rep['inputs_before']} -> "
          f"{rep['inputs_after']}, outputs {rep['outputs_before']} -> {rep['outputs_after']}, "
          f"{rep['oracle_calls']} oracle calls ({rep['cache_hits']} cached), {rep['seconds']} s")
    from .report import replays_words
    print(f"property: {rep['property']}   replays: {replays_words(rep['replays'])}")
    if rep.get("static_error"):
        print(f"note: fmin's reference rejects the original at {rep['static_error']}; reduced without fmin's "
              f"static filter")
    _wrote(rep)
    if rep.get("verified") is False:
        print(f"fmin: warning: the minimized script did not show the property when re-run "
              f"({rep['replays'].get('minimized')}); see the report's outcome table", file=sys.stderr)
        return 1
    return 130 if rep["interrupted"] else 0


def _wrote(rep: dict) -> None:
    """What a reduction wrote; an interrupted one says that its result is partial and how to go on
    (the same command resumes from the best so far, which DIR keeps with its state)."""
    files = f"{os.path.join(rep['out_dir'], 'repro.min.py')}, report.md, report.json"
    if not rep["interrupted"]:
        print(f"wrote {files}")
        return
    print(f"interrupted: wrote the best result so far (not yet 1-minimal) to {files}")
    print("to resume from it, run the same command again (--no-resume starts over)")


def cmd_isolate(args) -> int:
    from .isolate import IsolateError, isolate, summary_lines, write
    _read(args.good)
    _read(args.bad)
    out = args.out or os.path.splitext(args.bad)[0] + ".isolate"
    _out_dir(out, "--out")
    ctx = _context(args)
    try:
        d = isolate(args.good, args.bad, ctx, max_tests=args.max_tests)
    except IsolateError as e:
        raise UsageError(f"{args.good} vs {args.bad}: {e}") from None
    write(d, out)
    for line in summary_lines(d):
        print(line)
    print(f"wrote {os.path.join(out, 'isolate.md')}, isolate.json")
    return 1 if d["same_outcome"] else 0


def _shard(text: str) -> tuple[int, int]:
    import re
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m or int(m.group(2)) < 1 or int(m.group(1)) >= int(m.group(2)):
        raise UsageError(f"--shard: expected I/N with 0 <= I < N (e.g. 0/4), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def selected_oracles(text: str) -> tuple[str, ...]:
    """``--oracles``: the registered fuzz oracles it names (UsageError for another name)."""
    from .fuzz.judging.oracles import names
    oracles = tuple(o.strip() for o in text.split(",") if o.strip())
    if not oracles or any(o not in names() for o in oracles):
        raise UsageError(f"--oracles: expected a comma-separated subset of {','.join(names())}, got {text!r}")
    return oracles


def cmd_fuzz(args) -> int:
    from .fuzz.campaign.options import DEFAULT_CORPUS, CampaignOptions, default_frontend
    from .fuzz.campaign.run import Interrupted, run_campaign
    from .fuzz.campaign.summary import summary_lines
    if args.max_memory is not None:   # nothing to fit: a campaign's programs are drawn as it runs
        raise UsageError("fuzz: --max-memory is for check, reduce and isolate: a campaign draws its programs as it "
                         "runs, so there is no script to plan memory for; lower --jobs instead")
    oracles = selected_oracles(args.oracles)
    given_corpus = args.corpus is not None
    args.corpus = args.corpus or DEFAULT_CORPUS
    if not args.replay:   # where it writes, before anything runs
        _out_dir(args.corpus, "--corpus")
        _out_file(args.junit, "--junit")
        _out_file(args.summary, "--summary")
    ctx = _context(args, seed=0)   # --seed chooses the programs; every run's torch seed is 0
    ray_opt = _ray_options(args, ctx.device)
    if args.frontend is None and (args.seeds or not args.replay):
        args.frontend = default_frontend(ctx.backend)
    if args.feedback and not args.seeds:
        raise UsageError("--feedback: needs --seeds (the queue holds mutated seeds)")
    if args.feedback_from is not None and not args.feedback:
        raise UsageError("--feedback-from: needs --feedback (it names where the feedback starts from)")
    args.capability = _capability(ctx) if args.seeds else None
    if args.seeds:
        _load_seeds(args)
    if args.replay:
        return _replay(args, ctx, oracles)
    max_examples = args.max_examples if (args.max_examples is not None or args.time) else 100
    opt = CampaignOptions(ctx=ctx, seconds=args.time, max_examples=max_examples,
                          seed=args.seed, shard=_shard(args.shard), corpus=args.corpus,
                          junit=args.junit, summary=args.summary, frontend=args.frontend, max_ops=args.max_ops,
                          oracles=oracles, minimize=not args.no_minimize, minimize_seconds=args.minimize_time,
                          minimize_budget=args.minimize_budget, seeds=tuple(args.seeds or ()), feedback=args.feedback,
                          feedback_from=args.feedback_from, capability=args.capability,
                          resume=True if ray_opt is not None and args.resume is None else args.resume)
    if args.recheck:
        return _recheck(opt, ray_opt)
    if not os.path.isdir(opt.corpus) and not args.quiet:
        print(f"fmin: findings go to {opt.corpus}/ (a new directory" + ("" if given_corpus else
              "; --corpus DIR to choose another") + ")", file=sys.stderr)
    try:
        if ray_opt is not None:
            from . import cluster
            s = cluster.run_campaign(opt, ray_opt)
        else:
            s = run_campaign(opt)
    except Interrupted as stopped:   # what it did before Ctrl-C is worth the same table
        for line in summary_lines(stopped.summary):
            print(line)
        raise
    for line in summary_lines(s):
        print(line)
    return fuzz_exit_code(args.fail_on, s.new)


def fuzz_exit_code(fail_on: str, new: list) -> int:
    """A campaign's exit status under ``--fail-on``: 1 when a new bucket is one it fails on — any
    (``new``), only fmin's own (``fmin``: CI, where a compiler's bug is not a failure of fmin),
    none (``never``) — else 0."""
    if fail_on == "never":
        return 0
    return 1 if any(fail_on == "new" or n.bucket.owner == "fmin" for n in new) else 0


def _load_seeds(args) -> None:
    """``--seeds``: a missing folder or no readable seed is a usage error; each unreadable seed
    is reported once (``file:line:col: why``) and left out, an nvFuser checkout's as one block
    (its fusion functions found, read, left out by reason)."""
    from .fuzz.sources import seeded
    got = seeded.load(args.seeds, args.frontend, args.capability)
    for report in got.harvests:   # an nvFuser checkout's fusions: one block, by reason
        print(report.block(), file=sys.stderr)
    if got.set_aside:
        need = max(got.set_aside.values())
        print(f"fmin: {len(got.set_aside)} seed(s) set aside: their nvFuser tests skip GPUs below compute capability "
              f"{need[0]}.{need[1]} (this GPU: {args.capability[0]}.{args.capability[1]})", file=sys.stderr)
    for line in got.unreadable:
        if not any(line.startswith(r.checkout + os.sep) for r in got.harvests):
            print(f"fmin: seed left out: {line}", file=sys.stderr)
    if not got.seeds:
        raise UsageError(f"--seeds {' '.join(args.seeds)}: no seed fmin can read and check")


def _capability(ctx) -> tuple[int, int] | None:
    """The compute capability of the GPU the campaign runs on (None: a CPU device, no GPU, or
    ``nvidia-smi`` cannot tell): the seeds of tests that need a newer one are set aside."""
    from .oracle.machine import compute_capability
    return compute_capability(ctx.device or "")


def _recheck(opt, ray_opt=None) -> int:
    from .fuzz.campaign.recheck import recheck
    if not os.path.isdir(opt.corpus):
        raise UsageError(f"--corpus {opt.corpus}: no such directory")
    if ray_opt is not None:
        from . import cluster
        rows = cluster.recheck(opt, ray_opt)
    else:
        rows = recheck(opt)
    if opt.summary:
        import json
        with open(opt.summary, "w", encoding="utf-8") as f:
            json.dump({"backend": opt.ctx.backend, "device": opt.ctx.device, "corpus": opt.corpus, "buckets": rows},
                      f, indent=1)
    if not rows:
        print(f"no {opt.ctx.backend} buckets in {opt.corpus}")
        return 0
    print("| bucket | script | reproduces | reason | repro.min.py standalone |\n|---|---|---|---|---|")
    for r in rows:
        rep = {True: "yes", False: "**no** (stale)", None: "not rechecked"}[r["reproduces"]]
        rep += f", re-keyed: {r['rekeyed']}".replace("|", "\\|") if r.get("rekeyed") else ""
        why = r["reason"].replace("|", "\\|").replace("\n", " ")
        alone = {True: "yes", False: "**no**", None: "not run"}[r.get("standalone")]
        if r.get("standalone") is not True and r.get("standalone_why"):
            alone += ": " + r["standalone_why"].replace("|", "\\|").replace("\n", " ")[:120]
        print(f"| {r['id']} | {r['script']} | {rep} | {why[:160]} | {alone} |")
    n = sum(r["reproduces"] is False for r in rows)
    shown = sum(r.get("standalone") is True for r in rows)
    left = sum(r["reproduces"] is None for r in rows)
    moved = sum(bool(r.get("rekeyed")) for r in rows)
    print(f"{len(rows)} bucket(s) rechecked on {opt.ctx.backend}: {len(rows) - n - left} reproduce, {n} stale, "
          f"{moved} re-keyed on another bug, {left} not rechecked; "
          f"{shown} shown by repro.min.py run standalone; bug list {os.path.join(opt.corpus, 'report.md')}")
    return 0


def _replay(args, ctx, oracles) -> int:
    from .fuzz.sources import generate
    from .fuzz.judging.oracles import run_oracles
    from .program import to_source
    try:
        if args.seeds:
            from .fuzz.sources import seedqueue
            e = seedqueue.program_for(args.replay, args.seeds, frontend=args.frontend, capability=args.capability)
            prog = e.program
            print(f"# seed {e.seed_file}, mutations: {', '.join(e.mutations) or 'none'}")
            for link, names in seedqueue.chain_of(e)[1:] if isinstance(e, seedqueue.DerivedExample) else ():
                print(f"#   queue-derived in slot {link}: {', '.join(names)}")
        else:
            prog = generate.program_for(args.replay, frontend=args.frontend, max_ops=args.max_ops)
    except ValueError as e:
        raise UsageError(str(e)) from None
    text = to_source(prog)
    sys.stdout.write(text)
    with ctx.judging_pools(jobs=1) as (pool, ref):
        j = run_oracles(prog, text, f"fuzz_{args.replay.replace('.', '_')}.py", pool, ref, backend=ctx.backend,
                         oracles=oracles, seed=ctx.seed, example_seed=generate.example_seed(args.replay))
    o = j.outcome
    print(f"# {args.replay} on {ctx.backend}: {o.status}" + (f" `{o.signature}`" if not o.ok else
                                                         f", {o.segments} segments" if o.segments is not None else ""))
    for f in j.findings:
        print(f"# finding [{f.owner}] {f.kind}: {f.words}")
    if not j.findings:
        print("# no finding")
    return 1 if j.findings else 0


def cmd_merge(args) -> int:
    from .fuzz.judging.today import merge
    from .fuzz.store.store import bucket_id
    for d in args.sources:
        if not os.path.isdir(d):
            raise UsageError(f"{d}: no such directory")
    from .fuzz.buglist import page as buglist
    _out_dir(args.into, "--into")
    r = merge(args.sources, args.into)
    k = r["rekey"]
    learned = f"; what the feedback campaigns of {r['learned']} source(s) learned added" if r.get("learned") else ""
    print(f"merged into {args.into}: {r['new']} new bucket(s), {r['merged']} known bucket(s) updated{learned}; re-keyed: "
          f"{k['buckets_before']} -> {k['buckets_after']} bucket(s), {k['merged']} merged into another, "
          f"{k['moved']} moved to a new key")
    for key, ids in sorted(k["groups"].items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"  {len(ids)} -> {k.get('ids', {}).get(key) or bucket_id(key)}: {key}")
        print(f"       from {' '.join(ids)}")
    print(f"bug list: {buglist.write(args.into)}")
    return 0


def cmd_new_bugs(args) -> int:
    """The gate of a nightly campaign (``fuzz.buglist.gate``): exit 1 on a new Bugs row, else 0."""
    from .fuzz.buglist import gate
    for d in (args.known, args.after):
        if not os.path.isdir(d):
            raise UsageError(f"{d}: no such directory")
    _out_file(args.junit, "--junit")
    new, lines = gate.report(args.known, args.after, args.junit)
    print("\n".join(lines))
    return 1 if new else 0


def cmd_upgrade(args) -> int:
    from .upgrade import upgrade
    from .program.printer import to_source
    prog = _read(args.script)
    new = upgrade(prog, args.to)
    text = to_source(new)
    if args.output:
        if os.path.exists(args.output) and os.path.samefile(args.output, args.script):
            raise UsageError(f"{args.output}: refusing to write over the input script; choose another -o")
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
