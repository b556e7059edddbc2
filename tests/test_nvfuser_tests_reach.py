"""What lets a harvested nvFuser test reach its fusion and the fusion be read (``harvest/worker``,
the reference's input check): the direct frontend's ways a test binds or drives a fusion that fmin
models as nvFuser does. Each case is a synthetic test file in a shape nvFuser's tests take, nothing
copied from nvFuser; every fusion function in it must come back as a read seed.
"""
from __future__ import annotations

import os

import pytest

from minimizer.harvest import nvfuser_tests
from minimizer.fuzz.sources import seeded

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HELPERS = '''\
import torch
from looseversion import LooseVersion

# a helper gating what it defines on the torch version, as nvFuser's test utilities do
NEW_TORCH = LooseVersion(torch.__version__) >= LooseVersion("2.0.0")
'''

TESTS = '''\
import pytest
import torch
import nvfuser_direct as nvfuser
from nvfuser_direct import FusionDefinition, DataType, LruFusionCache
from reach_helpers import NEW_TORCH


def test_vector_input_as_a_list(nvfuser_direct_test):
    inputs = [torch.randn(2, 3, 4, device="cuda"), [6, 4]]

    def fusion_func(fd: FusionDefinition):
        t0 = fd.from_pytorch(inputs[0])
        new_shape = fd.define_vector(2)
        fd.add_output(fd.ops.sum(fd.ops.reshape(t0, new_shape), dims=[0]))

    nvfuser_direct_test.exec_nvfuser(fusion_func, inputs)


def cast_back(fd, x):
    io_dtype = x.dtype()
    y = fd.ops.cast(x, dtype=DataType.Float)
    y = fd.ops.mul(y, y)
    return fd.ops.cast(y, dtype=io_dtype)


def test_dtype_of_a_value(nvfuser_direct_test):
    inputs = [torch.randn(4, 8, dtype=torch.bfloat16, device="cuda")]

    def fusion_func(fd: FusionDefinition):
        t0 = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.BFloat16)
        fd.add_output(cast_back(fd, t0))

    nvfuser_direct_test.exec_nvfuser(fusion_func, inputs)


def test_negative_broadcast_dim(nvfuser_direct_test):
    inputs = [torch.randn(4, 8, device="cuda"), torch.randn(8, device="cuda")]

    def fusion_func(fd: FusionDefinition):
        x = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Float)
        w = fd.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Float)
        w = fd.ops.broadcast_in_dim(w, shape=fd.ops.shape(x), broadcast_dims=[-1])
        fd.add_output(fd.ops.mul(x, w))

    nvfuser_direct_test.exec_nvfuser(fusion_func, inputs)


def test_version_gated_dtype(nvfuser_direct_test):
    inputs = [torch.randn(4, dtype=torch.float16 if NEW_TORCH else torch.float32, device="cuda")]

    def fusion_func(fd: FusionDefinition):
        dtype = DataType.Half if NEW_TORCH else DataType.Float
        t0 = fd.define_tensor(shape=[-1], contiguity=True, dtype=dtype)
        fd.add_output(fd.ops.neg(t0))

    nvfuser_direct_test.exec_nvfuser(fusion_func, [torch.randn(4, dtype=torch.float16, device="cuda")])


def test_fusions_through_a_cache_decorator():
    inputs = [torch.randn(2, 4, device="cuda")]

    def create_fd(fd: FusionDefinition):
        fd.add_output(fd.ops.exp(fd.from_pytorch(inputs[0])))

    @LruFusionCache(max_fusions=4)
    def create_fusion(make):
        with FusionDefinition() as fd:
            make(fd)
        return fd

    fd = create_fusion(create_fd)
    fd.execute(inputs)


def test_internals_dropped():
    inputs = [torch.randn(2, 4, device="cuda")]

    def fusion_id0(fd: FusionDefinition):
        fd.add_output(fd.ops.sin(fd.from_pytorch(inputs[0])))

    def fusion_id1(fd: FusionDefinition):
        fd.add_output(fd.ops.cos(fd.from_pytorch(inputs[0])))

    with FusionDefinition() as fd0:
        fusion_id0(fd0)
    del fd0._fusion
    with FusionDefinition() as fd1:
        fusion_id1(fd1)
    fd1.execute(inputs)


def sharded_definition(fd: FusionDefinition, d: int):
    x = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Float)
    fd.add_output(fd.ops.relu(x))
    mesh = nvfuser.multidevice.DeviceMesh(range(d))
    for tv in fd.fusion.inputs():
        tv.set_device_mesh(mesh)
        tv.outer_split(0, d)
        tv.axis(0).parallelize(nvfuser.ParallelType.mesh_x)


def test_sharded(multidevice_test):
    d = multidevice_test.size
    mesh = nvfuser.multidevice.DeviceMesh(torch.arange(d))
    x = multidevice_test.shard_tensor_1d(torch.randn(d * 4, 3), 0, mesh)
    with FusionDefinition() as fd:
        sharded_definition(fd, d)
    fd.execute([x])


def test_empty_and_size_one_expanded_inputs(nvfuser_direct_test):
    def empty(fd: FusionDefinition):
        t0 = fd.define_tensor(shape=[0, 0], contiguity=[True, True], dtype=DataType.Float)
        fd.add_output(fd.ops.relu(t0))

    nvfuser_direct_test.exec_nvfuser(empty, [torch.ones(0, 0, device="cuda")])

    def expanded_to_one(fd: FusionDefinition):
        t0 = fd.define_tensor(shape=[1, -1], contiguity=[None, None], dtype=DataType.Float)
        fd.add_output(fd.ops.abs(t0))

    nvfuser_direct_test.exec_nvfuser(expanded_to_one, [torch.ones(1, 1, device="cuda")])


def test_wrong_inputs_on_purpose(nvfuser_direct_test):
    def checked(fd: FusionDefinition):
        t0 = fd.define_tensor(shape=[-1, 3], contiguity=True, dtype=DataType.Float)
        fd.add_output(fd.ops.exp(t0))

    with pytest.raises(RuntimeError, match="to be an at::Tensor"):
        nvfuser_direct_test.exec_nvfuser(checked, [2.0])


def test_outer(nvfuser_direct_test):
    nvfuser_direct_test.exec_nvfuser(lambda fd: fd.add_output(fd.ops.neg(fd.define_tensor(shape=[-1]))),
                                     [torch.ones(3, device="cuda")])

    # indented one level too far: nothing calls it, pytest does not collect it
    def test_slipped_inside(nvfuser_direct_test):
        def slipped(fd: FusionDefinition):
            t0 = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Float)
            fd.add_output(fd.ops.sin(t0))

        nvfuser_direct_test.exec_nvfuser(slipped, [torch.ones(2, 5, device="cuda")])


def test_in_place_update_read_by_a_broadcast(nvfuser_direct_test):
    inputs = [torch.randn(64, device="cuda"), torch.randn((), device="cuda")]

    def fusion_func(fd: FusionDefinition):
        vec = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
        acc = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float)
        bumped = fd.ops.add(acc, fd.define_scalar(1.0, dtype=DataType.Double))
        spread = fd.ops.broadcast_in_dim(bumped, shape=[64], broadcast_dims=[])
        fd.add_output(bumped, alias_input=acc)
        fd.add_output(fd.ops.mul(vec, spread))

    nvfuser_direct_test.exec_nvfuser(fusion_func, inputs)
'''

