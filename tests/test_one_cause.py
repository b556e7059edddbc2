"""One cause, one row, by cause (issue 43): a minimal repro's structure names a known mechanism
instead of its ops, a wrong shape names the op that loses the extent, and a row that merges repros
of other op paths keeps a runnable attachment for each. Real buckets of ``corpus/findings``
(copied to ``tests/data/one-row``, see its README) re-keyed offline as ``fmin merge-findings``
does; programs written here where a structure is the point."""
import json
import os
import shutil
from dataclasses import replace

from conftest import ROOT
from minimizer.fuzz.judging.keys import lost_at, mismatch_key
from minimizer.fuzz.judging.mechanisms import STRIDED_INPLACE_WRITE, VARIANCE_OF_REDUCTION, mechanism_of
from minimizer.fuzz.judging.today import merge, rekey
from minimizer.fuzz.store import examples, record
from minimizer.fuzz.store.key import MISMATCH, BucketKey
from minimizer.fuzz.store.files import reduced_script
from minimizer.fuzz.store.store import Store
from minimizer.program import parse

DATA = os.path.join(ROOT, "tests", "data", "one-row")


def corpus(tmp_path, *ids) -> str:
    root = str(tmp_path / "corpus")
    for b in ids:
        shutil.copytree(os.path.join(DATA, b), os.path.join(root, b))
    return root


def program(*body: str, inputs: int = 1):
    """A direct-frontend fusion of ``body`` (lines of ``nvfuser_fusion``) over ``inputs`` 2-D Float inputs."""
    head = [f"    tv{k} = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, "
            f"is_cpu=False)" for k in range(inputs)]
    return parse("\n".join([
        "import torch", "from nvfuser_direct import FusionDefinition, DataType", "",
        "def nvfuser_fusion(fd : FusionDefinition) -> None :", *head, *(f"    {ln}" for ln in body),
        "with FusionDefinition() as fd:", "    nvfuser_fusion(fd)", "",
        "inputs = [" + ", ".join("torch.randn(3, 4, device='cuda')" for _ in range(inputs)) + "]",
        "fd.execute(inputs)"]))


def kept_examples(d: str) -> list[dict]:
    """The ``example.json`` of every attachment bucket directory ``d`` keeps, in order."""
    root = os.path.join(d, examples.EXAMPLES)
    if not os.path.isdir(root):
        return []
    out = []
    for n in sorted(os.listdir(root), key=int):
        assert reduced_script(os.path.join(root, n)) is not None   # runnable: a script of it is there
        with open(os.path.join(root, n, examples.ABOUT), encoding="utf-8") as f:
            out.append(json.load(f))
    return out


# ---------------------------------------------------------------- the variance family
def test_a_var_of_a_reduction_output_is_one_row_whatever_the_reduction(tmp_path):
    """a756fca71344 (``var`` of a ``max``) and ab5d1cf2399d (``var`` of a ``welford``'s average)
    are one known cause; their ops made them two rows. One row now, and the repro of the other
    op path is kept beside the row's own."""
    root = corpus(tmp_path, "a756fca71344", "ab5d1cf2399d")
    rekey(root)
    (row,) = Store(root).buckets()
    assert row.key.mechanism == VARIANCE_OF_REDUCTION.words and row.key.ops == ()
    assert str(row.key) == "nvfuser mismatch values: var of a reduction output divides by the reduced extent"
    assert {"nvfuser mismatch values: max, var", "nvfuser mismatch values: var, welford"} <= set(row.old_keys)
    (other,) = kept_examples(os.path.join(root, row.id))
    mine = examples.op_path(os.path.join(root, row.id))
    assert {tuple(other["ops"]), mine} == {("max", "var"), ("welford", "var")}
    with open(os.path.join(root, row.id, "examples", "1", "repro.min.py"), encoding="utf-8") as f:
        assert f"# finding: mismatch (nvfuser), bucket {row.id}: " in f.read()   # the row it is filed in


