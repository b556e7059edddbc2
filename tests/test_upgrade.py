"""``minimizer.upgrade``: legacy repros rewritten for nvfuser_direct (and old legacy eras for 0.2.35
legacy) must read back in the target dialect with nothing of the old eras left, and must compute
the same values on the reference backend."""
from __future__ import annotations

import glob
import os
import re
import textwrap

import pytest
import torch

from minimizer.errors import ScriptError
from minimizer.ops import lookup
from minimizer.backends import RunOptions
from minimizer.oracle import Pool, Request
from minimizer.program.reader import parse, parse_file
from minimizer.program.printer import to_source
from minimizer.model import DIRECT, LEGACY, Ref
from minimizer.upgrade import ERA_KEYWORDS, upgrade, upgrade_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = ("layernorm_bwd_fused.py", "layernorm_bwd_segmented.py")
# inputs beyond this many elements in all are too slow to run twice on CPU in the suite
# (the LayerNorm seeds are 16x512x4096 per tensor); FMIN_SLOW_TESTS=1 runs them anyway
MAX_ELEMENTS = 20_000_000

_ERA_RE = re.compile(r"\b(" + "|".join(ERA_KEYWORDS) + r")\s*=")


def corpus_files() -> list[str]:
    files = sorted(glob.glob(os.path.join(ROOT, "corpus", "*.py")))
    files += sorted(glob.glob(os.path.join(ROOT, "corpus", "seeds", "*.py")))
    return files


@pytest.fixture(scope="module")
def pool():
    with Pool("reference", "cpu", jobs=2, timeout=120.0) as p:
        yield p


def run_values(pool, text: str, path: str = "<script>", **options):
    out = pool.run(Request(text, path, RunOptions(want_values=True, **options)))
    if out.values_path:
        out.load_values()
    return out


def assert_same_values(a, b, what: str = "outputs", exact=None):
    """``b`` holds the values of ``a``: tensors of the same shape and dtype, equal where they are
    not floating, floating ones within the dtype's default tolerances — or, where those are too
    tight, within what rounding explains (``within_rounding``; ``exact()``: the original's values
    computed in float64, asked for only then)."""
    assert len(a) == len(b), f"{what}: {len(a)} values vs {len(b)}"
    for i, (x, y) in enumerate(zip(a, b)):
        if isinstance(x, torch.Tensor):
            assert isinstance(y, torch.Tensor), f"{what}[{i}]: tensor vs {type(y).__name__}"
            assert (x.shape, x.dtype) == (y.shape, y.dtype), f"{what}[{i}]: {x.shape}/{x.dtype} vs {y.shape}/{y.dtype}"
            if x.is_floating_point() or x.is_complex():
                # dtype-aware default tolerances: add_alpha -> mul + add may round once more
                try:
                    torch.testing.assert_close(y, x, equal_nan=True, msg=lambda m: f"{what}[{i}] differs: {m}")
                except AssertionError:
                    if exact is None or x.is_complex():
                        raise
                    within_rounding(x, y, exact()[i], f"{what}[{i}]")
            else:
                assert torch.equal(x, y), f"{what}[{i}] differs"
        else:
            assert x == y or (x != x and y != y), f"{what}[{i}]: {x!r} vs {y!r}"


def within_rounding(x, y, exact, what: str):
    """Two float results of one computation that round differently (a scalar kept as a double or
    made a float, a multiply-add split in two) may differ by more than the default tolerances
    where a reduction cancels: a float32 sum of 64 terms near 3 that comes to 0.04 carries an
    absolute error of ~1e-5 either way, the 4th digit. The bound that holds whatever the
    summation order: each is as far from the exact (float64) value as the original is at most,
    so they differ by at most twice the original's largest error on this tensor."""
    x64, y64, e64 = x.double(), y.double(), exact.double()
    both_nan = x64.isnan() & y64.isnan()
    assert torch.equal(x64.isnan(), y64.isnan()), f"{what}: NaN in one only"
    err = torch.where(both_nan, 0.0, (x64 - e64).abs()).max().item()
    diff = torch.where(both_nan, 0.0, (y64 - x64).abs()).max().item()
    assert diff <= 2 * err, f"{what} differs by {diff:.3g}, more than twice the original's rounding error {err:.3g}"


