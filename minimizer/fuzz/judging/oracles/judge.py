"""Every selected oracle on one program (``run_oracles``), cheapest first."""
from __future__ import annotations

from .... import phases
from ....backends import RunOptions
from ....model import Program
from ....oracle.checks.mismatch import drop_values
from ....oracle.pool import Request
from ..keys import traits
from .base import Example, Finding, Judged, NotJudged, Oracle, names, registered


def run_oracles(program: Program, text: str, path: str, pool, ref_pool, *, backend: str, oracles=None,
                seed: int = 0, example_seed: int = 0) -> Judged:
    """Run the oracles named in ``oracles`` (None: every registered one) on one program. ``pool``
    runs the backend under test, ``ref_pool`` the reference (the same pool when the backend is the
    reference). A failed run is judged by the oracles that judge failures, a run that ended well
    by the others, in their order; each one's share of the program's time is its phase."""
    chosen = set(names() if oracles is None else oracles)
    asked = [o for o in registered() if o.applies(backend) and (o.name in chosen or o.judges_failures)]
    rec = phases.current() or phases.Phases()   # each oracle's share of a program's time (runs included)
    wants_values = any(o.reads_values and o.name in chosen and not o.judges_failures for o in asked)
    with rec.timed("oracle run"):
        o = pool.run(Request(text, path, RunOptions(seed=seed, want_values=wants_values)))
    ex = Example(program, text, path, o, pool, ref_pool, backend, seed, example_seed)
    try:
        if not o.ok:
            return _judged(ex, [a for a in asked if a.judges_failures], chosen, rec)
        return _judged(ex, [a for a in asked if not a.judges_failures], chosen, rec)
    finally:
        drop_values(o)


def _judged(ex: Example, asked: list[Oracle], chosen: set[str], rec: phases.Phases) -> Judged:
    """The verdicts of ``asked`` on ``ex``: a failed run's first ``NotJudged`` ends its judging
    (the failure is not the fusion's); a finished run's is why its outputs were not judged. The
    run's saved values go once no oracle left reads them."""
    found: list[Finding] = []
    skipped = None
    for k, oracle in enumerate(asked):
        with rec.timed(f"oracle {oracle.name}"):
            got = oracle.judge(ex)
        if not any(later.reads_values for later in asked[k + 1:]):
            drop_values(ex.outcome)
        if isinstance(got, NotJudged):
            if not ex.outcome.ok:
                return Judged(ex.outcome, [], skipped=got.reason)
            skipped = skipped or got.reason
        elif got is not None and oracle.name in chosen:
            found.append(got)
    for f in found:
        f.traits = f.traits or traits(ex.program)
    return Judged(ex.outcome, found, skipped=skipped)
