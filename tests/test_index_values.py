"""Index values as fmin writes inputs: the catalog's index ``ValueParam``s (``ops/indexing.py``)
through the printer, the seeded fuzzer's mutations, the reducer's shape pass and the static
funnel.

Inputs are built by running the printed script with a stand-in ``FusionDefinition`` that keeps
what ``fd.execute`` is given (``_inputs``), or by fmin's reference backend in this process
(``_reference``), which reports the value rules its run broke. The programs are the corpus's
index seeds (``corpus/direct_scatter_index_ops.py``, ``corpus/legacy_index_embedding.py``).
"""
from __future__ import annotations

import os
import textwrap
import types

import torch
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from conftest import ROOT
from minimizer.backends import RunOptions
from minimizer.backends import runner_for
from minimizer.backends.runner import generic_classify, run_with_modules
from minimizer.fuzz.sources import mutate, seeded
from minimizer.model import DType, TensorArg, is_input_decl
from minimizer.ops import Drawn
from minimizer.oracle.session import Session, Verdict
from minimizer.program import edits, parse, static, to_source, validity
from minimizer.program.printer import render_input
from minimizer.reduce.passes import ShrinkShapes, ValueToInput
from minimizer.program.declare import tensor_input
from minimizer.program.extents import resize

SCATTER = os.path.join(ROOT, "corpus", "direct_scatter_index_ops.py")
EMBEDDING = os.path.join(ROOT, "corpus", "legacy_index_embedding.py")


