"""Seeded fuzzing (``fmin fuzz --seeds``, ``fuzz/seeded.py``, ``fuzz/mutate.py``): mutated real
fusions stay valid, replay from their id, reach every mutation kind, and a campaign on them files
findings that name their seed."""
import json
import os
import textwrap

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from minimizer.fuzz.sources import mutate, seeded
from minimizer.oracle.context import RunContext
from minimizer.oracle.outcome import Outcome
from minimizer.program import static, to_source, validity

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = (os.path.join(ROOT, "corpus", "seeds"), os.path.join(ROOT, "corpus", "rope_qkv_split.py"))

#: a seed the reference rejects at run time though the static check (meta tensors) accepts it: an
#: output written into an expanded input; every mutation but a cut keeps that, so a campaign finds it
EXPANDED_ALIAS = textwrap.dedent("""\
    import torch
    from nvfuser import FusionDefinition, DataType

    def nvfuser_fusion_id0(fd: FusionDefinition) -> None:
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False)
        T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        T2 = fd.ops.add(T0, T1)
        T3 = fd.ops.mul(T2, T1)
        fd.add_output(T3, alias_input=T0)

    with FusionDefinition() as fd:
        nvfuser_fusion_id0(fd)

    inputs = [
        torch.randn((1, 5), dtype=torch.float32, device='cuda:0').expand(4, 5),
        torch.randn((4, 5), dtype=torch.float32, device='cuda:0'),
    ]
    fd.execute(inputs)
    """)


def test_mutated_seeds_stay_valid_over_many_draws():
    """Two chunks (64 programs) of the real seeds: each passes the static check, and most are
    changed from their seed (a discarded mutation leaves a draw unchanged, never invalid)."""
    seeds = {s.path: s.program for s in seeded.load(DIRS).seeds}
    changed = 0
    for k in (0, 1):
        for e in seeded.chunk(3, k, DIRS):
            static.check(e.program)
            assert e.seed_file in seeds
            changed += e.program != seeds[e.seed_file]
    assert changed >= 40


def test_an_example_id_replays_the_same_program():
    ex = seeded.chunk(5, 2, DIRS)
    seeded._CACHE.clear()   # parsed afresh, as a later `fmin fuzz --replay ID --seeds ...` would
    again = seeded.program_for(f"5.2.{len(ex) - 1}", DIRS)
    assert to_source(again.program) == to_source(ex[-1].program)
    assert (again.seed_file, again.mutations) == (ex[-1].seed_file, ex[-1].mutations)


def test_every_mutation_kind_is_reachable_and_keeps_programs_valid():
    seeds = seeded.load(DIRS).seeds
    hit = set()

    @settings(max_examples=150, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data(), st.sampled_from(sorted(mutate.MUTATIONS)), st.integers(0, len(seeds) - 1))
    def one(data, name, k):
        got = mutate.apply(data, seeds[k].program, seeds[k].info, name)
        if got is not None:
            static.check(got[0])
            hit.add(name)

    one()
    assert hit == set(mutate.MUTATIONS)


#: the seed above with its output written into the input it reads elementwise, not the expanded one
ALIAS = EXPANDED_ALIAS.replace("alias_input=T0", "alias_input=T1")

#: a seed the static check accepts and the reference rejects (its indices are out of range: a
#: finding of the failure oracle on the reference backend). The index is computed from an input:
#: one read as an index directly is written in range (``validity.input_values``)
INDEX_OUT_OF_RANGE = textwrap.dedent("""\
    import torch
    from nvfuser import FusionDefinition, DataType

    def nvfuser_fusion_id0(fd: FusionDefinition) -> None:
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
        T4 = fd.ops.add(T1, T1)
        T2 = fd.ops.index_select(T0, T4, dim=0)
        T3 = fd.ops.mul(T2, T2)
        fd.add_output(T3)

    with FusionDefinition() as fd:
        nvfuser_fusion_id0(fd)

    inputs = [
        torch.randn((4, 5), dtype=torch.float32, device='cuda:0'),
        torch.testing.make_tensor((3,), dtype=torch.int64, device='cuda:0', low=5, high=9),
    ]
    fd.execute(inputs)
    """)


