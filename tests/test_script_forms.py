"""The shapes real repro scripts come in (issue 14; docs/script-forms.md), one small hand-written
script per form in tests/data/forms/: each is read, printed back byte for byte, edited (an output
dropped, an op bypassed) into a valid script that reads back to the same model and runs, checked
and reduced with the form intact. Form 5 (more inputs than the fusion declares) is refused, as
nvFuser refuses it."""
import contextlib
import dataclasses
import io
import json
import os
import subprocess
import sys
import traceback

import pytest
import torch

from conftest import ROOT
from minimizer.errors import ScriptError
from minimizer.program import parse, parse_file, to_source
from minimizer.program.interpret import FusionError, run as interpret
from minimizer.model import DType, Program, TensorArg
from minimizer.program import edits

FORMS = os.path.join(ROOT, "tests", "data", "forms")


def form(name):
    return os.path.join(FORMS, name)


# every form script that fmin reads (extra_input.py is refused, see below)
READ = ["inline_with.py", "inline_from_pytorch.py", "module_constants.py", "legacy_output_stride_order.py",
        "alias_import_module.py", "alias_import_names.py", "alias_import_direct.py", "inline_inputs.py",
        "main_guard.py", "main_guard_inline.py", "cuda1.py"]


def test_every_form_file_is_listed():
    on_disk = sorted(f for f in os.listdir(FORMS) if f.endswith(".py"))
    assert on_disk == sorted(READ + ["extra_input.py"])
    for f in on_disk:
        assert open(form(f), encoding="utf-8").readline().startswith("# form ")


# ---- parse: what each form reads as ----
def _check_inline_with(p):
    assert p.func_name is None and p.fd_name == "fd"
    assert [s.call for s in p.stmts][:3] == ["define_tensor", "define_tensor", "ops.mul"]
    assert len(p.inputs) == 2 and p.inputs[0].shape == (8, 16)


def _check_from_pytorch(p):
    assert p.func_name is None and p.dialect.frontend == "nvfuser_direct"
    t0, t1 = p.stmts[0], p.stmts[1]
    # nvFuser's from_pytorch: define_tensor(sizes=, strides=, dtype=, static_sizes=, is_cpu=)
    assert t0.call == "define_tensor" and t0.outs == ("t0",)
    assert dict(t0.args) == {"sizes": (4, 8), "strides": (8, 1), "dtype": DType("Float"),
                             "static_sizes": False, "is_cpu": False}
    assert t1.arg("sizes") == (4, 8) and t1.arg("strides") == (1, 4) and t1.arg("static_sizes") is True
    assert [a.strides for a in p.inputs] == [(8, 1), (1, 4)]


def _check_constants(p):
    s = {st.outs[0] if st.outs else None: st for st in p.stmts}
    assert s["T0"].arg("shape") == (16, 32)
    assert s["S1"].arg("value") == 1e-5
    assert s["T3"].arg("end_indices") == (16, 16)
    assert s["T5"].arg("dims") == (1,)
    assert p.inputs[0].shape == (16, 32)


def _check_stride_order(p):
    outs = p.output_stmts()
    assert outs[0].args == (("output", outs[0].arg("output")), ("stride_order", (0, 1, 2))) and outs[0].npos == 2
    assert outs[1].arg("stride_order") == (2, 0, 1) and not outs[1].has("alias_input")


def _check_alias(spelling, frontend):
    def check(p):
        assert p.dialect.datatype == spelling and p.dialect.frontend == frontend
        assert any(s.arg("dtype") == DType("Float") for s in p.stmts)
    return check


def _check_inline_inputs(p):
    assert len(p.inputs) == 2 and all(a.shape == (4, 8) for a in p.inputs)
    # the list given to fd.execute itself
    assert p.source.module.code_for_node(p.source.inputs.list_node).startswith("[torch.randn(4, 8")


def _check_main_guard(p):
    assert p.func_name == "nvfuser_fusion_id0" and len(p.inputs) == 1


def _check_main_guard_inline(p):
    assert p.func_name is None and len(p.inputs) == 1 and p.n_ops() == 2


