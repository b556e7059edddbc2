"""Issue 22, part 5: the corpus hands over a bug list (``DIR/report.md``): one row per root
cause, read from what the buckets of the committed corpus (found on the H200) record — kind,
where raised, message, counts, dtypes, minimized ops, whether the attachment reproduces
standalone, first seen, the attachment — newest first, fmin's own and stale buckets apart; and
``fmin merge-findings`` rewrites it."""
import json
import os
import shutil
import subprocess
import sys

from conftest import ROOT
from minimizer.fuzz import buglist
from minimizer.fuzz.record import Bucket

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
    assert s["message"].startswith("output 4 (int64[7]): 1 of 7 elements differ") and s["reproduces standalone"] == "yes"
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
    def where(key):
        return buglist.where_and_message(Bucket(kind="mismatch", key=key, words=""))[0]
    assert where("inductor mismatch values: relu") == "output of `relu`"
    assert where("nvfuser mismatch dtype (int for int): welford") == "output of `welford`"
    assert where("nvfuser mismatch values: broadcast_in_dim, prod, sign") == "an output"
    assert where("nvfuser mismatch sign -> int64") == "output of `sign` (int64)"
