"""What ``fmin reduce`` refuses, and what it reduces all the same (issue 14): a script whose own
code fails or a machine that cannot run it (exit 2, nothing written), a backend that is not
available (exit 2, before any worker), a script that does not fit in memory (exit 2, naming the
largest input); an original fmin's static check rejects is reduced leniently (no traceback);
a script that runs fine still has nothing to reduce (exit 1)."""
import json
import os
import sys
from types import SimpleNamespace

import pytest

from conftest import ROOT
from fmin_batch import fmin_batch
from minimizer.backends import get
from minimizer.oracle.memory import parse_size, plan
from minimizer.program import parse, parse_file
from minimizer.program.memory import estimate
from minimizer.program.static import check, check_partial
from minimizer.oracle.context import RunContext
from minimizer.reduce.reduction import ReduceOptions, Refused, reduce_script

BROKEN = os.path.join(ROOT, "tests", "data", "broken")
RMSNORM = os.path.join(ROOT, "corpus", "direct_rmsnorm_fwd.py")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("refusals")
    pred = d / "pred.py"
    pred.write_text("import sys\nsys.exit(0 if 'fd.ops.reshape(' in open(sys.argv[1]).read() else 1)\n")
    b = lambda n: os.path.join(BROKEN, n)   # noqa: E731
    calls = {
        "script_error": ("reduce", b("no_import_torch.py"), "--backend", "reference", "--out", str(d / "s")),
        "syntax_error": ("reduce", b("return_outside_function.py"), "--backend", "inductor", "--out", str(d / "y")),
        "never_executes": ("reduce", b("never_executes.py"), "--backend", "reference", "--out", str(d / "n")),
        "unavailable": ("reduce", b("bad_reshape.py"), "--backend", "nvfuser", "--out", str(d / "u")),
        "memory": ("reduce", RMSNORM, "--backend", "reference", "--max-memory", "1M", "--out", str(d / "m")),
        "memory_check": ("check", "--backend", "reference", "--max-memory", "1M", RMSNORM),
        "memory_isolate": ("isolate", RMSNORM, RMSNORM, "--backend", "reference", "--max-memory", "1M",
                           "--out", str(d / "iso")),
        "memory_fuzz": ("fuzz", "--backend", "reference", "--max-memory", "8G", "--max-examples", "1",
                        "--corpus", str(d / "fz")),
        "lenient_test": ("reduce", b("bad_reshape.py"), "--backend", "reference", "--test",
                         f"{sys.executable} {pred}", "-q", "--out", str(d / "lt")),
        "lenient_default": ("reduce", b("bad_reshape.py"), "--backend", "reference", "-q", "--out", str(d / "ld")),
        "no_outputs": ("reduce", b("no_outputs.py"), "--backend", "reference", "-q", "--out", str(d / "no")),
        "nothing": ("reduce", RMSNORM, "--backend", "reference", "-q", "--out", str(d / "ok")),
        "test_fails": ("reduce", RMSNORM, "--backend", "reference", "--test", f"{sys.executable} {d / 'missing.py'}",
                       "-q", "--out", str(d / "tf")),
    }
    # through fmin's main in two processes (fmin_batch: each command's own output and exit
    # status), not eleven that each import torch first
    done = fmin_batch([list(a) for a in calls.values()], cwd=ROOT)
    return d, {k: SimpleNamespace(**r) for k, r in zip(calls, done)}


def test_script_errors_are_refused_and_nothing_is_written(runs):
    d, r = runs
    for key, out, words in (("script_error", "s", "NameError: name 'torch' is not defined"),
                            ("syntax_error", "y", "SyntaxError: 'return' outside function"),
                            ("never_executes", "n", "never calls fd.execute")):
        res = r[key]
        assert res.returncode == 2, (key, res.stderr)
        assert "the script itself is broken" in res.stderr and words in res.stderr, res.stderr
        assert "Traceback" not in res.stderr
        assert not (d / out).exists()


def test_an_unavailable_backend_is_refused_before_any_worker(runs):
    d, r = runs
    res = r["unavailable"]
    assert res.returncode == 2 and "--backend nvfuser:" in res.stderr
    assert get("nvfuser").unavailable_reason() in res.stderr
    assert not (d / "u").exists()


