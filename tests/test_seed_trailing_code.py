"""A seed's own code after ``fd.execute`` (asserts on its outputs, prints, a second execute) is not
part of the fuzzer's programs: a mutant changes shapes and dtypes, and that code, written for the
seed's inputs, would fail on it and be judged instead of the fusion (``reader.ending_at_execute``,
applied by ``seeded.read_seed``). ``fmin reduce`` keeps a user's script whole: its check may be
the property."""
import textwrap

from minimizer.backends import RunOptions
from minimizer.backends import runner_for
from minimizer.fuzz.sources import seeded
from minimizer.program import parse, to_source
from minimizer.program.reader import ending_at_execute

HEAD = textwrap.dedent("""\
    import torch
    from nvfuser_direct import FusionDefinition, DataType


    def nvfuser_fusion_id0(fd: FusionDefinition) -> None:
        T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
        T1 = fd.ops.relu(T0)
        T2 = fd.ops.mul(T1, T1)
        fd.add_output(T2)


    with FusionDefinition() as fd:
        nvfuser_fusion_id0(fd)

    """)
RUN = textwrap.dedent("""\
    inputs = [
        torch.randn(4, 8, dtype=torch.float32, device="cuda:0"),
    ]
    out = fd.execute(inputs)
    """)
CHECKS = textwrap.dedent("""\
    assert out[0].shape == (4, 8)
    print("the seed's own check passed")
    """)


def test_mutants_of_a_seed_with_an_assert_after_execute_leave_it_out_and_run(tmp_path):
    (tmp_path / "seed_with_check.py").write_text(HEAD + RUN + CHECKS)
    seeded._CACHE.clear()
    examples = seeded.chunk(1, 0, [str(tmp_path)], size=16)
    texts = [to_source(e.program) for e in examples]
    assert all("assert" not in t and "print" not in t for t in texts)
    assert all(t.rstrip().endswith("out = fd.execute(inputs)") for t in texts)
    reshaped = [(e, t) for e, t in zip(examples, texts) if e.program.inputs[0].shape != (4, 8)]
    assert reshaped, "no draw changed the input's shape"
    e, text = reshaped[0]
    r = runner_for("reference").run_script(text, str(tmp_path / "mutant.py"), "cpu", RunOptions(standalone=True))
    assert r["status"] == "ok", (e.mutations, r.get("message"))
    seeded._CACHE.clear()


def test_code_after_an_execute_under_the_main_guard_goes_and_the_rest_prints_as_written():
    guarded = ("if __name__ == \"__main__\":\n" + textwrap.indent(RUN + CHECKS, "    ")
               + "\nprint('after the guard')\n")
    p = ending_at_execute(parse(HEAD + guarded))
    assert to_source(p) == HEAD + "if __name__ == \"__main__\":\n" + textwrap.indent(RUN, "    ")
    edited = to_source(p.replace(stmts=p.stmts[:2] + p.stmts[3:]))   # an edit prints from the cut script too
    assert "fd.ops.mul" not in edited and "assert" not in edited and "after the guard" not in edited


def test_a_script_without_trailing_code_or_without_an_execute_is_left_as_it_is():
    plain = parse(HEAD + RUN)
    assert ending_at_execute(plain) is plain
    no_execute = parse(HEAD + "inputs = [torch.randn(4, 8)]\nassert True\n")
    assert ending_at_execute(no_execute) is no_execute


def test_a_parsed_script_keeps_its_own_code_for_the_reducer():
    """What ``fmin reduce`` reads and prints: the user's check after the execute stays, edited or
    not (a ``--test`` may be that very check failing)."""
    p = parse(HEAD + RUN + CHECKS)
    assert to_source(p).endswith(CHECKS)
    edited = p.replace(stmts=p.stmts[:2] + p.stmts[3:])
    assert to_source(edited).endswith(CHECKS)
