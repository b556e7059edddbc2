"""``fmin fuzz``: reproducible generation, the oracles' verdicts and owners (fake pools), the
findings corpus and its merge, and campaigns end to end — on the reference backend (nothing to
find), and on Inductor with its test-only fault injection (a relu that adds 1), which the
campaign must find, bucket, minimize to the relu, and count (not re-minimize) when seen again."""
import json
import re
from dataclasses import replace
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import torch

from conftest import ROOT, fmin_here
from minimizer.fuzz.sources import generate
from minimizer.fuzz.judging.today import merge
from minimizer.fuzz.judging.oracles import run_oracles
from minimizer.fuzz.judging.keys import failure_key, mismatch_key
from minimizer.fuzz.store.finding import Finding
from minimizer.fuzz.store.key import MISMATCH, BucketKey
from minimizer.fuzz.store.store import Store, bucket_id
from minimizer.fuzz.store.record import Bucket, Reduction, StandaloneRun
from minimizer.oracle import Outcome
from minimizer.oracle.context import RunContext
from minimizer.program import parse, to_source

REF_CTX = RunContext(backend="reference", device="cpu", quiet=True, timeout=300)


def fails(signature: str, label: str = "nvfuser") -> BucketKey:
    """The key of a failure with this signature (a test's outcomes name no backend: the root cause
    is the signature), ``<label> error <signature>``."""
    return failure_key(label, {"status": "error", "signature": signature})


def values(*ops: str, label: str = "nvfuser") -> BucketKey:
    """The key of a wrong value of these ops, ``<label> mismatch values: <ops>``."""
    return mismatch_key(label, "values", ops)


def older(op: str, dtype: str) -> BucketKey:
    """A wrong-result key of an older fmin, ``nvfuser mismatch <op> -> <dtype>``."""
    return BucketKey(MISMATCH, "nvfuser", ops=(op,), output_dtype=dtype)


# ---------------------------------------------------------------- generation
def test_chunks_are_reproducible_and_shards_disjoint():
    a = [to_source(e.program) for e in generate.chunk(3, 0, size=12)]
    b = [to_source(e.program) for e in generate.chunk(3, 0, size=12)]
    c = [to_source(e.program) for e in generate.chunk(3, 1, size=12)]
    assert a == b
    assert len(set(a) & set(c)) <= 2        # Hypothesis may start both chunks with the simplest program
    ex = generate.chunk(3, 1, size=12)
    assert ex[5].id == "3.1.5"
    assert to_source(generate.program_for("3.1.5")) == to_source(ex[5].program)
    for text in a:
        parse(text)                          # every generated program reads back


@pytest.mark.parametrize("bad", ["3.1", "a.b.c", "1.2.3.4"])
def test_bad_example_ids(bad):
    with pytest.raises(ValueError, match="SEED.CHUNK.INDEX"):
        generate.parse_id(bad)


# ---------------------------------------------------------------- oracles, with fake pools
class FakePool:
    def __init__(self, backend, outcomes):
        self.backend, self.outcomes, self.requests = backend, list(outcomes), []

    def run(self, req):
        self.requests.append(req)
        if req.options.perturb or req.options.narrow_scans:   # ``Mismatch``'s alternatives (rare path):
            return Outcome("error", message="no alternatives in this fake")   # not given, the verdict stands
        return self.outcomes.pop(0)


TWO_INPUTS = """
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    tv2 = fd.ops.add(tv0, tv1)
    fd.add_output(tv2)

with FusionDefinition() as fd:
    fusion(fd)
inputs = [torch.randn(4, 8, device="cuda:0"), torch.randn(4, 8, device="cuda:0")]
fd.execute(inputs)
"""


def _judge(outcomes, refs=(), oracles=("failure",), backend="nvfuser", text=TWO_INPUTS):
    prog = parse(text)
    pool, ref = FakePool(backend, outcomes), FakePool("reference", refs)
    return run_oracles(prog, text, "x.py", pool, ref, backend=backend, oracles=oracles), pool, ref


def test_failure_owner_is_the_backend_unless_the_reference_fails_too():
    boom = Outcome("error", "nvfuser", signature="csrc/x.cpp f: boom", error_kind="compiler")
    j, _, ref = _judge([boom], [Outcome("ok", "reference")])
    (f,) = j.findings
    assert (f.kind, f.owner, str(f.key)) == ("failure", "nvfuser", "nvfuser error csrc/x.cpp f: boom")
    j, _, _ = _judge([boom], [Outcome("error", "reference", signature="fd.ops.add: bad", error_kind="definition")])
    (f,) = j.findings
    assert f.owner == "fmin" and f.key.label == "reference"      # the generator made an invalid program
    j, _, ref = _judge([Outcome("error", "inductor", signature="s", error_kind="environment")], backend="inductor")
    assert j.findings == [] and j.skipped.startswith("environment") and ref.requests == []
    j, _, _ = _judge([Outcome("error", "inductor", signature="graph break", error_kind="fmin-translation")],
                     [Outcome("ok", "reference")], backend="inductor")
    assert j.findings[0].owner == "fmin"


def test_metamorphic_findings_are_bucketed_by_the_kind_of_change():
    one = Outcome("ok", "nvfuser", segments=1, schedulers=["pointwise"])
    two = Outcome("ok", "nvfuser", segments=2, schedulers=["pointwise", "reduction"])
    j, pool, _ = _judge([two, one, two], oracles=("order", "layout"))
    (f,) = j.findings
    assert f.kind == "order-dependent" and f.flags == {"order_dependent": True}
    assert str(f.key) == "nvfuser order-dependent segmentation changes (reduction)"
    assert len(pool.requests) == 3
    permuted = parse(pool.requests[1].script)
    assert [s.outs[0] for s in permuted.input_stmts()] == ["tv1", "tv0"]
    relaid = parse(pool.requests[2].script)
    assert all(s.arg("stride_order") == (0, 1) for s in relaid.input_stmts())
    # a variant that fails is that failure's bucket (its key, its program), marked
    # (a program run as one kernel gets no permuted run: the relayout is the second request)
    j, pool, ref = _judge([one, Outcome("error", "nvfuser", signature="sig")], [Outcome("ok", "reference")],
                          oracles=("order", "layout"))
    (f,) = j.findings
    assert (f.kind, f.found_as, str(f.key), f.flags) == ("failure", "layout-dependent", "nvfuser error sig", {})
    assert f.marks == {"layout_dependent": True} and f.to_json()["layout_dependent"] is True
    assert f.text == pool.requests[1].script == ref.requests[0].script   # the relayouted program
    assert f.traits == {"dtypes": ["Float"], "ranks": [2]}