def _check_cuda1(p):
    assert [a.device for a in p.inputs] == ["cuda:1"] * 4
    assert [a.device_index for a in p.inputs] == [1] * 4


PARSE = {
    "inline_with.py": _check_inline_with,
    "inline_from_pytorch.py": _check_from_pytorch,
    "module_constants.py": _check_constants,
    "legacy_output_stride_order.py": _check_stride_order,
    "alias_import_module.py": _check_alias("nvf.DataType", "nvfuser"),
    "alias_import_names.py": _check_alias("DT", "nvfuser"),
    "alias_import_direct.py": _check_alias("nvfd.DataType", "nvfuser_direct"),
    "inline_inputs.py": _check_inline_inputs,
    "main_guard.py": _check_main_guard,
    "main_guard_inline.py": _check_main_guard_inline,
    "cuda1.py": _check_cuda1,
}


@pytest.mark.parametrize("name", READ)
def test_parse(name):
    p = parse_file(form(name))
    assert p.output_stmts() and p.inputs is not None
    PARSE[name](p)


@pytest.mark.parametrize("name", READ)
def test_roundtrip_is_byte_exact(name):
    text = open(form(name), encoding="utf-8").read()
    p = parse_file(form(name))
    assert to_source(p) == text
    rebuilt = p.replace(stmts=tuple(dataclasses.replace(s) for s in p.stmts),
                        inputs=tuple(dataclasses.replace(a) for a in p.inputs))
    assert to_source(rebuilt) == text


# ---- edits: what the reducer does, printed in the script's own form ----
def drop_last_output(p: Program) -> Program:
    outs = [i for i, s in enumerate(p.stmts) if s.call == "add_output"]
    return edits.dce(edits.remove_stmts(p, {outs[-1]}))


def bypass_exp(p: Program) -> Program:
    """Every form script has one ``exp``: its users read its operand instead."""
    i = next(i for i, s in enumerate(p.stmts) if s.call == "ops.exp")
    s = p.stmts[i]
    return edits.dce(edits.replace_uses(p, i, s.outs[0], s.args[0][1]))


def rename_outputs(p: Program) -> Program:
    """Every bound name gets a new one (the rename pass's kind of edit)."""
    names = {n: f"v{k}" for k, n in enumerate(n for s in p.stmts for n in s.outs if n)}
    prog = p
    for i, s in enumerate(p.stmts):
        for n in s.outs:
            if n:
                prog = edits.replace_uses(prog, i, n, edits.Ref(names[n]))
    stmts = tuple(dataclasses.replace(s, outs=tuple(names.get(n, n) if n else n for n in s.outs))
                  for s in prog.stmts)
    return prog.replace(stmts=stmts)


EDITS = {"drop_output": drop_last_output, "bypass_exp": bypass_exp, "rename": rename_outputs}

# text each form must still show after an edit
KEEPS = {
    "inline_with.py": ["with FusionDefinition() as fd:\n    ", "0 = fd.define_tensor(shape=[-1, -1]"],
    "inline_from_pytorch.py": ["with FusionDefinition() as fd:\n", "= fd.from_pytorch(x)\n",
                               "= fd.from_pytorch(w, static_sizes=True)\n", "fd.execute([x, w])"],
    "module_constants.py": ["shape=[M, N]", "fd.define_scalar(EPS, dtype=DataType.Double)",
                            "end_indices=[M, HALF]", "torch.randn(M, N, "],
    "legacy_output_stride_order.py": [", [0, 1, 2])\n"],
    "alias_import_module.py": ["nvf.DataType.Half"],
    "alias_import_names.py": ["DT.BFloat16"],
    "alias_import_direct.py": ["nvfd.DataType.Half"],
    "inline_inputs.py": ["fd.execute([torch.randn(4, 8, device=\"cuda\"), torch.randn(4, 8, device=\"cuda\")])"],
    "main_guard.py": ["if __name__ == \"__main__\":\n    inputs = [\n"],
    "main_guard_inline.py": ["if __name__ == \"__main__\":\n    with FusionDefinition() as fd:\n        ",
                             "0 = fd.define_tensor("],
    "cuda1.py": ["torch.randn(4, 8, device=torch.device(\"cuda\", 1)),", ".cuda(1),"],
}


