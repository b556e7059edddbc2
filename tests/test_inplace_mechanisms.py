"""The in-place write mechanisms (issue 43: one cause, one row) and how far they reach before a
reduction. The programs are the GPU pair's buckets of 2026-12-07 (H100, ``gpu.sh pair``) written
small: 7e0863eba51b (a ``define_tensor(sizes=, strides=)`` with a gap, written in place),
61b264a15b5e (an output that also writes a strided input), 765ec76aa63a (``sdpfa_fwd`` written in
place, the cause of 45c1b711f3a0's ``linear``), 3926392a3f1d (an input read in another segment
beside the write into it, the cause of c89c43396eca's ``welford``)."""
from minimizer.fuzz.judging.keys import mismatch_key
from minimizer.fuzz.judging.mechanisms import (HOST_EVALUATED_INPLACE_WRITE, READ_BESIDE_INPLACE_WRITE,
                                               STRIDED_INPLACE_WRITE, mechanism_of, wrong_tensor)
from minimizer.program import parse

HEAD = ["import torch", "from nvfuser_direct import FusionDefinition, DataType", "",
        "def fusion_func(fd : FusionDefinition) -> None :"]
TAIL = ["with FusionDefinition() as fd:", "    fusion_func(fd)", ""]


def program(body: list[str], inputs: list[str]):
    return parse("\n".join(HEAD + [f"    {ln}" for ln in body] + TAIL + ["inputs = [" + ", ".join(inputs) + "]",
                                                                         "fd.execute(inputs)"]))


STRIDES_GAP = program([
    "tv0 = fd.define_tensor(sizes=[8], strides=[16], dtype=DataType.Float, static_sizes=False, is_cpu=False)",
    "tv1 = fd.ops.cummin(tv0, 0)", "fd.add_output(tv1, tv0)"],
    ["torch.randn(128, device='cuda').as_strided((8,), (16,))"])
STRIDES_ROW_MAJOR = program([
    "tv0 = fd.define_tensor(sizes=[8, 4], strides=[4, 1], dtype=DataType.Float, static_sizes=False, is_cpu=False)",
    "tv1 = fd.ops.cummin(tv0, 0)", "fd.add_output(tv1, tv0)"],
    ["torch.randn(8, 4, device='cuda')"])


def test_explicit_strides_with_a_gap_are_a_strided_input():
    """7e0863eba51b's minimal repro defines its input by sizes and strides (nvFuser derives the
    contiguity from them): a gap makes it the strided write of NVIDIA/Fuser#5356."""
    assert mechanism_of(STRIDES_GAP, "aliasing") is STRIDED_INPLACE_WRITE
    assert mechanism_of(STRIDES_ROW_MAJOR, "aliasing") is None


# 61b264a15b5e: output 0 (tv2) is the value also written into the strided U0
OUTPUT_ALSO_WRITTEN = program([
    "U0 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Float, is_cpu=False)",
    "tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)",
    "tv1 = fd.ops.neg(tv0)",
    "tv2 = fd.ops.mul(tv0, tv0)", "fd.add_output(tv1)", "fd.add_output(tv2)", "fd.add_output(tv2, U0)"],
    ["torch.randn(6, device='cuda').as_strided((3,), (2,))", "torch.randn(3, device='cuda')"])


def _words(tensor: str) -> str:
    return f"nvfuser outputs differ from the reference: {tensor} (float32[3]): 2 of 3 elements differ"