def test_inputs_are_permuted_only_where_the_backend_split_the_program():
    """A program nvFuser ran as one kernel (no segmented-fusion dump: ``segments`` None, or 1)
    gets no permuted run; one it split, and any program on a backend that reports no segments,
    does."""
    for single in (Outcome("ok", "nvfuser"), Outcome("ok", "nvfuser", segments=1, schedulers=["pointwise"])):
        j, pool, _ = _judge([single], oracles=("order",))
        assert j.findings == [] and len(pool.requests) == 1
    two = Outcome("ok", "nvfuser", segments=2, schedulers=["pointwise", "reduction"])
    j, pool, _ = _judge([two, two], oracles=("order",))
    assert j.findings == [] and len(pool.requests) == 2
    j, pool, _ = _judge([Outcome("ok", "reference"), Outcome("ok", "reference")], oracles=("order",),
                        backend="reference")
    assert len(pool.requests) == 2


def test_differential_finding_names_the_op_and_dtype(tmp_path):
    mine, theirs = tmp_path / "mine.pt", tmp_path / "ref.pt"
    x = torch.ones(4, 8)
    torch.save({"inputs": [x, x], "outputs": [x * 3]}, mine)
    torch.save({"inputs": [x, x], "outputs": [x + x]}, theirs)
    r64 = tmp_path / "r64.pt"
    torch.save({"inputs": [x, x], "outputs": [(x + x).double()]}, r64)
    j, _, ref = _judge([Outcome("ok", "nvfuser", values_path=str(mine), segments=1, schedulers=["pointwise"])],
                       [Outcome("ok", "reference", values_path=str(theirs)), Outcome("ok", values_path=str(r64))],
                       oracles=("differential",))
    (f,) = j.findings
    assert (f.kind, f.owner, str(f.key)) == ("mismatch", "nvfuser", "nvfuser mismatch values: add")
    assert f.flags == {"mismatch": "values"} and not mine.exists()   # values are deleted once judged


# ---------------------------------------------------------------- the corpus
def test_store_buckets_and_merge(tmp_path, capfd):
    f = Finding("failure", "nvfuser", fails("sig"), "words", {}, Outcome("error", signature="sig"))
    a, b = Store(str(tmp_path / "a")), Store(str(tmp_path / "b"))
    d, new = a.add(f, "script 1", "0.0.1", "nvfuser")
    assert new and os.path.basename(d) == bucket_id(f.key)
    assert open(os.path.join(d, "original.py")).read() == "script 1"
    d, new = a.add(f, "script 2", "0.0.7", "nvfuser")
    assert not new and open(os.path.join(d, "original.py")).read() == "script 1"
    assert a.meta(f.key).count == 2 and a.meta(f.key).examples == ["0.0.1", "0.0.7"]
    g = Finding("mismatch", "nvfuser", older("add", "float32"), "w", {"mismatch": True})
    b.add(f, "script 3", "0.1.0", "nvfuser")
    b.add(g, "script 4", "0.1.2", "nvfuser")
    r = fmin_here(capfd, "merge-findings", str(tmp_path / "a"), str(tmp_path / "b"), "--into", str(tmp_path / "m"))
    assert r.returncode == 0, r.stderr
    m = Store(str(tmp_path / "m"))
    assert m.meta(f.key).count == 3 and m.meta(f.key).examples == ["0.0.1", "0.0.7", "0.1.0"]
    assert m.meta(g.key).count == 1 and len(m.buckets()) == 2
    a.mark_stale(f.key, "not reproduced when replayed")
    assert a.meta(f.key).stale.reason == "not reproduced when replayed"
    a.add(f, "script 5", "0.0.9", "nvfuser")     # met again: not stale any more
    assert a.meta(f.key).stale is None and a.meta(f.key).recurred.example == "0.0.9"


def test_merge_keeps_the_attachment_shown_to_reproduce_standalone(tmp_path):
    """Two corpora minimized one bucket each; the campaign's copy was run standalone and showed the
    bug, the corpus's was never run: the merged bucket files the shown one (a maintainer runs it
    first), whichever has fewer ops, and counts both."""
    from minimizer.fuzz.judging.today import merge
    f = Finding("failure", "nvfuser", fails("sig"), "words", {}, Outcome("error", signature="sig"))
    old, new = Store(str(tmp_path / "old")), Store(str(tmp_path / "new"))
    for store, script, red, standalone in ((old, "old repro", 2, None),
                                           (new, "new repro", 3, {"ran": True, "reproduced": True})):
        d, _ = store.add(f, "original", "0.0.1" if store is old else "1.0.1", "nvfuser")
        open(os.path.join(d, "repro.min.py"), "w").write(script)
        m = store.meta(f.key)
        m.minimized, m.reduction = True, Reduction(ops_after=red)
        m.standalone = StandaloneRun(**standalone) if standalone else None
        store.save(m)
    merge([str(tmp_path / "new")], str(tmp_path / "old"))
    d = old.dir(f.key)
    assert open(os.path.join(d, "repro.min.py")).read() == "new repro"
    assert old.meta(f.key).standalone.reproduced is True and old.meta(f.key).count == 2