def assert_same_run(pool, original: str, upgraded: str, path: str = "<script>", lenient: bool = False):
    """Both scripts behave alike on the reference backend: same status; when they run, equal
    outputs and equal inputs afterwards (aliased outputs write into their input). ``lenient``:
    an original that the reference backend cannot run while the upgrade runs is an xfail (a
    limitation of the backend, reported, not a wrong translation)."""
    a = run_values(pool, original, path)
    b = run_values(pool, upgraded, path + " (upgraded)")
    if lenient and a.status != "ok" and b.status == "ok":
        pytest.xfail(f"the reference backend cannot run the original: {a.message}")
    assert b.status == a.status, f"original: {a.status} {a.message}\nupgraded: {b.status} {b.message}"
    if a.status != "ok":
        assert b.error_kind == a.error_kind, (a.message, b.message)
        return a, b
    exact = []

    def exact_values(k):
        if not exact:
            e = run_values(pool, original, path, fp64=True)
            assert e.status == "ok", e.message
            exact.extend(e.values)
        return exact[k]
    assert_same_values(a.values[1], b.values[1], "outputs", exact=lambda: exact_values(1))
    assert_same_values(a.values[0], b.values[0], "inputs after execute", exact=lambda: exact_values(0))
    return a, b


def fusion_text(text: str) -> str:
    """Just the fusion function's lines."""
    m = re.search(r"^def .*?(?=^\S)", text, re.S | re.M)
    return m.group(0) if m else text


def assert_clean_direct(text: str, path: str = "<upgraded>"):
    p = parse(text, path)
    assert p.dialect.frontend == DIRECT and p.dialect.module == DIRECT
    assert p.dialect.spellings == frozenset()
    assert not any(s.call in ("define_vector", "define_constant") for s in p.stmts)
    body = fusion_text(text)
    assert not _ERA_RE.search(body), _ERA_RE.search(body).group(0)
    assert "define_vector" not in body and "define_constant" not in body
    for s in p.stmts:
        spec = lookup(s.call)
        assert DIRECT in spec.frontends, s.call
    return p


def script(body: str, inputs: str, header: str = "from nvfuser import FusionDefinition, DataType") -> str:
    return (f"import torch\n{header}\n\ndef nvfuser_fusion_id0(fd : FusionDefinition) -> None :\n"
            + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
            + "\n\nwith FusionDefinition() as fd:\n    nvfuser_fusion_id0(fd)\n\n"
            + "inputs = [\n" + textwrap.indent(textwrap.dedent(inputs).strip("\n"), "    ")
            + "\n]\nfd.execute(inputs)\n")


def parse_or_skip(path: str):
    try:
        return parse_file(path)
    except ScriptError as e:  # not the upgrader's business: the parser's tests cover this
        pytest.skip(f"the parser cannot read it: {e}")


def n_elements(program) -> int:
    return sum(a.numel() for a in (program.inputs or ()) if hasattr(a, "numel"))


