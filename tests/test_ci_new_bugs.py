"""``fmin new-bugs`` (``fuzz.buglist.gate``), the gate of the nightly CI campaign (docs/ci.md): it
fails only on a new row of the bug list's *Bugs* section, judged on a copy of the real findings corpus of fmin's GPU
campaigns (corpus/findings) before and after a night."""
import contextlib
import io
import json
import os
import shutil
from types import SimpleNamespace
from xml.etree import ElementTree as ET

import pytest

from conftest import ROOT
from minimizer.fuzz.buglist import page as buglist

CORPUS = os.path.join(ROOT, "corpus", "findings")


def _metas() -> dict[str, dict]:
    out = {}
    for name in sorted(os.listdir(CORPUS)):
        p = os.path.join(CORPUS, name, "finding.json")
        if os.path.exists(p):
            out[name] = json.load(open(p, encoding="utf-8"))
    return out


def _edit(root, bucket, **changes):
    p = os.path.join(root, bucket, "finding.json")
    m = json.load(open(p, encoding="utf-8"))
    for k, v in changes.items():
        if v is None:
            m.pop(k, None)
        else:
            m[k] = v
    json.dump(m, open(p, "w", encoding="utf-8"))


def _gate(known, after, junit):
    """``fmin new-bugs KNOWN AFTER --junit JUNIT`` as the workflow runs it, in this process."""
    from minimizer.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["new-bugs", str(known), str(after), "--junit", str(junit)])
    return SimpleNamespace(returncode=rc, stdout=out.getvalue(), stderr=err.getvalue())


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """KNOWN: the corpus less two live bugs; AFTER: the whole corpus, with a stale nvFuser bug shown
    again, a stale fmin finding shown again, and a known bug re-keyed (its key among its old keys)."""
    metas = _metas()
    live = [r["bucket"] for r in buglist.classified(CORPUS, buglist.rows_of(CORPUS))["bug"]]   # the Bugs rows
    stale_bug = next(n for n, m in metas.items() if m.get("stale") and m.get("owner") == "nvfuser")
    stale_fmin = next(n for n, m in metas.items() if m.get("stale") and m.get("owner") == "fmin")
    absorbed = {k for m in metas.values() for k in m.get("old_keys") or ()}
    alone = [b for b in live if metas[b]["key"] not in absorbed]   # a key no other bucket answers to
    gone, rekeyed = alone[:2], alone[5]
    tmp = tmp_path_factory.mktemp("night")
    known, after = tmp / "known", tmp / "after"
    shutil.copytree(CORPUS, known)
    shutil.copytree(CORPUS, after)
    for n in gone:
        shutil.rmtree(known / n)
    _edit(after, stale_bug, stale=None)
    _edit(after, stale_fmin, stale=None)
    old = metas[rekeyed]["key"]
    _edit(after, rekeyed, key=old + " (re-keyed)", old_keys=[*metas[rekeyed].get("old_keys", []), old])
    r = _gate(known, after, tmp / "junit.xml")
    return r, set(gone) | {stale_bug}, {stale_fmin, rekeyed}, tmp / "junit.xml", len(live) + 1


def test_only_new_bugs_rows_fail(night):
    r, expected, not_new, _, _ = night
    assert r.returncode == 1, r.stderr
    assert r.stdout.startswith(f"{len(expected)} new bug(s)")
    rows = [ln.split("|")[1].strip() for ln in r.stdout.splitlines() if ln.startswith("| ") and "---" not in ln][1:]
    assert set(rows) == expected                     # the removed bugs and the regression; not fmin's, not re-keyed
    assert not set(rows) & not_new


def test_the_junit_has_a_test_per_bugs_row_and_fails_the_new_ones(night):
    _, expected, _, junit, n_bugs = night
    suite = ET.parse(junit).getroot()
    cases = {c.get("name"): c.find("failure") is not None for c in suite.iter("testcase")}
    assert len(cases) == n_bugs and suite.get("failures") == str(len(expected))
    assert {n for n, failed in cases.items() if failed} == expected


def test_a_night_without_new_bugs_passes(tmp_path):
    r = _gate(CORPUS, CORPUS, tmp_path / "j.xml")
    assert r.returncode == 0 and r.stdout.startswith("0 new bug(s)"), r.stdout + r.stderr


def test_a_missing_corpus_is_a_usage_error(tmp_path):
    r = _gate(tmp_path / "nope", CORPUS, tmp_path / "j.xml")
    assert r.returncode == 2 and "no such directory" in r.stderr and "Traceback" not in r.stderr


def test_a_mechanism_rows_old_op_keys_do_not_hide_another_cause_of_those_ops():
    """ab5d1cf2399d (``var`` of a reduction output) was keyed ``values: var`` before its mechanism
    was known; the GPU pair of 2026-12-07 found a756fca71344, a ``var`` over an expanded dim, under
    that op key. The known row answers to its mechanism only, so the new one is new."""
    from minimizer.fuzz.buglist.gate import _answers_to, _keys
    from minimizer.fuzz.store.key import BucketKey
    from minimizer.fuzz.store.record import Bucket
    by_ops = BucketKey("mismatch", "nvfuser", difference="values", ops=("var",))
    family = BucketKey("mismatch", "nvfuser", difference="values", mechanism="var of a reduction output divides by the reduced extent")
    known = {"_m": Bucket(kind="mismatch", key=family, old_keys=[str(by_ops)])}
    after = {"_m": Bucket(kind="mismatch", key=by_ops)}
    assert not _keys(after) & _answers_to(known)
    renamed = {"_m": Bucket(kind="mismatch", key=BucketKey("mismatch", "nvfuser", difference="values", ops=("max", "var")),
                            old_keys=[str(by_ops)])}   # a row re-keyed by a newer fmin still answers to its old key
    assert _keys(after) & _answers_to(renamed)
