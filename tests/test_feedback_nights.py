"""What a feedback campaign learned is carried to the next night (``store.learned``,
``seedqueue.Queue.carry``, ``fmin fuzz --feedback --feedback-from``, ``fmin merge-findings``): the
second night starts from the first's decisions and queue instead of from zero, and a CI matrix's
shards merge what they learned into the known corpus without counting a night twice. Reference
campaigns on the CPU, on two small seeds."""
import glob
import json
import os

import pytest

from minimizer.fuzz.sources import seedqueue
from minimizer.fuzz.store import learned
from minimizer.oracle.context import RunContext
from minimizer.oracle.session import text_key
from minimizer.program import to_source

from conftest import ROOT

SMALL = tuple(os.path.join(ROOT, "corpus", n) for n in ("direct_rmsnorm_fwd.py", "direct_linear_matmul.py"))


def _night(corpus, seed, n, **kw):
    from minimizer.fuzz.campaign import run as campaign
    from minimizer.fuzz.campaign.options import CampaignOptions
    opt = CampaignOptions(ctx=RunContext(backend="reference", device="cpu", quiet=True, timeout=300), max_examples=n,
                          seed=seed, corpus=str(corpus), minimize=False, oracles=("failure",), seeds=SMALL,
                          resume=False, feedback=True, **kw)
    return campaign.run_campaign(opt)


@pytest.fixture(scope="module")
def nights(tmp_path_factory):
    corpus = tmp_path_factory.mktemp("nights") / "findings"
    first = _night(corpus, 5, 96)
    after_first = learned.load(str(corpus))
    second = _night(corpus, 6, 64)
    return corpus, first, after_first, second


def test_a_night_leaves_what_it_learned_in_its_corpus(nights):
    corpus, first, state, _ = nights
    assert state["features"] == dict(first.decisions.features) and state["signatures"] == dict(first.decisions.signatures)
    assert {q["id"] for q in state["queue"]} == {q["id"] for q in first.queue} and state["queue"]
    for q in state["queue"]:   # each entry's program is kept, and reads back as the program it was
        e = seedqueue.carried_entry(q).example
        assert e.id == q["id"] and text_key(to_source(e.program)) == text_key(q["program"])


def test_the_next_night_starts_from_it(nights):
    corpus, first, state, second = nights
    assert second.carried == len(state["queue"]) and second.decisions.known == set(first.decisions.features)
    (record,) = glob.glob(str(corpus / "campaign-*-6-0of1.jsonl"))
    with open(record, encoding="utf-8") as f:
        judged = [json.loads(line) for line in f if '"h"' in line]
    from_first = [d for d in judged if seedqueue.LINK in d["id"] and d["id"].startswith("5.")]
    assert from_first, "no program of the second night was derived from the first night's queue"
    for d in from_first:   # and such a program replays from its id, as any other
        assert text_key(to_source(seedqueue.program_for(d["id"], SMALL).program)) == d["h"], d["id"]
    now = learned.load(str(corpus))   # the counts are both nights' together
    for f, n in first.decisions.features.items():
        assert now["features"][f] == n + second.decisions.features.get(f, 0)
    assert {q["id"] for q in state["queue"]} <= {q["id"] for q in now["queue"]}


def test_shards_learn_into_their_own_corpus_and_merge_adds_it_up(nights, tmp_path, capsys):
    from minimizer.cli import main
    corpus, first, _, _ = nights
    known = tmp_path / "known"
    import shutil
    shutil.copytree(corpus, known)
    before = learned.load(str(known))
    shard = _night(tmp_path / "shard0", 7, 32, feedback_from=str(known))
    assert shard.carried == len(before["queue"])
    mine = learned.load(str(tmp_path / "shard0"))
    assert mine["features"] == dict(shard.decisions.features)       # only what the shard itself learned
    assert main(["merge-findings", str(tmp_path / "shard0"), "--into", str(known)]) == 0
    assert "what the feedback campaigns of 1 source(s) learned added" in capsys.readouterr().out
    after = learned.load(str(known))
    for f in set(before["features"]) | set(mine["features"]):
        assert after["features"][f] == before["features"].get(f, 0) + mine["features"].get(f, 0)
    assert {q["id"] for q in mine["queue"]} <= {q["id"] for q in after["queue"]}


def test_added_sums_counts_joins_the_queue_by_id_and_keeps_the_heaviest():
    a = {"features": {"x": 2}, "signatures": {"s": 1}, "queue": [{"id": "1.0.0", "weight": 5}]}
    b = {"features": {"x": 1, "y": 4}, "signatures": {}, "queue": [{"id": "1.0.0", "weight": 9},
                                                                   {"id": "2.0.0", "weight": 7}]}
    got = learned.added(a, b)
    assert got["features"] == {"x": 3, "y": 4} and got["signatures"] == {"s": 1}
    assert [(q["id"], q["weight"]) for q in got["queue"]] == [("2.0.0", 7), ("1.0.0", 5)]
    many = {**learned.empty(), "queue": [{"id": str(i), "weight": i} for i in range(learned.MAX_QUEUE + 5)]}
    kept = learned.added(learned.empty(), many)["queue"]
    assert len(kept) == learned.MAX_QUEUE and kept[0]["weight"] == learned.MAX_QUEUE + 4


def test_feedback_from_needs_feedback(tmp_path, capsys):
    from minimizer.cli import main
    assert main(["fuzz", "--seeds", *SMALL, "--feedback-from", str(tmp_path), "--backend", "reference", "--device",
                 "cpu", "--corpus", str(tmp_path / "c"), "--max-examples", "1"]) == 2
    assert "--feedback-from: needs --feedback" in capsys.readouterr().err