LEGACY_TESTS = '''\
import pytest
import torch
from nvfuser import FusionDefinition, DataType
from nvfuser.testing.utils import create_sdpa_rng_tensors, define_sdpa_rng_state
from nvfuser.testing.benchmark_utils import get_benchmark_fns


class Doubled(FusionDefinition):
    def definition(self):
        self.x = self.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Float)
        self.add_output(self.ops.mul(self.x, self.x))

    def schedule(self):
        self.ops.relu(self.x)   # nvFuser refuses an op added while scheduling: no fusion function


def test_benchmarked_through_a_helper(multidevice_test):
    inputs = [torch.randn(2, 3, device="cuda")]
    fd = Doubled()
    warmup_fn, benchmark_fn = get_benchmark_fns(lambda: fd.execute(inputs))
    warmup_fn()


class Absolute(FusionDefinition):
    def definition(self):
        x = self.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Float)
        self.add_output(self.ops.abs(x))


def test_benchmarked_by_the_fixture(benchmark):
    fd = Absolute()
    benchmark.pedantic(lambda: fd.execute([torch.randn(6, device="cuda")]), rounds=5)


class Halved(FusionDefinition):
    def definition(self):
        x = self.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Float)
        self.add_output(self.ops.neg(x))


def test_reference_from_the_data(multidevice_test):
    x = torch.randn(5, device="cuda")
    expected = -x.cpu()
    Halved().execute([x])


class Tripled(FusionDefinition):
    def definition(self):
        x = self.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Float)
        self.add_output(self.ops.abs(x))


def test_failing_before_a_class_fusion():
    raise RuntimeError("the test stops here")
    Tripled().execute([torch.randn(3, device="cuda")])


def test_code_length_before_execute(nvfuser_test):
    inputs = [torch.randn(3, device="cuda")]

    def fusion_func(fd: FusionDefinition):
        t0 = fd.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Float)
        fd.add_output(fd.ops.exp(t0))

    with FusionDefinition() as fd:
        fusion_func(fd)
    code_len = len(fd.last_cuda_code())
    first_line, *rest = fd.last_scheduled_fusion_ir()
    fd.execute(inputs)


def test_rng_state_helpers(nvfuser_test):
    seed, offset = create_sdpa_rng_tensors()
    x = torch.randn(4, device="cuda")

    def fusion_func(fd: FusionDefinition):
        _seed, fd_offset = define_sdpa_rng_state(fd)
        t = fd.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Float)
        fd.add_output(fd.ops.add(t, fd.ops.cast(fd_offset, DataType.Float)))

    nvfuser_test.exec_nvfuser(fusion_func, [seed, offset, x])


def test_on_hopper_only(nvfuser_test):
    major, minor = torch.cuda.get_device_capability()
    if (major, minor) != (9, 0):
        pytest.skip("only sm90 runs this op")
    inputs = [torch.randn(3, device="cuda")]

    def fusion_func(fd: FusionDefinition):
        fd.add_output(fd.ops.sin(fd.from_pytorch(inputs[0])))

    nvfuser_test.exec_nvfuser(fusion_func, inputs)


def test_on_four_devices(multidevice_test):
    d = multidevice_test.size
    if d % 4 != 0:
        pytest.skip("needs a multiple of 4 devices")
    inputs = [torch.randn(d * 2, device="cuda")]

    def fusion_func(fd: FusionDefinition):
        fd.add_output(fd.ops.cos(fd.from_pytorch(inputs[0])))

    multidevice_test.exec_nvfuser(fusion_func, inputs)


def test_legacy_vector_input_as_a_tuple(nvfuser_test):
    inputs = [torch.randn(2, 3, 4, device="cuda"), (6, 4)]

    def fusion_func(fd: FusionDefinition):
        t0 = fd.from_pytorch(inputs[0])
        new_shape = fd.define_vector(2)
        fd.add_output(fd.ops.sum(fd.ops.reshape(t0, new_shape), dims=[0]))

    nvfuser_test.exec_nvfuser(fusion_func, inputs)
'''