def edited(name: str, edit: str) -> tuple[Program, str]:
    p = EDITS[edit](parse_file(form(name)))
    return p, to_source(p)


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("name", READ)
def test_edit_prints_a_script_that_reads_back_the_same(name, edit):
    p, text = edited(name, edit)
    compile(text, name, "exec")
    again = parse(text, form(name))
    assert again.stmts == p.stmts and again.inputs == p.inputs
    assert again.func_name == p.func_name and again.dialect == p.dialect and again.fd_name == p.fd_name
    assert again == p
    for kept in KEEPS[name]:
        assert kept in text, f"{kept!r} lost by {edit}:\n{text}"


def test_edits_change_what_they_should():
    """The rename edit re-renders every statement: from_pytorch and constant texts survive a
    changed statement (while their values are unchanged)."""
    _, text = edited("inline_from_pytorch.py", "rename")
    assert "    v0 = fd.from_pytorch(x)\n" in text and "v3 = fd.ops.exp(v2)" in text
    _, text = edited("module_constants.py", "rename")
    assert "v0 = fd.define_tensor(shape=[M, N], contiguity=[True, True], dtype=DataType.Float)" in text
    assert "v5 = fd.ops.sum(v4, dims=DIMS, keepdim=False, dtype=DataType.Float)" in text
    _, text = edited("legacy_output_stride_order.py", "bypass_exp")
    assert "fd.add_output(T0, [0, 1, 2])" in text
    _, text = edited("alias_import_names.py", "bypass_exp")
    assert "T3 = fd.ops.cast(T1, dtype=DT.BFloat16)" in text


def test_changed_constant_value_is_printed_as_a_number():
    p = parse_file(form("module_constants.py"))
    i = next(i for i, s in enumerate(p.stmts) if s.call == "ops.slice")
    s = p.stmts[i].with_arg("end_indices", (8, 16))
    text = to_source(p.replace(stmts=p.stmts[:i] + (s,) + p.stmts[i + 1:]))
    assert "end_indices=[8, 16]" in text and "start_indices=[0, 0]" in text
    assert parse(text).stmts[i] == s


def test_changed_from_pytorch_statement_becomes_define_tensor():
    """A from_pytorch statement whose arguments change (a pass gave it other sizes) prints as the
    define_tensor it stands for, valid in both frontends."""
    p = parse_file(form("inline_from_pytorch.py"))
    s = p.stmts[0].with_arg("sizes", (2, 8)).with_arg("strides", (8, 1))
    a = dataclasses.replace(p.inputs[0], shape=(2, 8))
    text = to_source(p.replace(stmts=(s,) + p.stmts[1:], inputs=(a,) + p.inputs[1:]))
    assert ("    t0 = fd.define_tensor(sizes=[2, 8], strides=[8, 1], dtype=DataType.Float, "
            "static_sizes=False, is_cpu=False)\n") in text
    again = parse(text)
    assert again.stmts == (s,) + p.stmts[1:]


def test_fresh_script_of_an_inline_program_is_inline():
    p = parse_file(form("inline_with.py"))
    text = to_source(p.replace(source=None))
    assert "def " not in text and "with FusionDefinition() as fd:\n    T0 = fd.define_tensor(" in text
    again = parse(text)
    assert again == p.replace(source=None)


# ---- the command line ----
GREP = 'grep -q "fd.ops.exp" "$1"'
REDUCE = {  # script -> the shell test (each needs the exp op and something of its form)
    "inline_from_pytorch.py": GREP + ' && grep -q "fd.from_pytorch(x)" "$1"',
    "module_constants.py": GREP + ' && grep -q "dims=DIMS" "$1"',
    "legacy_output_stride_order.py": GREP + ' && grep -q "stride_order=\\[2, 0, 1\\]" "$1"',
    "alias_import_names.py": GREP + ' && grep -q "DT.Float" "$1"',
    "main_guard_inline.py": GREP,
    "cuda1.py": GREP,
}
SUBPROCESS_REDUCE = "inline_from_pytorch.py"  # the others run fmin's main() in this process


