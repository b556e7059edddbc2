"""``fmin isolate``: alignment of two scripts, the atomic changes, ddmin over them (with Python
predicates standing in for the oracle), and one end-to-end run on Inductor (one extra reduction
output = one extra kernel)."""
import json
import os

import pytest

from minimizer import cli
from minimizer.isolate import IsolateError, _skey, align, isolate, to_markdown
from minimizer.reduce.ddmin import ddmin
from minimizer.oracle import Outcome
from minimizer.program.variants import input_names
from minimizer.program import parse, parse_file
from minimizer.model import is_input_decl
from minimizer.program.static import is_valid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUSED = os.path.join(ROOT, "corpus", "seeds", "layernorm_bwd_fused.py")
SEGMENTED = os.path.join(ROOT, "corpus", "seeds", "layernorm_bwd_segmented.py")

HEAD = """
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
"""
TAIL = """
with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [{inputs}]
fd.execute(inputs)
"""
F32 = "torch.randn((64, 32), dtype=torch.float32, device='cuda:0')"
F16 = "torch.randn((64, 32), dtype=torch.float16, device='cuda:0')"
COL = "torch.randn((64, 1), dtype=torch.float32, device='cuda:0')"


def script(body, inputs):
    return HEAD + "".join("    " + ln.strip() + "\n" for ln in body.strip().splitlines()) + TAIL.format(
        inputs=", ".join(inputs))


# GOOD: x (2-d), b (column); y = x * b; s = sum(y, 1); out s
GOOD = script("""
T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
T1 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
T2 = fd.ops.mul(T0, T1)
T3 = fd.ops.sum(T2, dims=[1], keepdim=False, dtype=DataType.Null)
fd.add_output(T3)
""", [F32, COL])

# BAD: inputs in the other order and renamed, x is Half (cast added), an extra reduction output
BAD = script("""
A0 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
A1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
A2 = fd.ops.cast(A1, dtype=DataType.Float)
A3 = fd.ops.mul(A2, A0)
A4 = fd.ops.sum(A3, dims=[1], keepdim=False, dtype=DataType.Null)
A5 = fd.ops.sum(A3, dims=[0], keepdim=False, dtype=DataType.Null)
fd.add_output(A4)
fd.add_output(A5)
""", [COL, F16])


def kinds(al):
    return [c.kind for c in al.changes]


def by_kind(al, kind, text=""):
    return [c.id for c in al.changes if c.kind == kind and text in c.words]


# ---------------------------------------------------------------- ddmin
def test_ddmin_finds_the_two_needed_changes():
    sub, n = ddmin(list(range(10)), lambda s: {3, 7} <= set(s))
    assert sorted(sub) == [3, 7] and n > 0


def test_ddmin_single_and_empty():
    assert ddmin(list(range(8)), lambda s: 5 in s)[0] == [5]
    assert ddmin(list(range(4)), lambda s: True)[0] == []


def test_ddmin_skips_unresolved_configurations():
    # 7 needs 5 to be valid (like an op whose operand is an inserted op): 7 alone is unresolved
    def test(s):
        s = set(s)
        if 7 in s and 5 not in s:
            return None
        return 7 in s
    sub, _ = ddmin(list(range(10)), test)
    assert sorted(sub) == [5, 7]


def test_ddmin_respects_the_test_budget():
    calls = []

    def test(s):
        calls.append(s)
        return {1, 2, 3} <= set(s)
    ddmin(list(range(20)), test, max_tests=5)
    assert len(calls) <= 5


# ---------------------------------------------------------------- alignment
def test_align_matches_inputs_by_spec_and_use():
    al = align(parse(GOOD, "good.py"), parse(BAD, "bad.py"))
    # BAD's A1 (2-d) is GOOD's T0, A0 (column) is T1, whatever their names and order
    assert {(mi.good.outs[0], mi.bad_pos) for mi in al.inputs} == {("T0", 1), ("T1", 0)}
    assert sorted(kinds(al)) == sorted(["order", "input-field", "op-add", "op-change", "op-add", "op-add"])
    assert by_kind(al, "input-field", "dtype")
    assert by_kind(al, "op-add", "cast") and by_kind(al, "op-add", "dims=[0]") and by_kind(al, "op-add", "add_output")


def test_apply_nothing_is_good_and_everything_is_bad():
    good, bad = parse(GOOD, "good.py"), parse(BAD, "bad.py")
    al = align(good, bad)
    p0, p1 = al.apply([]), al.apply([c.id for c in al.changes])
    assert is_valid(p0) and is_valid(p1)
    assert p0.stmts == good.stmts and p0.inputs == good.inputs

    def shape(p):  # statements by op and literals, inputs by dtype/shape
        return ([_skey(s) for s in p.stmts if not is_input_decl(s)],
                [(a.dtype, a.shape) for a in p.inputs], [_skey(s) for s in p.input_stmts()])
    assert shape(p1) == shape(bad)
    assert input_names(p1) == ["T1", "T0"]   # BAD's order, GOOD's names


