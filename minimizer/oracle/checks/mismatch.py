"""``--mismatch`` / ``--mismatch-in WHAT``: the backend's outputs are not the reference's, up to
the rounding this very computation costs.

Two steps (``oracle.compare``, rule in docs/mismatch.md): outputs equal to eager torch's (the
``reference`` backend at the script's dtypes) within the dtype tolerance match; the others are
judged against the exact result (the same program in float64) *relative to eager's own error*
(``compare.judge``): a float32 sum over a thousand terms accumulated in another order is within
a few times eager's error and is not a mismatch; a wrong element is thousands of times beyond it.
Inputs after execution are compared too (an output aliased into an input writes it in place).

Needs values of both runs, same seed and device. A program with random ops, or a flash backward
not fed its forward's logsumexp and output, is never judged a mismatch (``program/unjudged.py``). ``what`` ("dtype", "shape" or "values")
asks for one kind of difference: a reduction of a wrong *value* must not slip to a program whose
only fault is an output *dtype* (a different bug, C-Reduce's "slippage")."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import ClassVar

from ..compare import Comparison, compare, judge
from ..outcome import Outcome
from .base import Check, Missing, Trial, failure_words, register


@dataclass
class MismatchEvidence:
    reference: Outcome | None = None
    comparison: Comparison | None = None          # against eager at the dtype tolerance
    comparison_fp64: Comparison | None = None     # the judgement against the exact result (``judge``)

    @property
    def final(self) -> Comparison | None:
        """What decides: the judgement against the exact result where one was made."""
        return self.comparison_fp64 or self.comparison

    def to_json(self) -> dict:
        d = {}
        if self.comparison is not None:
            d["comparison"] = self.comparison.to_json()
        if self.comparison_fp64 is not None:
            d["judgement"] = self.comparison_fp64.to_json()
        return d


def drop_values(o: Outcome | None) -> None:
    """Saved values can be large (hundreds of MB for real repros): delete them once judged."""
    if o is None:
        return
    if o.values_path:
        try:
            os.remove(o.values_path)
        except OSError:
            pass
    o.values_path = None
    o.values = None
    o.storages = None


def _values(o: Outcome):
    if o.values is not None:
        return o.values
    return o.load_values() if o.values_path else None


def unjudged(trial: Trial) -> list[str]:
    """Why the program's values are no evidence (``program/unjudged.py``); empty: judge them."""
    from ...program.unjudged import value_unjudged
    try:
        prog = trial.program
    except Exception:
        return []
    return value_unjudged(prog)


def _inputs_after(ins, n: int) -> list:
    """The first ``n`` inputs after an fp64 run, as the exact reference of the inputs after the
    backend's run: floating ones in float64 (an aliased one holds the exact value written into
    it; another one, unchanged, is exact as it is), None past the end."""
    import torch
    return [(ins[k].to(torch.float64) if isinstance(ins[k], torch.Tensor) and ins[k].is_floating_point()
             else ins[k]) if k < len(ins) else None for k in range(n)]


def _has_floating(values) -> bool:
    import torch
    return any(isinstance(v, torch.Tensor) and (v.dtype.is_floating_point or v.dtype.is_complex) for v in values)


#: sign draws of the perturbed exact reference that a wrong result is checked against: an element
#: that any of them moves by more than its tolerance is ill-conditioned (``compare.judge``)
PERTURBED_RUNS = 3
#: the ``RunOptions.narrow_scans`` modes of the eager runs whose half scans accumulate in half: in
#: order, and at either end of the rounding bound of any order (``ops/scans.py``)
NARROW_MODES = (True, "low", "high")


def alternative_runs(prog) -> list[dict]:
    """The ``RunOptions`` of the reference runs that give other legitimate results of ``prog``:
    the perturbed exact runs, the narrow-scan runs, and, where it calls flash attention, the run
    whose P and dS are rounded to the input dtype as the flash kernels round them
    (``ops/linalg.NARROW_P``)."""
    from ...program.unjudged import uses_attention
    runs = [dict(fp64=True, perturb=k) for k in range(1, PERTURBED_RUNS + 1)] + \
        [dict(narrow_scans=mode) for mode in NARROW_MODES]
    return runs + ([dict(narrow_attention=True)] if prog is not None and uses_attention(prog) else [])