def _text(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


class _Anything:
    """Whatever a fusion definition calls (``fd.define_tensor``, ``fd.ops.gather``, ``DataType.Int``)."""

    def __getattr__(self, name):
        return _Anything()

    def __call__(self, *args, **kwargs):
        return _Anything()


def _inputs(text: str) -> list:
    """The inputs the script hands ``fd.execute``, built on the CPU with seed 0 (nothing else runs)."""
    seen = []

    class FD(_Anything):
        undefined = ()

        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def execute(self, inputs, **kwargs):
            seen.append(list(inputs))
            return []

    mod = types.SimpleNamespace(FusionDefinition=FD, DataType=_Anything())
    r = run_with_modules(text, "<t>", {"nvfuser": mod, "nvfuser_direct": mod}, [FD], "cpu", RunOptions(seed=0),
                         None, generic_classify)
    assert r["status"] == "ok", r
    return seen[-1]


def _reference(text: str) -> dict:
    return runner_for("reference").run_script(text, "<t>", "cpu", RunOptions(seed=0))


def _broken(text: str) -> list[str]:
    """The value rules the reference's run of ``text`` broke (its run must get through otherwise)."""
    r = _reference(text)
    rules = [d["rule"] for d in r.get("undefined") or ()]
    assert r["status"] == "ok" or rules, r
    return rules


def _in_range(text: str, program) -> None:
    """Every input ``program`` reads as an index holds values within the extent it indexes (and,
    for scatter, none twice along its dim), as the printed ``text`` builds it."""
    built = _inputs(text)
    names = [s.outs[0] for s in program.stmts if is_input_decl(s)]
    for name, want in validity.input_values(program).items():
        t = built[names.index(name)]
        assert isinstance(want, Drawn) and t.dtype in (torch.int32, torch.int64), (name, want, t)
        if t.numel():
            assert 0 <= int(t.min()) and int(t.max()) < want.high, (name, want, t)
        if want.distinct is not None and t.shape[want.distinct] > 1:
            s = t.sort(dim=want.distinct).values
            assert bool((s.diff(dim=want.distinct) != 0).all()), (name, t)


# ---- (a) generated and mutated programs ----

def test_a_seed_is_written_with_each_index_within_the_extent_it_indexes():
    """A seed that reads indices is written afresh (``seeded.read_seed``): its index inputs as
    ``randint`` within the indexed extent, where ``make_tensor`` drew [-9, 10) (an index of -3 made
    the reference fail, and on the GPU a device-side assert). Through a ``segment_set`` (which a
    mutation inserts anywhere) the index is still the input's."""
    s = seeded.read_seed(SCATTER, None)
    assert {k: v.high for k, v in validity.input_values(s.program).items()} == {"tv1": 64, "tv2": 64, "tv3": 32}
    text = to_source(s.program)
    _in_range(text, s.program)
    assert _broken(text) == []
    copied = parse(text.replace("(tv6, tv3, dim=1)", "(tv6, tv3c, dim=1)").replace(
        "    tv7 = ", "    tv3c = fd.ops.segment_set(tv3)\n    tv7 = "))       # gather and take_along_axis read the copy
    assert validity.input_values(copied)["tv3"] == Drawn(32)
    _in_range(to_source(copied.replace(source=None)), copied)


class _Data:
    def __init__(self, data):
        self.draw = data.draw


@settings(max_examples=40, deadline=None, database=None, phases=[Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), path=st.sampled_from([SCATTER, EMBEDDING]))
def test_every_mutant_of_an_index_seed_reads_indices_in_range(data, path):
    """What the seeded fuzzer makes of an index seed (a resized extent, a cut, a reordered or
    rebuilt input ...) is written with index inputs in range, and its reference run breaks no
    value rule: the printer writes the ranges the mutant's own extents give."""
    s = seeded.read_seed(path, None)
    q, names = mutate.mutated(_Data(data), s.program, s.info)
    text = to_source(q)
    _in_range(text, q)
    assert _broken(text) == [], (names, text)


def test_a_cut_that_makes_a_computed_index_an_input_writes_it_distinct_and_in_range():
    """``argsort``'s result, read by ``scatter`` as its index, made an input (the cut mutation,
    the reducer's ValueToInput) is written as a permutation along scatter's dim: no index out of
    range, none twice (which of two writes wins is not defined)."""
    s = seeded.read_seed(SCATTER, None)
    cuts = [edits.dce(c) for _, c in ValueToInput().candidates(s.program, s.info)]
    cuts = [c for c in cuts if Drawn(8, 1) in validity.input_values(c).values()]   # tv11 [16, 8], distinct along 1
    assert cuts and not any("argsort" in to_source(c) for c in cuts)
    for c in cuts:
        text = to_source(c)
        _in_range(text, c)
        assert _broken(text) == []


# ---- (b) a reduction that shrinks extents ----

def test_a_shrunk_indexed_extent_gets_its_index_inputs_written_anew():
    """The shape pass shrinks the indexed extent (64 rows of tv0 to 8, which ``select``'s index 5
    allows): the index inputs the script wrote for 64 are written for 8; tv3, which indexes
    another extent (32), keeps the script's own text. Shrinking an index tensor's own extent
    writes it anew too."""
    p = parse(_text(SCATTER))
    smaller = resize(p, 64, 8)
    validity.check(smaller, rules=validity.enforced_for(p))
    text = to_source(smaller)
    assert "torch.testing.make_tensor((16, 8), dtype=torch.int64, device='cuda:0', low=0, high=32)" in text
    _in_range(text, smaller)
    assert _broken(text) == []
    fewer = resize(p, 16, 3)                                   # tv1 (16,) -> (3,), tv3 and tv4 (16, 8) -> (3, 8)
    _in_range(to_source(fewer), fewer)
    assert _broken(to_source(fewer)) == []


def test_every_shape_pass_candidate_of_an_index_original_reads_indices_in_range():
    """What the reducer's ShrinkShapes proposes for a user's script with index inputs: each
    candidate the static funnel lets through runs on the reference without an index out of range."""
    p = parse(_text(EMBEDDING))
    info = static.check(p)
    rules = validity.enforced_for(p, info)
    kept = 0
    for _, c in ShrinkShapes().candidates(p, info):
        try:
            validity.check(c, rules=rules)
        except Exception:
            continue
        kept += 1
        text = to_source(c)
        _in_range(text, c)
        assert _broken(text) == [], text
    assert kept >= 4


# ---- the static funnel ----

def _session(rules, ran):
    return Session.of_texts(lambda texts: [ran.append(t) or Verdict(True) for t in texts], static="strict",
                            rules=rules)


def test_a_candidate_that_breaks_an_index_rule_is_refused_before_anything_runs():
    """A candidate whose index input cannot hold valid indices — an index input of floats, a
    scatter index expanded along scatter's dim (its indices there cannot differ) — breaks
    ``index-range`` / ``scatter-index`` and never reaches the backend, nor does one whose
    ``select`` index (3) is past the rows it is given; the original keeps both rules, so its
    reduction is held to them. A user's original that breaks one is not held to it."""
    p = parse(_text(EMBEDDING))
    rules = validity.enforced_for(p)
    assert {"index-range", "scatter-index"} <= rules
    ran: list = []
    assert _session(rules, ran).consider(resize(p, 64, 2)).skipped == "invalid"
    assert _session(rules, ran).consider(resize(p, 64, 16)).skipped is None
    i = next(i for i, x in enumerate(p.stmts) if x.outs == ("T1",))                       # index_select's index
    a = p.inputs[1]
    floats = edits.replace_input(p, i, p.stmts[i].with_arg("dtype", DType("Float")),
                                 TensorArg(a.shape, a.strides, "Float", a.device))
    got = _session(rules, ran).consider(floats)
    assert got.skipped == "invalid" and "index-range" in got.why and "not an integer dtype" in got.why
    s = seeded.read_seed(SCATTER, None)
    cut = next(edits.dce(c) for _, c in ValueToInput().candidates(s.program, s.info)
               if Drawn(8, 1) in validity.input_values(edits.dce(c)).values())
    name = next(n for n, v in validity.input_values(cut).items() if v == Drawn(8, 1))
    i = next(i for i, x in enumerate(cut.stmts) if x.outs == (name,))
    made = tensor_input(cut, name, torch.empty(16, 8, dtype=torch.int64, device="meta"), (False, True))
    expanded = edits.replace_input(cut, i, *made)                    # dim 1 expanded (stride 0)
    got = _session(validity.enforced_for(cut), ran).consider(expanded)
    assert got.skipped == "invalid" and "scatter-index" in got.why and "expanded" in got.why
    assert ran == []                                            # consider runs nothing
    assert "scatter-index" not in validity.enforced_for(expanded)


def test_the_reference_run_names_the_index_rule_it_breaks():
    """An index out of range or a scatter index twice: the reference's run reports the value rule
    (so a bucket whose reduced script it fails is not taken for an invalid program)."""
    p = parse(_text(SCATTER))
    text = to_source(p)
    out = text.replace("device='cuda:0', low=0, high=32)", "device='cuda:0', low=32, high=40)")
    assert _broken(out) == ["index-range"]
    dup = text.replace("tv11 = fd.ops.argsort(tv4, dim=1)", "tv11 = fd.ops.full([16, 8], 0, dtype=DataType.Int)")
    assert _broken(dup) == ["scatter-index"]


# ---- how the printer writes a range ----

def _roundtrip(a: TensorArg, values: Drawn) -> torch.Tensor:
    text = textwrap.dedent(f"""\
        import torch
        from nvfuser_direct import FusionDefinition, DataType
        def nvfuser_fusion(fd : FusionDefinition) -> None :
            tv0 = fd.define_tensor(shape={[-1] * a.ndim}, contiguity={[None] * a.ndim}, dtype=DataType.Int, is_cpu=False)
            fd.add_output(tv0)
        with FusionDefinition() as fd:
            nvfuser_fusion(fd)
        inputs = [
            {render_input(a, values)},
        ]
        fd.execute(inputs)
        """)
    assert parse(text).inputs == (a,)                        # fmin reads back the input it wrote
    (t,) = _inputs(text)
    assert tuple(t.stride()) == a.strides
    return t


def test_a_range_is_written_for_any_layout():
    """Row-major, permuted, padded and expanded layouts hold values in range; distinct along a
    dim wherever that dim is not expanded."""
    for shape, strides in (((16, 8), (8, 1)), ((16, 8), (1, 16)), ((4, 5), (10, 1)), ((4, 5), (0, 1)),
                           ((3, 0), (0, 1))):
        for d in (None, 0, 1):
            a = TensorArg(shape, strides, "Int", "cuda")
            v = Drawn(16, d)
            if validity.misfit(v, a) is not None:
                assert d == 0 and strides[0] == 0
                continue
            t = _roundtrip(a, v)
            assert t.numel() == 0 or (0 <= int(t.min()) and int(t.max()) < 16)
            if d is not None and t.numel():
                s = t.sort(dim=d).values
                assert bool((s.diff(dim=d) != 0).all()), (shape, strides, d, t)