def test_before_a_reduction_only_the_wrong_tensor_pins_the_strided_write():
    """A generated program holds a strided write by chance; it is the cause only where the wrong
    tensor is what the write wrote: the input written, or an output of the same value."""
    assert wrong_tensor(OUTPUT_ALSO_WRITTEN, _words("output 1")) == ("output", 5)
    pinned = mechanism_of(OUTPUT_ALSO_WRITTEN, "values", minimal=False, words=_words("output 1"))
    assert pinned is STRIDED_INPLACE_WRITE
    assert mechanism_of(OUTPUT_ALSO_WRITTEN, "aliasing", minimal=False,
                        words=_words("input 0 (after execute)")) is STRIDED_INPLACE_WRITE
    # output 0 (neg) is not what the write wrote: its wrong value may be any other bug
    assert mechanism_of(OUTPUT_ALSO_WRITTEN, "values", minimal=False, words=_words("output 0")) is None
    assert mechanism_of(OUTPUT_ALSO_WRITTEN, "values", minimal=False, words=None) is None


def test_the_mechanism_key_is_one_row_whichever_tensor_showed_it():
    """The input written and an output holding the written value are one cause: one key."""
    via_output = mismatch_key("nvfuser", "values", ["mul"], mechanism=STRIDED_INPLACE_WRITE)
    via_input = mismatch_key("nvfuser", "aliasing", ["cummin"], mechanism=STRIDED_INPLACE_WRITE)
    assert via_output == via_input and via_input.upstream == "NVIDIA/Fuser#5356"


SDPA_WRITTEN = program([
    "tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)",
    "tv1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)",
    "tv2 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)",
    "tv3, tv4, tv5, tv6 = fd.ops.sdpfa_fwd(tv0, tv1, tv2, dropout_p=None, is_causal=None, scale=None)",
    "fd.add_output(tv3)", "fd.add_output(tv3, tv0)"],
    ["torch.randn(4, 8, 16, 8, dtype=torch.bfloat16, device='cuda')"] * 3)
LINEAR_WRITTEN = program([
    "tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)",
    "tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)",
    "tv2 = fd.ops.linear(tv1, tv0)", "fd.add_output(tv2, tv1)"],
    ["torch.randn(1, 1, device='cuda')", "torch.randn(1, 1, 1, device='cuda')"])
KERNEL_WRITTEN = program([
    "tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)",
    "tv1 = fd.ops.neg(tv0)", "fd.add_output(tv1, tv0)"], ["torch.randn(2, 2, device='cuda')"])


def test_a_host_evaluated_result_written_in_place_is_one_cause_whatever_the_op():
    """45c1b711f3a0 (``linear``) and 765ec76aa63a (``sdpfa_fwd``, found unreduced: the input it
    writes is the wrong tensor) are one cause; a kernel's result written in place is not it."""
    assert mechanism_of(LINEAR_WRITTEN, "aliasing") is HOST_EVALUATED_INPLACE_WRITE
    assert mechanism_of(SDPA_WRITTEN, "aliasing", minimal=False,
                        words=_words("input 0 (after execute)")) is HOST_EVALUATED_INPLACE_WRITE
    assert mechanism_of(KERNEL_WRITTEN, "aliasing") is None


# 3926392a3f1d: tv0 is written in place (a shift of a copy of it) and read again in another segment
READ_IN_ANOTHER_SEGMENT = program([
    "tv0 = fd.define_tensor(sizes=[8], strides=[1], dtype=DataType.Int32, static_sizes=False, is_cpu=False)",
    "M0 = fd.ops.segment_set(tv0)", "tv2 = fd.ops.bitwise_right_shift(M0, 3)", "fd.add_output(tv2)",
    "fd.add_output(tv2, tv0)", "D0 = fd.ops.segment_set(tv0)", "D1 = fd.ops.logical_right_shift(D0, 3)",
    "fd.add_output(D1)"], ["torch.randint(0, 9, (8,), dtype=torch.int32, device='cuda')"])
# c89c43396eca: a welford of tv0 beside a copy of tv1 written into tv0
WELFORD_BESIDE = program([
    "tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)",
    "tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)",
    "tv2, tv3, tv4 = fd.ops.welford(tv0, dims=[1])", "fd.add_output(tv3)", "fd.add_output(tv1, tv0)"],
    ["torch.randn(2, 2, device='cuda')"] * 2)


