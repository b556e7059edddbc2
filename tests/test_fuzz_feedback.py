"""Decision features and feedback (``backends/decisions.py``, ``Runner.decision_features``,
``fuzz/feedback.py``, ``fuzz/seedqueue.py``, ``fmin fuzz --seeds ... --feedback``): the features
read from real nvFuser logs, the queue growing on novelty in a CPU campaign, a queue-derived
program replaying from its id, and the coverage counts in every campaign's summary."""
import glob
import json
import os
import re

import pytest

from minimizer.backends import decisions, get, runner_for
from minimizer.fuzz.sources import feedback, seeded, seedqueue
from minimizer.oracle.context import RunContext
from minimizer.oracle.outcome import Outcome
from minimizer.oracle.session import text_key
from minimizer.program import to_source

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEGLOG = os.path.join(ROOT, "tests", "data", "nvfuser", "logs-0.2.36-seglog")
CAMPAIGN = os.path.join(ROOT, "tests", "data", "nvfuser", "campaign-20261204-0.2.36")
#: small seeds: a reference campaign on them judges a program in about 0.1 s
SMALL = tuple(os.path.join(ROOT, "corpus", n) for n in ("direct_rmsnorm_fwd.py", "direct_linear_matmul.py"))


def _nvfuser_features(name: str) -> list[str]:
    nvf = runner_for("nvfuser")
    with open(os.path.join(SEGLOG, name), encoding="utf-8", errors="replace") as f:
        log = f.read()
    result = {"status": "ok"}
    nvf.analyze_log(result, log)   # what the worker reads first
    return nvf.decision_features(result, log)


def test_nvfuser_decisions_name_schedulers_segments_and_why_merges_were_rejected():
    # sum -> broadcast -> sub -> exp over 2^20-wide rows: the inner-persistent scheduler runs out of registers
    f = _nvfuser_features("m.both")
    assert {"sched:reduction#1", "sched:pointwise#1", "segments:2", "edge:reduction>pointwise", "status:ok"} <= set(f)
    assert "reject:inner_persistent:not enough registers for persistence and shared memory persistence is not " \
           "supported yet." in f
    assert any(x.startswith("reject:reduction:need persistent buffers") for x in f)
    # generic reasons ("not this kind of fusion") are no decision
    assert not any("No matmul patterns" in x or "single expression" in x for x in f)
    # a segment_set: the segmenter asked no scheduler
    assert "reject:segment_set" in _nvfuser_features("segment_set.all")
    # two reduction kernels, a pointwise one and an expr_eval permute: counts bucketed
    g = _nvfuser_features("reduction_and_pointwise_outputs.all")
    assert {"sched:reduction#2", "sched:pointwise#1", "sched:expr_eval#1", "segments:4-7"} <= set(g)
    # one kernel: no rejection, one segment
    assert _nvfuser_features("softmax.all") == ["sched:inner_persistent#1", "segments:1", "status:ok"]


def test_features_carry_no_tensor_names_or_numbers_and_signatures_tell_runs_apart():
    every = [x for n in ("m.both", "segment_set.all", "reduction_and_pointwise_outputs.all", "softmax.all")
             for x in _nvfuser_features(n)]
    assert every and not [x for x in every if re.search(r"\bT\d|\d{2,}", x)]
    assert decisions.norm("T12_g_float[iS3{i0}] needs 4096 registers") == "T[iSN{iN}] needs N registers"
    a, b = _nvfuser_features("m.both"), _nvfuser_features("segment_set.all")
    assert decisions.signature(a) == decisions.signature(list(reversed(a))) != decisions.signature(b)


def test_a_failed_run_is_its_error_class_not_its_message():
    """The 20261204 campaign's real nvFuser outcomes: one feature per error class, whatever the message."""
    classes = set()
    for p in sorted(glob.glob(os.path.join(CAMPAIGN, "*", "outcome.json"))):
        with open(p, encoding="utf-8") as f:
            o = json.load(f)
        feats = runner_for("nvfuser").decision_features(o, "")
        errs = [x for x in feats if x.startswith("error:")]
        assert len(errs) == (o["status"] != "ok"), (p, feats)
        classes |= set(errs)
    assert "error:error:compiler:nvfuser internal-assert" in classes
    assert "error:error:user-input:nvfuser input-mismatch" in classes
    assert len(classes) <= 6   # classes, not the dozen root causes of the campaign


def test_counts_are_bucketed_as_afl_hit_counts():
    assert [decisions.count_bucket(n) for n in (0, 1, 2, 3, 4, 7, 8, 100)] == ["0", "1", "2", "3", "4-7", "4-7",
                                                                               "8+", "8+"]


