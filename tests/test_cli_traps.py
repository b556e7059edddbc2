"""Issue 23: the command line has no traps — tried as a new user would. A relative path in
``--test`` resolves against the directory fmin was started in (as C-Reduce does); a ``--test``
result keeps no degenerate tensor the original did not have; usage errors (an ``--out`` or
``--corpus`` that is a file, a segment check on a backend that reports none) stop before any run;
``check --json`` has a row for every script; a result judged to be rounding does not read as a
wrong result; what fmin prints is plain English (no Python dicts, no "1 runs").

The commands run through ``cli.main`` as a user types them, in a directory of the user's; most
start no worker (a ``--test`` alone, or a usage error)."""
import json
import os
from types import SimpleNamespace

import pytest

from conftest import ROOT

ROPE = os.path.join(ROOT, "corpus", "rope_qkv_split.py")
SOFTMAX = os.path.join(ROOT, "corpus", "legacy_softmax_fwd.py")
SLICE = """import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.slice(T0, start_indices=[1, 0], end_indices=[3, 8], strides=[1, 1])
    T2 = fd.ops.neg(T1)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [torch.randn((4, 8), dtype=torch.float32, device='cuda:0')]
fd.execute(inputs)
"""


def fmin(capsys, *args):
    """``fmin ARGS`` as a user types it, in this process (scripts still run only in workers):
    (exit code, stdout, stderr)."""
    from minimizer.cli import main
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A user's directory, where fmin is started: a test script, a repro, a plain file."""
    (tmp_path / "pred.sh").write_text('grep -q "fd.ops.cat(" "$1"\n')     # not executable: run as `bash pred.sh`
    (tmp_path / "slice.py").write_text(SLICE)
    (tmp_path / "afile").write_text("")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_relative_test_path_resolves_against_where_fmin_was_started(here, capsys):
    rc, out, err = fmin(capsys, "reduce", ROPE, "--backend", "reference", "--test", "bash pred.sh", "-q",
                        "--out", "out")
    assert rc == 0, err
    assert "fd.ops.cat(" in (here / "out" / "repro.min.py").read_text()


def test_the_replays_line_is_words_not_a_dict(here, capsys):
    rc, out, err = fmin(capsys, "reduce", "slice.py", "--backend", "reference", "--test", "grep -q slice", "-q")
    assert rc == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("property:"))
    assert line.endswith("replays: original 3/3, minimized 3/3") and "{" not in line, line


def test_a_test_result_keeps_no_degenerate_tensor_the_original_did_not_have(here, capsys):
    from minimizer.program import parse_file
    from minimizer.program.static import check, degenerate_features
    rc, out, err = fmin(capsys, "reduce", "slice.py", "--backend", "reference", "--test",
                        'grep -q "fd.ops.slice" "$1"', "-q", "--out", "deg")
    assert rc == 0, err
    text = (here / "deg" / "repro.min.py").read_text()
    p = parse_file(str(here / "deg" / "repro.min.py"))
    assert "fd.ops.slice(" in text and degenerate_features(p, check(p)) == {}
    assert all(min(a.shape) >= 2 for a in p.inputs if getattr(a, "shape", None))   # extents kept >= 2


def test_an_unusable_isolate_out_is_refused_before_anything_runs(here, capsys):
    rc, out, err = fmin(capsys, "isolate", SOFTMAX, SOFTMAX, "--backend", "reference", "--out", "afile")
    assert rc == 2 and "--out afile: exists and is not a directory" in err, err
    assert "starting" not in err


def test_an_unusable_fuzz_corpus_or_report_file_is_refused_before_anything_runs(here, capsys):
    rc, out, err = fmin(capsys, "fuzz", "--backend", "reference", "--max-examples", "1", "--corpus", "afile")
    assert rc == 2 and "--corpus afile: exists and is not a directory" in err, err
    assert "findings go to" not in err and "starting" not in err
    rc, out, err = fmin(capsys, "fuzz", "--backend", "reference", "--max-examples", "1", "--corpus", "c",
                        "--junit", str(here))
    assert rc == 2 and f"--junit {here}: is a directory" in err, err
    assert not (here / "c").exists()


def test_a_segment_check_on_a_backend_without_segments_is_a_usage_error(here, capsys):
    for args, flag in ((("reduce", ROPE, "--kernels", ">=1", "--out", "k"), "--kernels"),
                       (("check", SOFTMAX, "--boundary"), "--boundary")):
        rc, out, err = fmin(capsys, *args, "--backend", "reference")
        assert rc == 2, err
        assert f"{flag}: the reference backend reports no segments" in err and "--backend inductor" in err
        assert "starting" not in err and not out
    assert not (here / "k").exists()