NAMES = ["test_vector_input_as_a_list::fusion_func", "cast_back", "test_dtype_of_a_value::fusion_func",
         "test_negative_broadcast_dim::fusion_func", "test_version_gated_dtype::fusion_func",
         "test_fusions_through_a_cache_decorator::create_fd", "test_internals_dropped::fusion_id0",
         "test_internals_dropped::fusion_id1", "sharded_definition",
         "test_empty_and_size_one_expanded_inputs::empty", "test_empty_and_size_one_expanded_inputs::expanded_to_one",
         "test_legacy_vector_input_as_a_tuple::fusion_func", "test_benchmarked_through_a_helper::definition",
         "test_benchmarked_by_the_fixture::definition",
         "test_reference_from_the_data::definition", "test_code_length_before_execute::fusion_func",
         "test_rng_state_helpers::fusion_func", "test_on_hopper_only::fusion_func",
         "test_on_four_devices::fusion_func", "test_slipped_inside::slipped",
         "test_wrong_inputs_on_purpose::checked", "test_in_place_update_read_by_a_broadcast::fusion_func"]
#: fusion functions rightly left out, and the start of why
LEFT_OUT = {"test_reach_legacy.py::definition": "its test failed before running it: RuntimeError: the test stops here"}


@pytest.fixture(scope="module")
def reached(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuser")
    (root / "csrc").mkdir()
    (root / "tests" / "python" / "direct").mkdir(parents=True)
    (root / "tests" / "python" / "direct" / "reach_helpers.py").write_text(HELPERS)
    (root / "tests" / "python" / "direct" / "test_reach.py").write_text(TESTS)
    (root / "tests" / "python" / "test_reach_legacy.py").write_text(LEGACY_TESTS)
    try:
        got = seeded.load([str(root)])
        yield got, {s.path.split("test_reach", 1)[1].split("::", 1)[1]: s.program for s in got.seeds}
    finally:
        seeded._CACHE.clear()
        nvfuser_tests.cleanup()


def test_every_fusion_function_is_read(reached):
    got, _ = reached
    (r,) = got.harvests
    assert (r.found, r.read) == (len(NAMES) + len(LEFT_OUT), len(NAMES)), "\n".join(r.lines)


def ops(program):
    return [s.op for s in program.op_stmts()]


def test_an_input_written_in_place_and_read_by_the_fusion_is_read(reached):
    """The shape of nvFuser's ``test_issue2664_repro1`` (in this file's words): a scalar input
    read through a broadcast and written in place. nvFuser orders the write after the reads."""
    p = reached[1]["test_in_place_update_read_by_a_broadcast::fusion_func"]
    assert ops(p) == ["add", "broadcast_in_dim", "mul"]
    assert [s.arg("alias_input").name for s in p.stmts if s.is_output and s.arg("alias_input") is not None] == \
        [p.stmts[1].outs[0]]


CONTRACT = os.path.join(ROOT, "tests", "data", "nvfuser", "contract")
#: fmin-syntax script -> the nvFuser test (NVIDIA/Fuser tests/python/direct/) whose fusion it builds
MIRRORS = {"scalar_update_read_by_broadcast.py": "test_repro.py::test_issue2664_repro1",
           "sum_of_broadcast_written_back.py": "test_repro.py::test_issue2664_repro2",
           "two_scalars_updated.py": "test_repro.py::test_issue2664_repro3",
           "implicit_broadcast_negated_in_place.py": "test_repro.py::test_issue2664_repro4",
           "masked_softmax_with_updates.py": "test_python_frontend.py::test_issue4888",
           "fused_add_rmsnorm.py": "test_tutorial.py::test_pdl"}


def test_every_contract_script_names_the_test_it_mirrors():
    assert sorted(f for f in os.listdir(CONTRACT) if f.endswith(".py")) == sorted(MIRRORS)


@pytest.mark.parametrize("name", sorted(MIRRORS))
def test_the_harvest_refuses_no_fusion_nvfusers_tests_expect_to_succeed(name):
    """The fusions of nvFuser's tests that write into an input other ops of the fusion read, and
    assert the right values: ``test_issue2664_repro1``..``4`` (``test_repro.py``),
    ``test_issue4888`` (``test_python_frontend.py``) and ``test_pdl``'s fused add-rmsnorm
    (``test_tutorial.py``), each rebuilt in fmin's syntax in ``tests/data/nvfuser/contract``
    (``MIRRORS``). Each is a valid program (``validity``) and a seed the harvest's gate reads
    (``seeded.read_seed``: the static check with every static rule)."""
    from minimizer.program import validity
    path = os.path.join(CONTRACT, name)
    p = seeded.read_seed(path, None).program
    written = validity.aliased_inputs(p)
    read = {n for s in p.op_stmts() for n in s.uses()}
    assert written and set(written) & read, "the script writes no input the fusion reads"
    assert validity.violations(p) == []


def test_a_list_input_stands_for_its_items(reached):
    """nvFuser's execute (either frontend) reads a list or tuple among the inputs as one input
    per item (the scalars ``define_vector(n)`` defines)."""
    for name in ("test_vector_input_as_a_list::fusion_func", "test_legacy_vector_input_as_a_tuple::fusion_func"):
        p = reached[1][name]
        assert [getattr(a, "value", None) for a in p.inputs] == [None, 6, 4]
        assert ops(p) == ["reshape", "sum"]


def test_a_value_tells_its_dtype(reached):
    p = reached[1]["test_dtype_of_a_value::fusion_func"]
    assert ops(p) == ["cast", "mul", "cast"]
    assert p.op_stmts()[-1].arg("dtype").name == "BFloat16"


def test_a_negative_broadcast_dim_is_read(reached):
    assert ops(reached[1]["test_negative_broadcast_dim::fusion_func"]) == ["shape", "broadcast_in_dim", "mul"]


def test_a_version_gate_answers_as_the_real_package(reached):
    """This machine's torch is past 2.0: the helper defines Half, as it would where
    ``looseversion`` is installed (a stub would answer no and define Float)."""
    p = reached[1]["test_version_gated_dtype::fusion_func"]
    assert [a.dtype for a in p.inputs] == ["Half"]


def test_decorated_dropped_and_sharded_fusions_are_reached(reached):
    progs = reached[1]
    assert ops(progs["test_fusions_through_a_cache_decorator::create_fd"]) == ["exp"]
    assert ops(progs["test_internals_dropped::fusion_id1"]) == ["cos"]
    p = progs["test_sharded::sharded_definition"]
    assert ops(p) == ["relu"] and [a.shape for a in p.inputs] == [(4, 3)]   # one device: the whole tensor


def test_empty_and_size_one_expanded_inputs_pass_the_static_check(reached):
    progs = reached[1]
    assert [a.shape for a in progs["test_empty_and_size_one_expanded_inputs::empty"].inputs] == [(0, 0)]
    p = progs["test_empty_and_size_one_expanded_inputs::expanded_to_one"]
    assert [(a.shape, a.strides) for a in p.inputs] == [((1, 1), (1, 1))]


def test_a_class_fusion_its_test_never_reached_says_why(reached):
    """A module-level fusion function belongs to no one test: the error of the test that would
    have run it is its reason (not "no test ran it")."""
    (r,) = reached[0].harvests
    for name, why in LEFT_OUT.items():
        assert any(line.split(" (line")[0].endswith(name) and why in line for line in r.lines), "\n".join(r.lines)


def test_a_stub_handed_a_lambda_runs_it_and_unpacks_as_asked(reached):
    assert ops(reached[1]["test_benchmarked_through_a_helper::definition"]) == ["mul"]
    assert ops(reached[1]["test_benchmarked_by_the_fixture::definition"]) == ["abs"]
    p = reached[1]["test_code_length_before_execute::fusion_func"]   # executed: the test's own input
    assert ops(p) == ["exp"] and [a.shape for a in p.inputs] == [(3,)]


def test_a_module_level_fusion_is_traced_again_on_the_cpu(reached):
    """The test asks its tensor for data (``x.cpu()``) before it executes a class's fusion: run
    again with real tensors, it reaches the fusion."""
    p = reached[1]["test_reference_from_the_data::definition"]
    assert ops(p) == ["neg"] and [a.shape for a in p.inputs] == [(5,)]


def test_the_sdpa_rng_helpers_define_this_torchs_layout(reached):
    """torch >= 2.7 (this machine's): the Philox seed is UInt64 ``[2]`` and the offset UInt64
    ``[]``, both on the GPU, as nvFuser's helpers define them and ``sdpfa_fwd`` returns them."""
    p = reached[1]["test_rng_state_helpers::fusion_func"]
    assert [(a.shape, a.dtype, a.device) for a in p.inputs] == [((2,), "UInt64", "cuda"), ((), "UInt64", "cuda"),
                                                                ((4,), "Float", "cuda")]


def test_a_test_that_skips_on_this_gpu_runs_on_another(reached):
    assert ops(reached[1]["test_on_hopper_only::fusion_func"]) == ["sin"]
    p = reached[1]["test_on_four_devices::fusion_func"]
    assert ops(p) == ["cos"] and [a.shape for a in p.inputs] == [(8,)]   # one process: the whole tensor


def test_a_test_is_stopped_by_its_own_cpu_time_not_the_clocks(monkeypatch):
    """A test making large real inputs on a machine busy with other work takes longer by the
    clock, not in CPU time: the CPU limit stops a busy test, the clock only one that waits past
    the larger wall limit."""
    import signal
    import time

    from minimizer.harvest import loading as hw
    monkeypatch.setattr(hw, "_LIMITS", ((signal.ITIMER_PROF, 0.3), (signal.ITIMER_REAL, 1.2)))
    old = {s: signal.signal(s, hw._alarm) for s in (signal.SIGPROF, signal.SIGALRM)}
    try:
        def busy(seconds):
            end = time.process_time() + seconds
            while time.process_time() < end:
                pass
        assert hw.run_limited(time.sleep, 0.6) is None                   # longer than the CPU limit, idle
        assert isinstance(hw.run_limited(busy, 2.0), hw._Timeout)        # CPU past its limit
        assert isinstance(hw.run_limited(time.sleep, 3.0), hw._Timeout)  # past the wall limit
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def test_a_late_timer_signal_is_dropped_and_a_nested_time_out_ends_the_test(monkeypatch):
    """Python runs a signal handler at its next bytecode: a timer that fires in a long C call at a
    run's end is handled after the run, where nothing catches it (it ended a whole checkout's harvest,
    every fusion function "the harvest failed"). With no run left it is dropped. A helper module a
    test imports runs its statements under the test's own limit, and running out there ends the test."""
    import signal
    import time

    from minimizer.harvest import loading as hw
    hw._alarm(signal.SIGALRM, None)                       # no run: nothing raised
    monkeypatch.setattr(hw, "_LIMITS", ((signal.ITIMER_PROF, 0.3), (signal.ITIMER_REAL, 1.2)))
    old = {s: signal.signal(s, hw._alarm) for s in (signal.SIGPROF, signal.SIGALRM)}
    reached_after = []
    try:
        def busy(seconds):
            end = time.process_time() + seconds
            while time.process_time() < end:
                pass

        def test_importing_a_slow_helper():
            assert hw.run_limited(lambda: None) is None   # a nested run leaves the test's timers set
            inner = hw.run_limited(busy, 2.0)
            reached_after.append(inner)                   # not reached: the time out ends the test
        assert isinstance(hw.run_limited(test_importing_a_slow_helper), hw._Timeout)
        assert reached_after == [] and hw._DEPTH == 0
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def test_a_test_nested_in_another_is_run_as_one_level_out(reached):
    """nvFuser's own run never calls a test defined inside another; its fusion is read all the same,
    with the inputs its test gives."""
    p = reached[1]["test_slipped_inside::slipped"]
    assert ops(p) == ["sin"] and [a.shape for a in p.inputs] == [(2, 5)]


def test_a_test_of_the_input_check_gives_its_fusion_with_inputs_from_its_definitions(reached):
    """The test hands a scalar where a tensor is defined, to see nvFuser refuse it: the fusion is
    read with inputs made from its definitions (a symbolic extent 8), not with the test's."""
    p = reached[1]["test_wrong_inputs_on_purpose::checked"]
    assert ops(p) == ["exp"] and [(a.shape, a.dtype) for a in p.inputs] == [((8, 3), "Float")]
