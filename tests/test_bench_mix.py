"""scripts/bench_mix.py (issue 44: the mix a workflow runs is chosen by measurement): what it counts
for a mix is what the nightly gate would call new, against the known corpus."""
import os
import shutil
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import bench_mix  # noqa: E402

BUCKET = os.path.join(ROOT, "tests", "data", "buckets", "ec58de50d192")   # an inductor wrong result, minimized


def test_a_mixs_new_bugs_are_counted_against_the_known_corpus(tmp_path):
    out, known = tmp_path / "out", tmp_path / "known"
    shutil.copytree(BUCKET, out / "m" / "ec58de50d192")
    known.mkdir()
    assert bench_mix.judged("m", str(known), str(out)) == (1, 1, 1)
    # the same bucket already known: nothing new
    shutil.copytree(out / "m-merged", tmp_path / "known2")
    assert bench_mix.judged("m", str(tmp_path / "known2"), str(out))[1:] == (0, 0)


def test_a_killed_mix_keeps_its_row_and_its_buckets_are_judged(tmp_path):
    out, known = tmp_path / "out", tmp_path / "known"
    shutil.copytree(BUCKET, out / "m" / "ec58de50d192")
    known.mkdir()
    assert bench_mix.row("m", None, str(known), str(out)) == ("m", "killed", "-", 1, 1, 1)
    assert bench_mix.row("x", 2, str(known), str(out)) == ("x", "exit 2", "-", 0, 0, 0)   # nothing stored


def test_a_mixs_arguments_expand_globs_and_keep_the_rest(tmp_path):
    for n in ("b.py", "a.py"):
        (tmp_path / n).write_text("")
    got = bench_mix.mix_args(f"--seeds {tmp_path}/*.py --feedback")
    assert got == ["--seeds", str(tmp_path / "a.py"), str(tmp_path / "b.py"), "--feedback"]
    assert bench_mix.mix_args("") == []
    cmd = bench_mix.command("w", got, ["--backend", "inductor"], "/o", 60, 3)
    assert cmd[3:] == ["fuzz", *got, "--backend", "inductor", "--time", "60", "--seed", "3", "--corpus", "/o/w",
                       "--summary", "/o/w.json", "-q"]