def test_coverage_reports_what_is_new():
    c = feedback.Coverage()
    assert c.add(["a", "b"]) == {"a", "b"} and c.add(["b"]) == set() and c.add(["b", "c"]) == {"c"}
    assert c.add(None) == set() and c.programs == 3
    assert len(c.signatures) == 3 and len(c.features) == 3 and c.to_json()["signatures"] == 3


def test_inductor_decisions_add_its_extern_kernels():
    r = {"status": "ok", "segments": 2, "schedulers": ["pointwise", "reduction"], "environment": {"extern_kernels": 1}}
    assert "extern:1" in runner_for("inductor").decision_features(r, "")
    assert runner_for("reference").decision_features({"status": "ok", "outputs": [{"shape": [2, 3], "dtype": "float32"}]},
                                              "") == ["out:float32:r2", "status:ok"]


def _campaign(tmp_path, name, **kw):
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign import run as campaign
    opt = CampaignOptions(
        ctx=RunContext(backend="reference", device="cpu", quiet=True, timeout=300), max_examples=96, seed=5,
        corpus=str(tmp_path / name), minimize=False, oracles=("failure",), seeds=SMALL, resume=False, **kw)
    return campaign.run_campaign(opt)


@pytest.fixture(scope="module")
def fed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fed")
    return tmp, _campaign(tmp, "a", feedback=True)


def test_a_feedback_campaign_queues_novel_programs_and_derives_from_them(fed):
    tmp, s = fed
    assert s.programs == 96 and s.queue and s.derived > 0
    assert all(q["new_features"] >= 1 for q in s.queue)
    assert s.queue[0]["id"].startswith("5.0.")           # the first program is always new
    j = s.to_json()
    assert j["feedback"]["derived_programs"] == s.derived and j["decision_coverage"]["features"] == len(s.decisions.features)
    from minimizer.fuzz.campaign.summary import summary_lines
    text = "\n".join(summary_lines(s))
    assert "| decisions covered" in text and f"{len(s.queue)} entries; {s.derived} programs derived" in text


def test_the_queue_depends_on_the_seed_not_on_timing(fed, tmp_path):
    _, s = fed
    again = _campaign(tmp_path, "b", feedback=True)
    assert [q["id"] for q in again.queue] == [q["id"] for q in s.queue] and again.derived == s.derived


def test_every_queue_derived_program_replays_from_its_id(fed):
    tmp, s = fed
    (prog,) = glob.glob(str(tmp / "a" / "campaign-*.jsonl"))
    with open(prog, encoding="utf-8") as f:
        judged = [json.loads(line) for line in f if '"h"' in line]
    chains = [d for d in judged if seedqueue.LINK in d["id"]]
    assert len(chains) == s.derived > 0
    for d in chains:
        e = seedqueue.program_for(d["id"], SMALL)
        assert isinstance(e, seedqueue.DerivedExample) and text_key(to_source(e.program)) == d["h"], d["id"]
        assert [i for i, _ in e.chain] == d["id"].split("+")


def test_plain_seeded_and_generative_campaigns_report_coverage_and_queue_nothing(tmp_path, capsys):
    from minimizer.cli import main
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign import run as campaign
    s = _campaign(tmp_path, "plain")
    j = s.to_json()
    assert j["decision_coverage"]["signatures"] >= 1 and j["decision_coverage"]["programs"] == s.programs
    assert "feedback" not in j and s.derived == 0
    g = campaign.run_campaign(CampaignOptions(
        ctx=RunContext(backend="reference", device="cpu", quiet=True, timeout=300), max_examples=8, seed=5,
        corpus=str(tmp_path / "gen"), minimize=False, oracles=("failure",), feedback=True))   # no seeds: no queue
    assert g.decisions.programs == 8 and g.decisions.features and not g.queue and g.derived == 0
    assert main(["fuzz", "--feedback", "--backend", "reference", "--device", "cpu", "--corpus", str(tmp_path / "c"),
                 "--max-examples", "1"]) == 2
    assert "--feedback: needs --seeds" in capsys.readouterr().err