def test_bucket_property_holds_a_bucket_to_its_own_finding():
    """A wrong-value bucket is reduced under ``--mismatch values`` (also one stored before flags
    said so: read from its words), a failure under its recorded signature (never under what a
    replay shows: a failure that no longer happens would make a passing run the property)."""
    from minimizer.fuzz.judging.property import bucket_property, differs
    old_dtype = Bucket(kind="mismatch", key=older("bitwise_and", "bool"), flags={"mismatch": True},
                       words="nvfuser outputs differ from the reference: output 0: int64[3, 5] vs reference bool[3, 5]")
    assert differs(old_dtype) == "dtype"
    (c,) = bucket_property(old_dtype, None).checks
    assert c.name == "mismatch" and c.what == "dtype"
    vals = Bucket(kind="mismatch", key=older("cumprod", "float16"), flags={"mismatch": "values"},
                  words="output 0 (float16[9]): 1 of 9 elements differ")
    assert bucket_property(vals, None).checks[0].what == "values"
    fail = Bucket(kind="failure", key=fails("k"), flags={})
    (c,) = bucket_property(fail, {"status": "error", "signature": "nvfuser compile: x"}).checks
    assert (c.name, c.status, c.signature, c.key) == ("failure", "error", "nvfuser compile: x", "nvfuser compile: x")
    lay = Bucket(kind="layout-dependent", key=BucketKey(verbatim="k"), flags={"layout_dependent": True})
    assert bucket_property(lay, None).checks[0].name == "layout-dependent"


