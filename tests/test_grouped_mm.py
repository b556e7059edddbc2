"""``fd.ops.grouped_mm`` (``ops/grouped.py``): the reference against a per-group loop written out
here, the static check's refusals, the offsets' value rule, inputs written with valid offsets (a
printed program, a seed harvested from a synthetic nvFuser checkout, its mutants).

The shapes and the test file of the synthetic checkout follow nvFuser's tests of grouped_mm (a 2-D
input, a ``[g, k, n]`` weight, Int32 offsets from the cumulative sum of the group sizes); nothing is
copied from nvFuser.
"""
from __future__ import annotations

import re
import textwrap

import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st

from minimizer.backends import RunOptions
from minimizer.fuzz.sources import mutate, seeded
from minimizer.harvest import nvfuser_tests
from minimizer.model import LEGACY
from minimizer.ops import CATALOG, Ctx
from minimizer.oracle.pool import Pool, Request
from minimizer.program import parse, static, validity
from minimizer.program.interpret import FusionError, run
from minimizer.program.printer import to_source
from minimizer.program.extents import resize



def REF(*args, **kwargs):
    return CATALOG["ops.grouped_mm"].ref(*args, **kwargs)


def _loop(mat1, mat2, offsets):
    """at::_grouped_mm's definition, one group at a time, in Float, rounded once."""
    ends = offsets.tolist()
    starts = [0] + ends[:-1]
    a, b = mat1.float(), mat2.float()
    if mat1.ndim == 2 and mat2.ndim == 3:        # offsets split the rows
        out = torch.zeros(mat1.shape[0], mat2.shape[2])
        for i, (s, e) in enumerate(zip(starts, ends)):
            out[s:e] = a[s:e] @ b[i]
    elif mat1.ndim == 3:                         # offsets split the columns
        out = torch.zeros(mat1.shape[1], mat2.shape[1])
        for i, (s, e) in enumerate(zip(starts, ends)):
            out[:, s:e] = a[i] @ b[:, s:e]
    else:                                        # offsets split k
        out = torch.stack([a[:, s:e] @ b[s:e] for s, e in zip(starts, ends)])
    return out.to(mat1.dtype)


def _offs(*ends):
    return torch.tensor(ends, dtype=torch.int32)


CASES = {
    "rows": ((11, 8), (3, 8, 5), (2, 2, 11)),      # an empty group in the middle
    "columns": ((3, 4, 6), (6, 9), (4, 5, 9)),
    "k": ((4, 10), (10, 3), (3, 7, 10)),
}


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_reference_is_a_matmul_per_group(case, dtype):
    s1, s2, ends = CASES[case]
    torch.manual_seed(0)
    a, b = torch.randn(s1).to(dtype), torch.randn(s2).to(dtype)
    got = REF(Ctx(), mat1=a, mat2=b, offsets=_offs(*ends))
    want = _loop(a, b, _offs(*ends))
    assert got.dtype == dtype and got.shape == want.shape
    torch.testing.assert_close(got, want, rtol=0, atol=0 if dtype == torch.bfloat16 else 1e-5)
    meta = REF(Ctx(device="meta"), mat1=a.to("meta"), mat2=b.to("meta"), offsets=_offs(*ends).to("meta"))
    assert (meta.shape, meta.dtype) == (want.shape, dtype)


@pytest.mark.parametrize("ends", [None, (0, 0, 9), (3, 40, 50)])
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_traced_form_computes_what_the_per_group_one_does(case, ends):
    """``vectorised`` (meta tensors, make_fx, Dynamo) and ``by_group`` (real tensors) agree on
    valid offsets, empty groups included, and on offsets that end short of the extent or past it
    (``by_group`` clamps them to it)."""
    from minimizer.ops import grouped
    s1, s2, valid = CASES[case]
    torch.manual_seed(1)
    a, b = torch.randn(s1), torch.randn(s2)
    kind, extent, shape = grouped.form(a, b, _offs(*valid))
    offsets = _offs(*(valid if ends is None else ends))
    torch.testing.assert_close(grouped.by_group(kind, a, b, offsets, extent, shape),
                               grouped.vectorised(kind, a, b, offsets, extent))


def test_an_infinity_stays_in_its_group():
    """Each row is its own group's product: an infinity in another group's weight reaches no
    other row (a masked sum over every group would give NaN there)."""
    a, b = torch.ones(4, 2), torch.ones(2, 2, 3)
    b[1, 0, 0] = float("inf")
    out = REF(Ctx(), mat1=a, mat2=b, offsets=_offs(2, 4))
    assert torch.equal(out[:2], torch.full((2, 3), 2.0))
    assert out[2:, 0].isinf().all() and not out.isnan().any()


