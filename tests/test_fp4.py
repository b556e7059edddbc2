"""nvFuser's fp4 (``DataType.Float4_e2m1fn``) and block quantization (``nv_block_quantize``) in
fmin's reference: the casts' rounding, the packed form at the fusion's boundary, the quantizers'
scales and values on small tensors computed by hand, and what the static check refuses."""
from __future__ import annotations

import pytest
import torch

from minimizer.model import DIRECT
from minimizer.ops import CATALOG, fp4
from minimizer.program import interpret, static
from minimizer.program.interpret import FusionError
from minimizer.program.reader import parse

QUANTIZE = CATALOG["ops.nv_block_quantize"].ref


def codes(t):
    return t.view(torch.uint8).tolist()


def test_a_cast_to_fp4_rounds_to_nearest_even_and_saturates():
    x = torch.tensor([0.25, 0.26, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 5.5, 100.0, -0.75, -0.0, float("inf")])
    # ties go to the even code: 0.25->0, 0.75->1.0, 1.25->1.0, 1.75->2, 2.5->2, 3.5->4, 5->4
    assert fp4.decode(fp4.encode(x)).tolist() == [0.0, 0.5, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 6.0, 6.0, -1.0, -0.0, 6.0]
    assert codes(fp4.encode(torch.tensor([-6.0, -0.5]))) == [0xF, 0x9]


def test_packing_puts_the_even_element_in_the_low_nibble():
    unpacked = fp4.encode(torch.tensor([[0.5, 6.0, -1.0, 0.0]]))      # codes 1, 7, 10, 0
    packed = fp4.pack(unpacked, 1)
    assert packed.dtype == torch.float4_e2m1fn_x2 and packed.shape == (1, 2)
    assert codes(packed) == [[0x71, 0x0A]]
    assert codes(fp4.unpack(packed, 1)) == codes(unpacked)
    with pytest.raises(ValueError):
        fp4.pack(fp4.encode(torch.zeros(3)), 0)


CAST_SCRIPT = '''\
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Float4_e2m1fn, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.cast(T0, DataType.Float)
    T3 = fd.ops.broadcast(T1, [True, False])
    T4 = fd.ops.mul(T2, T3)
    T5 = fd.ops.cast(T4, DataType.Float4_e2m1fn)
    T6 = fd.ops.reshape(T5, [8])
    fd.add_output(T6)
    fd.add_output(T2)

with FusionDefinition() as fd:
    fusion(fd)

inputs = [
    torch.randint(0, 256, (2, 2), dtype=torch.uint8, device='cuda').view(torch.float4_e2m1fn_x2),
    torch.randn(4, device='cuda'),
]
'''


def test_a_fusion_reads_packed_fp4_as_twice_as_many_values_and_writes_it_packed():
    program = parse(CAST_SCRIPT)
    assert program.inputs[0].dtype == "Float4_e2m1fn" and program.inputs[0].shape == (2, 2)
    info = static.check(program)
    assert info.complete
    x = torch.tensor([[0x21, 0x73], [0x09, 0x00]], dtype=torch.uint8).view(torch.float4_e2m1fn_x2)
    # x is [[0.5, 1.0, 1.5, 6.0], [-0.5, 0.0, 0.0, 0.0]]; times [1, 1.25, 2, 0.5]
    out, decoded = interpret.run(program.stmts, [x, torch.tensor([1.0, 1.25, 2.0, 0.5])], frontend=DIRECT).outputs
    assert decoded.tolist() == [[0.5, 1.0, 1.5, 6.0], [-0.5, 0.0, 0.0, 0.0]]
    assert out.dtype == torch.float4_e2m1fn_x2 and out.shape == (4,)
    # 0.5, 1.25 -> 1.0, 3.0, 3.0, -0.5, 0, 0, 0
    assert fp4.decode(fp4.unpack(out, 0)).tolist() == [0.5, 1.0, 3.0, 3.0, -0.5, 0.0, 0.0, 0.0]