# ---------------------------------------------------------------------------------------------
# the corpus
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: os.path.relpath(p, ROOT))
def test_corpus_upgrades_to_direct(pool, path):
    program = parse_or_skip(path)
    if program.dialect.frontend != LEGACY:
        pytest.skip("already a direct script")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        new = to_source(upgrade(program, DIRECT))
    except ScriptError as e:
        pytest.skip(f"has no direct equivalent: {e}")
    assert_clean_direct(new, path)
    # what surrounds the fusion function is untouched
    tail = text[text.index("with FusionDefinition()"):]
    assert new.endswith(tail)
    if n_elements(program) > MAX_ELEMENTS and not os.environ.get("FMIN_SLOW_TESTS"):
        return  # checked for syntax only: ~40 s to run twice on CPU (FMIN_SLOW_TESTS=1 runs it)
    assert_same_run(pool, text, new, path, lenient=True)


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: os.path.relpath(p, ROOT))
def test_corpus_direct_back_to_legacy(pool, path):
    """Direct corpus scripts go to legacy; legacy ones make the round trip legacy -> direct -> legacy."""
    program = parse_or_skip(path)
    if n_elements(program) > MAX_ELEMENTS:
        pytest.skip("too slow on CPU")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        direct = upgrade(program, DIRECT) if program.dialect.frontend == LEGACY else program
        direct_text = to_source(direct)
        legacy_text = to_source(upgrade(parse(direct_text, path), LEGACY))
    except ScriptError as e:
        pytest.skip(f"not translatable: {e}")
    back = parse(legacy_text, path)
    assert back.dialect.frontend == LEGACY and back.dialect.module == LEGACY
    assert_same_run(pool, text, legacy_text, path, lenient=True)


@pytest.mark.parametrize("name", SEEDS)
def test_layernorm_seeds(name):
    path = os.path.join(ROOT, "corpus", "seeds", name)
    if not os.path.exists(path):
        pytest.skip("seed not in the corpus yet")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert "axes=" in text and "define_vector" in text  # what makes these seeds old
    new = upgrade_text(text, path, DIRECT)
    p = assert_clean_direct(new, path)
    assert "axes=" not in new and "define_vector" not in new and "dims=[" in new
    assert "from nvfuser_direct import FusionDefinition, DataType" in new
    # the inputs list and the define_tensor lines are as they were
    old = parse(text, path)
    assert p.inputs == old.inputs
    assert [s for s in p.stmts if s.call == "define_tensor"] == [s for s in old.stmts if s.call == "define_tensor"]
    # every vector was inlined: broadcast_in_dim shapes are lists
    for s in p.stmts:
        if s.call == "ops.broadcast_in_dim":
            assert isinstance(s.arg("shape"), tuple)


# ---------------------------------------------------------------------------------------------
# one rule at a time
# ---------------------------------------------------------------------------------------------
def test_vectors_are_inlined(pool):
    text = script("""
        T0 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
        S1 = fd.define_scalar(4, dtype=DataType.Int)
        S2 = fd.define_scalar(6, dtype=DataType.Int)
        # the output shape
        V3 = fd.define_vector([S1, S2], dtype=DataType.Int)
        T4 = fd.ops.broadcast_in_dim(T0, shape=V3, broadcast_dims=[0, 1])
        T5 = fd.ops.expand(T0, shape=V3)
        T6 = fd.ops.add(T4, T5)
        fd.add_output(T6)
        """, "torch.randn(4, 1, dtype=torch.float32),")
    new = upgrade_text(text, "<t>", DIRECT)
    assert_clean_direct(new)
    assert "T4 = fd.ops.broadcast_in_dim(T0, shape=[S1, S2], broadcast_dims=[0, 1])" in new
    assert "T5 = fd.ops.expand(T0, shape=[S1, S2])" in new
    assert_same_run(pool, text, new)


def test_vector_of_inputs_becomes_scalar_inputs(pool):
    text = script("""
        T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        V1 = fd.define_vector(2)
        S2 = fd.define_scalar(None, dtype=DataType.Double)
        T3 = fd.ops.reshape(T0, new_shape=V1)
        T4 = fd.ops.mul(T3, S2)
        fd.add_output(T4)
        """, """
        torch.randn(12, dtype=torch.float32),
        3,
        4,
        0.5,
        """)
    program = upgrade(parse(text), DIRECT)
    new = to_source(program)
    p = assert_clean_direct(new)
    defs = [s for s in p.stmts if s.call == "define_scalar"]
    assert [s.arg("value") for s in defs] == [None, None, None]
    assert [s.arg("dtype").name for s in defs] == ["Int", "Int", "Double"]
    reshape = next(s for s in p.stmts if s.op == "reshape")
    assert reshape.arg("new_shape") == tuple(Ref(s.outs[0]) for s in defs[:2])
    a, b = assert_same_run(pool, text, new)
    assert a.status == "ok" and a.values[1][0].shape == (3, 4)