def test_check_json_has_a_row_for_every_script_it_cannot_read(here, capsys):
    rc, out, err = fmin(capsys, "check", "--json", "--backend", "reference", "--device", "cpu", "missing.py",
                        "afile", SOFTMAX)
    assert rc == 2
    rows = {row["file"]: row for row in map(json.loads, out.splitlines())}
    assert set(rows) == {"missing.py", "afile", SOFTMAX}
    assert rows[SOFTMAX]["status"] == "ok"
    for name in ("missing.py", "afile"):
        row = rows[name]
        assert row["status"] == "unreadable" and row["message"].startswith(name)
        assert set(rows[SOFTMAX]) <= set(row)    # the same keys as a row that ran
    assert "missing.py: no such file" in err     # and the located error on stderr, as before


def test_the_default_corpus_is_suggested_only_when_none_was_given(here, capsys):
    rc, out, err = fmin(capsys, "fuzz", "--backend", "reference", "--max-examples", "0", "--no-minimize",
                        "--corpus", "found")
    assert rc == 0, err
    assert "findings go to found/ (a new directory)" in err and "--corpus DIR" not in err


def test_a_result_judged_to_be_rounding_does_not_read_as_a_wrong_result():
    from minimizer.oracle.checks.mismatch import Mismatch, MismatchEvidence
    from minimizer.oracle.outcome import Outcome
    differs = SimpleNamespace(ok=False, first_mismatch="output 0: 11500 of 262144 elements differ",
                              outputs=[SimpleNamespace(ok=False, what="values", reason="")])
    ev = MismatchEvidence(reference=Outcome("ok"), comparison=differs, comparison_fp64=SimpleNamespace(ok=True))
    for check in (Mismatch(), Mismatch(what="values")):
        held, why = check.holds(Outcome("ok"), ev)
        assert not held and why.startswith("no mismatch") and "rounding" in why, why


def test_isolate_counts_in_english():
    from minimizer.isolate import summary_lines, to_markdown
    side = {"changes": [0], "tests": 1, "holds": True, "words": ["input T0: dtype Float -> Half"], "from": "ok",
            "to": "error `E`", "script": "x = 1\n"}
    d = {"good": "g.py", "bad": "b.py", "backend": "reference", "outcome_good": "ok", "outcome_bad": "error `E`",
         "boundary_change": None, "changes": [{"id": 0, "words": "input T0: dtype Float -> Half"}],
         "forward": side, "backward": side, "same_outcome": False, "runs": 1, "invalid": 1, "seconds": 0.1}
    text = "\n".join(summary_lines(d)) + to_markdown(d)
    assert "(1 difference)" in text and "1 run, 1 invalid combination skipped" in text and "1 test)" in text
    for wrong in ("1 differences", "1 runs", "1 tests", "1 invalid combinations"):
        assert wrong not in text


def test_a_frontend_that_is_not_installed_is_not_an_error():
    """On nvFuser 0.2.36 the legacy module is absent by design: the environment record says it
    is not installed, not ``nvfuser_error: No module named 'nvfuser'``."""
    import importlib.util
    from minimizer.backends import runner_for
    env = runner_for("nvfuser").warm("cpu")
    absent = [m for m in ("nvfuser_direct", "nvfuser") if importlib.util.find_spec(m) is None]
    if not absent:
        pytest.skip("every nvFuser frontend is installed here")
    assert not any("No module named" in str(v) for k, v in env.items() if k.endswith("_error"))
    assert env["not_installed"].split(", ") == absent


def test_a_memory_refusal_starts_no_worker_and_says_none(here, capsys):
    rc, out, err = fmin(capsys, "reduce", os.path.join(ROOT, "corpus", "direct_rmsnorm_fwd.py"), "--backend",
                        "reference", "--max-memory", "1M", "--out", "m")
    assert rc == 2 and "not enough memory" in err, err
    assert "starting" not in err and not (here / "m").exists()


def test_a_finished_reduction_leaves_no_lock_file(here, capsys):
    rc, out, err = fmin(capsys, "reduce", "slice.py", "--backend", "reference", "--test", "grep -q slice", "-q",
                        "--out", "o")
    assert rc == 0, err
    assert sorted(os.listdir(here / "o")) == ["cache.json", "report.json", "report.md", "repro.min.py", "state.json"]


