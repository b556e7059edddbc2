"""Issue 22, part 5: the corpus hands over a bug list (``DIR/report.md``): one row per root
cause, read from what the buckets of the committed corpus (found on the H200) record — kind,
where raised, message, counts, dtypes, minimized ops, whether the attachment reproduces
standalone, first seen, the attachment — newest first, fmin's own and stale buckets apart; and
``fmin merge-findings`` rewrites it."""
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys

from conftest import ROOT
from minimizer.fuzz.buglist import page as buglist
from minimizer.fuzz.buglist.classes.stale import stale_words
from minimizer.fuzz.store import record
from minimizer.fuzz.store.key import MISMATCH, BucketKey
from minimizer.fuzz.store.record import Bucket

#: the frozen copy of the corpus (its README): ``corpus/findings`` is re-keyed as fmin's rules
#: change, which renames its buckets; the list is judged on buckets that keep their names
FINDINGS = os.path.join(ROOT, "tests", "data", "findings-2026-12-03")
#: a failure (greedy.cpp), a wrong value (sign of an int64 prod), a layout-dependent error, a
#: stale failure (the recheck saw a different BFS message)
BUCKETS = ("5b40de827f30", "876b59cc7c89", "5b0d0d93bde2", "8866bfb41c9c")


def _corpus(tmp_path, standalone=None):
    root = tmp_path / "corpus"
    for b in BUCKETS:
        shutil.copytree(os.path.join(FINDINGS, b), root / b)
    for b, rec in (standalone or {}).items():
        p = root / b / "finding.json"
        m = json.loads(p.read_text())
        m["standalone"] = rec
        p.write_text(json.dumps(m))
    return root


def _rows(md: str, section: str) -> list[list[str]]:
    part = md.split(section, 1)[1].split("\n## ", 1)[0]
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in part.splitlines()
            if line.startswith("| ") and not line.startswith("| bucket")]


def test_one_row_per_root_cause_newest_first(tmp_path):
    root = _corpus(tmp_path, {"876b59cc7c89": {"ran": True, "reproduced": True, "why": "AssertionError: ..."},
                              "5b40de827f30": {"ran": True, "reproduced": False, "why": "ok instead of error `x`"},
                              "5b0d0d93bde2": {"ran": False, "reproduced": None,
                                               "why": "nvfuser_direct is not installed here"}})
    md = buglist.render(str(root))
    assert md.startswith("# Bug list: corpus") and "4 buckets" in md and "3 bugs" in md and "1 of them shown" in md
    bugs = _rows(md, "## Bugs (3)")
    cols = list(buglist.COLUMNS)
    by = {r[0]: dict(zip(cols, r)) for r in bugs}
    assert [r[0] for r in bugs] == ["5b40de827f30", "5b0d0d93bde2", "876b59cc7c89"]   # first seen, newest first
    g = by["5b40de827f30"]
    assert g["kind"] == "failure" and g["where raised"] == "scheduler/greedy.cpp:partitionFusion"
    assert g["message"].startswith("Fail to group the following tensors")
    assert g["dtypes"] == "Double, BFloat16" and g["minimized ops"] == "neg, cumsum, lerp, truediv (4 → 4)"
    assert g["reproduces standalone"] == "**no**: ok instead of error `x`"
    assert g["attachment"] == "[5b40de827f30/repro.min.py](5b40de827f30/repro.min.py)"
    s = by["876b59cc7c89"]
    assert s["kind"] == "mismatch (values)" and s["where raised"] == "output of `sign` (int64)"
    # the repro's own run (its output 0), not the campaign's first program (output 4 there)
    assert s["message"].startswith("output 0 (int64[7]): 4 of 7 elements differ") and s["reproduces standalone"] == "yes"
    assert s["minimized ops"] == "broadcast_in_dim, prod, sign (11 → 3)" and s["seen"] == "1 (2028.25.6)"
    lay = by["5b0d0d93bde2"]
    assert lay["kind"] == "layout-dependent" and lay["where raised"] == "tensor_metadata.cpp:validateAllocationSizesAndStrides"
    assert lay["reproduces standalone"] == "not run: nvfuser_direct is not installed here"
    (stale,) = _rows(md, "## Stale (1)")
    assert stale[0] == "[8866bfb41c9c](8866bfb41c9c/)" and stale[2] == "failure"
    assert stale[4].startswith("recheck of original.py: failure: error `nvfuser internal-assert: bfs.h:traverse")
    assert stale[5] == "2026-12-03"