def test_past_the_last_offset_the_reference_writes_zeros():
    """ATen leaves those rows unwritten (the value rule keeps such a run from being judged); the
    reference's own result stays deterministic."""
    a, b = torch.ones(6, 2), torch.ones(2, 2, 3)
    out = REF(Ctx(), mat1=a, mat2=b, offsets=_offs(2, 4))
    assert torch.equal(out[:4], torch.full((4, 3), 2.0)) and torch.equal(out[4:], torch.zeros(2, 3))


def script(mat1, mat2, offsets="[4]", odt="Int32", dt="BFloat16", frontend="nvfuser_direct", inputs=None):
    """A fusion of one grouped_mm; inputs from make_tensor unless given."""
    rank = lambda shape: len(shape.split(","))   # noqa: E731
    body = textwrap.dedent(f"""\
        import torch
        from {frontend} import FusionDefinition, DataType

        def fusion_func(fd: FusionDefinition) -> None:
            T0 = fd.define_tensor(shape={mat1}, contiguity=[True] * {rank(mat1)}, dtype=DataType.{dt})
            T1 = fd.define_tensor(shape={mat2}, contiguity=[True] * {rank(mat2)}, dtype=DataType.{dt})
            T2 = fd.define_tensor(shape={offsets}, contiguity=[True] * {rank(offsets)}, dtype=DataType.{odt})
            T3 = fd.ops.grouped_mm(T0, T1, T2)
            fd.add_output(T3)

        with FusionDefinition() as fd:
            fusion_func(fd)

        """)
    tdt = {"BFloat16": "torch.bfloat16", "Float": "torch.float32", "Int32": "torch.int32", "Int": "torch.int64"}
    inputs = inputs or [f"torch.testing.make_tensor({tuple(eval(s))}, dtype={tdt[d]}, device='cuda')"
                        for s, d in ((mat1, dt), (mat2, dt), (offsets, odt))]
    return body + "inputs = [\n" + "".join(f"    {x},\n" for x in inputs) + "]\nfd.execute(inputs)\n"


@pytest.mark.parametrize("frontend", ["nvfuser", "nvfuser_direct"])
def test_both_frontends_read_the_three_forms(frontend):
    for mat1, mat2, offsets, out in (("[32, 16]", "[4, 16, 8]", "[4]", [32, 8]),
                                     ("[4, 32, 16]", "[16, 8]", "[4]", [32, 8]),
                                     ("[32, 16]", "[16, 8]", "[4]", [4, 32, 8])):
        p = parse(script(mat1, mat2, offsets, frontend=frontend))
        info = static.check(p)
        assert list(info.value(3, "T3").shape) == out and info.value(3, "T3").dtype == torch.bfloat16


@pytest.mark.parametrize("mat1, mat2, offsets, odt, dt, says", [
    ("[4, 32, 16]", "[4, 16, 8]", "[4]", "Int32", "BFloat16", "two 3-D tensors are bmm/matmul"),
    ("[32, 16]", "[4, 16, 8]", "[4]", "Int", "BFloat16", "offsets must be Int32"),
    ("[32, 16]", "[4, 16, 8]", "[2, 2]", "Int32", "BFloat16", "offsets needs to be 1-D"),
    ("[32, 16]", "[3, 16, 8]", "[4]", "Int32", "BFloat16", "first extent is the group count"),
    ("[32, 12]", "[4, 16, 8]", "[4]", "Int32", "BFloat16", "expected [.., k] @ [.., k, n]"),
    ("[32, 16]", "[4, 16, 8]", "[4]", "Int32", "Int", "floating operands of one dtype"),
])
def test_the_static_check_refuses_what_nvfuser_and_aten_refuse(mat1, mat2, offsets, odt, dt, says):
    with pytest.raises(FusionError) as e:
        static.check(parse(script(mat1, mat2, offsets, odt=odt, dt=dt)))
    assert says in str(e.value)


def test_the_scaled_binding_is_not_modelled():
    text = script("[32, 16]", "[4, 16, 8]").replace("grouped_mm(T0, T1, T2)", "grouped_mm(T0, T1, T2, T0, T1)")
    with pytest.raises(Exception, match="takes at most 3 positional arguments"):
        parse(text)


def _watched(text: str, offsets) -> list[str]:
    p = parse(text)
    torch.manual_seed(0)
    inputs = [torch.randn(a.shape).to(torch.bfloat16) for a in p.inputs[:2]] + [_offs(*offsets)]
    w = validity.ValueWatch()
    run(p.stmts, inputs, frontend=p.dialect.frontend, watch=w)
    return [v.message for v in w.found if v.rule == "grouped-mm-offsets"]


