"""The ``fmin`` command line.

Every subcommand reads scripts through the parser first, so a script fmin cannot read stops with
``file:line:col: what was expected`` and exit code 2 before anything runs. Scripts themselves
run only in worker processes.

This module builds the parser and hands the parsed arguments to the command's module: ``check``,
``reduce`` (reduce and isolate), ``fuzz``, ``corpus`` (merge-findings and new-bugs), ``upgrade``;
the options the commands running scripts share are in ``options``, the paths they read and
write are checked in ``paths``.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..errors import ScriptError, UsageError
from . import check, corpus, fuzz, reduce, upgrade
from .options import resolve_jobs

#: each command's line in ``fmin --help``, here rather than with its options (``add_*``) so that the
#: top-level help lists every command without building their options (which ask the registries, and so
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
#: each command's options, added to its subparser only where it is the command given (``build_parser``)
_ADD = {"check": check.add_check, "reduce": reduce.add_reduce, "isolate": reduce.add_isolate, "fuzz": fuzz.add_fuzz,
        "merge-findings": corpus.add_merge, "new-bugs": corpus.add_new_bugs, "upgrade": upgrade.add_upgrade}
_COMMANDS = tuple(_ADD)
#: each command's body: its module and the function's name there
_RUN = {"check": (check, "cmd_check"), "reduce": (reduce, "cmd_reduce"), "isolate": (reduce, "cmd_isolate"),
        "fuzz": (fuzz, "cmd_fuzz"), "merge-findings": (corpus, "cmd_merge"), "new-bugs": (corpus, "cmd_new_bugs"),
        "upgrade": (upgrade, "cmd_upgrade")}


def version() -> str:
    """fmin's version: the installed distribution's, else the package's own ``__version__``."""
    try:
        from importlib.metadata import PackageNotFoundError, version as dist_version
        return dist_version("fmin")
    except (ImportError, PackageNotFoundError):
        from .. import __version__
        return __version__


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only``, every command is listed but only that one has its options
    (what ``main`` builds: parsing then costs only what the command given needs)."""
    ap = argparse.ArgumentParser(prog="fmin", description="nvFuser repro minimizer and fuzzer")
    ap.add_argument("-V", "--version", action="version", version=f"fmin {version()}")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")
    for name, add in _ADD.items():
        p = sub.add_parser(name, help=_HELP[name])
        if only is None or only == name:
            add(p)
    return ap


def main(argv: list[str] | None = None) -> int:
    """``_main`` with Ctrl-C and SIGTERM handled so that they cannot be lost (``interrupt``): a
    campaign writes its summary and bug list of what it did, a reduction its best so far, and the
    workers are stopped, instead of the process vanishing with nothing written. An interrupt
    that comes before or after the command's own handling (importing torch to build the parser
    takes seconds on a loaded machine) also ends with exit 130, not a traceback."""
    from ..interrupt import handled
    try:
        with handled():
            return _main(argv)
    except KeyboardInterrupt:
        print("fmin: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str] | None) -> int:
    from .. import commandline
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
        resolve_jobs(args)
        module, function = _RUN[args.cmd]
        return getattr(module, function)(args)   # looked up when called: a test may patch a command
    except (ScriptError, UsageError) as e:
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
