"""minimizer.fuzz.sources.strategies: generated programs are valid, print/parse round-trip, run on the
reference backend, and shrink well."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from minimizer.fuzz.sources.specs import tensor_specs
from minimizer.fuzz.sources.strategies import covered_ops, op_calls, programs
from minimizer.ops import lookup
from minimizer.model import DIRECT, LEGACY
from minimizer.program.printer import to_source
from minimizer.program.reader import parse
from minimizer.program import static

FAST = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


def _roundtrip(p):
    q = parse(to_source(p))
    assert q.stmts == p.stmts
    assert q.inputs == p.inputs
    assert q.dialect.frontend == p.dialect.frontend


@pytest.mark.parametrize("frontend", [LEGACY, DIRECT])
@FAST
@given(data=st.data())
def test_programs_valid_and_roundtrip(frontend, data):
    p = data.draw(programs(frontend=frontend))
    assert p.dialect.frontend == frontend
    static.check(p)
    _roundtrip(p)
    outs = p.output_stmts()
    assert 1 <= len(outs) <= 6
    # no dead code while there is room: every op result is used or an output
    out_names = {s.arg("output").name for s in outs}
    used = {v.name for s in p.stmts for _, a in s.args for v in (a if isinstance(a, tuple) else (a,))
            if hasattr(v, "name")}
    dead = [n for s in p.op_stmts() for n in s.outs if n and n not in used and n not in out_names]
    assert not dead or len(outs) >= 4, (dead, to_source(p))
    last = [s for s in p.stmts if s.is_op][-1]
    assert p.output_stmts()[0].arg("output").name in last.outs
    if frontend == LEGACY:  # constants go through define_scalar
        for s in p.op_stmts():
            spec = lookup(s.call)
            for name, v in s.args:
                if spec.param(name).kind in ("operand", "scalar"):
                    assert not isinstance(v, (bool, int, float)), s


@FAST
@given(tensor_specs())
def test_tensor_specs_consistent(spec):
    from minimizer.model import Program, Dialect, Stmt, Ref
    decl = spec.declare("T0")
    out = Stmt((), "add_output", (("output", Ref("T0")),), 1)
    p = Program(Dialect(), "f", (decl, out), (spec.arg(),))
    static.check(p)
    assert spec.arg().shape == spec.shape


@pytest.mark.parametrize("frontend", [LEGACY, DIRECT])
def test_families_subset(frontend):
    @settings(max_examples=15, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(programs(frontend=frontend, families=["reduction", "broadcast", "binary"], max_ops=6))
    def inner(p):
        static.check(p)
        fams = {"sum", "max", "min", "prod", "var", "var_mean", "welford", "broadcast_in_dim",
                "broadcast", "expand", "set"}
        assert all(s.op in fams or lookup(s.call).family == "binary" for s in p.op_stmts())
    inner()


_OPS = sorted(covered_ops())


@pytest.mark.parametrize("name", _OPS)
def test_op_calls(name):
    spec = lookup("ops." + name)
    for fe in sorted(spec.frontends):
        @settings(max_examples=4, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(op_calls(name, frontend=fe))
        def inner(p):
            assert any(s.op == name for s in p.stmts)
            static.check(p)
            _roundtrip(p)
        inner()


def test_covered_ops_count():
    ops = covered_ops()
    assert len(ops) >= 40
    assert all(lookup("ops." + o) is not None for o in ops)
    for must in ("add", "where", "cast", "sum", "max", "min", "broadcast_in_dim", "permute", "reshape",
                 "slice", "pad", "cat", "set", "segment_set", "bitwise_and"):
        assert must in ops


def test_shrinks_to_small_program():
    p = find(programs(), lambda p: any(s.op == "sum" for s in p.stmts),
             settings=settings(database=None, derandomize=True, deadline=None))
    assert p.n_ops() <= 3
    static.check(p)


@pytest.fixture(scope="module")
def pool():
    from minimizer.oracle import Pool
    with Pool("reference", "cpu", jobs=1, timeout=120) as pool:
        yield pool


def test_reference_backend_runs_generated(pool):
    from minimizer.oracle.pool import Request
    progs = []

    @settings(max_examples=5, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def collect(data):
        for fe in (LEGACY, DIRECT):
            progs.append(data.draw(programs(frontend=fe, max_ops=8)))
    collect()
    progs = progs[:10]
    assert progs
    for p in progs:
        out = pool.run(Request(to_source(p)))
        assert out.status == "ok", (out.status, getattr(out, "signature", None), to_source(p))


@pytest.mark.parametrize("op", ["bitwise_left_shift", "bitwise_right_shift"])
@FAST
@given(data=st.data())
def test_shift_amounts_are_defined(op, data):
    """Shifting by a negative amount or by the bit width is undefined behaviour in C++/CUDA (the
    H200 campaign saw Triton and eager disagree there): the generator never does it."""
    p = data.draw(op_calls(op))
    consts = {s.outs[0]: s.arg("value") for s in p.stmts if s.call == "define_scalar"}
    for s in p.op_stmts():
        if s.op == op:
            amount = s.args[1][1]
            amount = consts.get(amount.name) if hasattr(amount, "name") else amount
            assert isinstance(amount, int) and 0 <= amount < 8, to_source(p)


def test_the_suite_leaves_no_hypothesis_storage_in_the_repository(tmp_path):
    """Hypothesis's storage (its constants cache) goes to the session's own directory
    (conftest.py), not to ``.hypothesis/`` of the checkout the tests run in."""
    import os
    from hypothesis.configuration import storage_directory
    from conftest import ROOT
    where = storage_directory("constants").path.resolve()
    assert not str(where).startswith(os.path.realpath(ROOT)), where
    assert str(where).startswith(os.path.realpath(os.environ["HYPOTHESIS_STORAGE_DIRECTORY"]))
