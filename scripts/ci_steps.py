"""Run a GitHub Actions workflow's steps as written, outside GitHub: the `run:` blocks of the
chosen jobs, in order, with the workflow's, job's and step's `env`, one pass per matrix entry.

    python3 ~/fmin/scripts/ci_steps.py ~/fmin/docs/ci/fmin-fuzz.yml --job shard --job merge --skip-install > steps.sh
    bash steps.sh          # in the root of the repository under test: shards/, reports/, findings/ appear there

`uses:` steps (checkout, cache, artifacts) are left out: run in one directory, the files one job
uploads are already where the next job downloads them, and `findings/` is whatever is there (the
cache's stand-in). Options: `--set KEY=VALUE` overrides an env value (a shorter `FMIN_TIME` for a
trial), `--matrix shard=0,1` runs two shards instead of the matrix's four, `--skip-install` leaves
out the steps named "Install ..." (a machine that has nvFuser already) and runs `fmin` from the
checkout this script is in (``FMIN_ROOT``), whatever directory the steps run in; `--parallel` runs
the matrix entries of a job at once (as runners would) instead of one after another. docs/ci.md says how the workflow's campaign was run this way on a GPU.

The same expansion serves tests/test_ci_workflow.py, which parses every fmin command of the
workflow with fmin's own argument parser: `fmin_commands` is that list.
"""
from __future__ import annotations

import argparse
import itertools
import os
import re
import shlex
import sys

import yaml

#: GitHub context values a run block may use, as a local run stands them in
CONTEXT = {"github.run_number": "1", "github.run_id": "1", "github.event_name": "workflow_dispatch"}
_EXPR = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")
_VAR = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
#: the fmin checkout this script belongs to: the `fmin` of a run with --skip-install
FMIN_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def matrix_entries(job: dict, axes_override: dict | None = None) -> list[dict]:
    """Every combination of the job's matrix (one empty entry when it has none); an axis named in
    ``axes_override`` takes the values given there (two shards instead of four, for a trial)."""
    m = (job.get("strategy") or {}).get("matrix") or {}
    axes = {k: (axes_override or {}).get(k, v) for k, v in m.items() if isinstance(v, list)}
    return [dict(zip(axes, combo)) for combo in itertools.product(*axes.values())] or [{}]


def expand_expressions(text: str, env: dict, matrix: dict, total: int) -> str:
    """``${{ ... }}`` of the forms a run block or env value uses: matrix.X, strategy.job-total,
    env.X and a few github.* values. Anything else is an error: it would run differently here."""
    def one(m: re.Match) -> str:
        e = m.group(1)
        if e.startswith("matrix."):
            return str(matrix[e[len("matrix."):]])
        if e == "strategy.job-total":
            return str(total)
        if e.startswith("env."):
            return str(env[e[len("env."):]])
        if e in CONTEXT:
            return CONTEXT[e]
        raise ValueError(f"expression not supported outside GitHub: ${{{{ {e} }}}}")
    return _EXPR.sub(one, text)


def step_env(wf: dict, job: dict, step: dict, matrix: dict, total: int, overrides: dict) -> dict:
    """The environment a step sees: workflow, then job, then step env, expressions expanded."""
    env: dict = {}
    for scope in (wf.get("env"), job.get("env"), step.get("env")):
        for k, v in (scope or {}).items():
            env[k] = overrides.get(k, expand_expressions(str(v), env, matrix, total))
    return {**overrides, **env}


def run_steps(wf: dict, name: str, skip_install: bool = False, axes: dict | None = None):
    """(matrix entry, step, job, matrix size) of each run step of job ``name``, every matrix entry in turn."""
    job = wf["jobs"][name]
    entries = matrix_entries(job, axes)
    for matrix in entries:
        for step in job.get("steps", []):
            if "run" not in step or (skip_install and str(step.get("name", "")).startswith("Install")):
                continue
            yield matrix, step, job, len(entries)


def expand_vars(text: str, env: dict) -> str:
    """``$X`` / ``${X}`` from ``env`` (what bash does with the exported values), for reading commands."""
    return _VAR.sub(lambda m: env.get(m.group(1) or m.group(2), m.group(0)), text)


def fmin_commands(wf: dict, name: str) -> list[list[str]]:
    """Every ``fmin ...`` command of job ``name``'s run blocks (continuation lines joined), as the
    argument list fmin would get, variables expanded, for each matrix entry."""
    out = []
    for matrix, step, job, total in run_steps(wf, name):
        env = step_env(wf, job, step, matrix, total, {})
        text = expand_expressions(step["run"], env, matrix, total).replace("\\\n", " ")
        for line in text.splitlines():
            line = line.split("|", 1)[0].split(">", 1)[0].strip()
            if line.startswith("fmin "):
                out.append(shlex.split(expand_vars(line, env)))
    return out


def script(wf: dict, jobs: list[str], overrides: dict, skip_install: bool, parallel: bool,
           axes: dict | None = None) -> str:
    """A bash script that runs the jobs' run blocks as the workflow writes them."""
    lines = ["#!/bin/bash", "# generated by scripts/ci_steps.py: the workflow's run: steps, in order", "set -eo pipefail",
             "shopt -s nullglob"]
    if skip_install:   # no install step: fmin's checkout stands in for the fmin it would install
        lines += ["# fmin's checkout, as the workflow's install step makes an installed fmin the `fmin` on PATH",
                  f"export PYTHONPATH={shlex.quote(FMIN_ROOT)}\"${{PYTHONPATH:+:$PYTHONPATH}}\"",
                  "fmin() { python3 -m minimizer \"$@\"; }", "export -f fmin"]
    for name in jobs:
        entries = []
        for matrix, step, job, total in run_steps(wf, name, skip_install, axes):
            env = step_env(wf, job, step, matrix, total, overrides)
            body = expand_expressions(step["run"], env, matrix, total)
            exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
            entries.append((tuple(sorted(matrix.items())),
                            f"( echo \"== {name} {matrix or ''}: {step.get('name', 'run')}\" >&2; export {exports}; "
                            f"set -eo pipefail; shopt -s nullglob\n{body.rstrip()}\n)"))
        groups = ["\n".join(s for _, s in g) for _, g in itertools.groupby(entries, key=lambda e: e[0])]
        at_once = parallel and len(groups) > 1
        lines += [f"{{\n{block}\n}} &" if at_once else block for block in groups]
        if at_once:
            lines.append("wait")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="print a bash script running a workflow's run: steps as written")
    ap.add_argument("workflow")
    ap.add_argument("--job", action="append", required=True, help="a job to run (repeatable, in order)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override an env value")
    ap.add_argument("--matrix", action="append", default=[], metavar="AXIS=V1,V2",
                    help="the values of a matrix axis (e.g. shard=0,1 for two shards)")
    ap.add_argument("--skip-install", action="store_true", help="leave out the steps named 'Install ...'")
    ap.add_argument("--parallel", action="store_true", help="run a job's matrix entries at once")
    args = ap.parse_args(argv)
    wf = load(args.workflow)
    unknown = [j for j in args.job if j not in wf.get("jobs", {})]
    if unknown:
        print(f"ci_steps: {args.workflow}: no job {', '.join(unknown)} (jobs: {', '.join(wf['jobs'])})", file=sys.stderr)
        return 2
    overrides = dict(kv.split("=", 1) for kv in args.set)
    axes = {k: v.split(",") for k, v in (kv.split("=", 1) for kv in args.matrix)}
    sys.stdout.write(script(wf, args.job, overrides, args.skip_install, args.parallel, axes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
