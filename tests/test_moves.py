"""The reduction moves of issue 13, as quality tests in the Hypothesis shrinker's style: given this
program and this predicate, the reducer's result is exactly this (and without the move it is
bigger); then what each pass proposes; then the two cases of ``scripts/bench_predicates.py``.
Every judge is Python (the predicates of ``bench_predicates.py``), so nothing here starts a
worker."""
import importlib.util
import os

import pytest

from conftest import ROOT
from minimizer.model import Ref, TensorArg
from minimizer.program import edits, parse, static
from minimizer.program.interpret import FusionError
from minimizer.reduce.driver import Reducer, Verdict
from minimizer.reduce.passes import (PASSES, BypassBroadcast, BypassCast, MergeConstants, MergeInputs,
                                     OutputToOperand, RepointOutput, SplitAtOp, cosmetic_key)

_spec = importlib.util.spec_from_file_location("bench_predicates", os.path.join(ROOT, "scripts", "bench_predicates.py"))
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def script(body: str, inputs: str) -> str:
    return ("import torch\nfrom nvfuser import FusionDefinition, DataType\n\n"
            "def nvfuser_fusion_id0(fd : FusionDefinition) -> None :\n" + body +
            "\nwith FusionDefinition() as fd:\n    nvfuser_fusion_id0(fd)\n\ninputs = [\n" + inputs + "]\nfd.execute(inputs)\n")


def body_of(text: str) -> str:
    """The fusion definition's lines, as printed."""
    return text.split(" -> None :\n", 1)[1].split("\n\n", 1)[0] + "\n"


def judge(pred):
    return lambda texts: [Verdict(pred(t)) for t in texts]


def reduce(text, pred, without=None, jobs=1):
    passes = [p for p in PASSES if p.name != without] if without else None
    return Reducer(parse(text), judge(pred), passes=passes, jobs=jobs).run()


def cands(pass_, program):
    return [edits.dce(c) for _, c in pass_.candidates(program, static.check(program))]


def outputs(program):
    return [s.arg("output").name for s in program.output_stmts()]


def ops(program):
    return [s.op for s in program.op_stmts()]


X = "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])\n"
X_IN = "    torch.testing.make_tensor((4, 8), dtype=torch.float32, device='cuda:0'),\n"
ONE = "    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])\n"
SUM = "fd.ops.sum(T0, dims=[0], keepdim=False, dtype=DataType.Null)"
TWO_SUMS = ONE + f"    T1 = {SUM}\n    T2 = {SUM}\n"
DEPENDENT = "fd.ops.broadcast_in_dim(T1, shape=[1, 1], broadcast_dims=[])"


def dependent(first, second):
    return (ONE + f"    T1 = fd.ops.{first}(T0, dims=[0], keepdim=False, dtype=DataType.Null)\n    T2 = {DEPENDENT}\n"
            f"    T3 = fd.ops.{second}(T2, dims=[1], keepdim=False, dtype=DataType.Null)\n    fd.add_output(T3)\n")


def two_outputs_sum_and_exp(text):
    p = bench._well_formed(text)
    return p is not None and len(p.output_stmts()) >= 2 and {"sum", "exp"} <= {s.op for s in p.stmts}


def two_broadcasts(text):
    p = bench._well_formed(text)
    return p is not None and sum(1 for s in p.stmts if s.op == "broadcast_in_dim") >= 2