@pytest.mark.parametrize("offsets, says", [
    ((8, 16, 24, 32), None),
    ((5, 12, 21, 32), None),
    ((0, 16, 16, 32), None),                     # empty groups of rows are fine
    ((8, 24, 16, 32), "decrease"),
    ((-1, 16, 24, 32), "decrease or start below 0"),
    ((8, 16, 24, 30), "not at the split extent m = 32"),
    ((8, 16, 24, 40), "not at the split extent m = 32"),
])
def test_the_offsets_value_rule(offsets, says):
    got = _watched(script("[32, 16]", "[4, 16, 8]"), offsets)
    assert got == [] if says is None else (len(got) == 1 and says in got[0]), got


def test_an_empty_group_of_k_breaks_the_rule():
    text = script("[32, 16]", "[16, 8]")
    assert _watched(text, (4, 8, 12, 16)) == []
    assert "leave a group of k empty" in _watched(text, (4, 4, 12, 16))[0]


def test_every_value_parameter_names_a_parameter_and_a_value_rule():
    """What the printer, the mutations, the static check and ``ValueWatch`` read of a ``ValueParam``
    exists: grouped_mm's offsets, and the index of every index op (``ops/indexing.py``)."""
    found = [(spec, vp) for spec in CATALOG.values() for vp in spec.value_params]
    assert ("grouped_mm", "offsets", "grouped-mm-offsets") in [(spec.name, vp.name, vp.rule) for spec, vp in found]
    index_ops = {spec.name for spec in CATALOG.values() if spec.family == "index"}
    assert index_ops == {spec.name for spec, vp in found if vp.rule in ("index-range", "scatter-index")}
    for spec, vp in found:
        assert spec.param(vp.name).kind in ("tensor", "scalar")
        assert vp.rule in validity.RULES and vp.rule in validity.VALUE_RULES and vp.rule in validity.STATIC_RULES


def _offsets_written(text: str) -> list[int]:
    m = re.search(r"torch\.tensor\(\[([\d, ]*)\], dtype=torch\.int32", text)
    assert m, text
    return [int(x) for x in m.group(1).split(",")]


@pytest.mark.parametrize("mat1, mat2, want", [
    ("[30, 16]", "[4, 16, 8]", [7, 15, 22, 30]),       # the rows, split evenly
    ("[4, 16, 8]", "[8, 30]", [7, 15, 22, 30]),        # the columns
    ("[16, 30]", "[30, 8]", [7, 15, 22, 30]),          # k
])
def test_a_printed_program_writes_valid_offsets(mat1, mat2, want):
    p = parse(script(mat1, mat2))
    assert validity.input_values(p) == {"T2": tuple(want)}
    fresh = to_source(p.replace(source=None))
    assert _offsets_written(fresh) == want
    assert parse(fresh).inputs == p.inputs                           # read back as the same program


def test_an_input_a_change_rebuilds_gets_valid_offsets_too():
    """A changed inputs list of a script renders a new offsets input with valid values; an
    unchanged element keeps its text."""
    p = parse(script("[32, 16]", "[4, 16, 8]"))
    q = p.replace(inputs=tuple(reversed(p.inputs)), stmts=p.stmts)   # another order: every element kept
    assert "make_tensor((4,), dtype=torch.int32" in to_source(q)
    changed = list(p.inputs)
    changed[2] = type(changed[2])(changed[2].shape, changed[2].strides, "Int32", "cuda:0")
    text = to_source(p.replace(inputs=tuple(changed)))
    assert _offsets_written(text) == [8, 16, 24, 32]


def test_offsets_of_another_layout_are_written_in_their_storage(reference):
    """An offsets input a change gave a stride of 2 holds the valid values at every other element
    of its storage; read back, it is the same input."""
    p = parse(script("[32, 16]", "[4, 16, 8]").replace("[True] * 1, dtype=DataType.Int32", "[False], dtype=DataType.Int32"))
    changed = list(p.inputs)
    changed[2] = type(changed[2])((4,), (2,), "Int32", "cuda")
    q = p.replace(inputs=tuple(changed))
    text = to_source(q)
    assert "torch.tensor([8, 0, 16, 0, 24, 0, 32], dtype=torch.int32, device='cuda').as_strided((4,), (2,))" in text
    assert parse(text).inputs == q.inputs
    assert _undefined(reference, text) == []


@pytest.fixture(scope="module")
def reference():
    with Pool("reference", "cpu", jobs=1, timeout=120) as pool:
        yield pool


def _undefined(pool, text):
    o = pool.run(Request(text, "gmm.py", RunOptions(seed=0)))
    assert o.ok, o.signature
    return [d["rule"] for d in (o.undefined or [])]


def test_the_reference_worker_reports_random_offsets_and_not_written_ones(reference):
    text = script("[32, 16]", "[4, 16, 8]")
    assert _undefined(reference, text) == ["grouped-mm-offsets"]      # make_tensor's Int32 values
    assert _undefined(reference, to_source(parse(text).replace(source=None))) == []


