"""Issue 22's acceptance: the 27 buckets one nvFuser campaign opened (regenerated on the H200 with
the fmin of that day: tests/data/nvfuser/campaign-20261204-0.2.36/README.md), merged with today's
``fmin merge-findings`` into an empty corpus, come to at most 14 buckets, none of which mixes two
root causes.

The root causes below are the hand triage of those 27 buckets (their messages and minimal
repros read against nvFuser's source): one per nvFuser site for the failures (a layout-dependent
bucket whose variant fails with a site's error belongs to that site), and for a wrong shape one
per way a dimension of an output goes wrong *and* op that loses it (issue 43: a lost extent is
fixed in the op that loses it) — three are an expanded extent returned as 1, lost by a ``max``
reduction of an expanded input dim, by a ``cat`` on another dim and by a ``broadcast_in_dim``'s
new dim: three causes; one a ``cat``'s concatenated extent lost (``gt`` of the concatenation),
whose minimal repro's two outputs and no recorded run of it leave the op unnamed."""
import json
import os
import subprocess
import sys

from conftest import ROOT

DATA = os.path.join(ROOT, "tests", "data", "nvfuser", "campaign-20261204-0.2.36")

ROOT_CAUSES = {
    "setReductionInitValue: two reductions with different init values read one producer":
        {"04190d5bb6bb", "32a2eb33af33", "e381428f4ba1", "f9dce1ef44bd"},
    "greedy scheduler partitionFusion cannot group a scan's tensors":
        {"27377ebd8e90", "2d8f366b0e5d", "613361edfc68", "898ddf1d6602"},
    "getMinimumValue/getMaximumValue of nvfuser_index_t (welford's count)": {"5c0064273414", "5ceebded7fe9"},
    "validateAllocationSizesAndStrides on an intermediate (a scan's output)":
        {"a6344e255435", "cfc18e55605a", "d4a53ee283a2", "d94cbb7add6b", "dc71c5bfbb17",
         "529965cabc52", "5e7b1815e2d1", "eb18210fc893"},
    "checkConcretization of a squeezed reduction domain": {"ad701e0f684c", "f2248a63a29a"},
    "revertPrivatizedOps: multiple use of a replicated upcast": {"b50263d04a33"},
    "transform_view findTransformation": {"eab17a1b28f5"},
    "NVRTC: __shfl_xor_sync has no overload (a layout variant)": {"439cdb445875"},
    "wrong shape: a concatenated extent lost": {"558ef76354a7"},
    "wrong shape: an expanded extent returned as 1, lost by broadcast_in_dim": {"64c5a308ba86"},
    "wrong shape: an expanded extent returned as 1, lost by max": {"6671c4979e8c"},
    "wrong shape: an expanded extent returned as 1, lost by cat": {"71ddc45d8af1"},
}


def _bucket_id(key: str) -> str:
    from minimizer.fuzz.store.store import bucket_id
    return bucket_id(key)


def test_the_27_buckets_of_issue_22_merge_into_their_root_causes(tmp_path):
    assert sum(len(v) for v in ROOT_CAUSES.values()) == 27
    assert {d for d in os.listdir(DATA) if os.path.isdir(os.path.join(DATA, d))} == set().union(*ROOT_CAUSES.values())
    into = tmp_path / "merged"
    r = subprocess.run([sys.executable, "-m", "minimizer", "merge-findings", DATA, "--into", str(into)], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    merged = {}
    for name in os.listdir(into):
        p = into / name / "finding.json"
        if p.exists():
            m = json.loads(p.read_text())
            merged[name] = {_bucket_id(k) for k in [m["key"], *m.get("old_keys", [])]} & set().union(*ROOT_CAUSES.values())
    assert len(merged) <= 14
    for name, members in merged.items():   # none mixes two root causes
        causes = [c for c, ids in ROOT_CAUSES.items() if members & ids]
        assert len(causes) == 1, (name, members, causes)
    # and every original bucket is accounted for, each root cause in exactly one bucket
    for cause, ids in ROOT_CAUSES.items():
        holders = [name for name, members in merged.items() if members & ids]
        assert len(holders) == 1 and ids <= merged[holders[0]], (cause, holders)
    # the layout-dependent ones are a flag on the bucket of the error they lead to, not a kind
    stride = next(name for name, members in merged.items() if "529965cabc52" in members)
    m = json.loads((into / stride / "finding.json").read_text())
    assert m["kind"] == "failure" and m.get("layout_dependent") is True
    # the tensor it names is an intermediate: nvFuser's, not the user's (the key names the site
    # whatever fmin labelled it; the outcome says whose)
    assert "validation: tensor_metadata.cpp:validateAllocationSizesAndStrides" in m["key"] and m["owner"] == "nvfuser"
    o = json.loads((into / stride / "outcome.json").read_text())
    assert o["signature"].startswith("nvfuser internal-assert: ") and o["error_kind"] == "compiler"