# name: (fusion body, predicate, the result's fusion body, the pass without which it is bigger);
# every result reads one Float input of one element (0-dim for "constants")
QUALITY = {
    # move 2: an output joining two sums becomes the two sums
    "join": (X + """    T1 = fd.ops.sum(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    T2 = fd.ops.exp(T0)
    T3 = fd.ops.sum(T2, dims=[1], keepdim=False, dtype=DataType.Null)
    T4 = fd.ops.add(T1, T3)
    fd.add_output(T4)
""", bench.two_sums, TWO_SUMS + "    fd.add_output(T1)\n    fd.add_output(T2)\n", "output-to-operand"),
    # move 1: sum -> broadcast -> sum, one output, becomes two sums, two outputs (then one input)
    "chain": (X + """    T1 = fd.ops.sum(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[4, 8], broadcast_dims=[0])
    T3 = fd.ops.sum(T2, dims=[1], keepdim=False, dtype=DataType.Null)
    fd.add_output(T3)
""", bench.two_sums, TWO_SUMS + "    fd.add_output(T2)\n    fd.add_output(T1)\n", "split"),
    # move 3: a cast to BFloat16 between two dependent reductions goes
    "cast": (X + """    T1 = fd.ops.sum(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[4, 8], broadcast_dims=[0])
    T3 = fd.ops.cast(T2, dtype=DataType.BFloat16)
    T4 = fd.ops.max(T3, dims=[1], keepdim=False, dtype=DataType.Null)
    fd.add_output(T4)
""", bench.dependent_reductions, dependent("sum", "max"), "bypass-cast"),
    # move 4: mul(T0, expanded broadcast) keeps the broadcast (Bypass would keep T0)
    "broadcast-expanded": (X + """    T1 = fd.ops.sum(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[4, 8], broadcast_dims=[0])
    T3 = fd.ops.mul(T0, T2)
    T4 = fd.ops.max(T3, dims=[1], keepdim=False, dtype=DataType.Null)
    fd.add_output(T4)
""", bench.dependent_reductions, dependent("sum", "max"), "bypass-broadcast"),
    # move 4: softmax's sub(T0, [4, 1] broadcast of the max) keeps the broadcast as it is
    "broadcast-extent-1": (X + """    T1 = fd.ops.max(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[4, 1], broadcast_dims=[0])
    T3 = fd.ops.sub(T0, T2)
    T4 = fd.ops.exp(T3)
    T5 = fd.ops.sum(T4, dims=[1], keepdim=False, dtype=DataType.Null)
    fd.add_output(T5)
""", bench.dependent_reductions, dependent("max", "sum"), "bypass-broadcast"),
    # move 5: the printer's repeated define_scalar lines (and then the equal vectors) become one
    "constants": ("""    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    S1 = fd.define_scalar(4, dtype=DataType.Int)
    S2 = fd.define_scalar(8, dtype=DataType.Int)
    V3 = fd.define_vector([S1, S2], dtype=DataType.Int)
    T4 = fd.ops.broadcast_in_dim(T0, shape=V3, broadcast_dims=[1])
    S5 = fd.define_scalar(4, dtype=DataType.Int)
    S6 = fd.define_scalar(8, dtype=DataType.Int)
    V7 = fd.define_vector([S5, S6], dtype=DataType.Int)
    T8 = fd.ops.broadcast_in_dim(T0, shape=V7, broadcast_dims=[1])
    T9 = fd.ops.add(T4, T8)
    fd.add_output(T9)
""", two_broadcasts, """    T0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False, stride_order=[])
    S1 = fd.define_scalar(1, dtype=DataType.Int)
    V2 = fd.define_vector([S1, S1], dtype=DataType.Int)
    T3 = fd.ops.broadcast_in_dim(T0, shape=V2, broadcast_dims=[])
    T4 = fd.ops.broadcast_in_dim(T0, shape=V2, broadcast_dims=[])
    fd.add_output(T3)
    fd.add_output(T4)
""", "merge-constants"),
}


@pytest.mark.parametrize("name", sorted(QUALITY))
def test_shrinks_to_exactly(name):
    body, pred, want, move = QUALITY[name]
    inputs = X_IN if "[-1, -1]" in body.splitlines()[0] else "    torch.testing.make_tensor((8,), dtype=torch.float32, device='cuda:0'),\n"
    text = script(body, inputs)
    assert pred(text)
    res = reduce(text, pred)
    assert body_of(res.text) == want
    one = TensorArg((), (), "Float", "cuda:0") if name == "constants" else TensorArg((1,), (1,), "Float", "cuda:0")
    assert res.program.inputs == (one,)
    without = reduce(text, pred, without=move)
    if move == "merge-constants":   # cosmetic: the same ops, more lines
        assert edits.size(without.program) == edits.size(res.program) and len(without.text) > len(res.text)
    else:
        assert without.program.n_ops() > res.program.n_ops(), body_of(without.text)


def test_moves_are_deterministic_in_parallel():
    body, pred, want, _ = QUALITY["chain"]
    text = script(body, X_IN)
    assert reduce(text, pred, jobs=2).text == reduce(text, pred).text