def test_contiguous_becomes_contiguity_with_none(pool):
    text = script("""
        T0 = fd.define_tensor(symbolic_sizes=[-1, 1, -1], contiguous=[True, True, True], dtype=DataType.Float)
        T1 = fd.define_tensor(symbolic_sizes=[-1, -1], contiguous=[False, True], dtype=DataType.Float)
        T2 = fd.ops.sum(T0, axes=[1], keepdim=False, dtype=DataType.Float)
        T3 = fd.ops.add(T2, T1)
        fd.add_output(T3)
        """, """
        torch.randn((4, 1, 5), dtype=torch.float32, device='cuda:0'),
        torch.randn((4, 5), dtype=torch.float32, device='cuda:0'),
        """, header="from torch._C._nvfuser import FusionDefinition, DataType")
    for to in (DIRECT, LEGACY):
        new = upgrade_text(text, "<t>", to)
        p = parse(new)
        assert p.dialect.module == to and p.dialect.spellings == frozenset()
        assert "contiguity=[True, None, True]" in new and "contiguity=[False, True]" in new
        assert "shape=[-1, 1, -1]" in new and "dims=[1]" in new
        assert not _ERA_RE.search(fusion_text(new))
        # the 2022 original is refused by today's contiguity check; the upgrade runs and computes
        # sum(T0, 1) + T1
        out = run_values(pool, new)
        assert out.status == "ok", out.message
        (t0, t1), (res,) = out.values
        torch.testing.assert_close(res, t0.sum(1) + t1)


def test_contiguous_is_put_in_allocation_order():
    text = script("""
        T0 = fd.define_tensor(symbolic_sizes=[1, -1, -1], contiguous=[True, False, True], dtype=DataType.Float, stride_order=[0, 2, 1])
        T1 = fd.ops.neg(T0)
        fd.add_output(T1)
        """, "torch.randn(1, 3, 4, dtype=torch.float32),")
    p = parse(upgrade_text(text, "<t>", DIRECT))
    # logical dims by allocation position (outer first): 1 (rank 2), 2 (rank 1), 0 (rank 0)
    assert p.stmts[0].arg("contiguity") == (False, True, None)


def test_manual_flags_become_bools(pool):
    text = script("""
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
        T1 = fd.ops.slice(T0, start_indices=[0, 0], end_indices=[2, 3], strides=[1, 1], manual_normalization=0)
        T2 = fd.ops.slice(T0, start_indices=[0, 3], end_indices=[2, 6], strides=[1, 1], manual_normalization=1)
        T3 = fd.ops.cat([T1, T2], dim=-1, manual_padding=0)
        fd.add_output(T3)
        """, "torch.testing.make_tensor((2, 6), dtype=torch.float32, device='cuda:0'),")
    new = upgrade_text(text, "<t>", DIRECT)
    assert "manual_normalization=False" in new and "manual_normalization=True" in new
    assert "manual_padding=False" in new
    assert "manual_normalization=0" not in new and "manual_padding=0" not in new
    assert_same_run(pool, text, new)


def test_renamed_parameters_follow_the_catalog(pool):
    """``OpSpec.renamed``: legacy ``gather(arg1=)``/``triu(input=)`` are direct ``arg=``, both ways."""
    text = script("""
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
        T2 = fd.ops.gather(arg1=T0, index=T1, dim=1)
        T3 = fd.ops.triu(input=T0, diagonal=1)
        fd.add_output(T2)
        fd.add_output(T3)
        """, """
        torch.testing.make_tensor((3, 3), dtype=torch.float32, device='cuda:0'),
        torch.testing.make_tensor((3, 3), dtype=torch.int64, device='cuda:0', low=0, high=3),""")
    new = upgrade_text(text, "<t>", DIRECT)
    assert "gather(arg=T0" in new and "triu(arg=T0" in new
    assert_same_run(pool, text, new)
    back = upgrade_text(new, "<t>", LEGACY)
    assert "gather(arg1=T0" in back and "triu(input=T0" in back