def test_a_script_that_does_not_fit_is_refused_naming_its_largest_input(runs):
    d, r = runs
    res = r["memory"]
    assert res.returncode == 2, res.stderr
    assert "not enough memory" in res.stderr and "largest input tv0 is [16, 512] bfloat16" in res.stderr
    assert not (d / "m").exists()
    res = r["memory_check"]
    assert res.returncode == 2 and "environment" in res.stdout and "not enough memory" in res.stdout


def test_an_original_the_static_check_rejects_is_reduced_under_test(runs):
    d, r = runs
    res = r["lenient_test"]
    assert res.returncode == 0, res.stderr
    assert "fmin's reference rejects the original at line 10" in res.stdout
    assert "fd.ops.reshape(" in (d / "lt" / "repro.min.py").read_text()
    rep = json.loads((d / "lt" / "report.json").read_text())
    assert "shape '[16, 128]' is invalid for input of size 4096" in rep["static_error"]
    assert "rejects the original" in (d / "lt" / "report.md").read_text()


def test_an_original_the_static_check_rejects_is_reduced_under_the_default_property(runs):
    d, r = runs
    res = r["lenient_default"]
    assert res.returncode == 0, res.stderr
    text = (d / "ld" / "repro.min.py").read_text()
    assert "fd.ops.reshape(" in text and "fd.ops.sum(" not in text      # the failure kept, the rest gone
    rep = json.loads((d / "ld" / "report.json").read_text())
    assert rep["ops_after"] < rep["ops_before"] and rep["verified"] is True


def test_a_fusion_without_outputs_fails_as_in_nvfuser(runs):
    d, r = runs
    res = r["no_outputs"]
    assert "Traceback" not in res.stderr and res.returncode in (0, 1), res.stderr
    with pytest.raises(Exception, match="Fusion is empty"):
        check(parse_file(os.path.join(BROKEN, "no_outputs.py")))


def test_a_script_that_runs_fine_has_nothing_to_reduce(runs):
    d, r = runs
    res = r["nothing"]
    assert res.returncode == 1 and "nothing to reduce" in res.stderr
    # the suggestions are flags the reference backend accepts: no segment check, which it refuses
    assert "--mismatch" in res.stderr and "--kernels" not in res.stderr, res.stderr


def test_nothing_to_reduce_suggests_only_flags_the_backend_accepts():
    """Every suggested property flag, on every backend, passes the usage check of ``reduce``."""
    from minimizer.backends import names
    from minimizer.cli import build_parser
    from minimizer.oracle.property import Property
    from minimizer.oracle.session import NothingToReduce
    for name in names():
        for flag in NothingToReduce.suggestions(get(name)):
            args = build_parser().parse_args(["reduce", "x.py", *flag.replace("'", "").split()])
            prop = Property.from_args(args)
            assert prop.unsupported_on(get(name)) is None, (name, flag)
    assert "--kernels '>=2'" in NothingToReduce.suggestions(get("inductor"))


def test_a_failing_test_shows_its_output(runs):
    d, r = runs
    res = r["test_fails"]
    assert res.returncode == 1 and "does not show the property" in res.stderr
    assert "can't open file" in res.stderr and "missing.py" in res.stderr   # the test's own words


def test_isolate_is_planned_like_every_command_and_fuzz_refuses_max_memory(runs):
    d, r = runs
    res = r["memory_isolate"]
    assert res.returncode == 2 and "not enough memory" in res.stderr and "Traceback" not in res.stderr, res.stderr
    assert not (d / "iso" / "isolate.json").exists()
    res = r["memory_fuzz"]   # a campaign has no script to plan for: a usage error, one line, nothing run
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "--max-memory" in res.stderr, res.stderr
    assert not (d / "fz").exists()


