"""``fmin check``: run scripts and report a row each as they finish."""
from __future__ import annotations

import argparse
import os
import sys

from ..errors import ScriptError, UsageError
from .options import RAY_ADDRESS, add_ray_options, add_run_options, asked_property, ray_options, run_context
from .paths import read_script


def add_check(c: argparse.ArgumentParser) -> None:
    """fmin check: scripts in, a row each."""
    from ..oracle.property import Property
    c.add_argument("scripts", nargs="*", metavar="SCRIPT")   # at least one (``--ray a.py`` may have taken it)
    add_run_options(c)
    c.add_argument("--json", action="store_true", help="one JSON object per script and line")
    add_ray_options(c, "run the scripts")
    Property.add_arguments(c)


def cmd_check(args) -> int:
    """Rows as scripts finish (see ``check.py``), each with its category (``fusion``: what fmin
    reduces; ``script``: the script's own code fails; ``environment``: this machine cannot run
    it). Exit 0 when every script ran ``ok`` (with property flags: when the property holds for
    every one), 1 otherwise; 2 for a script fmin cannot read, or (without property flags) one
    whose failure is the script's or the machine's. ``--ray``: the scripts run on a cluster."""
    import re
    from ..check import Table, check_scripts, row_json, unreadable_json
    from ..oracle.triage import ENVIRONMENT, SCRIPT
    if args.ray and not re.fullmatch(RAY_ADDRESS, args.ray) and os.path.exists(args.ray):
        args.scripts.insert(0, args.ray)   # ``--ray a.py b.py``: a script, not an address
        args.ray = ""
    if not args.scripts:
        raise UsageError("check: the following arguments are required: SCRIPT")
    ctx = run_context(args)
    ray_opt = ray_options(args, ctx.device)
    prop = asked_property(args, ctx.backend)
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
            read.append((path, read_script(path), None))  # static check first: a script fmin cannot read is not run
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
    from ..cluster import RayRunner
    from ..fuzz.campaign.options import CampaignOptions
    copt = CampaignOptions(ctx=ctx)
    return lambda n: RayRunner(copt, ray_opt, max_actors=n)


def _check_start(ctx, ray_opt, n_scripts: int, quiet: bool):
    from ..progress import ProgressLine
    status = ProgressLine(quiet)

    def start(n: int) -> None:
        if ray_opt is None:
            from ..backends import get as get_backend
            status.starting(get_backend(ctx.backend), ctx.device, n)
        else:
            status.note(f"fmin: running {n_scripts} script(s) on Ray actors ({ctx.backend} on {ctx.device}; "
                        "each actor starts its own workers)")
    return start