def test_changes_that_depend_on_missing_ones_are_invalid():
    al = align(parse(GOOD, "good.py"), parse(BAD, "bad.py"))
    out = by_kind(al, "op-add", "add_output")[0]
    assert not is_valid(al.apply([out]))          # add_output(A5) without the sum producing it
    mul = by_kind(al, "op-change")[0]             # mul(T0, T1) -> mul(<cast>, T1) needs the cast
    assert not is_valid(al.apply([mul]))
    assert is_valid(al.apply([mul] + by_kind(al, "op-add", "cast")))


def fake_run(prog):
    """Segments = number of sum ops, +1 when the column input comes first and an input is Half (a
    pretend scheduler rule)."""
    ops = [s.op for s in prog.op_stmts()]
    rule = prog.inputs[0].shape[-1] == 1 and any(a.dtype == "Half" for a in prog.inputs)
    n = ops.count("sum") + (1 if rule else 0)
    return Outcome("ok", "fake", segments=n, schedulers=["reduction"] * n)


def test_isolate_with_a_fake_oracle(tmp_path):
    g, b = tmp_path / "good.py", tmp_path / "bad.py"
    g.write_text(GOOD)
    b.write_text(BAD)
    d = isolate(str(g), str(b), run=fake_run)
    assert d["outcome_good"].startswith("1 segment") and d["outcome_bad"].startswith("3 segments")
    fwd = d["forward"]
    assert fwd["holds"]
    words = " | ".join(fwd["words"])
    # the pretend rule needs the column first and a Half input; the pretend count sees the extra sum
    # even when dead, so its add_output is not needed (a valid program: mul promotes Half)
    assert len(fwd["words"]) == 3
    assert "input order" in words and "dtype DataType.Float -> DataType.Half" in words and "dims=[0]" in words
    bwd = d["backward"]
    assert bwd["holds"]
    al = align(parse_file(str(g)), parse_file(str(b)))
    assert fake_run(al.apply(set(range(len(al.changes))) - set(bwd["changes"]))).segments == 1
    md = to_markdown(d)
    assert "applying only" in md and "turns 1 segment" in md and "into 3 segments" in md


def test_seed_pair_aligns_and_order_alone_can_be_isolated(tmp_path):
    good, bad = parse_file(FUSED), parse_file(SEGMENTED)
    al = align(good, bad)
    every = [c.id for c in al.changes]
    assert is_valid(al.apply([])) and is_valid(al.apply(every))
    full = al.apply(every)
    assert [_skey(s) for s in full.stmts if not is_input_decl(s)] == \
        [_skey(s) for s in bad.stmts if not is_input_decl(s)]
    assert kinds(al)[0] == "order"
    order = al.changes[0].id

    def run(prog):   # pretend the input order is what segments it (the question)
        names = input_names(prog)
        return Outcome("ok", "fake", segments=3 if names.index("T8") < names.index("T1") else 1)
    d = isolate(FUSED, SEGMENTED, run=run)
    assert d["forward"]["changes"] == [order]
    assert d["backward"]["changes"] == [order]
    assert "input order" in d["forward"]["words"][0]


def test_unsupported_pairs_say_why(tmp_path):
    no_inputs = GOOD.replace("inputs = [", "xs = [").replace("fd.execute(inputs)", "")
    with pytest.raises(IsolateError, match="inputs list"):
        align(parse(no_inputs, "a.py"), parse(BAD, "b.py"))


# ---------------------------------------------------------------- end to end (Inductor, CPU)
def test_fmin_isolate_on_inductor(tmp_path, capsys):
    good = script("""
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.mul(T0, T1)
    T3 = fd.ops.sum(T2, dims=[1], keepdim=False, dtype=DataType.Null)
    fd.add_output(T3)
    """, [F32, F32])
    bad = script("""
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.mul(T1, T0)
    T3 = fd.ops.sum(T2, dims=[1], keepdim=False, dtype=DataType.Null)
    T4 = fd.ops.sum(T2, dims=[0], keepdim=False, dtype=DataType.Null)
    fd.add_output(T3)
    fd.add_output(T4)
    """, [F32, F32])
    g, b = tmp_path / "good.py", tmp_path / "bad.py"
    g.write_text(good)
    b.write_text(bad)
    out = tmp_path / "iso"
    rc = cli.main(["isolate", str(g), str(b), "--backend", "inductor", "--device", "cpu", "--out", str(out)])
    printed = capsys.readouterr().out
    assert rc == 0, printed
    d = json.loads((out / "isolate.json").read_text())
    assert d["outcome_good"].startswith("1 kernel") and d["outcome_bad"].startswith("2 kernels")
    assert len(d["changes"]) == 3                       # mul operands swapped, the sum, its output
    fwd = " | ".join(d["forward"]["words"])
    assert len(d["forward"]["changes"]) == 2 and "dims=[0]" in fwd and "add_output" in fwd
    assert "mul" not in fwd
    # undoing only the add_output makes the extra sum dead: Inductor drops it
    assert len(d["backward"]["changes"]) == 1 and "add_output" in d["backward"]["words"][0]
    assert "turns 1 kernel" in printed and (out / "isolate.md").exists()
    assert (out / "good_plus_changes.py").exists()