def test_a_var_mean_of_a_sum_shows_the_variance_mechanism_whatever_surrounds_it():
    """A campaign's ``var_mean`` of a ``sum`` (through a cast, beside unrelated ops) is that
    cause; a ``var`` of an input, or of a value computed *from* a reduction, is not."""
    summed = program("tv1 = fd.ops.neg(tv0)", "tv2 = fd.ops.sum(tv1, dims=[0], keepdim=False)",
                     "tv3 = fd.ops.cast(tv2, dtype=DataType.Double)",
                     "tv4, tv5 = fd.ops.var_mean(tv3, dims=[0], correction=1, keepdim=False)",
                     "tv6 = fd.ops.exp(tv0)", "fd.add_output(tv4)", "fd.add_output(tv6)")
    assert mechanism_of(summed, "values") is VARIANCE_OF_REDUCTION
    assert mechanism_of(summed, "shape") is None                       # it explains wrong values only
    key = mismatch_key("nvfuser", "values", ["sum", "var_mean"], mechanism=mechanism_of(summed, "values"))
    assert key.mechanism == VARIANCE_OF_REDUCTION.words and key.ops == ()
    plain = program("tv1 = fd.ops.var(tv0, dims=[0], correction=0, keepdim=False)", "fd.add_output(tv1)")
    assert mechanism_of(plain, "values") is None
    computed = program("tv1 = fd.ops.sum(tv0, dims=[0], keepdim=False)", "tv2 = fd.ops.add(tv1, tv1)",
                       "tv3 = fd.ops.var(tv2, dims=[0], correction=0, keepdim=False)", "fd.add_output(tv3)")
    assert mechanism_of(computed, "values") is None


# ---------------------------------------------------------------- one upstream cause, one row
def test_the_strided_in_place_write_is_one_row_with_its_upstream_issue(tmp_path):
    """b320a6909b04 (a ``permute`` written into a strided input), 9d4aacbc5370 (a ``mul`` of a
    broadcast written into a column-major input) and 7e0863eba51b (a strided input written into
    itself) are NVIDIA/Fuser#5356: one row naming it, with the other two op paths' repros kept."""
    root = corpus(tmp_path, "b320a6909b04", "9d4aacbc5370", "7e0863eba51b")
    rekey(root)
    (row,) = Store(root).buckets()
    assert row.key.mechanism == STRIDED_INPLACE_WRITE.words and row.key.upstream == "NVIDIA/Fuser#5356"
    assert str(row.key).endswith("(NVIDIA/Fuser#5356)")
    paths = {examples.op_path(os.path.join(root, row.id)), *(tuple(e["ops"]) for e in kept_examples(
        os.path.join(root, row.id)))}
    assert paths == {("permute",), ("broadcast_in_dim", "mul"), ()}


def test_a_write_into_a_row_major_input_is_not_the_strided_write():
    with open(os.path.join(DATA, "9d4aacbc5370", "reduced.py"), encoding="utf-8") as f:
        text = f.read()
    assert mechanism_of(parse(text), "aliasing") is STRIDED_INPLACE_WRITE
    row_major = text.replace("stride_order=[0, 1]", "stride_order=[1, 0]")
    assert row_major != text and mechanism_of(parse(row_major), "aliasing") is None


# ---------------------------------------------------------------- the op that loses an extent
def test_the_op_that_loses_the_extent_is_the_one_producing_the_output_the_repro_names():
    """The minimal repro's own run names the output (a recheck's words or the standalone run's);
    a repro of one output needs no words; an output that is an input names no op."""
    two = program("tv1 = fd.ops.cat([tv0, tv0], dim=1)", "tv2 = fd.ops.cast(tv1, dtype=DataType.Int32)",
                  "fd.add_output(tv2)", "fd.add_output(tv1)")
    assert lost_at(two, "output 1: bool[3, 1] vs reference bool[3, 2]") == "cat"
    assert lost_at(two, "AssertionError: wrong result (shape) in output 0: got int32[3, 1], "
                        "eager PyTorch gives int32[3, 2]") == "cast"
    assert lost_at(two, None) is None                                   # two outputs: which one?
    one = program("tv1 = fd.ops.max(tv0, dims=[1], keepdim=False)", "fd.add_output(tv1)")
    assert lost_at(one, None) == "max"
    assert lost_at(program("fd.add_output(tv0)"), "output 0: float32[1] vs reference float32[3]") is None


def test_a_lost_extent_is_keyed_by_the_op_that_loses_it(tmp_path):
    """6447dc39a824 (a ``cat`` of an expanded input) and 0114a9146a59 (a ``broadcast_in_dim`` of a
    slice) were one row, an expanded extent returned as 1: two ops to fix, two rows."""
    root = corpus(tmp_path, "6447dc39a824", "0114a9146a59")
    rekey(root)
    keys = sorted(str(b.key) for b in Store(root).buckets())
    assert keys == ["nvfuser mismatch shape (an expanded extent returned as 1) at broadcast_in_dim",
                    "nvfuser mismatch shape (an expanded extent returned as 1) at cat"]