def test_reshape_original_shape_is_dropped(pool):
    text = script("""
        T0 = fd.define_tensor(symbolic_sizes=[-1, -1], contiguous=[True, True], dtype=DataType.Float)
        T1 = fd.ops.reshape(T0, original_shape=[2, 6], new_shape=[3, 4])
        fd.add_output(T1)
        """, "torch.randn((2, 6), dtype=torch.float32),")
    new = upgrade_text(text, "<t>", DIRECT)
    assert "T1 = fd.ops.reshape(T0, new_shape=[3, 4])" in new
    out = run_values(pool, new)
    assert out.status == "ok", out.message
    torch.testing.assert_close(out.values[1][0], out.values[0][0].reshape(3, 4))


def test_add_output_stride_order(pool):
    text = script("""
        T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
        T1 = fd.ops.relu(T0)
        # the output is channels-last
        fd.add_output(T1, stride_order=[0, 2, 1])
        fd.add_output(T0)
        """, "torch.testing.make_tensor((2, 3, 4), dtype=torch.float32, device='cuda:0'),")
    program = upgrade(parse(text), DIRECT)
    new = to_source(program)
    assert_clean_direct(new)
    # a fresh name that clashes with nothing
    assert "    # the output is channels-last\n    T2 = fd.ops.stride_order(T1, stride_order=[0, 2, 1])\n" \
           "    fd.add_output(T2)\n    fd.add_output(T0)\n" in new
    a, b = assert_same_run(pool, text, new)
    assert a.values[1][0].stride() == b.values[1][0].stride() != (12, 4, 1)


def test_fresh_names_do_not_clash():
    text = script("""
        T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        T5 = fd.ops.neg(T0)
        fd.add_output(T5, stride_order=[0])
        T6 = fd.ops.abs(T0)
        fd.add_output(T6, stride_order=[0])
        """, "torch.randn(3),")
    p = upgrade(parse(text), DIRECT)
    outs = [n for s in p.stmts for n in s.outs]
    assert len(outs) == len(set(outs))
    assert [s.outs[0] for s in p.stmts if s.op == "stride_order"] == ["T7", "T8"]
    assert [s.arg("output") for s in p.output_stmts()] == [Ref("T7"), Ref("T8")]


@pytest.mark.parametrize("op,sign", [("add_alpha", 1), ("sub_alpha", -1)])
def test_alpha_ops_become_mul_and_add(pool, op, sign):
    text = script(f"""
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        S2 = fd.define_scalar(0.250000, dtype=DataType.Double)
        T3 = fd.ops.{op}(T0, T1, S2)
        fd.add_output(T3)
        """, """
        torch.testing.make_tensor((3, 4), dtype=torch.float32, device='cuda:0'),
        torch.testing.make_tensor((3, 4), dtype=torch.float32, device='cuda:0'),
        """)
    new = upgrade_text(text, "<t>", DIRECT)
    assert_clean_direct(new)
    base = "add" if sign > 0 else "sub"
    assert "T4 = fd.ops.mul(T1, S2)\n" in new and f"T3 = fd.ops.{base}(T0, T4)\n" in new
    a, b = assert_same_run(pool, text, new)
    (t0, t1), (res,) = b.values
    torch.testing.assert_close(res, t0 + sign * 0.25 * t1)


def test_at_on_shape_becomes_size(pool):
    text = script("""
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        V1 = fd.ops.shape(T0)
        S2 = fd.ops.at(V1, index=1)
        S3 = fd.ops.at(V1, index=0)
        T4 = fd.ops.reshape(T0, new_shape=[S2, S3])
        fd.add_output(T4)
        """, "torch.testing.make_tensor((2, 5), dtype=torch.float32, device='cuda:0'),")
    new = upgrade_text(text, "<t>", DIRECT)
    assert_clean_direct(new)
    assert "S2 = fd.ops.size(T0, dim=1)" in new and "S3 = fd.ops.size(T0, dim=0)" in new
    assert "fd.ops.at(" not in new
    a, b = assert_same_run(pool, text, new)
    assert b.values[1][0].shape == (5, 2)