def _fmin_process(*args):
    """``python -m minimizer ARGS`` in a fresh process, and whether it imported torch."""
    import subprocess
    import sys
    code = ("import runpy, sys; sys.argv = ['fmin', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('minimizer', run_name='__main__')\n"
            "except SystemExit as e:\n    print('torch imported:', 'torch' in sys.modules, file=sys.stderr); "
            "raise\n")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": ROOT}, timeout=120)


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_prints_the_version_without_importing_torch(flag):
    from minimizer.cli import version
    res = _fmin_process(flag)
    assert res.returncode == 0 and res.stdout == f"fmin {version()}\n", (res.stdout, res.stderr)
    assert "torch imported: False" in res.stderr
    assert version().split(".")[0].isdigit()


def test_help_lists_every_command_without_importing_torch():
    """``fmin --help`` builds no command's options: the registries behind them import torch."""
    from minimizer.cli import _HELP
    res = _fmin_process("--help")
    assert res.returncode == 0 and "torch imported: False" in res.stderr, res.stderr
    for name, words in _HELP.items():
        assert name in res.stdout and words.split()[0] in res.stdout


def test_a_command_still_has_its_options_and_the_backend_summaries(capsys):
    with pytest.raises(SystemExit) as e:
        fmin(capsys, "check", "--help")
    out = capsys.readouterr().out
    assert e.value.code == 0 and "--backend" in out and "the real nvFuser library" in out and "--kernels" in out


def test_an_interrupted_reduction_says_so_and_that_rerunning_resumes(here, capsys, monkeypatch):
    from minimizer.oracle.checks import shell
    real, calls = shell.run_shell_test, []

    def interrupted(*a, **kw):   # Ctrl-C at the sixth run of the test
        if len(calls) == 5:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*a, **kw)
    monkeypatch.setattr(shell, "run_shell_test", interrupted)
    argv = ("reduce", ROPE, "--backend", "reference", "--test", "grep -q 'fd.ops.cat(' \"$1\"", "-q", "--out", "o")
    rc, out, err = fmin(capsys, *argv)
    assert rc == 130, err
    assert "interrupted" in out and "not yet 1-minimal" in out and "run the same command again" in out, out
    assert not any(line.startswith("wrote ") for line in out.splitlines())
    assert "Running the same command again resumes" in (here / "o" / "report.md").read_text()
    monkeypatch.setattr(shell, "run_shell_test", real)
    rc, out, err = fmin(capsys, *argv)    # and it does: the finished run says "wrote"
    assert rc == 0 and "interrupted" not in out and "\nwrote " in "\n" + out, out


def test_the_header_records_the_command_as_typed_and_how_to_see_the_result_here(here, capsys):
    """A result confirmed on a backend fmin stands in front of is an nvFuser script that `python`
    alone cannot show on a machine without nvFuser: its header and report.md say which command
    does, and that command does show it."""
    from minimizer.backends import get
    rc, out, err = fmin(capsys, "slice.py", "--backend", "reference", "--test", "grep -q slice", "-q", "--out", "o",
                        "--jobs", "2")
    assert rc == 0, err
    text = (here / "o" / "repro.min.py").read_text()
    assert "# Minimized by fmin" in text and "fmin slice.py --backend reference --test 'grep -q slice' -q --out o " \
        "--jobs 2\n" in text
    see = "fmin check o/repro.min.py --backend reference"
    assert f"# see it here: {see} " in text and f"`{see}`" in (here / "o" / "report.md").read_text()
    assert get("reference").see_command("o/repro.min.py") == see
    rc, out, err = fmin(capsys, *see.split()[1:])
    assert rc == 0 and "repro.min.py" in out, err


def test_a_result_python_can_show_needs_no_other_command():
    from minimizer.backends import get
    from minimizer.report import repro_header
    assert get("nvfuser").see_command("o/repro.min.py") is None
    assert get("inductor").see_command("o/repro.min.py", (("cpp.inject_relu_bug_TESTING_ONLY", "accuracy"),)) == \
        "fmin check o/repro.min.py --backend inductor --inductor-config cpp.inject_relu_bug_TESTING_ONLY=accuracy"
    assert "see it here" not in repro_header({"backend": "nvfuser", "gpu": "H200"}, "fmin x.py", "p", see=None)