def test_unreadable_seeds_are_reported_with_where_and_a_missing_folder_is_a_usage_error(tmp_path, capsys):
    from minimizer.cli import main
    (tmp_path / "good.py").write_text(ALIAS)
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "bad_shape.py").write_text(ALIAS.replace("fd.ops.mul(T2, T1)", "fd.ops.mul(T2, T2[0])"))
    # an output written into an expanded input: the program breaks a validity rule
    (tmp_path / "invalid.py").write_text(EXPANDED_ALIAS)
    got = seeded.load([str(tmp_path)])
    assert [s.path for s in got.seeds] == [str(tmp_path / "good.py")]
    assert len(got.unreadable) == 3 and all(line.startswith(str(tmp_path)) and line.count(":") >= 3
                                             for line in got.unreadable)
    (invalid,) = [line for line in got.unreadable if "invalid.py" in line]
    assert "alias-shape" in invalid and invalid.startswith(str(tmp_path / "invalid.py") + ":9:")
    assert main(["fuzz", "--seeds", str(tmp_path / "nowhere"), "--backend", "reference", "--device", "cpu",
                 "--corpus", str(tmp_path / "c"), "--max-examples", "1"]) == 2
    assert "no such directory" in capsys.readouterr().err


def test_a_seeded_campaign_records_the_seed_in_its_findings(tmp_path):
    from minimizer.fuzz.buglist import page as buglist
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign import run as campaign
    from minimizer.fuzz.store.store import Store
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "index_range.py").write_text(INDEX_OUT_OF_RANGE)
    s = campaign.run_campaign(CampaignOptions(
        ctx=RunContext(backend="reference", device="cpu", quiet=True, timeout=300), max_examples=3, seed=0,
        corpus=str(tmp_path / "c"), minimize=False, oracles=("failure",), seeds=(str(tmp_path / "seeds"),)))
    path = str(tmp_path / "seeds" / "index_range.py")
    assert s.programs == 3 and s.seeds == {path: 3}
    assert s.to_json()["seeded_programs"] == 3
    assert any(r[0] == "seeded programs" for r in seeded.summary_rows(s.seeds))
    # the slot time each seed took, in the JSON and as a summary row
    assert set(s.to_json()["per_seed_seconds"]) == {path} and s.seed_seconds[path] > 0
    rows = dict(seeded.summary_rows(s.seeds, s.seed_seconds))
    assert rows["slot time per seed (top)"].startswith("seeds/index_range.py ")
    (b,) = Store(str(tmp_path / "c")).buckets()
    assert b.seeds == {path: b.count} and b.generator["seeds"] == [str(tmp_path / "seeds")]
    (row,) = buglist.rows_of(str(tmp_path / "c"))
    assert f"seed {path}" in row["seen"]


def test_an_order_dependent_segmentation_of_a_seed_is_its_own_finding():
    from minimizer.fuzz.sources.generate import Example
    from minimizer.fuzz.store.finding import Finding
    from minimizer.fuzz.judging.oracles import Judged
    a = Outcome("ok", "nvfuser", segments=5, schedulers=["pointwise"] * 4 + ["no_op"], graph={"segments": []})
    b = Outcome("ok", "nvfuser", segments=8, schedulers=["pointwise"] * 5 + ["no_op"] * 3, graph={"segments": [{"scheduler": "no_op", "kernel": False}]})
    from minimizer.fuzz.store.key import FAILURE, SEGMENTATION, BucketKey
    changes = BucketKey(SEGMENTATION, "nvfuser", variant="order", schedulers=("no_op", "pointwise"))
    assert str(changes) == "nvfuser order-dependent segmentation changes (no_op, pointwise)"
    f = Finding("order-dependent", "nvfuser", changes,
                "permutation [1, 0]", {"order_dependent": True}, b, marks={"order_dependent": True})
    prog = seeded.load(DIRS).seeds[0].program
    (g,) = seeded.findings_of(seeded.SeededExample("0.0.0", prog, "rope.py", ("order",)), Judged(a, [f]), "nvfuser")
    assert str(g.key) == "nvfuser segmentation depends on the input order (no_op, pointwise)" and g.key.seeded
    assert g.found_as == "segmentation" and g.kind == "order-dependent"   # reduced and filed as order findings are
    assert g.marks["segment_graphs"]["segments"] == [5, 8] and g.traits["seeds"] == ["rope.py"]
    assert g.words.startswith("as seeded: 5 segments [no_op, pointwise×4]; varied: 0 kernels + 1 no_op")
    k = BucketKey(FAILURE, "nvfuser", "error", "x")
    same = Finding("layout-dependent", "nvfuser", k, "w", {}, Outcome("error", "nvfuser", signature="x"))
    assert seeded.as_segmentation(same, a, "nvfuser").key == k    # a failing variant stays a failure
    # a generated program's findings are untouched
    f2 = Finding("order-dependent", "nvfuser", changes, "w", {}, b)
    assert seeded.findings_of(Example("0.0.0", prog), Judged(a, [f2]), "nvfuser")[0].key == changes
    json.dumps(g.marks)