def test_a_read_beside_a_write_into_its_input_is_one_cause():
    """A read of an input that a write beside it (one the read does not feed) overwrites: nvFuser
    orders the writes after the reads (``segment_inplace_update``), so a wrong read is that cause,
    whether the repro reads with a ``welford`` or a shift in another segment."""
    assert mechanism_of(WELFORD_BESIDE, "values") is READ_BESIDE_INPLACE_WRITE
    assert mechanism_of(READ_IN_ANOTHER_SEGMENT, "values") is READ_BESIDE_INPLACE_WRITE
    # found unreduced: output 1 (D1) reads tv0 beside the write; output 0 is the written value itself
    words = "nvfuser outputs differ from the reference: output 1 (int32[8]): 2 of 8 elements differ"
    assert mechanism_of(READ_IN_ANOTHER_SEGMENT, "values", minimal=False, words=words) is READ_BESIDE_INPLACE_WRITE
    words0 = words.replace("output 1", "output 0")
    assert mechanism_of(READ_IN_ANOTHER_SEGMENT, "values", minimal=False, words=words0) is not READ_BESIDE_INPLACE_WRITE


def test_a_read_that_feeds_the_write_is_the_in_place_update_itself():
    """``cummin(tv0)`` written into ``tv0`` reads its input to compute what it writes: the ordinary
    in-place update, no read beside it."""
    assert mechanism_of(KERNEL_WRITTEN, "values") is None
    assert mechanism_of(STRIDES_ROW_MAJOR, "values") is None


# ---------------------------------------------------------------- a reduction keeps its cause
CONTIGUOUS_WRITE = program([
    "tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)",
    "tv1 = fd.ops.neg(tv0)", "fd.add_output(tv1)", "fd.add_output(tv1, tv0)"],
    ["torch.randn(4, 4, device='cuda')"])
MADE_STRIDED = program([
    "tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Float, is_cpu=False)",
    "tv1 = fd.ops.neg(tv0)", "fd.add_output(tv1)", "fd.add_output(tv1, tv0)"],
    ["torch.randn(4, 8, device='cuda')[:, :4]"])
WRITE_DROPPED = program([
    "tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Float, is_cpu=False)",
    "tv1 = fd.ops.neg(tv0)", "fd.add_output(tv1)"],
    ["torch.randn(4, 8, device='cuda')[:, :4]"])


def test_a_reduction_keeps_the_cause_it_started_from():
    """b320a6909b04's reduction started from a wrong ``linear`` written into a contiguous input and
    ended at a ``permute`` written into a strided one (NVIDIA/Fuser#5356, a row of its own): a
    candidate that gains a mechanism the original lacked is refused before it runs; one keyed by a
    mechanism keeps it. The check is in the property a bucket is reduced under."""
    from minimizer.fuzz.judging.property import KeepsCause, bucket_property
    from minimizer.fuzz.store.record import Bucket
    plain = Bucket(kind="mismatch", owner="nvfuser", key=mismatch_key("nvfuser", "values", ["neg"]),
                   flags={"mismatch": "values"})
    prop = bucket_property(plain, None, CONTIGUOUS_WRITE)
    assert isinstance(prop.checks[0], KeepsCause) and prop.static(CONTIGUOUS_WRITE, None) is None
    assert "shows a cause the original does not (an output written in place into a non-contiguous input)" \
        in prop.static(MADE_STRIDED, None)
    keyed = Bucket(kind="mismatch", owner="nvfuser", flags={"mismatch": "aliasing"},
                   key=mismatch_key("nvfuser", "aliasing", ["neg"], mechanism=STRIDED_INPLACE_WRITE))
    prop = bucket_property(keyed, None, MADE_STRIDED)
    assert prop.static(MADE_STRIDED, None) is None
    assert "no longer shows the bucket's cause" in prop.static(WRITE_DROPPED, None)
    # without the original (a recheck) or for a failure, the property is what it was
    assert not any(isinstance(c, KeepsCause) for c in bucket_property(plain, None).checks)