def test_the_fp64_reference_with_perturbed_inputs_keeps_fp4_as_it_is():
    program = parse(CAST_SCRIPT)
    x = torch.tensor([[0x21, 0x73], [0x09, 0x00]], dtype=torch.uint8).view(torch.float4_e2m1fn_x2)
    out, decoded = interpret.run(program.stmts, [x, torch.tensor([1.0, 1.25, 2.0, 0.5])], frontend=DIRECT,
                                 upcast=True, perturb=7).outputs
    assert decoded.dtype == torch.float64 and decoded.tolist() == [[0.5, 1.0, 1.5, 6.0], [-0.5, 0.0, 0.0, 0.0]]
    got = fp4.decode(fp4.unpack(out, 0)).tolist()
    # 1.0 * 1.25 is a tie, which a perturbed 1.25 breaks either way
    assert got[1] in (1.0, 1.5) and got[:1] + got[2:] == [0.5, 3.0, 3.0, -0.5, 0.0, 0.0, 0.0]


def test_the_packed_dim_is_the_innermost_of_the_declared_layout():
    text = CAST_SCRIPT.replace("dtype=DataType.Float4_e2m1fn, is_cpu=False)",
                               "dtype=DataType.Float4_e2m1fn, is_cpu=False, stride_order=[0, 1])")
    text = text.replace("[True, False]", "[False, True]")
    text = text.replace("(2, 2), dtype=torch.uint8, device='cuda').view(torch.float4_e2m1fn_x2)",
                        "(2, 2), dtype=torch.uint8, device='cuda').view(torch.float4_e2m1fn_x2).t()")
    program = parse(text)
    info = static.check(program)   # a [2, 2] column-major packed input is a [4, 2] Float4_e2m1fn tensor
    assert tuple(info.value(2, "T2").shape) == (4, 2)


def test_another_layout_leaves_packed_fp4_inputs_alone():
    from minimizer.program import variants
    text = CAST_SCRIPT.replace("contiguity=True", "contiguity=[True, True]", 1)
    assert variants.relayout(parse(text)) is None   # a swapped layout would pack the other dim
    swapped = variants.relayout(parse(text.replace("DataType.Float4_e2m1fn, is_cpu", "DataType.Float, is_cpu", 1)
                                      .replace("randint(0, 256, (2, 2), dtype=torch.uint8, device='cuda')"
                                               ".view(torch.float4_e2m1fn_x2)", "randn(2, 4, device='cuda')")))
    assert swapped is not None and swapped[1] == ["T0"]


def test_the_static_check_refuses_arithmetic_on_fp4_and_casts_nvfuser_lacks():
    for bad, why in (("T5 = fd.ops.neg(T0)", "storage type"), ("T5 = fd.ops.pad(T0, [1, 1])", "storage type"),
                     ("T5 = fd.ops.cast(T0, DataType.Int)", "no cast from Float4_e2m1fn to Int")):
        text = CAST_SCRIPT.replace("T5 = fd.ops.cast(T4, DataType.Float4_e2m1fn)", bad)
        with pytest.raises(FusionError, match=why):
            static.check(parse(text.replace("fd.ops.reshape(T5, [8])", "fd.ops.set(T5)")))


def test_nvfp4_block_quantization_by_hand():
    x = torch.tensor([[0.1, -0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 12.0]])
    q, scales = QUANTIZE(None, x)
    # amax 12: scale 12 / 6 = 2 (exact in e4m3); values times 1/2, then rounded to fp4
    assert scales.dtype == torch.float8_e4m3fn and scales.float().tolist() == [[2.0]]
    assert fp4.decode(q).tolist() == [[0.0, -0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
                                       1.0, 6.0]]
    # a global scale of 64: 2 * 64 = 128 is an e4m3 value; decoding divides it out again
    q2, scales2 = QUANTIZE(None, x, torch.tensor(64.0))
    assert scales2.float().tolist() == [[128.0]] and codes(q2) == codes(q)
    # of 100: 200 ties between 192 and 208 in e4m3 and goes to even 192; values times 100 / 192, so
    # 0.5 -> 0.26 -> 0.5 (not 0 as above)
    q4, scales4 = QUANTIZE(None, x, torch.tensor(100.0))
    assert scales4.float().tolist() == [[192.0]] and fp4.decode(q4)[0, 4] == 0.5
    # amax 1.3: 1.3 / 6 = 0.21667 rounds to 0.21875 in e4m3; x / 0.21875 is 5.94 -> 6
    q3, s3 = QUANTIZE(None, torch.full((1, 16), 1.3))
    assert s3.float().tolist() == [[0.21875]] and fp4.decode(q3).tolist() == [[6.0] * 16]