def test_at_on_inlined_vector(pool):
    text = script("""
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        S1 = fd.define_scalar(5, dtype=DataType.Int)
        V2 = fd.define_vector([2, S1], dtype=DataType.Int)
        S3 = fd.ops.at(V2, index=1)
        S4 = fd.ops.at(V2, index=0)
        T5 = fd.ops.reshape(T0, new_shape=[S3, S4])
        fd.add_output(T5)
        """, "torch.testing.make_tensor((2, 5), dtype=torch.float32, device='cuda:0'),")
    new = upgrade_text(text, "<t>", DIRECT)
    assert_clean_direct(new)
    assert "T5 = fd.ops.reshape(T0, new_shape=[S1, S4])" in new
    assert "S4 = fd.define_scalar(2, dtype=DataType.Int)" in new
    assert_same_run(pool, text, new)


def test_define_constant_becomes_define_scalar(pool):
    text = script("""
        T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        # two constants
        S1 = fd.define_constant(3.00000, DataType.Double)
        S2 = fd.define_constant(2)
        T3 = fd.ops.mul(T0, S1)
        T4 = fd.ops.add(T3, S2)
        fd.add_output(T4)
        """, "torch.testing.make_tensor((7,), dtype=torch.float32, device='cuda:0'),")
    new = upgrade_text(text, "<t>", DIRECT)
    assert_clean_direct(new)
    assert "    # two constants\n    S1 = fd.define_scalar(3.0, dtype=DataType.Double)\n" in new
    assert "S2 = fd.define_scalar(2, dtype=DataType.Int)" in new
    assert_same_run(pool, text, new)
    # legacy 0.2.35 no longer has define_constant either
    assert "define_constant" not in upgrade_text(text, "<t>", LEGACY)


def test_aliased_output_and_constants_keep_meaning(pool):
    text = script("""
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        S1 = fd.define_scalar(1.50000, dtype=DataType.Double)
        T2 = fd.ops.mul(T0, S1)
        fd.add_output(T2, T0)
        T3 = fd.ops.sum(T2, dims=[0], keepdim=False, dtype=DataType.Null)
        fd.add_output(T3)
        """, "torch.testing.make_tensor((3, 4), dtype=torch.float32, device='cuda:0'),")
    new = upgrade_text(text, "<t>", DIRECT)
    assert "fd.add_output(T2, T0)" in new
    a, b = assert_same_run(pool, text, new)
    assert len(b.values[1]) == 1  # the aliased output is not returned


def test_surroundings_are_kept():
    text = ("# CUDA devices:\n#  0: NVIDIA A100\n# nvfuser version: 0.1.0\nimport torch\n"
            "from nvfuser import FusionDefinition, DataType\n\n"
            "def nvfuser_fusion_id1(fd : FusionDefinition) -> None :\n"
            "    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)\n"
            "    T1 = fd.ops.sum(T0, axes=[0], keepdim=False, dtype=DataType.Null)  # the bug\n"
            "    fd.add_output(T1)\n\n"
            "with FusionDefinition() as fd:\n    nvfuser_fusion_id1(fd)\n\n"
            "inputs = [\n    torch.randn((8,), dtype=torch.float32, device='cuda'),  # x\n]\n"
            "out = fd.execute(inputs)\nprint(out)\n")
    new = upgrade_text(text, "<t>", DIRECT)
    assert new == text.replace("from nvfuser import", "from nvfuser_direct import").replace("axes=", "dims=")