SEED = script("[32, 16]", "[4, 16, 8]", inputs=[
    "torch.testing.make_tensor((32, 16), dtype=torch.bfloat16, device='cuda')",
    "torch.testing.make_tensor((4, 16, 8), dtype=torch.bfloat16, device='cuda')",
    "torch.tensor([5, 12, 21, 32], dtype=torch.int32, device='cuda')"])


class _Data:
    def __init__(self, data):
        self.draw = data.draw


def test_a_changed_extent_rewrites_the_offsets_and_an_unchanged_one_keeps_them():
    """A reduction or mutation that resizes the split extent (every use of 32 becomes 16) leaves
    the script's offsets stale: they are written anew for the new extent. Where the extent stays,
    the script's own offsets (uneven groups) stay as written."""
    p = parse(SEED)
    kept = to_source(p.replace(stmts=p.stmts + (p.stmts[-1],)))      # another statement, same extents
    assert "torch.tensor([5, 12, 21, 32]" in kept
    smaller = resize(p, 32, 16)
    assert _offsets_written(to_source(smaller)) == [4, 8, 12, 16]
    fewer = resize(p, 4, 2)                                            # two groups: offsets [2], weight [2, 16, 8]
    assert _offsets_written(to_source(fewer)) == [16, 32]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_mutants_of_a_grouped_mm_seed_keep_valid_offsets(reference, data):
    """Every mutant the seeded fuzzer keeps runs on the reference without breaking the offsets'
    rule: the inputs and extents the offsets depend on are left alone, and an input rebuilt for
    them is written with valid values."""
    p = parse(SEED)
    q, names = mutate.mutated(_Data(data), p, static.check(p))
    text = to_source(q)
    if "grouped_mm" in text and text != SEED:
        assert _undefined(reference, text) == [], (names, text)


def test_a_seed_script_with_random_offsets_is_read_with_valid_ones(tmp_path, reference):
    """A seed's own inputs list (``make_tensor``'s Int32 values here) says nothing fmin can read
    about its offsets: the seed is written afresh, the offsets valid."""
    path = tmp_path / "gmm.py"
    path.write_text(script("[32, 16]", "[4, 16, 8]"))
    s = seeded.read_seed(str(path), None)
    text = to_source(s.program)
    assert _offsets_written(text) == [8, 16, 24, 32]
    assert _undefined(reference, text) == []


GROUPED_TEST = '''\
import torch
from nvfuser import FusionDefinition, DataType


def test_grouped(nvfuser_test):
    g, k, n = 4, 16, 8

    class Model(FusionDefinition):
        def definition(self):
            self.inp = self.define_tensor([-1, k], dtype=DataType.BFloat16, contiguity=True)
            self.w = self.define_tensor([g, k, n], dtype=DataType.BFloat16, contiguity=True)
            self.offsets = self.define_tensor([g], dtype=DataType.Int32, contiguity=True)
            self.add_output(self.ops.grouped_mm(self.inp, self.w, self.offsets))

    sizes = [5, 7, 9, 11]
    inp = torch.randn(sum(sizes), k, dtype=torch.bfloat16, device="cuda")
    w = torch.randn(g, k, n, dtype=torch.bfloat16, device="cuda")
    offsets = torch.cumsum(torch.tensor(sizes), 0, dtype=torch.int32).cuda()
    (out,), _ = Model().execute([inp, w, offsets])
'''


def test_a_checkout_test_using_grouped_mm_is_read_as_a_seed(tmp_path, reference):
    (tmp_path / "csrc").mkdir()
    (tmp_path / "tests" / "python").mkdir(parents=True)
    (tmp_path / "tests" / "python" / "test_grouped.py").write_text(GROUPED_TEST)
    try:
        got = seeded.load([str(tmp_path)])
        (r,) = got.harvests
        assert (r.found, r.read) == (1, 1), r.lines
        (s,) = got.seeds
        assert s.program.dialect.frontend == LEGACY
        assert [x.op for x in s.program.op_stmts()] == ["grouped_mm"]
        text = to_source(s.program)
        assert _offsets_written(text) == [8, 16, 24, 32]               # the test's 32 rows, split evenly
        assert _undefined(reference, text) == []
        (d,) = seeded.load([str(tmp_path)], "nvfuser_direct").seeds   # upgraded for a direct campaign
        direct = to_source(d.program)
        assert "from nvfuser_direct import" in direct and _offsets_written(direct) == [8, 16, 24, 32]
        assert _undefined(reference, direct) == []
    finally:
        seeded._CACHE.clear()
        nvfuser_tests.cleanup()