def test_mutants_of_index_matmul_and_aliasing_seeds_are_programs_the_reference_runs(tmp_path):
    """Mutations the static check could not judge once made programs eager torch refuses — index
    values past a shrunk or redrawn extent, a matmul of two dtypes, an expanded input written into,
    an op swapped in for operands of another kind — filed as fmin's own findings. On the seeds that
    showed each (seeds 7 and 11 of the campaign below did), no mutant fails on the reference now."""
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign import run as campaign
    seeds = tuple(os.path.join(ROOT, "corpus", f) for f in (
        "legacy_index_embedding.py", "direct_linear_matmul.py", "direct_scatter_index_ops.py",
        "direct_shape_ops.py", "legacy_batchnorm_stats_alias.py"))
    for seed in (7, 11):
        s = campaign.run_campaign(CampaignOptions(
            ctx=RunContext(backend="reference", device="cpu", quiet=True, timeout=300), max_examples=60,
            seed=seed, corpus=str(tmp_path / f"c{seed}"), minimize=False, oracles=("failure",), seeds=seeds))
        assert s.programs == 60 and not s.findings, (seed, dict(s.findings), s.new)


def test_the_static_check_refuses_a_matmul_of_two_dtypes():
    """torch's meta kernels accept ``linear(bf16, half)``; eager torch does not, nor does the
    catalog's reference, so the static check refuses it before any run."""
    from minimizer.program.interpret import FusionError
    from minimizer.program import parse
    src = textwrap.dedent("""\
        import torch
        from nvfuser_direct import FusionDefinition, DataType

        def nvfuser_fusion(fd: FusionDefinition) -> None:
            T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
            T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
            T2 = fd.ops.linear(T0, T1)
            fd.add_output(T2)

        with FusionDefinition() as fd:
            nvfuser_fusion(fd)

        inputs = [
            torch.randn((4, 8), dtype=torch.bfloat16, device='cuda:0'),
            torch.randn((3, 8), dtype=torch.float16, device='cuda:0'),
        ]
        fd.execute(inputs)
        """)
    with pytest.raises(FusionError, match="linear needs operands of one dtype"):
        static.check(parse(src))
    same = parse(src.replace("DataType.Half", "DataType.BFloat16").replace("torch.float16", "torch.bfloat16"))
    assert static.check(same).complete


def _largest(p, info) -> int:
    return max(t.numel() for _, _, t in mutate._tensor_values(p, info))