def test_repoint_output_cuts_one_output_and_keeps_the_other():
    text = script(X + """    T1 = fd.ops.sum(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[4, 1], broadcast_dims=[0])
    T3 = fd.ops.broadcast_in_dim(T2, shape=[4, 8], broadcast_dims=[0, 1])
    T4 = fd.ops.mul(T3, T0)
    T5 = fd.ops.exp(T0)
    fd.add_output(T4)
    fd.add_output(T5)
""", X_IN)
    prog = parse(text)
    got = cands(RepointOutput(), prog)
    # T4's cone bisected from the end (T2, then T3, T1); T5's cone has no op value
    assert [outputs(c) for c in got] == [["T2", "T5"], ["T3", "T5"], ["T1", "T5"]]
    assert cands(RepointOutput(), parse(script(X + "    T1 = fd.ops.exp(T0)\n    T2 = fd.ops.neg(T1)\n"
                                                   "    fd.add_output(T2)\n", X_IN))) == []  # one output: the cut's
    res = reduce(text, two_outputs_sum_and_exp)
    assert ops(res.program) == ["sum", "exp"] and len(res.program.output_stmts()) == 2
    assert res.stats["repoint-output"].accepted == 2   # T2 (the bisection's first), then T1


def test_output_to_operand_proposes_each_operand_then_all():
    prog = parse(script(QUALITY["join"][0], X_IN))
    got = cands(OutputToOperand(), prog)
    assert [outputs(c) for c in got] == [["T1"], ["T3"], ["T1", "T3"]]
    assert ops(got[2]) == ["sum", "exp", "sum"]
    # an output whose producer something else still reads: nothing to gain
    prog = parse(script(X + "    T1 = fd.ops.exp(T0)\n    T2 = fd.ops.neg(T1)\n    T3 = fd.ops.add(T1, T2)\n"
                            "    fd.add_output(T2)\n    fd.add_output(T3)\n", X_IN))
    # (T2 is an output already: reading it instead is dropping T3, and "both" is "T1" again)
    assert [outputs(c) for c in cands(OutputToOperand(), prog)] == [["T2", "T1"], ["T2"]]


def test_split_cuts_out_the_op_between_two_values():
    prog = parse(script(QUALITY["chain"][0], X_IN))
    (c,) = cands(SplitAtOp(), prog)
    assert ops(c) == ["sum", "sum"] and outputs(c) == ["T3", "T1"]
    new = next(s for s in c.input_stmts() if s.outs[0] not in ("T0",))
    assert new.arg("contiguity") == (True, None)      # the broadcast value's input stays a broadcast
    assert edits.input_arg(c, c.stmts.index(new)).strides == (1, 0)
    static.check(c)


def test_bypass_cast_retypes_and_the_static_check_guards_users():
    prog = parse(script(QUALITY["cast"][0], X_IN))
    (c,) = cands(BypassCast(), prog)
    assert ops(c) == ["sum", "broadcast_in_dim", "max"]
    info = static.check(c)
    assert str(info.value(len(c.stmts) - 2, c.stmts[-2].outs[0]).dtype) == "torch.float32"  # max reads Float now
    # a cat needs its operands' dtypes to agree: bypassing the cast is ill-formed
    cat = parse(script("""    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.cast(T0, dtype=DataType.Float)
    T3 = fd.ops.cat([T2, T1], dim=0)
    fd.add_output(T3)
""", "    torch.testing.make_tensor((4, 8), dtype=torch.bfloat16, device='cuda:0'),\n" + X_IN))
    (c,) = cands(BypassCast(), cat)
    with pytest.raises(FusionError):
        static.check(c)
    # a cast to its own dtype is Bypass's
    assert cands(BypassCast(), parse(script(X + "    T1 = fd.ops.cast(T0, dtype=DataType.Float)\n"
                                                "    fd.add_output(T1)\n", X_IN))) == []


