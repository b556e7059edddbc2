"""``fmin reduce`` and ``fmin isolate``: the commands that shrink one failing script.

``reduce`` keeps a script's property while it removes what it can; ``isolate`` finds which of a
GOOD and a BAD script's differences explain their outcomes. Both write their result to a folder.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..argtypes import NON_NEGATIVE_INT, POSITIVE_INT, POSITIVE_SECONDS
from ..errors import UsageError
from .options import add_run_options, asked_property, run_context
from .paths import read_script, require_out_dir


def add_reduce(r: argparse.ArgumentParser) -> None:
    """fmin reduce (also: fmin SCRIPT)."""
    from ..oracle.property import Property
    r.add_argument("script", metavar="SCRIPT")
    add_run_options(r)
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


def add_isolate(i: argparse.ArgumentParser) -> None:
    """fmin isolate GOOD BAD."""
    i.add_argument("good", metavar="GOOD")
    i.add_argument("bad", metavar="BAD")
    add_run_options(i)
    i.add_argument("--out", metavar="DIR", help="where to write isolate.md/isolate.json (default: BAD without "
                                                ".py, plus .isolate)")
    i.add_argument("--max-tests", type=POSITIVE_INT, default=200, help="oracle calls per direction (default 200)")
    i.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def cmd_reduce(args) -> int:
    from ..oracle.original import Original
    from ..reduce.reduction import PropertyDoesNotHold, ReduceOptions, Refused, reduce_script
    program = read_script(args.script)  # a script fmin cannot read stops here, before any worker starts
    ctx = run_context(args)
    prop = asked_property(args, ctx.backend)
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
    from ..report import replays_words
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
    from ..isolate import IsolateError, isolate, summary_lines, write
    read_script(args.good)
    read_script(args.bad)
    out = args.out or os.path.splitext(args.bad)[0] + ".isolate"
    require_out_dir(out, "--out")
    ctx = run_context(args)
    try:
        d = isolate(args.good, args.bad, ctx, max_tests=args.max_tests)
    except IsolateError as e:
        raise UsageError(f"{args.good} vs {args.bad}: {e}") from None
    write(d, out)
    for line in summary_lines(d):
        print(line)
    print(f"wrote {os.path.join(out, 'isolate.md')}, isolate.json")
    return 1 if d["same_outcome"] else 0
