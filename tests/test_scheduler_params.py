"""nvFuser's heuristic parameters (``NVFUSER_DUMP=scheduler_params``) read from real logs
(``nvfuser_log.scheduler_params``, ``param_features``), the decision features they add to the
nvFuser backend's, and that the extra text confuses nothing else read from the same output.

The logs: ``tests/data/nvfuser/params-0.2.36/`` (captured on an H100, see its README)."""
import glob
import os
import re

import pytest

from minimizer.backends import decisions, get, runner_for
from minimizer.backends.nvfuser import DEFAULT_ENV
from minimizer.backends.nvfuser_log import (KernelParams, param_features, parse_error, rejected_merges,
                                            scheduler_params, segment_graph_from_dump, segments_from_dump)

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "nvfuser")
PARAMS = os.path.join(DATA, "params-0.2.36")
SEGLOG = os.path.join(DATA, "logs-0.2.36-seglog")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(DATA)))


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def log(name):
    return read(os.path.join(PARAMS, name + ".py.log"))


#: script -> the parameter blocks its log holds, in the order printed
KERNELS = {
    "pointwise": [KernelParams("pointwise", ("1d", "vec#1", "unroll_inner#1", "unroll_outer#1"))],
    "m": [KernelParams("reduction", (
              "fastest_dim", "iter=blockIdx.y",
              "inner=cross_block:threadIdx.x/pad_to_warp/cross_grid:blockIdx.x/split_grid/vectorize",
              "inner_factor#4")),
          KernelParams("pointwise", ("2d:bp#1", "vec#4", "unroll_inner#1", "unroll_outer#1"))],
    "segment_set": [KernelParams("pointwise", ("1d", "vec#4", "unroll_inner#1", "unroll_outer#1")),
                    KernelParams("reduction", (
                        "slow_dim", "iter=blockIdx.x/threadIdx.x/multiple_reductions_per_block/vectorize",
                        "iter_factor#2", "inner=cross_block:threadIdx.y/unroll", "inner_factor#16+"))],
    "softmax": [KernelParams("inner_persistent", (
        "variant:2d_register", "fastest_dim", "persistent", "iter=blockIdx.x",
        "inner=cross_block:threadIdx.x/pad_to_warp/persistent_batch/vectorize", "inner_factor#4", "index:int"))],
    "layernorm_bwd_fused": [KernelParams("inner_outer_persistent", (
        "variant:register_and_shared_memory", "fastest_dim", "persistent", "iter=blockIdx.y/split_grid_outer",
        "inner=persistent_batch/vectorize", "inner_factor#4", "index:int"))],
    "rope_qkv_split": [],   # one resize kernel: the resize scheduler prints no parameters
    "slice_cat": [],        # fails before any scheduler runs
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_each_parameter_block_is_read_as_its_scheduler_and_code_path(name):
    assert scheduler_params(log(name)) == KERNELS[name]


def test_the_same_heuristic_printed_twice_is_one_decision():
    # one inner-persistent kernel: its heuristic is computed when the un-segmented fusion is tried
    # and again for the kernel; one outer-persistent kernel likewise, beside a pointwise one
    text = log("handwritten_layernorm_direct")
    assert segments_from_dump(text) == ["inner_persistent"]
    a, b = scheduler_params(text)
    assert a == b and a.scheduler == "inner_persistent" and "project_buffers" in a.params
    text = log("legacy_batchnorm_stats_alias")
    assert segments_from_dump(text) == ["outer_persistent", "pointwise"]
    assert [k.scheduler for k in scheduler_params(text)] == ["outer_persistent", "outer_persistent", "pointwise"]
    outer = scheduler_params(text)[0]
    assert outer.params == ("slow_dim", "persistent", "iter=blockIdx.x/threadIdx.x/multiple_reductions_per_block",
                            "inner=cross_block:threadIdx.y/persistent_batch", "index:int")
    assert sorted(param_features(text)) == sorted(
        {f"param:{k.scheduler}:{p}" for k in scheduler_params(text) for p in k.params})


def test_sizes_that_follow_the_inputs_are_masked():
    """Grid and block sizes, persistent batches (``persistent batch - 8``, ``Batches per block:
    4``) and register counts are no feature: only bucketed factors carry a number."""
    every = set()
    for path in glob.glob(os.path.join(PARAMS, "*.log")):
        every |= param_features(read(path))
    assert len(every) >= 25
    left = {re.sub(r"#\d+\+?|\b[12]d\b|2d_register|int64_t", "", f) for f in every}
    assert not [f for f in left if re.search(r"\d", f)], left
    # softmax, layernorm_bwd_fused and legacy_batchnorm_stats_alias persist 1, 4 and 8 batches
    assert {"param:inner_persistent:inner=cross_block:threadIdx.x/pad_to_warp/persistent_batch/vectorize",
            "param:inner_outer_persistent:inner=persistent_batch/vectorize",
            "param:outer_persistent:inner=cross_block:threadIdx.y/persistent_batch"} <= every
    assert not any("Batches" in f or "BlockDim" in f or "maxrregcount" in f for f in every)


def test_pow2_buckets():
    assert [decisions.pow2_bucket(n) for n in (0, 1, 2, 3, 4, 6, 8, 15, 16, 64)] == \
        ["0", "1", "2", "2", "4", "4", "8", "8", "16+", "16+"]
    assert decisions.pow2_bucket(64, 128) == "64"


def test_the_backend_turns_the_dump_on_and_adds_the_features():
    assert "scheduler_params" in DEFAULT_ENV["NVFUSER_DUMP"].split(",")
    nvf = runner_for("nvfuser")
    text = log("m")
    result = {"status": "ok"}
    nvf.analyze_log(result, text)
    feats = nvf.decision_features(result, text)
    assert {"param:pointwise:2d:bp#1", "param:pointwise:vec#4", "param:reduction:fastest_dim",
            "param:reduction:iter=blockIdx.y", "sched:reduction#1", "segments:2"} <= set(feats)
    assert param_features(text) <= set(feats)
    # a failed run that printed no parameters has none
    assert not [f for f in nvf.decision_features({"status": "error"}, log("slice_cat")) if f.startswith("param:")]


#: the same script captured without ``scheduler_params`` (``logs-0.2.36-seglog``)
WITHOUT = {"m": "m.both", "segment_set": "segment_set.all", "softmax": "softmax.all",
           "slice_cat": "slice_cat.all"}


@pytest.mark.parametrize("name", sorted(WITHOUT))
def test_the_parameters_confuse_nothing_else_read_from_the_same_output(name):
    """Segments, the segment graph with its boundary reasons, the segmenter's rejected merges and
    every feature but the parameters read the same with and without the dump."""
    nvf = runner_for("nvfuser")
    with_params, without = log(name), read(os.path.join(SEGLOG, WITHOUT[name]))
    assert segments_from_dump(with_params) == segments_from_dump(without)
    assert segment_graph_from_dump(with_params, nvf.facts.non_kernel) == segment_graph_from_dump(without, nvf.facts.non_kernel)
    assert rejected_merges(with_params) == rejected_merges(without)
    a, b = {"status": "ok"}, {"status": "ok"}
    nvf.analyze_log(a, with_params)
    nvf.analyze_log(b, without)
    assert a == b
    feats = nvf.decision_features(a, with_params)
    assert [f for f in feats if not f.startswith("param:")] == nvf.decision_features(b, without)
    assert param_features(without) == set()


def test_a_failed_run_keeps_its_signature():
    text = log("slice_cat")
    m = list(re.finditer(r"^(\w+Error): ", text, re.M))[-1]
    e = parse_error(m.group(1), text[m.end():text.rfind("\nexit:")])
    assert e.kind == "definition" and e.signature == (
        "nvfuser definition: ops/alias.cpp:cat: RuntimeError: Expected all inputs to be padded when "
        "manual_padding is True.")


def test_every_committed_log_is_read_by_a_test():
    names = {os.path.basename(p)[:-len(".py.log")] for p in glob.glob(os.path.join(PARAMS, "*.py.log"))}
    assert names == set(KERNELS) | set(WITHOUT) | {"handwritten_layernorm_direct", "legacy_batchnorm_stats_alias"}
    assert all(os.path.exists(script_of(n)) for n in names)


#: where a log's script lies when the project already has it byte for byte (README of the folder);
#: the scripts re-emitted for nvfuser_direct lie beside their logs
SOURCES = {"handwritten_layernorm_direct": "corpus", "m": "tests/data/nvfuser/logs-0.2.36-seglog",
           **{n: "tests/data/nvfuser/probes" for n in ("pointwise", "segment_set", "slice_cat", "softmax")}}


def script_of(name: str) -> str:
    return os.path.join(ROOT, SOURCES[name], name + ".py") if name in SOURCES else os.path.join(PARAMS, name + ".py")