def test_a_ctrl_c_whose_raise_was_swallowed_still_stops_a_reduction(here, capsys, monkeypatch):
    """Python swallows a KeyboardInterrupt raised inside a gc callback; the signal is recorded
    all the same (``minimizer.interrupt``) and the reducer stops at its next step."""
    from minimizer import interrupt
    from minimizer.oracle.checks import shell
    real, calls = shell.run_shell_test, []

    def swallowed(*a, **kw):   # the third run of the test: a SIGINT whose exception went nowhere
        calls.append(1)
        if len(calls) == 3:
            interrupt._PENDING.set()
        return real(*a, **kw)
    monkeypatch.setattr(shell, "run_shell_test", swallowed)
    rc, out, err = fmin(capsys, "reduce", ROPE, "--backend", "reference", "--test", "grep -q 'fd.ops.cat(' \"$1\"",
                        "-q", "--out", "o")
    assert rc == 130 and "interrupted" in out, (out, err)
    assert len(calls) <= 4 and not interrupt._PENDING.is_set()   # stopped at once; nothing left pending after


# Issue 44: the three traps of a user's first day. Options may come before the script (the command
# word ``reduce`` left out), a missing script is said at once (before torch is imported), and a
# campaign without --corpus writes into a directory of its own, never a repository's corpus/findings.

def test_options_before_the_script_are_the_reductions(here, capsys):
    rc, out, err = fmin(capsys, "-q", "--backend", "reference", "--test", "grep -q slice", "--out", "o", "slice.py")
    assert rc == 0, err
    assert (here / "o" / "repro.min.py").exists() and "invalid choice" not in err


def test_the_command_word_is_read_only_where_it_was_left_out():
    from minimizer.cli import _COMMANDS
    from minimizer.commandline import routed
    for argv in (["fuzz", "-q"], ["merge-findings", "--into", "x"], ["-V"], ["--help"], []):
        assert routed(argv, _COMMANDS) == argv
    assert routed(["-q", "a.py"], _COMMANDS) == ["reduce", "-q", "a.py"]
    assert routed(["a.py", "-q"], _COMMANDS) == ["reduce", "a.py", "-q"]


def test_the_other_commands_still_run(here, capsys):
    rc, out, err = fmin(capsys, "upgrade", "slice.py", "-o", "new.py")
    assert rc == 0 and (here / "new.py").read_text().startswith("import torch"), err
    rc, out, err = fmin(capsys, "merge-findings", "--into", "merged")
    assert rc == 0 and "merged into merged" in out, err


@pytest.mark.parametrize("argv", [("nope.py",), ("-q", "nope.py"), ("--backend", "reference", "nope.py", "-q"),
                                  ("reduce", "--out", "x.py", "nope.py"), ("isolate", ROPE, "nope.py"),
                                  ("upgrade", "nope.py")])
def test_a_missing_script_is_said_before_torch_is_imported(argv):
    res = _fmin_process(*argv)
    assert res.returncode == 2, res.stderr
    assert "fmin: nope.py: no such file" in res.stderr and "Traceback" not in res.stderr, res.stderr
    assert "torch imported: False" in res.stderr


def test_a_mistyped_command_is_answered_with_the_one_it_resembles(here, capsys):
    rc, out, err = fmin(capsys, "fuz", "--time", "3")
    assert rc == 2 and "fuz: no such file or command; did you mean `fmin fuzz`?" in err, err
    rc, out, err = fmin(capsys, "-q", "fuzz")
    assert rc == 2 and "fuzz: options go after the command word" in err, err
    rc, out, err = fmin(capsys, "frobnicate")
    assert rc == 2 and "no such file or command" in err and "merge-findings" in err, err


def test_the_options_read_as_taking_no_value_are_the_parsers():
    """``commandline.NO_VALUE`` tells a script from an option's value before the parser exists:
    it must name exactly the options of the script commands that take no value."""
    import argparse
    from minimizer.cli import build_parser
    from minimizer.commandline import NO_VALUE, SCRIPTS_OF
    subs = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    flags = set()
    for name in SCRIPTS_OF:
        for a in subs[name]._actions:
            (flags.update if a.nargs == 0 else lambda s: None)(a.option_strings)
            if a.nargs != 0:
                assert not set(a.option_strings) & NO_VALUE, a.option_strings
    assert flags == NO_VALUE


def test_a_campaign_without_corpus_writes_into_its_own_directory(here, capsys):
    rc, out, err = fmin(capsys, "fuzz", "--backend", "reference", "--device", "cpu", "--max-examples", "0",
                        "--no-minimize")
    assert rc == 0, err
    assert "findings go to fmin-findings/ (a new directory; --corpus DIR to choose another)" in err
    assert (here / "fmin-findings" / "report.md").exists() and not (here / "corpus").exists()


def test_every_command_the_parser_offers_has_a_body():
    """The parser's commands and the bodies ``main`` runs are one list each, keyed alike."""
    import minimizer.cli as cli
    assert set(cli._RUN) == set(cli._ADD) and all(callable(getattr(m, f)) for m, f in cli._RUN.values())
