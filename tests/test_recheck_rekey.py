"""``fmin fuzz --recheck`` on a replay that does not show its bucket's property: another nvFuser
bug re-keys the bucket (merging where that bug has one), a failure of fmin's or of the machine
leaves it as it was ("not rechecked"), never stale.

In process, with stand-in pools (``context.Pool``) that answer with outcomes nvFuser gave on a GPU:
the committed corpus's ``outcome.json`` files. Buckets are copied from the corpus without their
minimal repros, so the replay runs ``original.py`` and no attachment is run standalone."""
import json
import os
import shutil

import pytest

from conftest import CORPUS
from minimizer.fuzz.campaign.options import CampaignOptions
from minimizer.fuzz.campaign.recheck import recheck
from minimizer.fuzz.judging.keys import failure_key
from minimizer.fuzz.judging.today import rekey
from minimizer.fuzz.store.store import Store
from minimizer.oracle import Outcome
from minimizer.oracle.context import RunContext
from minimizer.oracle.pool import not_reproduced

FINDINGS = os.path.join(CORPUS, "findings")
REPLAY = "6629bedbad5b"     # nvfuser internal-assert: transform_iter.cpp:BestEffortReplay
VECTORIZED = "726611e9d4a6"  # nvfuser internal-assert: device_lower/validation.cpp:validateAllocationVectorizedId
REFERENCE_REJECTS = "cff6dde1f789"   # the reference's own error (fmin's bucket): scaled_mm on cuBLASLt
CRASHED = "05bd07b463de"    # nvfuser crash: exit code 3


def stored_outcome(bucket: str) -> Outcome:
    with open(os.path.join(FINDINGS, bucket, "outcome.json"), encoding="utf-8") as f:
        return Outcome.from_json(json.load(f))


def copy_buckets(root, *ids: str) -> Store:
    for b in ids:
        os.makedirs(os.path.join(root, b))
        for name in ("finding.json", "original.py", "outcome.json"):
            shutil.copy(os.path.join(FINDINGS, b, name), os.path.join(root, b, name))
    return Store(str(root))


def rechecked(root, monkeypatch, nvfuser: Outcome, reference: Outcome | None = None) -> list[dict]:
    """``--recheck`` of the corpus at ``root`` where every nvFuser run gives ``nvfuser`` and every
    reference run ``reference`` (default: it runs)."""
    class Stand_in:
        workers = ()

        def __init__(self, backend, device, jobs=1, timeout=0, options=None):
            self.backend, self.environment = backend, {"backend": backend}

        def run(self, req):
            if self.backend == "reference":
                return reference or Outcome("ok", "reference")
            return nvfuser

        def close(self):
            pass

    from minimizer.oracle import context
    monkeypatch.setattr(context, "Pool", Stand_in)
    return recheck(CampaignOptions(ctx=RunContext(backend="nvfuser", device="cuda", quiet=True), corpus=str(root)))


def test_another_nvfuser_assert_rekeys_the_bucket_not_stale(tmp_path, monkeypatch):
    """The BestEffortReplay bucket's program now hits the vectorization assert: it is that bug's
    bucket (its id kept, its old key an alias), a finding, and a re-key leaves it there."""
    st = copy_buckets(tmp_path, REPLAY)
    was = st.meta(st.buckets()[0].key)
    now = stored_outcome(VECTORIZED)
    rows = rechecked(tmp_path, monkeypatch, now)
    want = str(failure_key("nvfuser", now))
    assert [(r["reproduces"], r["rekeyed"]) for r in rows] == [(True, want)]
    (m,) = Store(str(tmp_path)).buckets()
    assert (m.id, str(m.key), m.stale, m.recheck.reproduces) == (REPLAY, want, None, True)
    assert str(was.key) in m.old_keys and "re-keyed" in m.recheck.reason
    assert m.words == f"nvfuser error: {now.signature}"
    assert rekey(str(tmp_path))["moved"] == 0   # its outcome is the replay's: today's key is the same
    assert str(Store(str(tmp_path)).meta(want).key) == want


def test_rekeyed_bucket_merges_with_the_bucket_of_that_bug(tmp_path, monkeypatch):
    """Where the bug the replay shows has a bucket already, the two merge: one bucket answering to
    both keys, counting both, not stale."""
    st = copy_buckets(tmp_path, REPLAY, VECTORIZED)
    old = {b.id: b for b in st.buckets()}
    rows = rechecked(tmp_path, monkeypatch, stored_outcome(VECTORIZED))
    assert [r["reproduces"] for r in rows] == [True, True]
    (m,) = Store(str(tmp_path)).buckets()
    assert str(m.key) == str(old[VECTORIZED].key) and str(old[REPLAY].key) in m.old_keys
    assert m.count == old[REPLAY].count + old[VECTORIZED].count and m.stale is None
    assert Store(str(tmp_path)).resolve(old[REPLAY].key) == str(m.key)


@pytest.mark.parametrize("case", ["worker crash not repeated", "reference rejects it"])
def test_a_replay_failing_in_fmin_or_the_machine_is_not_rechecked(tmp_path, monkeypatch, case):
    """A worker crash a fresh worker did not repeat (an environment failure), or a program the
    reference now fails on too (fmin's own): neither stale nor re-keyed, the reason recorded."""
    st = copy_buckets(tmp_path, REPLAY)
    (was,) = st.buckets()
    if case == "worker crash not repeated":
        nvfuser, reference = not_reproduced(stored_outcome(CRASHED), Outcome("ok", "nvfuser")), None
        said = "fresh worker"
    else:
        nvfuser, reference = stored_outcome(VECTORIZED), stored_outcome(REFERENCE_REJECTS)
        said = "fails on the reference backend too"
    (row,) = rechecked(tmp_path, monkeypatch, nvfuser, reference)
    assert row["reproduces"] is None and row["rekeyed"] is None
    (m,) = Store(str(tmp_path)).buckets()
    assert str(m.key) == str(was.key) and m.stale is None and not m.old_keys
    assert m.recheck.reproduces is None and m.recheck.reason.startswith("not rechecked") and said in m.recheck.reason


def test_a_replay_that_runs_is_stale(tmp_path, monkeypatch):
    """No failure at all (the program runs, its outputs unjudged without values): stale, as before."""
    copy_buckets(tmp_path, REPLAY)
    (row,) = rechecked(tmp_path, monkeypatch, Outcome("ok", "nvfuser"))
    assert row["reproduces"] is False and row["rekeyed"] is None
    (m,) = Store(str(tmp_path)).buckets()
    assert m.stale is not None and m.recheck.reproduces is False
