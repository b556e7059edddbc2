"""``fmin check``: run scripts, judge each against the property flags, and say so as each finishes.

Scripts run ``jobs`` at a time on one pool; a row (or a JSON line) is printed the moment its script
and its property's extra runs are done, so a long batch shows progress and a run killed half way
(a SIGKILL for memory, a CI timeout) keeps every row it finished.
"""
from __future__ import annotations

import json
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Callable, Iterator

from .oracle import Request
from .oracle.context import RunContext
from .oracle.session import Candidate, Session, Verdict, chain
from .oracle.checks.kernels import kernel_count
from .oracle.outcome import Outcome
from .oracle.property import Evaluation, Property, verdict_for_script
from .oracle.runners import Checks
from .oracle.triage import ENVIRONMENT, SCRIPT, triage


@dataclass
class Row:
    path: str
    outcome: Outcome
    verdict: Evaluation | None

    @property
    def category(self) -> str:
        return triage(self.outcome).category

    @property
    def category_message(self) -> str:
        return triage(self.outcome).message


class LocalChecks:
    """``Checks`` (``oracle.runners``) here: one pool of ``ctx.jobs`` warm workers (and one for
    the property's extra runs), that many scripts at a time. ``--ray`` gives ``check_scripts`` a
    cluster runner with the same ``check`` instead (``cluster.RayRunner``)."""

    def __init__(self, ctx: RunContext):
        self._pools = ctx.pools(extra_jobs=1)
        self._ex = ThreadPoolExecutor(max_workers=max(1, ctx.jobs))

    def __enter__(self):
        self.pools = self._pools.__enter__()
        return self

    def __exit__(self, *exc):
        self._ex.shutdown(wait=True, cancel_futures=True)
        return self._pools.__exit__(*exc)

    def check(self, req: Request, prop: Property | None, seed: int) -> Future:
        def one():
            o = self.pools.primary.run(req)
            if prop is None:
                return o, None
            return o, verdict_for_script(prop, req, o, self.pools, seed=seed)
        return self._ex.submit(one)


def check_scripts(paths: list[str], ctx: RunContext, prop: Property | None, *, refused: dict[str, str] | None = None,
                  on_start: Callable[[int], None] | None = None,
                  runner: Callable[[int], Checks] | None = None) -> Iterator[Row]:
    """Run each script (already read: fmin can parse it) and yield its row as it completes.
    ``refused`` scripts (path -> why: they do not fit in memory) are not run: their rows say why,
    as environment failures. Scripts are judged through one ``Session`` (the same text twice
    runs once). ``runner(n)`` makes where ``n`` scripts run (default: here, ``LocalChecks``)."""
    refused = refused or {}
    for path in paths:
        if path in refused:
            yield Row(path, Outcome("error", ctx.backend, signature="fmin: not enough memory", message=refused[path],
                                    error_kind="environment"), None)
    want = bool(prop and prop.needs_values)
    reqs = []
    for path in paths:
        if path in refused:
            continue
        with open(path, encoding="utf-8") as f:
            reqs.append((path, ctx.request(f.read(), os.path.abspath(path), want_values=want)))
    if not reqs:
        return
    n = min(ctx.jobs, len(reqs))
    if on_start is not None:
        on_start(n)
    where = runner(len(reqs)) if runner is not None else LocalChecks(ctx.replace(jobs=n))
    with where as r:
        by_text = {req.script: req for _, req in reqs}

        def submit(c: Candidate) -> Future:
            return chain(r.check(by_text[c.text], prop, ctx.seed),
                         lambda ov: Verdict(ov[1] is None or ov[1].holds, outcome=ov[0], detail=ov[1]))
        session = Session(submit=submit)
        paths_of: dict[Future, list[str]] = {}
        for path, req in reqs:
            paths_of.setdefault(session.submit(Candidate(req.script)), []).append(path)
        for fut in as_completed(paths_of):
            v = fut.result()
            for path in paths_of[fut]:
                yield Row(path, v.outcome, v.detail)


def unreadable_json(path: str, message: str, device: str, backend: str) -> str:
    """The JSON row of a script fmin cannot read (missing, binary, a syntax error): every key a
    row has, ``status`` "unreadable" and the located error as ``message`` — a consumer of the
    JSON lines sees every script it asked about, not only those that ran."""
    d = {"file": path, "status": "unreadable", "category": None, "category_message": message, "where": None,
         "signature": None, "kernels": None, "segments": None, "schedulers": None, "graph": None, "outputs": [],
         "seconds": 0.0, "backend": backend, "device": device, "error_kind": "unreadable", "message": message,
         "environment": {}}
    return json.dumps(d)


def row_json(row: Row, device: str, prop: Property | None) -> str:
    o, v = row.outcome, row.verdict
    d = {"file": row.path, "status": o.status, "category": row.category, "category_message": row.category_message,
         "where": o.where, "signature": o.signature, "kernels": kernel_count(o),
         "segments": o.segments, "schedulers": o.schedulers, "graph": o.graph,
         "outputs": o.outputs, "seconds": round(o.seconds, 4), "backend": o.backend,
         "device": device, "error_kind": o.error_kind, "message": o.message,
         "environment": o.environment}
    if v is not None:
        d["property"] = {**v.to_json(), "description": prop.describe()}
    return json.dumps(d)


class Table:
    """The text table, printed a row at a time (fixed column widths, so no row waits for others)."""

    def __init__(self, prop: Property | None, write=print):
        self.prop, self.write = prop, write
        self._lock = threading.Lock()

    def header(self) -> None:
        if self.prop is not None:
            self.write(f"property: {self.prop.describe()}")
        self.write(f"{'script':40} {'status':8} {'category':11} {'kernels':>7} {'seconds':>8}  "
                   f"kernels and boundaries / outputs / signature")

    def row(self, row: Row) -> None:
        o, v = row.outcome, row.verdict
        k = kernel_count(o)
        with self._lock:
            what = _what(o) if row.category not in (SCRIPT, ENVIRONMENT) else row.category_message
            self.write(f"{_short(row.path, 40):40} {o.status:8} {row.category:11} {'' if k is None else k:>7} "
                       f"{o.seconds:8.2f}  {what}")
            if v is not None:
                self.write(f"    property {'holds' if v.holds else 'fails: ' + v.reason}")
                if len(v.checks) > 1:   # each flag on its own line
                    for name, (ok, why) in v.checks.items():
                        self.write(f"      --{name:14} {'holds' if ok else 'fails'}: {why}")


def _what(o: Outcome) -> str:
    if not o.ok:
        return o.signature or ""
    g = o.segment_graph
    outs = ", ".join(_out_str(x) for x in o.outputs)
    if g is not None and g.segments:
        return f"{g.words()}  → {outs}"
    return outs


def _out_str(d: dict) -> str:
    if "shape" in d:
        return f"{d['dtype']}{list(d['shape'])}"
    return d.get("scalar", "?")


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else "…" + s[-(n - 1):]