def fmin(*args):
    return [sys.executable, "-m", "minimizer", args[0], "--backend", "reference", "--device", "cpu", *args[1:]]


def reduce_argv(name, out):
    return ["reduce", "--backend", "reference", "--device", "cpu", "--jobs", "1", "--replays", "1", "-q",
            "--max-tests", "40", "--test", REDUCE[name], "--out", str(out), form(name)]


@pytest.fixture(scope="module")
def cli(tmp_path_factory):
    """In subprocesses, started at once: ``fmin check`` of every form (as written and after two
    edits), ``fmin check`` of the refused form 5, one ``fmin reduce``. The other reductions
    (``--test`` only: they start no worker) call ``fmin``'s ``main`` here, which saves a torch
    import each; what they print is captured the same way."""
    d = tmp_path_factory.mktemp("forms")
    paths = {(n, None): form(n) for n in READ}
    for n in READ:
        for e in ("drop_output", "bypass_exp"):  # a renamed script runs as the original does
            out = d / f"{e}-{n}"
            out.write_text(edited(n, e)[1])
            paths[(n, e)] = str(out)
    argvs = {"check": fmin("check", "--json", "--jobs", "1", *paths.values()),
             "extra-check": fmin("check", form("extra_input.py")),
             SUBPROCESS_REDUCE: [sys.executable, "-m", "minimizer",
                                 *reduce_argv(SUBPROCESS_REDUCE, d / SUBPROCESS_REDUCE.replace(".py", ""))]}
    procs = {k: subprocess.Popen(a, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
             for k, a in argvs.items()}
    done = {}
    from minimizer.cli import main
    for name in [n for n in REDUCE if n != SUBPROCESS_REDUCE] + ["extra-reduce"]:
        if name == "extra-reduce":
            argv = ["reduce", "--backend", "reference", "--device", "cpu", "--test", GREP, "--out",
                    str(d / "extra"), form("extra_input.py")]
        else:
            argv = reduce_argv(name, d / name.replace(".py", ""))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except BaseException:  # a traceback is what these tests are about: keep it as output
                traceback.print_exc(file=err)
                rc = -1
        done[name] = subprocess.CompletedProcess(argv, rc, out.getvalue(), err.getvalue())
    for k, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        done[k] = subprocess.CompletedProcess(argvs[k], proc.returncode, stdout, stderr)
    rows = {json.loads(line)["file"]: json.loads(line) for line in done["check"].stdout.splitlines()
            if line.startswith("{")}
    reduced = {}
    for name in REDUCE:
        min_py = d / name.replace(".py", "") / "repro.min.py"
        reduced[name] = (done[name], min_py.read_text() if min_py.exists() else None, str(min_py))
    return {"runs": done, "rows": {key: rows.get(path) for key, path in paths.items()}, "reduced": reduced}


def test_check_exits_0_on_every_form(cli):
    r = cli["runs"]["check"]
    assert "Traceback" not in r.stderr
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("edit", [None, "bypass_exp", "drop_output"])
@pytest.mark.parametrize("name", READ)
def test_check_runs_each_form(cli, name, edit):
    row = cli["rows"][(name, edit)]
    assert row is not None and row["status"] == "ok", row
    prog = parse_file(form(name))
    assert len(row["outputs"]) == len((EDITS[edit](prog) if edit else prog).output_stmts())


@pytest.mark.parametrize("name", sorted(REDUCE))
def test_reduce_keeps_the_form(cli, name):
    r, text, path = cli["reduced"][name]
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert text is not None and "fd.ops.exp" in text
    p = parse(text)
    original = parse_file(form(name))
    assert p.n_ops() < original.n_ops() and p.func_name == original.func_name
    assert p.dialect == original.dialect
    if name == "inline_from_pytorch.py":
        assert "with FusionDefinition() as fd:\n    " in text and "fd.from_pytorch(x)" in text
    if name == "module_constants.py":
        assert "M, N = 16, 32" in text and "dims=DIMS" in text
    if name == "legacy_output_stride_order.py":
        assert "stride_order=[2, 0, 1])" in text
    if name == "alias_import_names.py":
        assert "DT.Float" in text and "DataType." not in text
    if name == "main_guard_inline.py":
        assert 'if __name__ == "__main__":\n    with FusionDefinition() as fd:\n        ' in text
    if name == "cuda1.py":
        assert all(a.device_index == 1 for a in p.inputs) and "cuda:1" in text
    # and it runs on the reference backend (the worker's code, called here)
    from minimizer.backends import RunOptions, runner_for
    result = runner_for("reference").run_script(text, path, "cpu", RunOptions(), None)
    assert result["status"] == "ok", result


# ---- form 5: one input more than the fusion declares: nvFuser rejects it, so fmin does ----
def test_extra_input_is_refused_where_it_stands():
    with pytest.raises(ScriptError) as e:
        parse_file(form("extra_input.py"))
    assert (e.value.line, e.value.col) == (15, 5)   # the second (extra) element of the list
    assert "declares 1 inputs (T0) but the inputs list has 2" in e.value.message
    assert "nvFuser rejects extra inputs" in e.value.message


@pytest.mark.parametrize("cmd", ["check", "reduce"])
def test_extra_input_cli(cli, cmd):
    r = cli["runs"][f"extra-{cmd}"]
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith(f"fmin: {form('extra_input.py')}:15:5: the fusion declares")


def test_reference_rejects_extra_inputs_like_nvfuser():
    """A script run without the reader (the worker runs the text) fails in fd.execute."""
    text = open(form("extra_input.py"), encoding="utf-8").read()
    prog = parse(text.replace("    torch.randn(4, 8, device=\"cuda\"),\n]", "]"))
    with pytest.raises(FusionError, match="Expected 1 inputs but got 2") as e:
        interpret(prog.stmts, [torch.randn(4, 8), torch.randn(4, 8)])
    assert e.value.kind == "input"


# ---- what each form refuses, with file:line:col ----
def test_non_constant_module_name_is_refused_at_its_use():
    text = open(form("module_constants.py"), encoding="utf-8").read().replace(
        "M, N = 16, 32\n", "M, N = 16, 32\nM = torch.randn(4).shape[0]\n")
    with pytest.raises(ScriptError) as e:
        parse(text, "s.py")
    assert e.value.line == 12 and e.value.col == text.splitlines()[11].index("M, N]") + 1
    assert "name 'M' is not a constant fmin can read" in e.value.message and "line 6" in e.value.message


def test_undefined_name_in_fusion_is_refused():
    text = open(form("module_constants.py"), encoding="utf-8").read().replace("dims=DIMS", "dims=AXES")
    with pytest.raises(ScriptError, match="name 'AXES' is not defined"):
        parse(text)


def test_from_pytorch_of_a_cpu_tensor_is_refused():
    text = open(form("inline_from_pytorch.py"), encoding="utf-8").read().replace(
        'x = torch.randn(4, 8, device="cuda")', "x = torch.randn(4, 8)")
    with pytest.raises(ScriptError) as e:
        parse(text, "s.py")
    assert (e.value.line, e.value.col) == (8, 26)
    assert "CUDA tensor or a 0-dim CPU tensor" in e.value.message


def test_from_pytorch_of_a_0dim_cpu_tensor_is_a_cpu_scalar():
    text = open(form("inline_from_pytorch.py"), encoding="utf-8").read().replace(
        'x = torch.randn(4, 8, device="cuda")', "x = torch.tensor(2.0)")
    p = parse(text)
    assert p.stmts[0].arg("is_cpu") is True and p.stmts[0].arg("sizes") == ()


def test_inline_fusion_and_fusion_function_together_are_refused():
    text = open(form("inline_with.py"), encoding="utf-8").read()
    text = text.replace("inputs = [", "def extra(fd):\n    fd.add_output(fd.define_tensor(shape=[-1]))\n\ninputs = [")
    with pytest.raises(ScriptError, match="expected one fusion, found 2"):
        parse(text)


def test_positional_list_in_direct_add_output_is_refused():
    """nvfuser_direct's add_output has no stride order: a positional list is no alias either."""
    text = open(form("alias_import_direct.py"), encoding="utf-8").read().replace(
        "fd.add_output(tv1)", "fd.add_output(tv1, [1, 0])")
    with pytest.raises(ScriptError) as e:
        parse(text, "s.py")
    assert (e.value.line, e.value.col) == (10, 24) and "expects a tensor" in e.value.message


def test_bad_legacy_output_stride_order_fails_like_nvfuser():
    text = open(form("legacy_output_stride_order.py"), encoding="utf-8").read()
    for bad, why in (("[0, 1]", "same length"), ("[0, 0, 1]", "duplicated"), ("[0, 1, 3]", "within")):
        p = parse(text.replace("[0, 1, 2]", bad))
        with pytest.raises(FusionError, match=why) as e:
            interpret(p.stmts, [torch.randn(2, 3, 4)])
        assert e.value.kind == "definition"


def test_legacy_output_stride_order_lays_the_output_out():
    p = parse_file(form("legacy_output_stride_order.py"))
    outs = interpret(p.stmts, [torch.randn(2, 3, 4)]).outputs
    assert outs[0].stride() == (1, 2, 6)      # [0, 1, 2]: dim 0 innermost
    assert outs[1].stride() == (12, 1, 3)     # [2, 0, 1]: dim 0 outermost, then dim 2, then dim 1


def test_datatype_alias_typo_points_at_the_name():
    text = open(form("alias_import_names.py"), encoding="utf-8").read().replace("DT.Float", "DT.Flaot")
    with pytest.raises(ScriptError) as e:
        parse(text, "s.py")
    assert e.value.line == 7 and "unknown DataType 'Flaot'" in e.value.message


def test_device_index_is_kept_when_an_input_is_reprinted():
    p = parse_file(form("cuda1.py"))
    a = dataclasses.replace(p.inputs[1], shape=(2, 8), strides=(8, 1))
    text = to_source(p.replace(inputs=(p.inputs[0], a) + p.inputs[2:]))
    assert "torch.testing.make_tensor((2, 8), dtype=torch.float32, device='cuda:1')," in text
    assert parse(text).inputs[1] == a and parse(text).inputs[1].device_index == 1


def test_more_device_spellings():
    p = parse_file(form("cuda1.py"))
    text = to_source(p)
    for spelling in ('torch.randn(4, 8, device=torch.device("cuda:1"))', "torch.randn(4, 8, device=1)",
                     "torch.randn(4, 8).cuda(device=1)", 'torch.randn(4, 8).to(torch.device("cuda", index=1))',
                     'torch.randn(4, 8).to(device="cuda:1")'):
        q = parse(text.replace('torch.randn(4, 8).to("cuda:1")', spelling))
        assert q.inputs[3].device == "cuda:1", spelling
    q = parse(text.replace('torch.randn(4, 8).to("cuda:1")', "torch.randn(4, 8).cuda()"))
    assert q.inputs[3].device == "cuda" and q.inputs[3].device_index is None
    assert TensorArg((1,), (1,), "Float", "cpu").device_index is None


def test_from_pytorch_inputs_are_checked_like_nvfuser():
    """define_tensor(sizes=, strides=) takes its contiguity and stride order from the strides
    (nvFuser's computeTensorDescriptor); an input laid out otherwise is a user error."""
    from minimizer.program.interpret import tensor_descriptor
    assert tensor_descriptor((4, 8), (8, 1)) == ((True, True), (1, 0))
    assert tensor_descriptor((4, 8), (1, 4)) == ((True, True), (0, 1))
    assert tensor_descriptor((4, 8), (0, 1)) == ((None, True), (1, 0))     # expanded
    assert tensor_descriptor((1, 8), (8, 1)) == ((None, True), (1, 0))     # size-1 broadcast
    assert tensor_descriptor((4, 8), (16, 1)) == ((False, True), (1, 0))   # padded rows
    p = parse_file(form("inline_from_pytorch.py"))
    assert len(interpret(p.stmts, [torch.randn(4, 8), torch.randn(8, 4).t()]).outputs) == 2
    with pytest.raises(FusionError, match="stride mismatch") as e:
        interpret(p.stmts, [torch.randn(4, 8), torch.randn(4, 8)])
    assert e.value.kind == "input"