# ---- memory planning with fake limits (the available-memory function is a parameter)
def test_fit_memory_lowers_jobs_to_the_largest_script_and_refuses_by_name(capsys):
    text = open(os.path.join(BROKEN, "bad_reshape.py")).read()
    progs = {n: parse(text.replace("(64, 64)", shape), f"{n}.py")
             for n, shape in (("small", "(64, 64)"), ("medium", "(8192, 8192)"), ("large", "(16384, 16384)"))}
    need = {n: plan(p, "reference", "cpu", 1, available_fn=lambda dev: 1 << 45).need for n, p in progs.items()}
    assert 2 * need["small"] < need["medium"] < 3 * need["small"] and need["large"] > 3.5 * need["small"]
    ctx = RunContext(backend="reference", jobs=8, available_memory=lambda dev: int(2.5 * need["medium"] / 0.9))
    # the small script alone would lower --jobs to 5, the medium one to 2: every script fits at 2
    fit = ctx.fit_memory([(f"{n}.py", progs[n], None) for n in ("small", "medium")])
    assert fit.ctx.jobs == 2 and fit.refused == {} and fit.ctx.backend == "reference"
    assert capsys.readouterr().err.count("fmin: --jobs lowered from 8 to 2") == 1   # said once
    tight = ctx.replace(available_memory=lambda dev: int(3.5 * need["small"] / 0.9))
    fit = tight.fit_memory([(f"{n}.py", progs[n], None) for n in ("small", "large")])
    assert fit.ctx.jobs == 3 and list(fit.refused) == ["large.py"] and "not enough memory" in fit.refused["large.py"]
    # --max-memory caps what the device says it has
    assert ctx.replace(max_memory=int(1.5 * need["small"] / 0.9)).fit_memory([("s", progs["small"], None)]).ctx.jobs == 1
    capsys.readouterr()
    assert ctx.replace(quiet=True).fit_memory([("m", progs["medium"], None)]).ctx.jobs == 2
    assert capsys.readouterr().err == ""   # quiet: nothing said


def test_plan_lowers_jobs_and_refuses_with_fake_limits():
    prog = parse_file(RMSNORM)
    need = plan(prog, "reference", "cpu", 1, available_fn=lambda dev: 1 << 40).need
    p = plan(prog, "reference", "cpu", 8, available_fn=lambda dev: int(need * 3.5))
    assert p.refusal is None and p.jobs == 3 and "--jobs lowered from 8 to 3" in p.note
    p = plan(prog, "reference", "cpu", 2, available_fn=lambda dev: need // 2)
    assert p.jobs == 0 and "not enough memory" in p.refusal
    assert plan(prog, "reference", "cpu", 2, available_fn=lambda dev: None).refusal is None   # unknown: run
    # --mismatch's fp64 reference run needs more than the reference itself
    m = plan(prog, "inductor", "cpu", 1, reference=True, fp64=True, available_fn=lambda dev: 1 << 40)
    assert dict(m.runs)["fp64 reference run"] > dict(m.runs)["reference run"] > dict(m.runs)["inductor run"]


def test_reduce_script_refuses_with_an_injected_limit(tmp_path):
    with pytest.raises(Refused, match="not enough memory"):
        reduce_script(RMSNORM, None, RunContext(backend="reference", available_memory=lambda dev: 1 << 20),
                      ReduceOptions(out=str(tmp_path / "o")))
    assert not (tmp_path / "o").exists()


def test_estimate_counts_live_values_and_views_once():
    text = open(os.path.join(BROKEN, "bad_reshape.py")).read().replace("new_shape=[16, 128]", "new_shape=[4096]")
    prog = parse(text, "x.py")
    est = estimate(prog, check(prog).values)
    n = 64 * 64 * 4
    assert est.inputs == n and est.largest[:3] == ("tv0", (64, 64), "float32")
    # tv0, tv1 = exp(tv0) and its reshape (a view), tv2 = sum: never 3 full tensors
    assert 2 * n <= est.peak < 3 * n


def test_check_partial_keeps_what_was_computed_before_the_error():
    info = check_partial(parse_file(os.path.join(BROKEN, "bad_reshape.py")))
    assert not info.complete and info.error.stmt_index == 3
    assert len(info.values) == 3 and tuple(info.value(1, "tv1").shape) == (64, 64)
    assert info.value(3, "tv3") is None


def test_parse_size():
    assert parse_size("8G") == 8 << 30 and parse_size("512M") == 512 << 20 and parse_size("1.5GiB") == 3 << 29
    with pytest.raises(ValueError):
        parse_size("lots")