def test_a_seed_at_real_sizes_is_trimmed_to_the_budget_keeping_its_innermost_extent():
    """The layernorm backward seeds (16×512×4096, 33.5M elements a tensor) cost seconds a program
    to run, save and compare: their trimmed form has no tensor over ``TRIM_ELEMENTS``, passes the
    static check, and keeps the normalized extent 4096 (the outer 512 is halved instead); a seed
    within the budget is not trimmed, nor one whose index is computed (``argsort`` read by
    ``scatter``: its values are bound to the extents); one whose indices are inputs is, and no
    further than its ``select`` index allows (the printer writes the index inputs for the new
    extents: ``tests/test_index_values.py``)."""
    by_name = {os.path.basename(s.path): s for s in seeded.load(DIRS).seeds}
    big = by_name["layernorm_bwd_segmented.py"]
    assert _largest(big.program, big.info) == 16 * 512 * 4096
    p, info = big.small
    static.check(p)
    assert _largest(p, info) <= mutate.TRIM_ELEMENTS
    shapes = {tuple(getattr(a, "shape", ())) for a in p.inputs}
    assert (16, 16, 4096) in shapes and not any(512 in sh for sh in shapes)
    small = seeded.read_seed(os.path.join(ROOT, "corpus", "direct_shape_ops.py"), None)
    assert small.small is None
    computed = seeded.read_seed(os.path.join(ROOT, "corpus", "direct_scatter_index_ops.py"), None)
    assert mutate.trimmed(computed.program, computed.info, limit=16) is None
    index = seeded.read_seed(os.path.join(ROOT, "corpus", "legacy_index_embedding.py"), None)
    q, _ = mutate.trimmed(index.program, index.info, limit=16)
    assert q.inputs[0].shape == (4, 4) and q.inputs[-1].value == 3   # select(T0, 3, dim=0) needs 4 rows


def test_programs_of_a_large_seed_start_trimmed_and_sometimes_as_written():
    """Most programs of a large seed start from its trimmed form (named ``trim`` among their
    mutations, their tensors within budget but for the extents its up to 3 mutations may double);
    some keep the real sizes, where size-dependent scheduling lives."""
    big = os.path.join(ROOT, "corpus", "seeds")
    trimmed, written = 0, 0
    for k in range(6):
        for e in seeded.chunk(11, k, (big,)):
            if seeded.TRIM in e.mutations:
                trimmed += 1
                assert _largest(e.program, static.check(e.program)) <= 8 * mutate.TRIM_ELEMENTS
            else:
                written += 1
    assert trimmed > 3 * written and written >= 1


def test_seeds_are_drawn_as_their_op_count_to_the_power_minus_one_and_a_half():
    """A seed's share of a campaign's programs falls as ops^-1.5, so its share of the time (which
    grows about linearly with ops) falls slowly with its size: a seed of a quarter of the ops is
    drawn about eight times as often. Drawn over the corpus's 22 seeds in 32-example chunks, as a
    campaign draws them (the widest weight range there is)."""
    import collections
    dirs = tuple(sorted(os.path.join(ROOT, "corpus", f) for f in os.listdir(os.path.join(ROOT, "corpus"))
                        if f.endswith(".py"))) + (os.path.join(ROOT, "corpus", "seeds"),)
    seeds = seeded.load(dirs).seeds
    w = seeded.seed_weights(seeds)
    ops = {s.path: len(s.program.op_stmts()) for s in seeds}
    by_ops = sorted(zip([ops[s.path] for s in seeds], w))
    assert all(x[1] >= y[1] for x, y in zip(by_ops, by_ops[1:]))          # fewer ops, no less weight
    for (o1, w1), (o2, w2) in zip(by_ops, by_ops[1:]):
        assert abs(w1 / w2 - (o2 / o1) ** 1.5) <= 0.01 * (o2 / o1) ** 1.5   # integers, within rounding
    assert by_ops[0][1] >= 30 * by_ops[-1][1]                              # 4 ops vs 41: 32.8
    got = collections.Counter(e.seed_file for k in range(30) for e in seeded.chunk(2031, k, dirs))
    n, total = sum(got.values()), sum(w)
    small = [s.path for s in seeds if ops[s.path] <= 9]
    large = [s.path for s in seeds if ops[s.path] >= 26]
    share = lambda ps: sum(got[p] for p in ps) / n                          # noqa: E731
    expect = lambda ps: sum(w[i] for i, s in enumerate(seeds) if s.path in ps) / total   # noqa: E731
    assert 0.7 * expect(small) <= share(small) <= 1.5 * expect(small)
    assert 0.4 * expect(large) <= share(large) <= 1.6 * expect(large)
    assert share(small) > 10 * share(large)
    assert all(got[s.path] for s in seeds)                                 # the largest are still drawn