def test_mxfp8_block_quantization_by_hand():
    x = torch.zeros(1, 32)
    x[0, 0], x[0, 1], x[0, 2] = 3.0, -1.0, 0.001
    q, scales = QUANTIZE(None, x, None, False, 32, "Float8_e4m3fn")
    # 3 / 448 = 0.0067 -> rounded up to 2^-7 (biased 120); values times 2^7, to e4m3
    assert scales.dtype == torch.float8_e8m0fnu and codes(scales) == [[120]]
    assert q.dtype == torch.float8_e4m3fn
    assert q.float()[0, :3].tolist() == [384.0, -128.0, 0.125]
    # an exact power of two is its own scale: 448 * 2^-3 -> 2^-3 exactly (biased 124)
    _, s2 = QUANTIZE(None, torch.full((1, 32), 56.0), None, False, 32, "Float8_e4m3fn")
    assert codes(s2) == [[124]]
    # rounded up, not to nearest: 2 / 448 = 2^-7.8 -> 2^-7
    _, s3 = QUANTIZE(None, torch.full((1, 32), 2.0), None, False, 32, "Float8_e4m3fn")
    assert codes(s3) == [[120]]


def test_swizzled_scales_are_in_cutlass_tile_order():
    x = torch.ones(128, 64)
    for r in range(128):
        x[r] *= torch.arange(1, 5).repeat_interleave(16) * (r + 1) * 6 / 1024   # block (r, c) max: (c+1)(r+1)6/1024
    _, linear = QUANTIZE(None, x)
    _, swizzled = QUANTIZE(None, x, None, True)
    assert swizzled.shape == linear.shape == (128, 4)
    flat = swizzled.float().reshape(-1)
    for r, c in ((0, 0), (1, 0), (31, 3), (32, 0), (33, 2), (127, 3)):
        # [M/128, K/64, 32, 4(m), 4(k)]: row r is (r % 32, r // 32), col c is the last index
        assert flat[(r % 32) * 16 + (r // 32) * 4 + c] == linear.float()[r, c]
    with pytest.raises(NotImplementedError):
        QUANTIZE(None, torch.ones(64, 64), None, True)


@pytest.mark.parametrize("args, error", [
    ((None, False, 32), ValueError),                          # fp4 takes blocks of 16
    ((torch.tensor([1.0]), False, 16), TypeError),             # a global scale is 0-dim
    ((None, False, 16, "Float8_e5m2"), ValueError),
])
def test_what_nv_block_quantize_refuses(args, error):
    with pytest.raises(error):
        QUANTIZE(None, torch.ones(2, 32, device="meta"), *args)
    with pytest.raises(TypeError):
        QUANTIZE(None, torch.ones(2, 32, dtype=torch.float64, device="meta"))


def _swizzle(linear):
    """CUTLASS's 128x4 tile order of ``[M, K/16]`` scales already padded to whole tiles."""
    m, k = linear.shape
    return linear.reshape(m // 128, 4, 32, k // 4, 4).transpose(1, 3).reshape(m, k)


def test_nvfp4_scaled_mm_multiplies_the_dequantized_operands_times_alpha():
    scaled_mm = CATALOG["ops.scaled_mm"].ref
    m, k, n = 128, 64, 128
    a_vals = torch.zeros(m, k)
    a_vals[0, :] = 1.0
    a_vals[5, 16:32] = -0.5
    b_vals = torch.zeros(k, n)
    b_vals[:, 3] = 2.0
    b_vals[20, 7] = 6.0
    sa = torch.ones(m, k // 16)
    sa[5, 1] = 4.0                                  # row 5's second block of K scaled by 4
    sb = torch.ones(n, k // 16)
    sb[3, 0] = 0.5                                  # column 3's first block of K scaled by 1/2
    mat1 = fp4.encode(a_vals)
    mat2 = fp4.encode(b_vals.t().contiguous()).t()  # column-major, as nvFuser requires
    out, _, _ = scaled_mm(None, mat1, mat2, _swizzle(sa).to(torch.float8_e4m3fn),
                          _swizzle(sb).to(torch.float8_e4m3fn), torch.tensor(0.25), dtype="Float")
    want = (a_vals * sa.repeat_interleave(16, 1)) @ (b_vals * sb.repeat_interleave(16, 1).t()) * 0.25
    assert out.dtype == torch.float32 and torch.equal(out, want)
    # row 0: (16 * 2 * 0.5 + 48 * 2) * 0.25 = 28 in column 3; row 5 column 7: -0.5 * 4 * 6 * 0.25
    assert out[0, 3] == 28.0 and out[5, 7] == -3.0
    with pytest.raises(RuntimeError, match="padded and swizzled"):
        scaled_mm(None, mat1, mat2, sa[:, :2].to(torch.float8_e4m3fn), _swizzle(sb).to(torch.float8_e4m3fn),
                  torch.tensor(1.0), dtype="Float")
    with pytest.raises(RuntimeError, match="column-major"):
        scaled_mm(None, mat1, fp4.encode(b_vals), _swizzle(sa).to(torch.float8_e4m3fn),
                  _swizzle(sb).to(torch.float8_e4m3fn), torch.tensor(1.0), dtype="Float")


def test_packed_fp4_outputs_are_judged_by_their_values():
    from minimizer.oracle import compare
    eager = fp4.pack(fp4.encode(torch.tensor([[0.5, 1.0, 4.0, -6.0]])), 1)
    same = eager.clone()
    other = fp4.pack(fp4.encode(torch.tensor([[0.5, 1.0, 6.0, -6.0]])), 1)
    assert compare.judge_one(same, eager, eager.clone()).ok
    d = compare.judge_one(other, eager, eager.clone())
    assert not d.ok and d.shape == [1, 4] and d.mismatched == 1


FP4_TESTS = '''\
import pytest
import torch
from nvfuser_direct import FusionDefinition, DataType


def is_pre_blackwell():
    return torch.cuda.get_device_capability() < (10, 0)


def test_fp4_round_trip(nvfuser_direct_test):
    inputs = [torch.randn(4, 32, device="cuda"),
              torch.zeros(4, 16, dtype=torch.uint8, device="cuda").view(torch.float4_e2m1fn_x2)]

    def fusion_func(fd: FusionDefinition):
        t0 = fd.from_pytorch(inputs[0])
        t1 = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Float4_e2m1fn)
        t2 = fd.ops.cast(t0, DataType.Float4_e2m1fn)
        t3 = fd.ops.cast(fd.ops.cast(t1, DataType.Float), DataType.Float4_e2m1fn)
        fd.add_output(t2)
        fd.add_output(t3)

    nvfuser_direct_test.exec_nvfuser(fusion_func, inputs)


@pytest.mark.skipif(is_pre_blackwell(), reason="Only supported on blackwell and newer devices.")
def test_quantize(nvfuser_direct_test):
    inputs = [torch.randn(128, 64, dtype=torch.bfloat16, device="cuda"), torch.tensor(2.0, device="cuda")]

    def fusion_func(fd: FusionDefinition):
        x = fd.from_pytorch(inputs[0])
        gs = fd.define_tensor(shape=[], contiguity=True, dtype=DataType.Float)
        vals, scales = fd.ops.nv_block_quantize(x, gs, True, 16)
        fd.add_output(vals)
        fd.add_output(scales)

    nvfuser_direct_test.exec_nvfuser(fusion_func, inputs)
'''


def test_fp4_fusions_of_a_checkout_become_seeds(tmp_path):
    from minimizer.harvest import nvfuser_tests
    from minimizer.fuzz.sources import seeded
    (tmp_path / "csrc").mkdir()
    (tmp_path / "tests" / "python").mkdir(parents=True)
    (tmp_path / "tests" / "python" / "test_fp4_ops.py").write_text(FP4_TESTS)
    try:
        got = seeded.load([str(tmp_path)])
        (r,) = got.harvests
        assert (r.found, r.read) == (2, 2), r.lines
        seeds = {s.path.rsplit("::", 2)[-2]: s.program for s in got.seeds}
        fp4_inputs = seeds["test_fp4_round_trip"].inputs
        assert [(a.dtype, a.shape) for a in fp4_inputs] == [("Float", (4, 32)), ("Float4_e2m1fn", (4, 16))]
        assert [st.op for st in seeds["test_quantize"].op_stmts()] == ["nv_block_quantize"]
        for program in seeds.values():
            assert static.check(program).complete
        # on a Hopper (9.0) the test that skips before Blackwell gives no seed: set aside, by name
        hopper = seeded.load([str(tmp_path)], capability=(9, 0))
        assert [s.path.rsplit("::", 2)[-2] for s in hopper.seeds] == ["test_fp4_round_trip"]
        assert [(k.rsplit("::", 2)[-2], v) for k, v in hopper.set_aside.items()] == [("test_quantize", (10, 0))]
        assert len(seeded.load([str(tmp_path)], capability=(10, 0)).seeds) == 2
    finally:
        seeded._CACHE.clear()
        nvfuser_tests.cleanup()


def test_an_fp4_value_made_an_input_is_written_packed():
    from minimizer.harvest.tracing import made_inputs
    from minimizer.program.declare import tensor_input
    program = parse(CAST_SCRIPT)
    t5 = static.check(program).value(5, "T5")                     # fp4, [2, 4] in the fusion
    stmt, arg = tensor_input(program, "X", t5, (False, False))
    assert (arg.dtype, arg.shape, arg.strides) == ("Float4_e2m1fn", (2, 2), (2, 1))
    stmt, arg = tensor_input(program, "X", t5, (False, False), alloc=[1, 0])   # column-major: dim 0 packed
    assert arg.shape == (1, 4) and stmt.arg("stride_order") == (0, 1)
    made = made_inputs([s for s in program.stmts if s.call == "define_tensor"])
    assert [(a.dtype, a.shape) for a in made] == [("Float4_e2m1fn", (8, 4)), ("Float", (8,))]


def test_a_finding_seeded_only_from_tests_that_skip_this_gpu_is_by_design(tmp_path):
    """The GPU pair of 2026-12-07 filed four ``nv_block_quantize`` failures on an H100 (103c452b2cb4,
    7708840280f3, f085e6220669, cdf079dd8011), every seed of them from a test that skips GPUs
    before Blackwell: nvFuser's contract there is that it does not run. One seed that runs
    anywhere, or a Blackwell that ran it, and it is judged as any finding."""
    from minimizer.fuzz.buglist.classes import newer_gpu
    from minimizer.fuzz.store.key import BucketKey
    from minimizer.fuzz.store.record import Bucket
    path = tmp_path / "test_fp4_ops.py"
    path.write_text(FP4_TESTS)
    quantize, anywhere = f"{path}::test_quantize::fusion_func", f"{path}::test_fp4_round_trip::fusion_func"
    m = Bucket(kind="failure", owner="nvfuser", backend="nvfuser", environment={"capability": "9.0"},
               key=BucketKey("failure", "nvfuser", "error", "nvfuser internal-assert: a.cpp:f: RuntimeError: x"))
    m.extra["seeds"] = {quantize: 2}
    got = newer_gpu(m, {"status": "error"})
    assert got is not None and got.cls == "by-design" and "10.0" in got.reason
    m.extra["seeds"] = {quantize: 2, anywhere: 1}
    assert newer_gpu(m, {"status": "error"}) is None
    m.extra["seeds"] = {quantize: 2}
    m.environment["capability"] = "10.0"
    assert newer_gpu(m, {"status": "error"}) is None