def test_unsupported_op_raises_at_its_line():
    if lookup("ops.batch_norm") is None:
        pytest.skip("batch_norm not in the catalog yet")
    text = script("""
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        S3 = fd.define_scalar(0.100000, dtype=DataType.Double)
        S4 = fd.define_scalar(1.00000e-05, dtype=DataType.Double)
        T5, T6, T7 = fd.ops.batch_norm(T0, T1, T2, None, None, S3, S4, training=True, channels_last=False)
        fd.add_output(T5)
        """, """
        torch.randn(4, 3),
        torch.randn(3),
        torch.randn(3),
        """)
    with pytest.raises(ScriptError) as e:
        upgrade(parse(text, "bn.py"), DIRECT)
    assert (e.value.path, e.value.line, e.value.col) == ("bn.py", 10, 5)
    assert "batch_norm" in e.value.message and "no equivalent" in e.value.message
    assert "bn.py:10:5:" in str(e.value)
    # legacy 0.2.35 still has it
    assert upgrade_text(text, "bn.py", LEGACY) == text


def test_tensor_sizes_becomes_size(pool):
    text = script("""
        T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        S1, = fd.ops.tensor_sizes(T0)
        T2 = fd.ops.full(shape=[S1], fill_value=S1, dtype=DataType.Float)
        T3 = fd.ops.add(T0, T2)
        fd.add_output(T3)
        """, "torch.testing.make_tensor((5,), dtype=torch.float32, device='cuda:0'),")
    new = upgrade_text(text, "<t>", DIRECT)
    assert_clean_direct(new)
    assert "    S1 = fd.ops.size(T0, dim=0)\n" in new
    # (the reference backend cannot run the original: its tensor_sizes returns a Vector)
    out = run_values(pool, new)
    assert out.status == "ok", out.message
    ((t0,), (res,)) = out.values
    torch.testing.assert_close(res, t0 + 5)
    text = text.replace("T0 = fd.define_tensor(shape=[-1], contiguity=[True]",
                        "T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True]")
    text = text.replace("S1, = fd.ops.tensor_sizes(T0)", "S1, _, = fd.ops.tensor_sizes(T0)")
    try:
        program = parse(text)
    except ScriptError as e:
        pytest.skip(f"the catalog gives tensor_sizes one output: {e}")
    assert "    S1 = fd.ops.size(T0, dim=0)\n    T2 =" in to_source(upgrade(program, DIRECT))


def test_index_put_accumulate_raises():
    if lookup("ops.index_put_accumulate") is None:
        pytest.skip("index_put_accumulate not in the catalog yet")
    text = script("""
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
        T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        T3 = fd.ops.index_put_accumulate(T0, T1, T2)
        fd.add_output(T3)
        """, "torch.randn(5, 3),\ntorch.tensor([0, 2]),\ntorch.randn(2, 3),")
    with pytest.raises(ScriptError) as e:
        upgrade(parse(text, "ipa.py"), DIRECT)
    assert (e.value.path, e.value.line, e.value.col) == ("ipa.py", 8, 5)
    assert "index_put_accumulate" in e.value.message


def test_old_legacy_to_modern_legacy(pool):
    text = script("""
        T0 = fd.define_tensor(symbolic_sizes=[-1, -1], contiguous=[True, True], dtype=DataType.Float)
        S1 = fd.define_constant(2.00000)
        T2 = fd.ops.mul(T0, S1)
        T3 = fd.ops.sum(T2, axes=[1], keepdim=False, dtype=DataType.Float)
        T4 = fd.ops.broadcast_in_dim(T3, output_shape=[3, 1], broadcast_dims=[0])
        S5 = fd.define_constant(3)
        S6 = fd.define_constant(4)
        V7 = fd.define_vector([S5, S6], dtype=DataType.Int)
        T8 = fd.ops.broadcast_in_dim(T4, output_shape=V7, broadcast_dims=[0, 1])
        fd.add_output(T8)
        """, "torch.randn((3, 4), dtype=torch.float32, device='cuda:0'),",
        header="from torch._C._nvfuser import FusionDefinition, DataType")
    new = upgrade_text(text, "<t>", LEGACY)
    p = parse(new)
    assert p.dialect.frontend == LEGACY and p.dialect.module == LEGACY and not p.dialect.spellings
    assert "from nvfuser import FusionDefinition, DataType" in new
    assert not _ERA_RE.search(fusion_text(new)) and "define_constant" not in new
    assert "V7 = fd.define_vector([S5, S6], dtype=DataType.Int)" in new  # still fine in 0.2.35
    assert_same_run(pool, text, new)
    # a modern legacy script is left byte for byte
    assert upgrade_text(new, "<t>", LEGACY) == new