def test_the_weights_are_integers_the_same_on_every_machine():
    """A replay id must draw the same seed anywhere: the weights come from integer arithmetic
    (no float power), the largest weight is WEIGHT_UNITS (one op), and none is 0."""
    from types import SimpleNamespace
    fake = [SimpleNamespace(program=SimpleNamespace(op_stmts=lambda n=n: [None] * n)) for n in (0, 1, 4, 41, 5000)]
    w = seeded.seed_weights(fake)
    assert w == [seeded.WEIGHT_UNITS, seeded.WEIGHT_UNITS, seeded.WEIGHT_UNITS // 8, 124, 1]
    assert all(isinstance(x, int) for x in w)


def test_the_shrunk_seed_draw_is_the_smallest_seed_and_every_seed_is_reachable():
    seeds = seeded.load(DIRS).seeds
    w = seeded.seed_weights(seeds)
    smallest = min(seeds, key=lambda s: (len(s.program.op_stmts()), s.path))
    assert seeded.pick(seeds, w, 0) is smallest
    assert {seeded.pick(seeds, w, u).path for u in range(0, 1 << 16, 7)} == {s.path for s in seeds}


def test_a_mutation_that_does_not_apply_is_drawn_again():
    """A one-input seed cannot be reordered: the draw after ``order`` is taken instead, so the
    program is a mutant, not its seed again (which a campaign would skip as a duplicate)."""
    p = seeded.read_seed(os.path.join(ROOT, "corpus", "direct_topk_argsort_cumsum.py"), None)
    script = iter([1, "order", "cast"])

    class Data:   # the scripted draws, and the first choice of every other (``sampled_from``) one
        def draw(self, strategy, label=None):
            return next(script) if label in ("mutations", "mutation") else list(strategy.elements)[0]

    q, names = mutate.mutated(Data(), p.program, p.info)
    assert names == ["cast"] and q != p.program


def test_an_output_is_never_aliased_into_an_input_already_written():
    """Two writes into one input have no defined order: ``alias_output`` only writes inputs no
    output writes yet. direct_shape_ops.py writes ``tv14`` into ``tv1`` (the only input of its
    shape), so it has no candidate at all; once that write is gone, ``tv1`` is one again, written
    with a value of its shape and dtype (the fusion reads ``tv1`` too: nvFuser orders the write
    after the reads)."""
    from minimizer.model import Ref
    s = seeded.read_seed(os.path.join(ROOT, "corpus", "direct_shape_ops.py"), None)

    def aliased(p):
        return [x.arg("alias_input").name for x in p.stmts if x.is_output and isinstance(x.arg("alias_input"), Ref)]

    assert aliased(s.program) == ["tv1"]
    unaliased = s.program.replace(stmts=tuple(x for x in s.program.stmts
                                              if not (x.is_output and isinstance(x.arg("alias_input"), Ref))))
    got = {"free": 0}

    @settings(max_examples=60, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one(data):
        assert mutate.alias_output(data, s.program, s.info) is None
        q = mutate.alias_output(data, unaliased, s.info)
        if q is not None:
            assert aliased(q) == ["tv1"] and validity.violations(q) == []
            got["free"] += 1

    one()
    assert got["free"] >= 1


# ---- mutants the static check passed and the reference could not run (CPU survey of 3,840
# ---- programs of seed 2031 over the corpus seeds: 47 such, all of the four kinds below)

@pytest.fixture(scope="module")
def ref_pool():
    from minimizer.oracle import Pool
    with Pool("reference", "cpu", jobs=1, timeout=300) as p:
        yield p


def _runs(pool, program):
    from minimizer.backends import RunOptions
    from minimizer.oracle import Request
    return pool.run(Request(to_source(program), "<mutant>", RunOptions(seed=0)))


def test_a_value_a_nested_call_left_unnamed_gets_a_line_when_another_statement_reads_it(ref_pool):
    """handwritten_layernorm_direct.py nests calls (``fd.ops.add(fd.ops.mul(y, w), b)``); a
    mutation repeating the inner result as an operand printed the line as written, and the new
    statement read a name nothing defined (NameError in 5 of 480 programs)."""
    from minimizer.model import Ref, Stmt
    s = seeded.read_seed(os.path.join(ROOT, "corpus", "handwritten_layernorm_direct.py"), None)
    hidden = next(n for x in s.program.stmts for n in x.outs if n and n.startswith("fmin_t"))
    cat = Stmt(("R0",), "ops.cat", (("tensors", (Ref(hidden), Ref(hidden))), ("dim", 0)), npos=1)
    out = Stmt((), "add_output", (("output", Ref("R0")),), npos=1)
    q = s.program.replace(stmts=s.program.stmts + (cat, out))
    static.check(q)
    text = to_source(q)
    assert f"{hidden} = fd.ops." in text
    assert "fd.ops.broadcast_in_dim(fd.ops.cast(bias, DataType.Float), x_shape, [1])" in text   # the rest kept
    o = _runs(ref_pool, q)
    assert o.ok, o.signature
    assert to_source(s.program) == s.program.source.text   # unread, the nested line stays as written


def test_a_size_query_of_an_elementwise_result_has_one_result_per_dim(ref_pool):
    """A ``segment_set`` put before ``tensor_sizes`` (legacy_layernorm_fwd_2023.py): fmin's
    frontend knew the rank of inputs only, so ``S3, S4, S5 = fd.ops.tensor_sizes(M1)`` unpacked
    nothing."""
    from minimizer.program import parse
    src = textwrap.dedent("""\
        import torch
        from nvfuser import FusionDefinition, DataType
        def f(fd : FusionDefinition) -> None :
            T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
            M1 = fd.ops.segment_set(T0)
            T2 = fd.ops.cast(M1, dtype=DataType.Float)
            S3, S4, S5 = fd.ops.tensor_sizes(T2)
            V6 = fd.define_vector([S3, S4, S5], dtype=DataType.Int)
            T7 = fd.ops.reshape(T2, new_shape=V6)
            fd.add_output(T7)
        with FusionDefinition() as fd:
            f(fd)
        inputs = [torch.testing.make_tensor((2, 3, 4), dtype=torch.float16, device='cuda:0')]
        fd.execute(inputs)
        """)
    o = _runs(ref_pool, parse(src))
    assert o.ok, o.signature


def test_a_non_contiguous_fp8_input_is_drawn_in_float_and_rounded():
    """torch has no ``randn`` for fp8: a ``contiguity`` mutant of the fp8 matmul seed built its
    input with one and failed before the fusion ran (38 of 480 programs)."""
    import torch
    from minimizer.model import TensorArg
    from minimizer.program.printer import render_input
    text = render_input(TensorArg(shape=(32, 64), dtype="Float8_e4m3fn", strides=(128, 1), device="cpu"))
    assert ".to(torch.float8_e4m3fn).as_strided((32, 64), (128, 1))" in text
    t = eval(text, {"torch": torch})
    assert t.dtype == torch.float8_e4m3fn and t.stride() == (128, 1)


@pytest.mark.parametrize("change,refused", [
    (None, False),
    ("scale", True),        # a Half scale: torch's "Invalid scaling configuration"
    ("row_major_b", True),  # the second operand row-major: cuBLAS takes row-major @ column-major only
    ("k", True),            # K not a multiple of 16
    ("expanded_a", True),   # the first operand's rows one row (stride 0): torch's "self must be row_major"
])
def test_the_static_check_refuses_scaled_mm_operands_torch_refuses(change, refused):
    from minimizer.program import parse
    from minimizer.program.interpret import FusionError
    with open(os.path.join(ROOT, "corpus", "legacy_scaled_mm_fp8.py"), encoding="utf-8") as f:
        src = f.read()
    if change == "scale":
        src = src.replace("T2 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float",
                          "T2 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Half")
        src = src.replace("torch.testing.make_tensor((), dtype=torch.float32, device='cuda:0', low=0.5, high=2.0),",
                          "torch.testing.make_tensor((), dtype=torch.float16, device='cuda:0', low=0.5, high=2.0),", 1)
    elif change == "row_major_b":
        src = src.replace("dtype=DataType.Float8_e4m3fn, is_cpu=False, stride_order=[0, 1]",
                          "dtype=DataType.Float8_e4m3fn, is_cpu=False, stride_order=[1, 0]")
        src = src.replace(".as_strided((64, 48), (1, 64))", ".as_strided((64, 48), (48, 1))")
    elif change == "expanded_a":   # e46106519102, a seeded campaign's mutant, refused by torch on the GPU
        src = src.replace("torch.testing.make_tensor((32, 64), dtype=torch.float8_e4m3fn",
                          "torch.testing.make_tensor((1, 64), dtype=torch.float8_e4m3fn")
        src = src.replace("torch.testing.make_tensor((1, 64), dtype=torch.float8_e4m3fn, device='cuda:0')",
                          "torch.testing.make_tensor((1, 64), dtype=torch.float8_e4m3fn, device='cuda:0').expand(32, 64)")
        src = src.replace("T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True]",
                          "T0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True]")
    elif change == "k":
        src = src.replace("make_tensor((32, 64)", "make_tensor((32, 40)").replace(
            "as_strided((64, 48), (1, 64))", "as_strided((40, 48), (1, 40))")
    p = parse(src)
    if refused:
        with pytest.raises(FusionError, match="scaled_mm"):
            static.check(p)
    else:
        static.check(p)


def test_an_inserted_op_never_takes_an_outputs_alias_target():
    """``cast``/``segment_set`` put a copy after a value and reroute its later uses; the value
    ``tv1`` of direct_shape_ops.py is an input an output is written into, and that write must
    stay on the input (a write into the copy is not a program nvFuser accepts: its assert
    ``alias source can only be a fusion input``, once filed as 202a8b76daa1)."""
    from minimizer.model import Ref
    s = seeded.read_seed(os.path.join(ROOT, "corpus", "direct_shape_ops.py"), None)
    inputs = {x.outs[0] for x in s.program.stmts if x.is_tensor_decl}
    got = {"on_tv1": 0}

    @settings(max_examples=80, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data(), st.sampled_from(["cast", "segment_set"]))
    def one(data, name):
        from minimizer.program.interpret import FusionError
        q = getattr(mutate, name)(data, s.program, s.info)
        if q is None:
            return
        try:
            static.check(q)          # a mutation only proposes: one the check refuses is dropped
        except FusionError:
            return
        targets = [x.arg("alias_input").name for x in q.stmts if x.is_output and isinstance(x.arg("alias_input"), Ref)]
        assert targets == ["tv1"] and set(targets) <= inputs
        reads = [x for x in q.stmts if x.is_op and x.op == "add" and "tv13" in x.uses()]
        got["on_tv1"] += bool(reads and "tv1" not in reads[0].uses())   # tv1's reader rerouted

    one()
    assert got["on_tv1"] >= 3


def test_the_static_check_refuses_a_bitwise_op_with_a_floating_result():
    """``bitwise_and(bool tensor, 0.5)`` promotes to Float, which eager torch has no kernel
    for (its meta kernel accepts it): a ``swap_op`` chain of the bias-gelu seed made it."""
    from minimizer.program import parse
    from minimizer.program.interpret import FusionError
    src = textwrap.dedent("""\
        import torch
        from nvfuser import FusionDefinition, DataType
        def f(fd : FusionDefinition) -> None :
            T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
            T1 = fd.ops.lt(T0, T0)
            S2 = fd.define_scalar(0.500000, dtype=DataType.Double)
            T3 = fd.ops.bitwise_and(T1, S2)
            fd.add_output(T3)
        with FusionDefinition() as fd:
            f(fd)
        inputs = [torch.testing.make_tensor((8,), dtype=torch.float32, device='cuda:0')]
        fd.execute(inputs)
        """)
    with pytest.raises(FusionError, match="bitwise_and"):
        static.check(parse(src))
    static.check(parse(src.replace("0.500000, dtype=DataType.Double", "True, dtype=DataType.Bool")))


def test_a_seed_without_ops_is_read_and_its_mutants_get_ops(tmp_path):
    """An input forwarded to an output (nvFuser's input-forwarding tests) has no op, but its input
    takes mutations and an inserted cast or segment_set gives it one."""
    path = tmp_path / "forward.py"
    path.write_text(textwrap.dedent("""\
        import torch
        from nvfuser_direct import FusionDefinition, DataType

        with FusionDefinition() as fd:
            T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
            fd.add_output(T0)

        inputs = [torch.randn((4, 5), dtype=torch.float32, device='cuda:0')]
        fd.execute(inputs)
        """))
    s = seeded.read_seed(str(path), None)
    assert not s.program.op_stmts()
    got = set()

    @settings(max_examples=60, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck),
              deadline=None)
    @given(st.data())
    def draw(data):
        q, applied = mutate.mutated(data, s.program, s.info)
        if q.op_stmts():
            got.update(x.op for x in q.op_stmts())
    draw()
    assert got & {"cast", "segment_set"}


SDPA = textwrap.dedent("""\
    import torch
    from nvfuser_direct import FusionDefinition, DataType

    with FusionDefinition() as fd:
        q = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16)
        k = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16)
        v = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16)
        o, lse, seed, offset = fd.ops.sdpfa_fwd(q, k, v, dropout_p=None, is_causal=None, scale=None)
        fd.add_output(o)

    inputs = [
        torch.randn((2, 4, 16, 8), dtype=torch.bfloat16, device='cuda'),
        torch.randn((2, 4, 16, 8), dtype=torch.bfloat16, device='cuda'),
        torch.randn((2, 4, 16, 8), dtype=torch.bfloat16, device='cuda'),
    ]
    fd.execute(inputs)
    """)


@pytest.mark.parametrize("change,refused", [
    (None, None),
    ("head_dim", "multiple of 8"),          # 9301538a5557: a shape mutation left a head dim of 1
    ("cpu_input", "only supports cuda"),    # abd4996040de: an unused input of 3 elements on the CPU
])
def test_the_static_check_refuses_what_nvfuser_refuses_at_run_time(change, refused):
    """Mutants the GPU refused by design (flash attention's limits, a CPU tensor that is not a
    scalar) are refused before any run, so a campaign discards them instead of filing them."""
    from minimizer.program import parse
    from minimizer.program.interpret import FusionError
    src = SDPA
    if change == "head_dim":
        src = src.replace("(2, 4, 16, 8)", "(2, 4, 16, 4)")
    elif change == "cpu_input":
        src = src.replace("with FusionDefinition() as fd:\n",
                          "with FusionDefinition() as fd:\n    u = fd.define_tensor(shape=[-1], contiguity=True, "
                          "dtype=DataType.Float)\n")
        src = src.replace("inputs = [\n", "inputs = [\n    torch.randn((3,), device='cpu'),\n")
    p = parse(src)
    if refused:
        with pytest.raises(FusionError, match=refused):
            static.check(p)
    else:
        static.check(p)


def test_a_value_made_an_input_goes_where_the_tensors_are_not_where_a_cpu_scalar_is():
    """abd4996040de: a cut of nvFuser's test_full_with_cpu_inputs (a CPU scalar times a `full`)
    made the `full` an input on the CPU, beside the CPU scalar, which nvFuser refuses. A new input
    goes to the device of the script's tensors (the GPU where only CPU scalars are there)."""
    from minimizer.program import parse
    from minimizer.program.declare import device_of
    src = textwrap.dedent("""\
        import torch
        from nvfuser_direct import FusionDefinition, DataType

        with FusionDefinition() as fd:
            tv0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=True)
            s0 = fd.define_scalar(3.0)
            tv1 = fd.ops.full(shape=[2, 2], fill_value=s0, dtype=DataType.Float)
            fd.add_output(fd.ops.mul(tv0, tv1))

        inputs = [torch.tensor(2.0, device='cpu')]
        fd.execute(inputs)
        """)
    assert device_of(parse(src)) == "cuda"
    assert device_of(parse(src.replace("torch.tensor(2.0, device='cpu')", "torch.randn((2,), device='cpu')")
                           .replace("shape=[], contiguity=[], dtype=DataType.Float, is_cpu=True",
                                    "shape=[-1], contiguity=[True], dtype=DataType.Float"))) == "cpu"