@register
@dataclass(frozen=True)
class Mismatch(Check):
    name: ClassVar[str] = "mismatch"
    order: ClassVar[int] = 30
    cost: ClassVar[int] = 1
    needs_values: ClassVar[bool] = True
    runs_reference: ClassVar[bool] = True
    runs_fp64_reference: ClassVar[bool] = True
    reference: str = "reference"
    scale: float = 1.0
    what: str | None = None

    WHATS: ClassVar[tuple[str, ...]] = ("dtype", "shape", "values")

    def __post_init__(self):
        if self.what is not None and self.what not in self.WHATS:
            raise ValueError(f"--mismatch-in takes one of {', '.join(self.WHATS)}, got {self.what!r}")

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--mismatch", action="store_true",
                       help="outputs differ from the reference backend's (same seed and device) beyond tolerance")
        g.add_argument("--mismatch-in", metavar="WHAT", choices=list(cls.WHATS),
                       help="--mismatch, of that kind only: dtype, shape or values (what a fuzz bucket is reduced "
                            "under, so a wrong value does not slip into a dtype difference)")

    @classmethod
    def from_args(cls, args):
        what = getattr(args, "mismatch_in", None)
        if what or getattr(args, "mismatch", False):
            return cls("reference", 1.0, what)
        return None

    def backends(self):
        return {self.reference}

    def gather(self, trial: Trial):
        o = trial.outcome
        if o is None or not o.ok:
            return None
        why = unjudged(trial)
        if why:
            return Missing("; ".join(why))
        ev = MismatchEvidence()
        mine, ss = _values(o), o.storages
        if mine is None:   # the caller's outcome came without values: run again, keeping them
            o2 = trial.run(want_values=True)
            mine, ss = (_values(o2), o2.storages) if o2.ok else (None, None)
            drop_values(o2)
            if mine is None:
                return Missing(f"a second run to save values gave {failure_words(o2)}")
        r = trial.run(self.reference, want_values=True)
        ev.reference = r
        try:
            theirs, rss = (_values(r), r.storages) if r.ok else (None, None)
        finally:
            drop_values(r)
        if theirs is None:
            return ev
        (ins, outs), (rins, routs) = mine, theirs
        labels = [f"output {i}" for i in range(len(routs))]
        # inputs after execute: an aliased output (``add_output(x, alias_input=T0)``) updates one;
        # where the input is a view with gaps, its whole storage too (a write between its elements)
        n_in = min(len(ins), len(rins))
        labels += [f"input {i} (after execute)" for i in range(n_in)]
        ss, rss = ss or {}, rss or {}
        gapped = sorted(k for k in ss if k in rss and k < n_in)
        labels += [f"input {k}'s storage (after execute)" for k in gapped]
        ins = list(ins[:n_in]) + [ss[k] for k in gapped]
        rins = list(rins[:n_in]) + [rss[k] for k in gapped]
        n_in = len(ins)
        both = (list(outs) + ins, list(routs) + rins)
        ev.comparison = compare(*both, scale=self.scale, labels=labels) if len(outs) == len(routs) else \
            compare(outs, routs, scale=self.scale)
        if ev.comparison.ok or len(outs) != len(routs) or not _has_floating(outs + ins[:n_in]) or \
                all(d.what != "values" for d in ev.comparison.outputs if not d.ok):
            return ev   # nothing to judge: equal, or a different dtype or shape (no rounding explains that)
        # eager rounds after every op, a fusing compiler need not, and sums in another order:
        # judge the difference against the exact result, relative to eager's own error
        r64 = trial.run(self.reference, want_values=True, fp64=True)
        try:
            v64 = _values(r64) if r64.ok else None
        finally:
            drop_values(r64)
        if v64 is None:
            return Missing(f"the fp64 reference gave {failure_words(r64)}")
        # inputs after execute: an aliased one holds the exact value written into it (float64),
        # the others are the inputs themselves; a gapped input's whole storage: against eager
        n_plain = n_in - len(gapped)
        exact = list(v64[1]) + _inputs_after(v64[0], n_plain) + [None] * len(gapped)
        ev.comparison_fp64 = judge(*both, exact, labels=labels, scale=self.scale)
        if not ev.comparison_fp64.ok:   # the rare path: are the elements that differ evidence at all?
            alts = self._alternatives(trial, n_plain, len(gapped))
            if alts:
                ev.comparison_fp64 = judge(*both, exact, labels=labels, scale=self.scale, alternatives=alts)
        return ev

    def _alternatives(self, trial: Trial, n_plain: int, n_gapped: int) -> list[list]:
        """Other legitimate results of the program, each as outputs then inputs after execute
        (``compare.judge``'s ``alternatives``): the exact reference on inputs perturbed by a few
        ulps (``PERTURBED_RUNS`` sign draws) and eager runs whose half scans accumulate in half
        (in order, and at either end of the rounding bound of any order: ``ops/scans.py``), and for
        flash attention, eager with P and dS rounded to the input dtype (``alternative_runs``).
        Runs that fail give nothing."""
        alts = []
        try:
            prog = trial.program
        except Exception:
            prog = None
        for opts in alternative_runs(prog):
            r = trial.run(self.reference, want_values=True, **opts)
            try:
                v = _values(r) if r.ok else None
            finally:
                drop_values(r)
            if v is not None:
                alts.append(list(v[1]) + _inputs_after(v[0], n_plain) + [None] * n_gapped)
        return alts

    def holds(self, o, evidence=None):
        if not o.ok:
            return False, f"{failure_words(o)}: no outputs to compare"
        ev = evidence if isinstance(evidence, MismatchEvidence) else MismatchEvidence()
        r = ev.reference
        if r is None or ev.comparison is None:
            if r is not None and not r.ok:
                return False, f"the {self.reference} run failed: {failure_words(r)}"
            return False, "no reference values to compare with"
        if ev.comparison.ok:
            return False, f"outputs match {self.reference} within tolerance"
        if ev.comparison_fp64 is not None and ev.comparison_fp64.ok:
            # the verdict first: a reader who stops after "fails:" must not read "wrong result"
            return False, (f"no mismatch, rounding only: the outputs are as close to the exact result as eager's "
                           f"own rounding allows (against {self.reference}: {ev.comparison.first_mismatch})")
        final = ev.final
        if self.what is not None:
            hit = [d for d in final.outputs if not d.ok and d.what == self.what]
            if not hit:
                kinds = sorted({d.what for d in ev.comparison.outputs if not d.ok})
                if self.what in kinds:   # differs from eager, but within rounding of the exact result
                    return False, (f"no mismatch in values, rounding only: the values that differ from "
                                   f"{self.reference} are as close to the exact result as eager's own rounding "
                                   f"allows")
                return False, f"outputs differ in {', '.join(kinds) or 'nothing'}, not in {self.what}"
            return True, hit[0].reason or final.first_mismatch or "outputs differ"
        return True, final.first_mismatch or "outputs differ"

    def describe(self):
        s = f" (tolerance ×{self.scale:g})" if self.scale != 1 else ""
        w = f" in {self.what}" if self.what else ""
        return f"outputs differ from {self.reference}{w} beyond tolerance{s}"