def test_direct_to_legacy_defines_scalars(pool):
    text = script("""
        tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        tv1 = fd.ops.mul(tv0, 3.0)
        tv2 = fd.ops.add(tv1, 1)
        tv3 = fd.ops.var(tv2, dims=[1])
        fd.add_output(tv3)
        """, "torch.testing.make_tensor((3, 4), dtype=torch.float32, device='cuda:0'),",
        header="from nvfuser_direct import FusionDefinition, DataType")
    p = parse(text)
    assert p.dialect.frontend == DIRECT
    new = upgrade_text(text, "<t>", LEGACY)
    back = parse(new)
    assert back.dialect.frontend == LEGACY
    assert "S4 = fd.define_scalar(3.0, dtype=DataType.Double)\n    tv1 = fd.ops.mul(tv0, S4)" in new
    assert "S5 = fd.define_scalar(1, dtype=DataType.Int)\n    tv2 = fd.ops.add(tv1, S5)" in new
    assert "tv3 = fd.ops.var(tv2, dims=[1], correction=1)" in new
    assert_same_run(pool, text, new)


def test_direct_only_op_raises_going_to_legacy():
    text = script("""
        tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        tv1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        tv2 = fd.ops.complex(tv0, tv1)
        fd.add_output(tv2)
        """, "torch.randn(3),\ntorch.randn(3),", header="from nvfuser_direct import FusionDefinition, DataType")
    with pytest.raises(ScriptError) as e:
        upgrade(parse(text, "c.py"), LEGACY)
    assert e.value.line == 7 and "complex" in e.value.message


def test_direct_to_direct_is_identity():
    text = script("""
        tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        tv1 = fd.ops.mul(tv0, 2.0)
        fd.add_output(tv1)
        """, "torch.randn(3),", header="from nvfuser_direct import FusionDefinition, DataType")
    assert upgrade_text(text, "<t>", DIRECT) == text
    with pytest.raises(ValueError):
        upgrade(parse(text), "nvfuser_next")


def test_rebound_vector_name(pool):
    """A name bound again (seen in the wild) stops standing for the inlined list."""
    text = script("""
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        S1 = fd.define_scalar(3, dtype=DataType.Int)
        S2 = fd.define_scalar(2, dtype=DataType.Int)
        V3 = fd.define_vector([S1, S2], dtype=DataType.Int)
        T4 = fd.ops.reshape(T0, new_shape=V3)
        V3 = fd.ops.shape(T4)
        S5 = fd.ops.at(V3, index=0)
        T6 = fd.ops.broadcast_in_dim(T4, shape=V3, broadcast_dims=[0, 1])
        T7 = fd.ops.mul(T6, S5)
        fd.add_output(T7)
        """, "torch.testing.make_tensor((2, 3), dtype=torch.float32, device='cuda:0'),")
    new = upgrade_text(text, "<t>", DIRECT)
    assert_clean_direct(new)
    assert "T4 = fd.ops.reshape(T0, new_shape=[S1, S2])" in new
    assert "V3 = fd.ops.shape(T4)\n    S5 = fd.ops.size(T4, dim=0)\n" in new
    assert "T6 = fd.ops.broadcast_in_dim(T4, shape=V3, broadcast_dims=[0, 1])" in new
    assert_same_run(pool, text, new)


def test_program_without_source():
    """A generated program (no source text) upgrades and prints as a fresh direct script."""
    text = script("""
        T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
        S1 = fd.define_constant(2.0)
        T2 = fd.ops.add_alpha(T0, T0, S1)
        fd.add_output(T2)
        """, "torch.randn(3),")
    p = upgrade(parse(text).replace(source=None), DIRECT)
    new = to_source(p)
    assert "from nvfuser_direct import FusionDefinition, DataType" in new
    back = assert_clean_direct(new)
    assert back.stmts == p.stmts