def test_rekey_merges_buckets_whose_signatures_now_coincide(tmp_path, capfd):
    """One missing overload in a pointwise and in a reduction kernel was two buckets before
    signatures made the kernel's file name neutral; ``fmin merge-findings --into DIR`` re-keys DIR
    in place and merges them, keeping the smaller minimal repro, and the outcome's signature
    follows (so a recheck compares like with like); the bucket answers to its old keys."""
    st = Store(str(tmp_path))
    sig = 'nvfuser compile: x.cpp:f: RuntimeError: __tmp_nvfuser_{}_f?_c?_r?_g?.cu(N): error: no "nvf::frac"'
    old = []
    for i, sched in enumerate(("pointwise", "reduction")):
        f = Finding("failure", "nvfuser", fails(sig.format(sched)), "w", {},
                    Outcome("error", "nvfuser", signature=sig.format(sched)))
        st.add(f, f"script {sched}", f"1.0.{i}", "nvfuser")
        st.mark_minimized(f.key, {"ops_before": 9, "ops_after": 3 - i})
        old.append(f.key)
    keep = st.dir(f.key)
    with open(os.path.join(keep, "repro.min.py"), "w") as fh:
        fh.write("the reduction kernel's repro")
    r = fmin_here(capfd, "merge-findings", "--into", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "2 -> 1 bucket(s), 1 merged into another" in r.stdout
    (b,) = Store(str(tmp_path)).buckets()
    assert "__tmp_nvfuser_*.cu" in b.key.message and b.count == 2 and sorted(b.examples) == ["1.0.0", "1.0.1"]
    assert set(b.old_keys) == {str(k) for k in old}
    d = st.dir(b.key)
    assert open(os.path.join(d, "repro.min.py")).read() == "the reduction kernel's repro"
    assert st.outcome(b.key)["signature"] == sig.format("*").replace("*_f?_c?_r?_g?", "*")
    st = Store(str(tmp_path))
    assert st.dir(old[0]) == st.dir(old[1]) == d                  # old keys lead to the bucket
    st.add(Finding("failure", "nvfuser", old[0], "w", {}), "again", "1.0.9", "nvfuser")
    assert st.meta(b.key).count == 3 and len(st.buckets()) == 1
    r = fmin_here(capfd, "merge-findings", "--into", str(tmp_path))
    assert "1 -> 1 bucket(s), 0 merged" in r.stdout


def test_a_re_keyed_bucket_keeps_its_id_and_its_attachment_names_the_bucket_it_is_filed_under(tmp_path):
    """A bucket re-keyed after its reduction keeps its id (the new key is an alias), so its
    repro.min.py's ``# finding:`` line still names it; merged into another bucket, the line names
    the id the merge is filed under (six attachments of corpus/findings named a gone one)."""
    st = Store(str(tmp_path))
    f = Finding("mismatch", "nvfuser", values("stride_order"), "w", {})
    st.add(f, "script", "1.0.0", "nvfuser")
    old = st.meta(f.key).id
    with open(os.path.join(st.dir(f.key), "repro.min.py"), "w") as fh:
        fh.write(f"# confirmed on: X\n# finding: mismatch (nvfuser), bucket {old}: outputs differ\nimport torch\n")
    assert st.move(f.key, replace(st.meta(f.key), key=values("welford"))) == "moved"
    assert os.listdir(tmp_path) == [old] and st.meta("nvfuser mismatch values: welford").id == old
    text = open(os.path.join(tmp_path, old, "repro.min.py")).read()
    assert f"# finding: mismatch (nvfuser), bucket {old}: outputs differ\n" in text
    g = Finding("mismatch", "nvfuser", values("cast"), "w", {})
    st.add(g, "script", "1.0.1", "nvfuser")
    assert st.move(g.key, replace(st.meta(g.key), key=values("welford"))) == "merged"
    (home,) = os.listdir(tmp_path)
    text = open(os.path.join(tmp_path, home, "repro.min.py")).read()
    assert f"# finding: mismatch (nvfuser), bucket {home}: outputs differ\n" in text
    assert st.dir(f.key) == st.dir(g.key) == st.dir("nvfuser mismatch values: welford") == str(tmp_path / home)


def test_a_minimized_wrong_result_is_keyed_by_its_ops(tmp_path):
    """Found as a wrong ``sub`` and a wrong ``mul`` of two generated programs, both minimized to a
    half ``cumprod`` feeding a ``sub``: one bucket once re-keyed from the minimal repros."""
    from minimizer.fuzz.judging.today import rekey_minimized
    st = Store(str(tmp_path))
    repro = TWO_INPUTS.replace("fd.ops.add(tv0, tv1)", "fd.ops.sub(fd.ops.cumprod(tv0, dim=0), tv1)")
    keys = []
    for i, op in enumerate(("sub", "mul")):
        f = Finding("mismatch", "inductor", values(op, label="inductor"), "w", {"mismatch": "values"},
                    traits={"dtypes": ["Half"], "ranks": [2]})
        st.add(f, TWO_INPUTS, f"2.0.{i}", "inductor")
        with open(os.path.join(st.dir(f.key), "repro.min.py"), "w") as fh:
            fh.write(repro)
        st.mark_minimized(f.key, {"ops_before": 9, "ops_after": 2 + i})
        keys.append(rekey_minimized(st, f.key))
    assert keys[0] == keys[1] == "inductor mismatch values: cumprod, sub"
    (b,) = st.buckets()
    assert b.count == 2 and b.dtypes == {"Half": 2} and b.ranks == {"2": 2}
    assert set(b.old_keys) == {"inductor mismatch values: sub", "inductor mismatch values: mul"}
    assert b.reduction.ops_after == 2                          # the smaller repro kept


def test_a_wrong_dtype_is_keyed_by_the_typing_rule_it_shows():
    """Two stale buckets of 2026-12-03 whose minimal repros both end in a ``where``: one gave
    Int64 where the reference said Bool (a Python bool literal), the other Float where it said
    BFloat16 (Half arithmetic in Float): two typing rules, two keys; Int64-for-Bool in a ``where``
    and in a ``reshape`` program minimized to a ``where`` is one."""
    from minimizer.fuzz.judging.keys import bucket_key
    program = parse(TWO_INPUTS.replace("fd.ops.add(tv0, tv1)", "fd.ops.where(fd.ops.gt(tv0, 0.0), tv0, tv1)"))
    words = {"95e8bf6c9394": "nvfuser outputs differ from the reference: output 3: int64[7, 11, 9, 1] vs reference "
                             "bool[7, 11, 9, 1]",
             "d6eb499a09df": "nvfuser outputs differ from the reference: output 0: int64[13, 4, 9, 4] vs reference "
                             "bool[13, 4, 9, 4]",
             "411ac187154a": "nvfuser outputs differ from the reference: output 0: float32[4, 2] vs reference "
                             "bfloat16[4, 2]"}   # their recorded words
    keys = {b: str(bucket_key(Bucket(kind="mismatch", backend="nvfuser", key=older("where", "bool"), words=w),
                              None, program, True)) for b, w in words.items()}
    assert keys["95e8bf6c9394"] == keys["d6eb499a09df"] == "nvfuser mismatch dtype (int for bool): gt, where"
    assert keys["411ac187154a"] == "nvfuser mismatch dtype (float for half): gt, where"


ACCEPTANCE = os.path.join(ROOT, "tests", "data", "findings-2026-12-03")


def test_merge_findings_collapses_the_h200_corpus_to_root_causes(tmp_path, capfd):
    """The acceptance check on the corpus the H200 campaigns filed (nvFuser 0.2.36 and Triton;
    the stale wrong-dtype buckets left out): merged into an empty corpus, the buckets of one bug
    become one (the layout-dependent variants of a failure with it, marked), and no merged
    bucket mixes two root causes — every bucket merged into one raised its error at one site."""
    import shutil
    src = tmp_path / "src"
    shutil.copytree(ACCEPTANCE, src)
    r = fmin_here(capfd, "merge-findings", str(src), "--into", str(tmp_path / "m"))
    assert r.returncode == 0, r.stderr
    assert "76 -> 41 bucket(s), 35 merged into another" in r.stdout, r.stdout
    st = Store(str(tmp_path / "m"))
    olds = [json.load(open(os.path.join(ACCEPTANCE, d, "finding.json"))) for d in os.listdir(ACCEPTANCE)
            if os.path.isdir(os.path.join(ACCEPTANCE, d))]
    groups = {}
    for b in st.buckets():
        members = [m for m in olds if m["key"] in (b.old_keys or ()) or m["key"] == str(b.key)]
        assert members                                             # every bucket is one of the old ones, or more
        if len(members) > 1:
            groups[str(b.key)] = (b, members)
    assert len(groups) == 7
    sites = {}
    for key, (b, members) in groups.items():
        if b.kind == "failure":
            where = {json.load(open(os.path.join(ACCEPTANCE, m["id"], "outcome.json")))["signature"].split(": ")[1]
                     for m in members}
            assert len(where) == 1, where                              # one site per merged bucket
            sites[where.pop()] = b
        else:
            assert {m["kind"] for m in members} == {"mismatch"}
            assert key in ("nvfuser mismatch shape (an expanded extent returned as 1) at cat",
                           "nvfuser mismatch shape (a concatenated extent lost) at cat")
    # a lost extent is one row per op that loses it: the two other expanded extents returned as 1
    # (a ``slice`` then ``broadcast_in_dim``; a ``pad``, ``reshape`` then ``prod``) are rows of their own
    alone = {b.id: str(b.key) for b in st.buckets() if b.id in ("c49f1fcb6c39", "ff64d9b2f148")}
    assert alone == {"c49f1fcb6c39": "nvfuser mismatch shape (an expanded extent returned as 1) at broadcast_in_dim",
                     "ff64d9b2f148": "nvfuser mismatch shape (an expanded extent returned as 1) at prod"}
    # wrong results keyed by the kind of difference and the minimized repro's ops: two value
    # mismatches after a `cast` of huge values are two buckets, their repros (a cumprod, a cosh)
    # being different programs — one bucket only while both were unminimized (keyed by `cast`)
    casts = [b for b in st.buckets() if {"nvfuser mismatch cast -> int64", "nvfuser mismatch cast -> float32"}
             & set((b.old_keys or ()))]
    assert all(b.minimized for b in casts)
    assert sorted(str(b.key) for b in casts) == ["nvfuser mismatch values: addcmul, cosh",
                                               "nvfuser mismatch values: cast, cumprod"]
    assert set(sites) == {"runtime/compiled_kernel.cpp:invoke",   # the reduced-precision NVRTC family
                          "device_lower/analysis/predicate_elimination.cpp:setReductionInitValue",
                          "scheduler/greedy.cpp:partitionFusion",
                          "tensor_metadata.cpp:validateAllocationSizesAndStrides",
                          "expr_evaluator.cpp:bindTensorDomain"}
    stride = sites["tensor_metadata.cpp:validateAllocationSizesAndStrides"]
    assert stride.layout_dependent is True and stride.count == 11 and " validation: " in stride.key.cause
    assert stride.owner == "nvfuser"
    d = st.dir(stride.key)
    assert stride.minimized and "fd.ops.cum" in open(os.path.join(d, "repro.min.py")).read()
    assert not os.path.exists(os.path.join(d, "original.unvaried.py"))   # a failure bucket's files kept
    # counted over the six originals it absorbed (each dtype and rank once per original): the bug
    # shows in five dtypes and three ranks
    assert stride.dtypes == {"BFloat16": 3, "Half": 2, "Float": 1, "Int": 1, "Int32": 1}
    assert stride.ranks == {"2": 2, "3": 3, "4": 1}


def test_recheck_marks_fixed_and_invalid_buckets_stale(tmp_path, monkeypatch):
    """--recheck (fake pools): a failure that still happens reproduces; one that no longer happens
    (twice) is stale; one the reference now rejects too is no longer a finding (an invalid
    program); a bucket found on another device is left alone."""
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign.recheck import recheck
    st = Store(str(tmp_path))
    behaviour = {"still": ("error", "ok"), "fixed": ("ok", "ok"), "invalid": ("error", "error")}
    for name, dev in (("still", "cpu"), ("fixed", "cpu"), ("invalid", "cpu"), ("elsewhere", "cuda")):
        f = Finding("failure", "nvfuser", fails(f"sig {name}"), "w", {},
                    Outcome("error", "nvfuser", signature=f"sig {name}"))
        st.add(f, TWO_INPUTS + f"# {name}\n", f"1.0.{name}", "nvfuser", {"device": dev})

    class Fake:
        def __init__(self, backend, device, jobs=1, timeout=0, options=None):
            self.backend, self.environment = backend, {"backend": backend}

        def run(self, req):
            name = req.script.rstrip().rsplit("# ", 1)[1]
            status = behaviour[name][self.backend == "reference"]
            return Outcome(status, self.backend, signature=None if status == "ok" else f"sig {name}")

        workers = ()

        def close(self):
            pass

    from minimizer.oracle import context
    monkeypatch.setattr(context, "Pool", Fake)   # the campaign's pools come from its run context
    rows = recheck(CampaignOptions(ctx=RunContext(backend="nvfuser", device="cpu", quiet=True),
                                   corpus=str(tmp_path)))
    got = {r["key"].rsplit(" ", 1)[1]: (r["reproduces"], r["reason"]) for r in rows}
    assert set(got) == {"still", "fixed", "invalid"}
    assert got["still"][0] is True and got["fixed"][0] is False and got["invalid"][0] is False
    assert "expected error `sig fixed`" in got["fixed"][1] and "reference rejects" in got["invalid"][1]
    stale = {b.key.cause.rsplit(" ", 1)[1] for b in st.buckets() if b.stale}
    assert stale == {"fixed", "invalid"}


def test_recheck_records_the_value_rules_the_reference_run_broke(tmp_path, monkeypatch):
    """A bucket filed before fmin knew a value rule (b58dbe69fd27: ``prod`` overflowing int64):
    --recheck records what the reference's run broke (``undefined``), so the bug list files the
    bucket under missing checks rather than bugs where the failure depends on values (an illegal
    address here; an internal assert is not excused: ``test_classes``)."""
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign.recheck import recheck
    from minimizer.fuzz.buglist import classes
    st = Store(str(tmp_path))
    broke = [{"rule": "int-overflow", "message": "prod of int64 overflows", "op": "prod"}]
    for name in ("overflow", "still"):
        f = Finding("failure", "nvfuser", fails(f"illegal memory access {name}"), "w", {},
                    Outcome("error", "nvfuser", signature=f"illegal memory access {name}"))
        st.add(f, TWO_INPUTS + f"# {name}\n", f"1.0.{name}", "nvfuser", {"device": "cpu"})

    class Fake:
        def __init__(self, backend, device, jobs=1, timeout=0, options=None):
            self.backend, self.environment = backend, {"backend": backend}

        def run(self, req):
            name = req.script.rstrip().rsplit("# ", 1)[1]
            if self.backend == "reference":
                return Outcome("ok", "reference", undefined=broke if name == "overflow" else None)
            return Outcome("error", self.backend, signature=f"illegal memory access {name}")

        workers = ()

        def close(self):
            pass

    from minimizer.oracle import context
    monkeypatch.setattr(context, "Pool", Fake)
    rows = recheck(CampaignOptions(ctx=RunContext(backend="nvfuser", device="cpu", quiet=True),
                                   corpus=str(tmp_path)))
    assert all(r["reproduces"] for r in rows)
    by = {b.key.cause.rsplit(" ", 1)[1]: b for b in st.buckets()}
    assert by["overflow"].undefined == broke and by["still"].undefined is None
    again = {b.key.cause.rsplit(" ", 1)[1]: b for b in Store(str(tmp_path)).buckets()}   # as stored
    assert again["overflow"].undefined == broke
    assert classes.invalid(again["overflow"], None, None) == ("int-overflow", "prod of int64 overflows")
    assert classes.invalid(again["still"], None, None) is None


def test_usage_errors_exit_2_without_traceback(tmp_path, capfd):
    for args in (["--shard", "3/2"], ["--oracles", "failure,psychic"], ["--replay", "nope"]):
        r = fmin_here(capfd, "fuzz", "--backend", "reference", "--device", "cpu", "--corpus", str(tmp_path), *args)
        assert r.returncode == 2, (args, r.stderr)
        assert "Traceback" not in r.stderr and r.stderr.startswith("fmin: ")


# ---------------------------------------------------------------- campaigns end to end
def test_reference_campaign_finds_nothing_and_reports(tmp_path, capfd):
    junit, summ = tmp_path / "j.xml", tmp_path / "s.json"
    r = fmin_here(capfd, "fuzz", "--backend", "reference", "--device", "cpu", "--max-examples", "24", "--seed", "5",
             "--jobs", "2", "--corpus", str(tmp_path / "c"), "--junit", str(junit), "--summary", str(summ), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(summ.read_text())
    assert s["programs"] == 24 and s["statuses"] == {"ok": 24} and s["new_buckets"] == []
    assert s["op_coverage"]["ops"] >= 10
    assert re.search(r"^\| programs run +\| 24 \|$", r.stdout, re.M), r.stdout
    suite = ET.parse(junit).getroot()
    assert suite.get("failures") == "0" and suite.get("tests") == "1"


def test_a_campaign_stopped_by_sigterm_writes_what_it_judged(tmp_path):
    """``timeout`` stops a campaign with SIGTERM: it ends as Ctrl-C ends it (exit 130, no
    traceback), its summary marked interrupted and counting the programs judged so far."""
    import signal
    import time
    import glob
    summ, corpus = tmp_path / "s.json", tmp_path / "c"
    p = subprocess.Popen([sys.executable, "-m", "minimizer", "fuzz", "--backend", "reference", "--device", "cpu",
                          "--time", "300", "--seed", "5", "--jobs", "1", "--corpus", str(corpus), "--resume",
                          "--summary", str(summ), "-q"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL))
    t0 = time.monotonic()
    while time.monotonic() - t0 < 240:   # until the resume record shows programs judged
        recs = glob.glob(str(corpus / "campaign-*.jsonl"))
        if recs and sum(1 for _ in open(recs[0], encoding="utf-8")) >= 3:
            break
        time.sleep(0.5)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and "Traceback" not in err, err
    s = json.loads(summ.read_text())
    assert s["interrupted"] is True and s["programs"] > 0 and s["judge_seconds"] < 280


RELU_BUG = "cpp.inject_relu_bug_TESTING_ONLY=accuracy"
#: the bucket the campaign below files (its minimal repro: one float relu), as that campaign left it
#: on 2026-12-07; the recheck and stale tests start from a copy instead of running the campaign again
RELU_BUCKET = os.path.join(ROOT, "tests", "data", "buckets", "ec58de50d192")
RELU_CAMPAIGN = ["fuzz", "--backend", "inductor", "--device", "cpu", "--max-examples", "7", "--seed", "30", "--jobs", "2",
                 "--oracles", "failure,differential", "--inductor-config", RELU_BUG, "--minimize-time", "90", "-q"]


def relu_corpus(tmp_path):
    """A corpus holding a copy of ``RELU_BUCKET``, and that bucket as the store reads it."""
    import shutil
    corpus = tmp_path / "findings"
    shutil.copytree(RELU_BUCKET, corpus / os.path.basename(RELU_BUCKET))
    (b,) = Store(str(corpus)).buckets()
    return corpus, b


def test_inductor_campaign_finds_minimizes_and_then_counts_the_relu_bug(tmp_path, capfd):
    """Seed 30's chunk 0 holds a float relu at example 6 (see test below), alone in its program.
    The one campaign of the suite that finds, minimizes and files a bug end to end (through
    ``cli.main``; its workers are warm ones): what it files is what ``RELU_BUCKET`` holds."""
    corpus = tmp_path / "findings"
    args = [*RELU_CAMPAIGN, "--corpus", str(corpus)]
    r = fmin_here(capfd, *args, "--junit", str(tmp_path / "j.xml"))
    assert r.returncode == 1, r.stdout + r.stderr          # a new finding
    relu = [b for b in Store(str(corpus)).buckets() if "relu" in b.key.ops]
    assert len(relu) == 1, r.stdout
    (b,) = relu
    assert b.kind == "mismatch" and b.owner == "inductor" and b.minimized   # eager translation agrees
    assert b.generator == {"frontend": None, "max_ops": 12}     # what --replay needs
    minimal = (corpus / b.id / "reduced.py").read_text()
    ops = [ln for ln in minimal.splitlines() if "fd.ops." in ln]
    assert len(ops) == 1 and "fd.ops.relu(" in ops[0], minimal
    kept = open(os.path.join(RELU_BUCKET, "reduced.py")).read()
    assert b.id == os.path.basename(RELU_BUCKET) and parse(minimal).stmts == parse(kept).stmts
    assert (corpus / b.id / "report.md").exists() and (corpus / b.id / "original.py").exists()
    for name in ("report.md", "report.json", "repro.min.py", "finding.json"):   # the corpus travels
        assert str(tmp_path) not in (corpus / b.id / name).read_text(), name
    # re-keyed from the minimal repro (its one op) and its own run stored beside it
    assert str(b.key) == "inductor mismatch values: relu" and b.dtypes and b.ranks
    run = json.loads((corpus / b.id / "outcome.min.json").read_text())
    assert run["status"] == "ok" and run["backend"] == "inductor"
    # filed: repro.min.py is the same fusion ending with the short eager check (assert_close at
    # fmin's tolerance), and run standalone (a fresh process, the header's Inductor config) it
    # fails with the check's AssertionError
    attached = (corpus / b.id / "repro.min.py").read_text()
    assert parse(attached).stmts == parse(minimal).stmts and len(attached.splitlines()) <= 40, attached
    assert "torch.testing.assert_close(got, w, rtol=rtol, atol=atol" in attached
    assert attached.rstrip().splitlines()[-1].lstrip().startswith("check_against_eager(outputs, inputs, inputs_before")
    assert "# inductor config: cpp.inject_relu_bug_TESTING_ONLY=accuracy" in attached
    sa = b.standalone
    assert sa.ran and sa.reproduced and sa.exit_code == 1, sa
    assert sa.why.startswith("AssertionError: wrong result (values) in output 0: Tensor-likes are not close"), sa.why
    assert "| yes |" in r.stdout and "1 reproduce" in r.stdout                 # the summary's rows and tally
    listed = (corpus / "report.md").read_text()
    assert f"| {b.id} | inductor | mismatch (values) | output of `relu`" in listed and "| yes |" in listed
    suite = ET.parse(tmp_path / "j.xml").getroot()
    assert int(suite.get("failures")) >= 1
    assert any(tc.get("name") == b.id and "reproduces standalone" in tc.find("failure").get("message")
               for tc in suite.iter("testcase") if tc.find("failure") is not None)
    # the same campaign again: the bucket is known, counted, not re-minimized; nothing new
    before = (corpus / b.id / "repro.min.py").stat().st_mtime
    r = fmin_here(capfd, *args)
    assert r.returncode == 0, r.stdout + r.stderr
    assert Store(str(corpus)).meta(b.key).count == 2
    assert (corpus / b.id / "repro.min.py").stat().st_mtime == before


def test_recheck_tells_a_fixed_bug_from_one_that_still_reproduces(tmp_path, capfd):
    """--recheck on the relu bucket: without the injected bug the reduced script no longer shows
    it (what an upgrade that fixes a bug looks like): stale; with it, it does, and the bucket,
    stale until then, is not any more. The attachment runs standalone each time, as its header
    states: with the injection."""
    corpus, b = relu_corpus(tmp_path)
    rc = ["fuzz", "--recheck", "--backend", "inductor", "--device", "cpu", "--corpus", str(corpus), "--jobs", "2", "-q"]
    r = fmin_here(capfd, *rc, "--summary", str(tmp_path / "rc.json"))
    assert r.returncode == 0 and f"| {b.id} | reduced.py | **no** (stale) |" in r.stdout, r.stdout + r.stderr
    (row,) = json.loads((tmp_path / "rc.json").read_text())["buckets"]
    assert row["id"] == b.id and row["reproduces"] is False and row["standalone"] is True
    m = Store(str(corpus)).meta(b.key)
    assert m.stale and m.recheck.reproduces is False and "match reference" in m.recheck.reason
    assert "## Stale (1)" in (corpus / "report.md").read_text()
    r = fmin_here(capfd, *rc, "--inductor-config", RELU_BUG)
    assert r.returncode == 0 and f"| {b.id} | reduced.py | yes |" in r.stdout, r.stdout + r.stderr
    assert r.stdout.split(f"| {b.id} | reduced.py | yes |")[1].split("\n")[0].endswith("| yes |"), r.stdout
    assert Store(str(corpus)).meta(b.key).stale is None and "1 reproduce, 0 stale" in r.stdout


def test_an_unminimized_bucket_whose_original_no_longer_shows_it_is_marked_stale(tmp_path, capfd):
    """A stored bucket left unminimized whose original no longer shows the finding (the bug
    injection is off): marked stale with the reason, not minimized into something else."""
    corpus, b = relu_corpus(tmp_path)
    m = json.loads((corpus / b.id / "finding.json").read_text())
    m["minimized"] = False
    m.pop("reduction")
    (corpus / b.id / "finding.json").write_text(json.dumps(m))
    r = fmin_here(capfd, "fuzz", "--backend", "inductor", "--device", "cpu", "--max-examples", "0", "--corpus",
                  str(corpus), "--jobs", "2", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    m = Store(str(corpus)).meta(b.key)
    assert not m.minimized and "not reproduced when replayed" in m.stale.reason
    assert "outputs differ from reference in values" in m.stale.reason


def test_fail_on_chooses_which_new_buckets_fail_a_campaign():
    """``--fail-on``: ``new`` (the default) fails on any new bucket, ``fmin`` (CI) only on fmin's
    own — an Inductor bug such as the relu one above is not fmin's, so CI stays green —,
    ``never`` on none."""
    from minimizer.cli.fuzz import fuzz_exit_code
    from minimizer.fuzz.campaign.summary import NewBucket
    theirs, mine = NewBucket(Bucket(owner="inductor"), "a"), NewBucket(Bucket(owner="fmin"), "b")
    assert [fuzz_exit_code(f, [theirs]) for f in ("new", "fmin", "never")] == [1, 0, 0]
    assert [fuzz_exit_code(f, [theirs, mine]) for f in ("new", "fmin", "never")] == [1, 1, 0]
    assert [fuzz_exit_code(f, []) for f in ("new", "fmin", "never")] == [0, 0, 0]


def test_replay_regenerates_an_example(capfd):
    r = fmin_here(capfd, "fuzz", "--replay", "30.0.6", "--backend", "reference", "--device", "cpu")
    assert r.returncode == 0, r.stderr
    assert "fd.ops.relu(" in r.stdout and "# 30.0.6 on reference: ok" in r.stdout
    assert to_source(generate.program_for("30.0.6")) in r.stdout


#: of the 12 chunks of seed 2031 that hashed three ways (see below), the two that drew differently:
#: chunk 4 after importing either module set, chunk 7 after ``backends.nvfuser_log`` only
_SENSITIVE_CHUNKS = (4, 7)
_CHUNKS_HASH = f"""
import hashlib, importlib, sys
for m in sys.argv[1:]:
    importlib.import_module(m)
from minimizer.fuzz.sources import generate
from minimizer.program import to_source
print(hashlib.sha256("".join(to_source(e.program) for k in {_SENSITIVE_CHUNKS} for e in generate.chunk(2031, k)).encode()).hexdigest())
"""


def test_an_example_id_gives_one_program_whatever_modules_are_loaded():
    """Hypothesis draws some values from the literals of the local modules loaded: before
    ``fixed_constants`` 12 chunks of seed 2031 hashed three ways depending on which of fmin's
    modules a process had imported, so a replay could give another program than the campaign.
    The three processes run at once; they hash the two chunks that told the three apart."""
    runs = [subprocess.Popen([sys.executable, "-c", _CHUNKS_HASH, *modules], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
            for modules in ((), ("minimizer.backends.nvfuser_log",), ("minimizer.fuzz.campaign.run", "minimizer.cli"))]
    got = set()
    for p in runs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        got.add(out.strip())
    assert len(got) == 1
    import hashlib
    here = hashlib.sha256("".join(to_source(e.program) for k in _SENSITIVE_CHUNKS
                                  for e in generate.chunk(2031, k)).encode()).hexdigest()
    assert got == {here}


def test_a_dtype_difference_is_fmins_typing_rule_not_a_wrong_value(tmp_path):
    """nvFuser returns Float for Half arithmetic; the reference (torch) Half: that difference is
    a rule of fmin's reference to fix, bucketed apart from wrong values."""
    mine, theirs = tmp_path / "mine.pt", tmp_path / "ref.pt"
    x = torch.ones(4, 8, dtype=torch.float16)
    torch.save({"inputs": [x, x], "outputs": [(x + x).float()]}, mine)
    torch.save({"inputs": [x, x], "outputs": [x + x]}, theirs)
    j, _, ref = _judge([Outcome("ok", "nvfuser", values_path=str(mine), segments=1, schedulers=["pointwise"])],
                       [Outcome("ok", "reference", values_path=str(theirs))], oracles=("differential",))
    (f,) = j.findings
    assert (f.owner, str(f.key)) == ("fmin", "nvfuser mismatch dtype (float for half): add")
    assert "float32[4, 8] vs reference float16[4, 8]" in f.words


def test_welford_count_may_be_int32_or_int64(tmp_path):
    """welford's count has nvFuser's Index type (Int32 or Int64 as the kernel indexes): that
    difference alone is no finding; a wrong mean next to it still is."""
    text = TWO_INPUTS.replace("tv2 = fd.ops.add(tv0, tv1)\n    fd.add_output(tv2)",
                              "tv2, tv3, tv4 = fd.ops.welford(tv0, dims=[0])\n    fd.add_output(tv2)\n"
                              "    fd.add_output(tv4)")
    x = torch.ones(4, 8)
    n32, n64 = torch.full((8,), 4, dtype=torch.int32), torch.full((8,), 4, dtype=torch.int64)
    for mean, found in ((x[0], False), (x[0] + 1, True)):
        mine, theirs, r64 = tmp_path / "m.pt", tmp_path / "r.pt", tmp_path / "r64.pt"
        torch.save({"inputs": [x, x], "outputs": [mean, n64]}, mine)
        torch.save({"inputs": [x, x], "outputs": [x[0], n32]}, theirs)
        torch.save({"inputs": [x, x], "outputs": [x[0].double(), n32]}, r64)
        j, _, _ = _judge([Outcome("ok", "nvfuser", values_path=str(mine), segments=1, schedulers=["reduction"])],
                         [Outcome("ok", "reference", values_path=str(theirs)), Outcome("ok", values_path=str(r64))],
                         oracles=("differential",), text=text)
        assert [str(f.key) for f in j.findings] == (["nvfuser mismatch values: welford"] if found else [])


def test_where_operands_broadcast_with_the_condition_too():
    """Regression: the H200 campaign stopped on chunk 26 of seed 2026 (direct frontend), where
    the generator paired ``where``'s other operand with x but not with the condition."""
    ex = generate.chunk(2026, 26, frontend="nvfuser_direct")
    assert len(ex) == generate.CHUNK


def test_a_generator_error_is_an_fmin_finding_and_the_campaign_goes_on(tmp_path, monkeypatch):
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign import run as campaign
    real = generate.chunk

    def flaky(seed, k, **kw):
        if k == 0:
            raise RuntimeError("Attempting to broadcast a dimension of length 6 at -1!")
        return real(seed, k, **kw)

    monkeypatch.setattr(campaign.generate, "chunk", flaky)
    s = campaign.run_campaign(CampaignOptions(ctx=REF_CTX, max_examples=5, seed=1,
                                              corpus=str(tmp_path), minimize=True))
    assert s.programs == 5 and s.findings["generator"] == 1
    (b,) = Store(str(tmp_path)).buckets()
    assert b.kind == "generator" and b.owner == "fmin" and "length N at -N" in b.key.cause
    assert not b.minimized and b.first_example == "1.0.-"


def test_a_campaign_with_a_progress_record_resumes_where_it_stopped(tmp_path):
    """``--resume`` (the default with ``--ray``): the record lists what was judged; the same
    campaign again skips it and counts it against ``max_examples``; a torn last line (a driver
    killed while writing it) is ignored; a record of other generation settings is refused."""
    from minimizer.errors import UsageError
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign import run as campaign
    from minimizer.fuzz.store.progress import Progress

    def run(n, **kw):
        return campaign.run_campaign(CampaignOptions(ctx=REF_CTX, max_examples=n,
                                                     seed=4, corpus=str(tmp_path),
                                                     resume=True, **kw))
    s = run(5)
    (name,) = [n for n in os.listdir(tmp_path) if n.startswith("campaign-")]
    assert name == "campaign-reference-cpu-4-0of1.jsonl" and s.programs == 5 and s.resumed == 0
    with open(tmp_path / name, "a") as f:
        f.write('{"id": "4.0.')                       # torn
    s = run(8)
    assert (s.programs, s.resumed) == (3, 5)
    p = Progress(str(tmp_path), "reference", "cpu", 4, (0, 1), {"frontend": None, "max_ops": 12})
    assert len(p.judged) == 8 and p.judged == {f"4.0.{i}" for i in range(8)}
    p.close()
    assert run(8).programs == 0                       # all judged: nothing left to do
    with pytest.raises(UsageError, match="other settings"):
        run(8, max_ops=3)
    s = campaign.run_campaign(CampaignOptions(ctx=REF_CTX, max_examples=2, seed=4,
                                              corpus=str(tmp_path), resume=False, max_ops=3))
    assert s.programs == 2                            # --no-resume: the record starts over


def test_reducing_new_buckets_says_which_and_how_far_unless_quiet(tmp_path, capsys):
    """The reductions after the judging take minutes with nothing else to show: a line as each
    bucket starts (n of m) and as each is filed (its size, whether it reproduced standalone).
    The runner here hands back what ``reduce_bucket`` returns; the lines are what is tested."""
    from concurrent.futures import Future
    from minimizer.fuzz.campaign.run import CampaignOptions, _Campaign
    results = []

    class Runner:
        reduce_slots = 1

        def reduce(self, key, meta, outcome, out):
            f = Future()
            f.set_result(results.pop(0))
            return f

    for quiet in (False, True):
        corpus = tmp_path / str(quiet)
        run = _Campaign(CampaignOptions(ctx=RunContext(backend="reference", quiet=quiet), corpus=str(corpus)))
        ids = []
        for i in range(2):
            f = Finding("failure", "reference", fails(f"boom {i}", label="reference"), "w", {},
                        Outcome("error", "reference", signature=f"boom {i}"))
            run.store.add(f, "script", f"1.0.{i}", "reference")
            run.new_keys.append((f.key, {}))
            ids.append(run.store.meta(f.key).id)
        results[:] = [{"minimized": {"ops_before": 9, "ops_after": 1}, "standalone": {"ran": True, "reproduced": True}},
                      {"error": "RuntimeError: lost"}]
        run.minimize_pending(Runner())
        err = capsys.readouterr().err
        if quiet:
            assert err == ""
            continue
        assert f"reducing bucket 1 of 2: {ids[0]} (failure)" in err and f"reducing bucket 2 of 2: {ids[1]}" in err
        assert f"1 of 2 done: {ids[0]}: ops 9 -> 1, reproduces standalone" in err, err
        assert f"2 of 2 done: {ids[1]}: not reduced (RuntimeError: lost)" in err, err
