"""The registry of fuzz oracles (``minimizer/fuzz/judging/oracles/``): every registered oracle is
selectable with ``--oracles`` and asked by ``run_oracles`` (a test oracle registered here, with
no other edit, is both), in its order, on the runs it judges. Fake pools, in process."""
from __future__ import annotations

import pytest

from minimizer.cli import build_parser
from minimizer.cli.fuzz import selected_oracles
from minimizer.errors import UsageError
from minimizer.fuzz.judging import oracles
from minimizer.fuzz.judging.oracles import Finding, NotJudged, base, run_oracles
from minimizer.fuzz.store.key import BucketKey
from minimizer.oracle import Outcome
from minimizer.program import parse

TEXT = """
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
    tv1 = fd.ops.neg(tv0)
    fd.add_output(tv1)

with FusionDefinition() as fd:
    fusion(fd)
inputs = [torch.randn(4, device="cuda:0")]
fd.execute(inputs)
"""


class FakePool:
    def __init__(self, backend, outcomes):
        self.backend, self.outcomes, self.requests = backend, list(outcomes), []

    def run(self, req):
        self.requests.append(req)
        return self.outcomes.pop(0)


@pytest.fixture
def registry(monkeypatch):
    """A copy of the registry, for the test's oracles to go into."""
    base.registered()
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))


def _fuzz_default() -> str:
    sub = next(a for a in build_parser("fuzz")._actions if a.dest == "cmd")
    return next(a for a in sub.choices["fuzz"]._actions if a.dest == "oracles").default


def test_the_oracles_are_the_four_cheapest_first():
    assert oracles.ORACLES == ("failure", "differential", "order", "layout")
    assert _fuzz_default() == "failure,differential,order,layout"


def test_every_registered_oracle_is_selectable_on_the_command_line():
    for name in oracles.ORACLES:
        assert selected_oracles(name) == (name,)
    assert selected_oracles(" order , layout") == ("order", "layout")
    for bad in ("failure,psychic", "", ","):
        with pytest.raises(UsageError, match="expected a comma-separated subset of failure,differential"):
            selected_oracles(bad)


def _judge(outcomes, refs=(), oracles=None, backend="nvfuser"):
    pool, ref = FakePool(backend, outcomes), FakePool("reference", refs)
    return run_oracles(parse(TEXT), TEXT, "x.py", pool, ref, backend=backend, oracles=oracles), pool


def test_a_new_oracle_is_selectable_and_asked_in_its_order(registry):
    calls = []

    @base.register("psychic", order=15)
    def psychic(ex):
        calls.append(("psychic", ex.outcome.status, ex.backend))
        return Finding("psychic", ex.backend, BucketKey(label=ex.backend, verbatim="nvfuser psychic"), "it foresaw it")

    seen_by_order = []
    real_order = base._REGISTRY["order"]
    monkey = base.Oracle("order", real_order.order, lambda ex: seen_by_order.append(list(calls)))
    base._REGISTRY["order"] = monkey

    assert "psychic" in oracles.ORACLES and selected_oracles("failure,psychic") == ("failure", "psychic")
    assert _fuzz_default() == "failure,differential,psychic,order,layout"
    j, pool = _judge([Outcome("ok", "nvfuser")], oracles=("psychic", "order"))
    assert calls == [("psychic", "ok", "nvfuser")] and seen_by_order == [calls]   # order 15 before order 20
    assert [(f.kind, f.key.text) for f in j.findings] == [("psychic", "nvfuser psychic")]
    assert j.findings[0].traits == {"dtypes": ["Float"], "ranks": [1]}            # filled in, as for any finding
    calls.clear()
    j, _ = _judge([Outcome("ok", "nvfuser")], oracles=("order",))
    assert calls == [] and j.findings == []                                        # not selected: not asked


def test_an_oracle_that_judges_failures_is_asked_on_a_failed_run_only(registry):
    calls = []

    @base.register("crash-watch", order=-1, judges_failures=True)   # asked before the failure oracle
    def crash_watch(ex):
        calls.append(ex.outcome.status)
        return NotJudged("not ours") if ex.outcome.signature == "env" else None

    boom = Outcome("error", "nvfuser", signature="csrc/x.cpp f: boom", error_kind="compiler")
    j, _ = _judge([boom], [Outcome("ok", "reference")], oracles=("failure",))
    assert calls == ["error"] and [f.kind for f in j.findings] == ["failure"]
    j, _ = _judge([Outcome("error", "nvfuser", signature="env", error_kind="compiler")], oracles=("failure",))
    assert calls == ["error", "error"] and j.findings == [] and j.skipped == "not ours"   # and no reference run
    j, _ = _judge([Outcome("ok", "nvfuser")], oracles=("failure",))
    assert calls == ["error", "error"]


def test_an_oracle_that_reads_values_gets_them_and_not_on_a_backend_it_does_not_apply_to(registry):
    asked = []

    @base.register("values-reader", order=12, reads_values=True, applies=lambda backend: backend != "reference")
    def values_reader(ex):
        asked.append(ex.backend)

    _, pool = _judge([Outcome("ok", "nvfuser")], oracles=("values-reader",))
    assert asked == ["nvfuser"] and pool.requests[0].options.want_values
    _, pool = _judge([Outcome("ok", "reference")], oracles=("values-reader",), backend="reference")
    assert asked == ["nvfuser"] and not pool.requests[0].options.want_values


def test_a_name_registered_by_another_module_is_refused(registry):
    with pytest.raises(ValueError, match="already registered"):
        base.register("order", order=1)(lambda ex: None)