def test_bypass_broadcast_candidates():
    prog = parse(script("""    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.max(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    T3 = fd.ops.broadcast_in_dim(T2, shape=[4, 1], broadcast_dims=[0])
    T4 = fd.ops.mul(T1, T3)
    fd.add_output(T4)
""", X_IN + "    torch.testing.make_tensor((4, 8), dtype=torch.bfloat16, device='cuda:0'),\n"))
    retyped, unexpanded, expanded = cands(BypassBroadcast(), prog)
    assert outputs(retyped) == ["T1"] and ops(retyped) == []       # the BFloat16 operand
    assert outputs(unexpanded) == ["T3"]                           # [4, 1]: the output's shape changes
    e = expanded.stmts[-2]
    assert e.op == "expand" and e.arg("arg") == Ref("T3") and e.arg("shape") == (4, 8)
    assert len(expanded.inputs) == 1                               # T1 died with the mul
    for c in (unexpanded, expanded):
        static.check(c)
    # both operands full (or both broadcasts): nothing
    assert cands(BypassBroadcast(), parse(script(X + "    T1 = fd.ops.mul(T0, T0)\n    fd.add_output(T1)\n", X_IN))) == []


def test_merge_constants_is_cosmetic_and_scalars_come_first():
    prog = parse(script(QUALITY["constants"][0], "    torch.testing.make_tensor((8,), dtype=torch.float32, device='cuda:0'),\n"))
    got = cands(MergeConstants(), prog)
    # both classes at once, then 4s, then 8s; the vectors are not equal yet
    assert [sum(1 for s in c.stmts if s.call == "define_scalar") for c in got] == [2, 3, 3]
    for c in got:
        assert edits.size(c) == edits.size(prog) and cosmetic_key(c) < cosmetic_key(prog)
    vectors = cands(MergeConstants(), got[0])
    assert len(vectors) == 1 and sum(1 for s in vectors[0].stmts if s.call == "define_vector") == 1
    assert cosmetic_key(vectors[0]) < cosmetic_key(got[0])
    # a NaN is a NaN, but -0.0 is not 0.0
    consts = parse(script(ONE + """    S1 = fd.define_scalar(-0.0, dtype=DataType.Double)
    S2 = fd.define_scalar(0.0, dtype=DataType.Double)
    T3 = fd.ops.mul(T0, S1)
    T4 = fd.ops.mul(T3, S2)
    fd.add_output(T4)
""", "    torch.testing.make_tensor((8,), dtype=torch.float32, device='cuda:0'),\n"))
    assert cands(MergeConstants(), consts) == []


def test_merge_inputs_merges_inputs_declared_otherwise():
    prog = parse(script(ONE + """    T1 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T2 = fd.ops.sum(T0, dims=[0], keepdim=False, dtype=DataType.Null)
    T3 = fd.ops.sum(T1, dims=[0], keepdim=False, dtype=DataType.Null)
    fd.add_output(T2)
    fd.add_output(T3)
""", "    torch.testing.make_tensor((1,), dtype=torch.float32, device='cuda:0'),\n" * 2))
    (c,) = cands(MergeInputs(), prog)
    assert len(c.inputs) == 1 and all(s.arg("arg") == Ref("T0") for s in c.op_stmts())


# ---- the benchmark cases (scripts/bench_predicates.py) ----
LN_RESULT = """    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T1 = fd.ops.sum(T0, axes=[0], keepdim=False, dtype=DataType.Null)
    T2 = fd.ops.sum(T0, axes=[0], keepdim=False, dtype=DataType.Null)
    fd.add_output(T2)
    fd.add_output(T1)
"""
RMS_RESULT = """    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T1 = fd.ops.sum(T0, dims=[0], keepdim=False, dtype=DataType.Null)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[1, 1, 1], broadcast_dims=[])
    T3 = fd.ops.max(T2, dims=[2], keepdim=False, dtype=DataType.Null)
    fd.add_output(T3)
"""


@pytest.mark.parametrize("case,want", [(0, LN_RESULT), (1, RMS_RESULT)], ids=["layernorm-two-sums", "rmsnorm-softmax-dependent"])
def test_benchmark_cases(case, want):
    path, _, pred = bench.CASES[case]
    assert pred(open(os.path.join(ROOT, path)).read())
    res = bench.reduce_case(path, pred)
    assert body_of(res.text) == want
    assert res.tests <= 300
    assert len(res.program.inputs) == 1 and res.program.inputs[0].shape == (1,)
