"""Masking of failure texts (minimizer/oracle/signature.py), on strings taken from real nvFuser output
(tests/data/nvfuser/logs-0.2.36/) and the synthetic older-era texts."""
import pytest

from minimizer.backends.signature import first_line, generic_signature, mask


@pytest.mark.parametrize("text,masked", [
    # TensorView and IterDomain names (err_dtype_mismatch.log, err_matmul_shapes.log)
    ("T0_g_float[iS0{i0}, iS1{i1}]", "T?_g_float[iS?{i?}, iS?{i?}]"),
    ("T2_g___bfloat[iS4{i0}, iS5{i4}, rS6{i1}] id: rS6{i1} found size: 32",
     "T?_g___bfloat[iS?{i?}, iS?{i?}, rS?{i?}] id: rS?{i?} found size: N"),
    ("T12_l___half T3_s_float", "T?_l___half T?_s_float"),
    # expanded broadcast extents (err_bcast_expanded_extent.log)
    ("T2_l_float[iS4{4}, bS5{1 ex 6}]", "T?_l_float[iS?{N}, bS?{N ex N}]"),
    # parallelized / symbolic IterDomains (the older-era texts)
    ("T7_l_int64_t[iblockIdx.x272{2}, iUS273{1}, ithreadIdx.x271{128}] produce_pos( 3 )",
     "T?_l_int64_t[iblockIdx.x?{N}, iUS?{N}, ithreadIdx.x?{N}] produce_pos(N)"),
    ("?S3{i2}", "?S?{i?}"),
    # older builds print spaces inside brackets
    ("T5_g_float[ iS10{i0}, bS11{1} ]", "T?_g_float[iS?{i?}, bS?{N}]"),
    # decimal pointers and EQ/NE operands (err_dtype_mismatch.log, err_stride_mismatch.log)
    ("pointer: 140197796773888", "pointer: N"),
    ("Found 8 vs 1.", "Found N vs N."),
    ("sizes: [8, 8]: strides: [1, 8]; dim: -1", "sizes: [N, N]: strides: [N, N]; dim: N"),
    ("tol 1.5e-3 version 0.2.36", "tol N version N"),
    # hex addresses and paths (backtrace frames)
    ("+ 0xc2 (0x7fc31c32d4a6 in /tmp/nvfuser-210/nvfuser_direct/../nvfuser_common/lib/libnvfuser_codegen.so)",
     "+ 0x? (0x? in libnvfuser_codegen.so)"),
    ("at /workspace/Fuser/csrc/transform_view.cpp:358", "at transform_view.cpp:N"),
    ('at "/opt/pytorch/nvfuser/csrc/kernel_cache.cpp":1317', 'at "kernel_cache.cpp":N'),
    ("csrc/ops/alias.cpp:694", "alias.cpp:N"),
    ("sizes/strides", "sizes/strides"),
    # frontend / IR value names
    ("tv12 T3 TV7 S1 V2 c5 i0 d2 b1", "tv? T? TV? S? V? c? i? d? b?"),
    # kernel names
    ("nvfuser_pointwise_f0_c1_r0_g0", "nvfuser_pointwise_f?_c?_r?_g?"),
    ("__tmp_nvfuser_inner_persistent_f12_c3_r0_g2.cu(123): error: x", "__tmp_nvfuser_inner_persistent_f?_c?_r?_g?.cu(N): error: x"),
    # things that are not ids stay
    ("dtype c10::Half __half float16 bf16 int64_t sm_90 cuda:0",
     "dtype c10::Half __half float16 bf16 int64_t sm_90 cuda:N"),
    ("a  b\n\tc", "a b c"),
])
def test_mask(text, masked):
    assert mask(text) == masked


def test_mask_is_idempotent():
    for text in ("T0_g_float[iS0{i0}, iS1{i1}] pointer: 140197796773888 0x7f00", "Found 8 vs 1"):
        assert mask(mask(text)) == mask(text)


def test_runs_and_rebuilds_give_one_text():
    # the same frame from the .log and .parallel.log captures of err_bad_reshape
    a = "frame #2: <unknown function> + 0x1287c6c (0x7fc31ce87c6c in /tmp/nvfuser-210/nvfuser_direct/../lib.so)"
    b = "frame #2: <unknown function> + 0x1287c6c (0x7f9d50e87c6c in /tmp/nvfuser-210/nvfuser_direct/../lib.so)"
    assert mask(a) == mask(b)
    # a rebuild moves lines and renumbers tensors
    assert mask("at pointwise.cpp:431 on T3_g_float[iS6{i0}]") == mask("at pointwise.cpp:447 on T2_g_float[iS4{i0}]")


def test_generic_signature():
    assert generic_signature("ValueError", "\n  boom 42\nmore") == "ValueError: boom N"
    assert first_line("\n\n  x \ny") == "x"
    assert first_line("") == ""