def test_a_derived_segmentation_finding_records_its_ancestry_and_is_filed_as_a_segmentation(tmp_path):
    """A queue-derived program's order-dependent segmentation: one bucket with both segment graphs,
    the program's ancestry (whose id rebuilds it), under the bug list's Segmentation differences."""
    from minimizer.fuzz.buglist import page as buglist
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign import run as campaign
    from minimizer.fuzz.store.store import Store
    from minimizer.fuzz.store.finding import Finding
    from minimizer.fuzz.judging.oracles import Judged
    base = seeded.program_for("5.0.3", SMALL)
    e = seedqueue.derived(base, seedqueue.static_info(base.program), "5.4.1")
    assert e is not None and e.id == "5.0.3+5.4.1"
    a = Outcome("ok", "nvfuser", segments=2, schedulers=["reduction", "pointwise"], graph={"segments": []},
                decisions=["segments:2"])
    b = Outcome("ok", "nvfuser", segments=1, schedulers=["inner_persistent"], graph={"segments": []})
    from minimizer.fuzz.store.key import SEGMENTATION, BucketKey
    changes = BucketKey(SEGMENTATION, "nvfuser", variant="order",
                        schedulers=("inner_persistent", "pointwise", "reduction"))
    f = Finding("order-dependent", "nvfuser", changes, "permutation [1, 0]", {"order_dependent": True}, b,
                marks={"order_dependent": True})
    run = campaign._Campaign(CampaignOptions(corpus=str(tmp_path / "c"), seeds=SMALL, feedback=True))
    run.count(e, to_source(e.program), Judged(a, [f]))
    (m,) = Store(str(tmp_path / "c")).buckets()
    assert m.first_example == e.id and m.ancestry["seed_file"] == e.seed_file
    assert [x["id"] for x in m.ancestry["chain"]] == ["5.0.3", "5.4.1"]
    assert m.segment_graphs["segments"] == [2, 1] and "segmentation depends on the input order" in str(m.key)
    assert run.queue.entries and run.s.queue[0]["id"] == e.id   # its decisions were new: queued
    # another example of the bucket keeps the opening one's ancestry
    e2 = seedqueue.derived(base, seedqueue.static_info(base.program), "5.4.2")
    run.count(e2, to_source(e2.program), Judged(a, [Finding("order-dependent", "nvfuser", changes, "w", {}, b)]))
    (m,) = Store(str(tmp_path / "c")).buckets()
    assert m.count == 2 and [x["id"] for x in m.ancestry["chain"]] == ["5.0.3", "5.4.1"]
    md = open(buglist.write(str(tmp_path / "c")), encoding="utf-8").read()
    assert "## Segmentation differences (1)" in md
    assert to_source(seedqueue.program_for(m.first_example, SMALL).program) == to_source(e.program)


class _SlowRunner:
    """A runner whose programs finish after a delay, in any order: every program 'ran', with one
    decision feature of its own text's hash (so most early programs are new)."""
    window, n, reduce_slots = 32, 2, 1

    def __init__(self, delay):
        from concurrent.futures import ThreadPoolExecutor
        self.delay, self._ex = delay, ThreadPoolExecutor(2)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._ex.shutdown(wait=True, cancel_futures=True)

    def describe(self):
        return ""

    def judge_example(self, e, text):
        import time
        from minimizer.fuzz.judging.oracles import Judged

        def judge():
            time.sleep(self.delay)
            return Judged(Outcome("ok", "reference", decisions=[f"f{int(text_key(text), 16) % 23}"]), [])
        return self._ex.submit(judge)


@pytest.mark.parametrize("delay", [0.0, 0.01])
def test_a_chunk_is_mixed_only_once_the_chunks_it_may_draw_on_are_taken(tmp_path, monkeypatch, delay):
    """Short chunks (duplicates skipped) put many chunks in the window: the queue a chunk sees must
    still be the one of the chunks ``lag`` before it, whatever the programs' timing."""
    from minimizer.fuzz.campaign.options import CampaignOptions
    from minimizer.fuzz.campaign import run as campaign
    short = campaign.program_chunk
    monkeypatch.setattr(campaign, "program_chunk", lambda opt, k: short(opt, k)[:3])
    seen, mix = [], seedqueue.Queue.mix

    def spy(self, examples, position):
        seen.append((position, run_taken[0].chunks_taken, self.lag))
        return mix(self, examples, position)
    monkeypatch.setattr(seedqueue.Queue, "mix", spy)
    run_taken = []
    init = campaign._Campaign.__init__
    monkeypatch.setattr(campaign._Campaign, "__init__", lambda self, opt: (init(self, opt), run_taken.append(self))[0])
    opt = CampaignOptions(ctx=RunContext(backend="reference", device="cpu", quiet=True), max_examples=36,
                          seed=5, corpus=str(tmp_path / "c"), minimize=False, seeds=SMALL, feedback=True)
    s = campaign.run_campaign(opt, runner=_SlowRunner(delay))
    assert len(seen) >= 10 and s.queue
    assert all(taken >= position - lag + 1 for position, taken, lag in seen), seen