def test_fmins_own_findings_are_apart(tmp_path):
    root = _corpus(tmp_path)
    p = root / "876b59cc7c89" / "finding.json"
    m = json.loads(p.read_text())
    m["owner"] = "fmin"
    p.write_text(json.dumps(m))
    md = buglist.render(str(root))
    assert "## Bugs (2)" in md and "## fmin's own (1)" in md
    assert [r[0] for r in _rows(md, "## fmin's own")] == ["876b59cc7c89"]


def test_merge_findings_writes_the_bug_list(tmp_path):
    a = _corpus(tmp_path)
    r = subprocess.run([sys.executable, "-m", "minimizer", "merge-findings", str(a), "--into", str(tmp_path / "m")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "m" / "report.md").read_text()
    assert "## Bugs (3)" in md and str(tmp_path / "m" / "report.md") in r.stdout
    # merging re-keys by root cause (fuzz/keys.py): the list names the buckets as merged, the
    # greedy.cpp failure under the key its old one moved to
    old = json.loads((a / "5b40de827f30" / "finding.json").read_text())["key"]
    merged = [json.loads(p.read_text()) for p in (tmp_path / "m").glob("*/finding.json")]
    (greedy,) = [m for m in merged if old in m.get("old_keys", []) or m["key"] == old]
    (row,) = [dict(zip(buglist.COLUMNS, r)) for r in _rows(md, "## Bugs (3)") if r[0] == greedy["id"]]
    assert row["where raised"] == "scheduler/greedy.cpp:partitionFusion"
    assert {r[0] for r in _rows(md, "## Bugs (3)")} == {m["id"] for m in merged if not m.get("stale")}


def test_a_wrong_result_is_placed_by_the_op_its_key_names():
    """Root-cause keys of wrong results (``<backend> mismatch <difference>: <ops>``) name the op
    whose output differs while they name one; older keys (``<op> -> <dtype>``) its dtype too."""
    def where(label, **parts):
        key = BucketKey(MISMATCH, label, **parts)
        return str(key), buglist.where_and_message(Bucket(kind="mismatch", key=key, words=""))[0]
    assert where("inductor", difference="values", ops=["relu"]) == \
        ("inductor mismatch values: relu", "output of `relu`")
    assert where("nvfuser", difference="dtype", detail="int for int", ops=["welford"]) == \
        ("nvfuser mismatch dtype (int for int): welford", "output of `welford`")
    assert where("nvfuser", difference="values", ops=["broadcast_in_dim", "prod", "sign"]) == \
        ("nvfuser mismatch values: broadcast_in_dim, prod, sign", "an output")
    assert where("nvfuser", ops=["sign"], output_dtype="int64") == \
        ("nvfuser mismatch sign -> int64", "output of `sign` (int64)")


#: the committed corpus, whose records the wording tests read (found by what they record: a
#: re-keyed corpus renames its buckets)
CORPUS = os.path.join(ROOT, "corpus", "findings")


def _records(pred) -> list[dict]:
    out = []
    for name in sorted(os.listdir(CORPUS)):
        p = os.path.join(CORPUS, name, "finding.json")
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                m = json.load(f)
            if pred(m):
                out.append(m)
    return out


def test_a_wrong_result_in_an_input_returned_as_output_is_said_so():
    """A generated program returns one of its inputs as an output, and nvFuser's value there is
    wrong: the key names no op (``values: input``), and the row says what the output is instead of
    "output of `input`"."""
    (m,) = [record.from_json(d) for d in   # 0d4b417dfcc0, under the key it was filed with before its reduction
            _records(lambda m: m["kind"] == "mismatch" and any(k.endswith("values: input")
                                                               for k in [m["key"], *(m.get("old_keys") or ())]))[:1]]
    m = dataclasses.replace(m, key=dataclasses.replace(m.key, ops=("input",), rules=()))
    where, _ = buglist.where_and_message(m)
    assert where == "a fusion input returned as an output" and str(m.key).endswith(": input")
    assert buglist.where_and_message(dataclasses.replace(m, key=dataclasses.replace(m.key, ops=("relu",))))[0] == \
        "output of `relu`"


def test_a_stale_reason_of_an_older_fmin_reads_as_what_it_means():
    """"outputs differ in values, not in values" (a difference from eager that the exact
    reference showed to be rounding) as the bug list says it now."""
    olds = _records(lambda m: "not in values" in str((m.get("stale") or {}).get("reason", "")))
    assert olds, "the corpus no longer has such a record: the test needs another"
    for m in olds:
        said = stale_words(m["stale"]["reason"])
        assert "not in values" not in said and "no mismatch in values, rounding only" in said, said
    assert stale_words("outputs differ in shape, not in values") == "outputs differ in shape, not in values"


def test_a_dtype_key_of_one_class_names_the_dtypes(tmp_path):
    """int64 where the reference said int32 was keyed "dtype (int for int)"; re-keyed by
    ``merge-findings``, a real record of it names the dtypes, and classes that differ stay classes."""
    from minimizer.fuzz.judging.keys import mismatch_key
    olds = _records(lambda m: "(int for int)" in m["key"])
    if not olds:   # a corpus re-keyed since: today's keys name the dtypes
        assert _records(lambda m: re.search(r"dtype \(int\d+ for int\d+\)", m["key"]))
        return
    root = tmp_path / "c"
    for m in olds:
        shutil.copytree(os.path.join(CORPUS, m["id"]), root / m["id"])
    r = subprocess.run([sys.executable, "-m", "minimizer", "merge-findings", "--into", str(root)], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    md = (root / "report.md").read_text()
    assert "(int for int)" not in md and re.search(r"dtype \(int(32|64) for int(32|64)\)", md), md
    assert str(mismatch_key("nvfuser", "dtype", ["where"], "int64", "bool")) == \
        "nvfuser mismatch dtype (int for bool): where"


def test_counts_are_english_and_the_seen_column_is_explained(tmp_path):
    root = _corpus(tmp_path)
    for b in BUCKETS[1:]:
        shutil.rmtree(root / b)
    md = (root / "report.md").read_text() if buglist.write(str(root)) else ""
    assert md.split("\n")[2].startswith("1 bug of the compilers under test") and "(1 bucket)" in md
    assert "1 buckets" not in md and "1 bugs" not in md
    assert "*seen*: how many generated programs hit the bucket" in md and "--replay ID" in md


def test_the_rows_a_campaign_prints_link_from_where_the_user_is(tmp_path, monkeypatch):
    """The corpus's report.md links relative to the corpus; the campaign's printed rows relative
    to the directory the user is in."""
    root = _corpus(tmp_path)
    monkeypatch.chdir(tmp_path)
    (r,) = buglist.rows_of(str(root), [record.load_dir(str(root / BUCKETS[0]))],
                           links_from=os.curdir)
    link = r["attachment"].split("](", 1)[1].rstrip(")")
    assert link.startswith(f"corpus/{BUCKETS[0]}/") and os.path.exists(link)
    (r,) = buglist.rows_of(str(root), [record.load_dir(str(root / BUCKETS[0]))])
    assert r["attachment"].split("](", 1)[1].startswith(f"{BUCKETS[0]}/")


def test_a_minimized_rows_message_is_its_attachments_own_outcome():
    """2c9c48afdbd9 and 85968e7b687d (issue 43): a row's message described the campaign's first,
    larger program (its output 3), not the attachment a maintainer runs. Once minimized, the row
    says what the repro's own run said; before, or where that run named no tensor, the finding's."""
    from minimizer.fuzz.buglist.page import where_and_message
    from minimizer.fuzz.store.key import BucketKey
    from minimizer.fuzz.store.record import Bucket, StandaloneRun
    key = BucketKey("mismatch", "nvfuser", difference="values", ops=("max", "neg"))
    first = "nvfuser outputs differ from the reference: output 3 (int32[64, 8]): 12 of 512 elements differ"
    alone = "wrong result (values) in output 0: Tensor-likes are not equal! Mismatched elements: 1 / 4"
    m = Bucket(kind="mismatch", owner="nvfuser", backend="nvfuser", key=key, words=first, minimized=True,
               standalone=StandaloneRun(ran=True, reproduced=True, why=alone))
    assert where_and_message(m)[1] == alone
    assert where_and_message(dataclasses.replace(m, minimized=False))[1] == first.split("reference: ")[1]
    stale_run = dataclasses.replace(m, standalone=StandaloneRun(ran=True, reproduced=False, why="exit 0, no error"))
    assert where_and_message(stale_run)[1] == first.split("reference: ")[1]