# ---------------------------------------------------------------- a merged row keeps each op path
def _bucket(root, name: str, key: BucketKey, script: str | None, first_seen: str, minimized: bool = True) -> str:
    d = os.path.join(root, name)
    os.makedirs(d)
    if script is not None:
        with open(os.path.join(d, "reduced.py" if minimized else "original.py"), "w", encoding="utf-8") as f:
            f.write(script)
    record.save_dir(d, record.Bucket(id=name, kind="mismatch", owner="nvfuser", key=key, backend="nvfuser",
                                     first_example=f"{name}.0", examples=[f"{name}.0"], count=1,
                                     first_seen=first_seen, minimized=minimized))
    return d


def _script(*body: str) -> str:
    return "\n".join(["from nvfuser_direct import FusionDefinition, DataType",
                      "def nvfuser_fusion(fd : FusionDefinition) -> None :",
                      "    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)",
                      *(f"    {ln}" for ln in body), "with FusionDefinition() as fd:", "    nvfuser_fusion(fd)",
                      "inputs = [torch.randn(3, device='cuda')]", "fd.execute(inputs)"])


NEG = _script("tv1 = fd.ops.neg(tv0)", "fd.add_output(tv1)")
ABS = _script("tv1 = fd.ops.abs(tv0)", "fd.add_output(tv1)")
KEY = BucketKey(MISMATCH, "nvfuser", difference="values", ops=("neg",))


def test_a_merge_keeps_the_attachment_of_another_op_path(tmp_path):
    """Two buckets a re-key gives one key: the row keeps the better one's files and the other's
    repro under ``examples/1/``; a third of an op path the row holds adds nothing."""
    root = str(tmp_path)
    _bucket(root, "aaaaaaaaaaaa", KEY, NEG, "2026-01-01")
    _bucket(root, "bbbbbbbbbbbb", BucketKey(MISMATCH, "nvfuser", difference="values", ops=("abs",)), ABS,
            "2026-01-02")
    st = Store(root)
    b = record.load_dir(os.path.join(root, "bbbbbbbbbbbb"))
    assert st.move(b.key, replace(b, key=KEY)) == "merged"
    (row,) = st.buckets()
    assert row.id == "aaaaaaaaaaaa" and row.count == 2
    (kept,) = kept_examples(os.path.join(root, row.id))
    assert kept["ops"] == ["abs"] and kept["bucket"] == "bbbbbbbbbbbb" and kept["first_example"] == "bbbbbbbbbbbb.0"
    with open(os.path.join(root, row.id, "examples", "1", "reduced.py"), encoding="utf-8") as f:
        assert f.read() == ABS
    _bucket(root, "cccccccccccc", BucketKey(MISMATCH, "nvfuser", difference="values", ops=("x",)), NEG, "2026-01-03")
    c = record.load_dir(os.path.join(root, "cccccccccccc"))
    assert Store(root).move(c.key, replace(c, key=KEY)) == "merged"
    assert len(kept_examples(os.path.join(root, "aaaaaaaaaaaa"))) == 1        # neg was held already


def test_a_merge_that_would_lose_an_op_path_is_refused(tmp_path):
    """A bucket with no script to keep cannot join a row: both stay as they were."""
    root = str(tmp_path)
    _bucket(root, "aaaaaaaaaaaa", KEY, NEG, "2026-01-01")
    _bucket(root, "dddddddddddd", BucketKey(MISMATCH, "nvfuser", difference="values", ops=("y",)), None,
            "2026-01-02", minimized=False)
    d = record.load_dir(os.path.join(root, "dddddddddddd"))
    assert Store(root).move(d.key, replace(d, key=KEY)) == "refused"
    assert {b.id: str(b.key) for b in Store(root).buckets()} == {
        "aaaaaaaaaaaa": str(KEY), "dddddddddddd": "nvfuser mismatch values: y"}


def test_a_union_of_two_copies_keeps_both_minimal_repros(tmp_path):
    """One bucket minimized on two shards to repros of other ops: the union takes the better one's
    files (a smaller reduction) and keeps the other under ``examples/1/``."""
    into, shard = str(tmp_path / "into"), str(tmp_path / "shard")
    a = _bucket(into, "aaaaaaaaaaaa", KEY, _script("tv1 = fd.ops.neg(tv0)", "tv2 = fd.ops.abs(tv1)",
                                                   "fd.add_output(tv2)"), "2026-01-01")
    b = _bucket(shard, "aaaaaaaaaaaa", KEY, NEG, "2026-01-02")
    for d, ops in ((a, 2), (b, 1)):
        m = record.load_dir(d)
        m.reduction = record.Reduction(ops_before=5, ops_after=ops)
        record.save_dir(d, m)
    merge([shard], into)
    assert examples.op_path(a) == ("neg",)
    (kept,) = kept_examples(a)
    assert kept["ops"] == ["neg", "abs"]
