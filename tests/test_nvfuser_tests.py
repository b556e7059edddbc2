"""Seeds harvested from an nvFuser checkout's Python tests (``harvest/nvfuser_tests.py``,
``harvest/worker.py``): the tests run in a worker process, their fusions become seeds named
after the test, and every fusion function is counted as read or left out with its reason.

The checkouts here are synthetic: small test files written for these tests in the shapes nvFuser's
tests take (a nested ``fusion_func(fd)``, ``self.exec_nvfuser``, pytest parameters, a class with
``definition(self)``), nothing copied from nvFuser.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap

import pytest

from minimizer.harvest import nvfuser_tests
from minimizer.fuzz.sources import seeded

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TEST_SHAPES = '''\
import os
import pytest
import torch
from nvfuser import FusionDefinition, DataType
from nvfuser.testing.utils import NVFuserTest, is_pre_hopper
from some_package_this_machine_lacks import helper_thing

ROWS = 6


def make_inputs(n):
    return [torch.randn(ROWS, n, device="cuda"), torch.randn(ROWS, n, device="cuda")]


def module_fusion(fd):
    t0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    fd.add_output(fd.ops.exp(t0))


def helper_adds(fd, a, b):
    return fd.ops.add(a, b)


class TestShapes(NVFuserTest):
    def test_sizes_bound_by_the_test(self):
        m, n = 3, 5
        inputs = [torch.randn(m, n, device="cuda")]

        def fusion_func(fd: FusionDefinition):
            t0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
            fd.add_output(fd.ops.sum(t0, [1]))

        out, _ = self.exec_nvfuser(fusion_func, inputs)
        assert out[0].shape == (m,)

    @pytest.mark.parametrize("scatter_dim", [1, 0])
    def test_parametrized(self, scatter_dim):
        inputs = make_inputs(4)

        def fusion_func(fd):
            t0 = fd.from_pytorch(inputs[0])
            t1 = fd.from_pytorch(inputs[1])
            fd.add_output(fd.ops.sum(helper_adds(fd, t0, t1), [scatter_dim]))

        self.exec_nvfuser(fusion_func, inputs)

    def test_dtype_loop_unpacking_and_body_loop(self):
        for dtype in (torch.float16, torch.float32):
            tensors = [torch.randn(2, 3, device="cuda", dtype=dtype) for _ in range(3)]

            def fusion_func(fd):
                ts = [fd.from_pytorch(x) for x in tensors]
                acc = ts[0]
                for t in ts[1:]:
                    acc = fd.ops.mul(acc, t)
                fd.add_output(acc)

            self.exec_nvfuser(fusion_func, [*tensors])

    def test_python_operators(self):
        inputs = [torch.randn(3, device="cuda")]

        def fusion_func(fd):
            t0 = fd.from_pytorch(inputs[0])
            fd.add_output(abs(-t0) * t0)

        self.exec_nvfuser(fusion_func, inputs)

    def test_module_level_fusion(self):
        with FusionDefinition() as fd:
            module_fusion(fd)
        fd.execute([torch.randn(2, 2, device="cuda")])

    def test_defined_never_executed(self):
        def fusion_func(fd):
            t0 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Half)
            fd.add_output(fd.ops.neg(t0))

        with FusionDefinition() as fd:
            fusion_func(fd)
        print(fd)

    def test_skipped_on_old_gpus(self):
        if is_pre_hopper():
            pytest.skip("needs Hopper")
        inputs = [torch.randn(4, device="cuda")]

        def fusion_func(fd):
            fd.add_output(fd.ops.abs(fd.from_pytorch(inputs[0])))

        self.exec_nvfuser(fusion_func, inputs)

    def test_expected_error(self):
        inputs = [torch.randn(4, device="cuda")]

        def bad_fusion(fd):
            t0 = fd.from_pytorch(inputs[0])
            fd.add_output(fd.ops.sum(t0, [3]))

        with pytest.raises(RuntimeError):
            self.exec_nvfuser(bad_fusion, inputs)

        def after_the_error(fd):
            fd.add_output(fd.ops.sin(fd.from_pytorch(inputs[0])))

        self.exec_nvfuser(after_the_error, inputs)

    def test_fails_first(self):
        raise RuntimeError("this test breaks before its fusion")

        def never_reached(fd):
            fd.add_output(fd.ops.cos(fd.define_tensor(shape=[-1])))


def test_class_with_definition():
    class MyFusion(FusionDefinition):
        def definition(self):
            t0 = self.from_pytorch(torch.randn(2, 2, device="cuda"))
            self.add_output(self.ops.relu(t0))

    MyFusion().execute([torch.randn(2, 2, device="cuda")])


def test_where_the_tests_run():
    with open(os.environ["FMIN_TEST_PID_FILE"], "w") as f:
        f.write(str(os.getpid()))
'''


def checkout(tmp_path, text: str = TEST_SHAPES):
    (tmp_path / "csrc").mkdir(parents=True)
    (tmp_path / "tests" / "python").mkdir(parents=True)
    (tmp_path / "tests" / "python" / "test_shapes.py").write_text(text)
    return str(tmp_path)


@pytest.fixture
def harvested(tmp_path, monkeypatch):
    monkeypatch.setenv("FMIN_TEST_PID_FILE", str(tmp_path / "pid"))
    d = checkout(tmp_path / "fuser")
    got = seeded.load([d])
    yield d, got, tmp_path
    seeded._CACHE.clear()
    nvfuser_tests.cleanup()


def _by_name(got):
    return {s.path.split("test_shapes.py::", 1)[1]: s for s in got.seeds}


def test_fusion_functions_counts_nested_module_level_helper_and_class_definitions():
    tree = ast.parse(TEST_SHAPES)
    found = [(fn.name, test) for fn, test in nvfuser_tests.fusion_functions(tree)]
    assert ("module_fusion", "") in found and ("helper_adds", "") in found
    assert ("definition", "test_class_with_definition") in found
    assert ("never_reached", "test_fails_first") in found
    # a test whose nested function uses its own parameter as fd is not itself a fusion function
    assert not any(name.startswith("test") for name, _ in found)
    assert len(found) == 12


def test_the_tests_bindings_become_concrete_seeds(harvested):
    d, got, _ = harvested
    seeds = _by_name(got)
    s = seeds["test_sizes_bound_by_the_test::fusion_func"].program
    assert [a.shape for a in s.inputs] == [(3, 5)]                       # m, n of the test
    s = seeds["test_parametrized::fusion_func"].program
    assert [st.op for st in s.op_stmts()] == ["add", "sum"]              # the helper ran inside
    assert dict(s.op_stmts()[1].args)["dims"] == (1,)                    # the first parameter set
    assert [a.shape for a in s.inputs] == [(6, 4), (6, 4)]               # module constant, helper
    s = seeds["test_dtype_loop_unpacking_and_body_loop::fusion_func"].program
    assert [st.op for st in s.op_stmts()] == ["mul", "mul"]              # the body's loop, unrolled
    assert [a.dtype for a in s.inputs] == ["Half"] * 3                   # the loop's first dtype
    assert [st.op for st in seeds["test_python_operators::fusion_func"].program.op_stmts()] == ["neg", "abs", "mul"]
    assert [st.op for st in seeds["test_module_level_fusion::module_fusion"].program.op_stmts()] == ["exp"]
    assert [st.op for st in seeds["test_class_with_definition::definition"].program.op_stmts()] == ["relu"]
    assert [st.op for st in seeds["test_skipped_on_old_gpus::fusion_func"].program.op_stmts()] == ["abs"]
    assert [st.op for st in seeds["test_expected_error::after_the_error"].program.op_stmts()] == ["sin"]
    s = seeds["test_defined_never_executed::fusion_func"].program          # inputs made from the definition
    assert [(a.shape, a.dtype) for a in s.inputs] == [((8, 1), "Half")]


def test_the_report_counts_every_fusion_function_with_its_reason(harvested):
    d, got, _ = harvested
    (r,) = got.harvests
    assert (r.found, r.read) == (12, 10)
    text = "\n".join(r.lines)
    assert "test_expected_error::bad_fusion (line " in text and "the static check rejects it" in text
    assert "test_fails_first::never_reached" in text and "RuntimeError: this test breaks before its fusion" in text
    assert "test_shapes.py::module_fusion" not in text and "helper_adds" not in text
    assert any("test_shapes.py::helper_adds" in line for line in r.lines) is False
    block = r.block()
    assert block.startswith(f"fmin: seeds from {r.checkout}: 12 fusion functions in tests/python, 10 read (83 %), 2 left out")
    assert sum(r.reasons.values()) == 2


def test_the_tests_run_in_a_worker_and_the_seeds_name_the_test(harvested):
    d, got, tmp = harvested
    assert int((tmp / "pid").read_text()) != os.getpid()
    assert all(s.path.startswith(os.path.join(os.path.normpath(d), "tests", "python", "test_shapes.py::"))
               for s in got.seeds)
    assert all(not line.startswith(("/tmp/fmin-nvfuser-tests-", "fmin-nvfuser")) for line in got.unreadable)


def test_seeds_are_named_under_the_checkout_as_the_user_named_it(tmp_path, monkeypatch):
    """``--seeds fuser``: a finding's seed names ``fuser/tests/python/...``, not a directory of
    the machine that ran the campaign (a GPU machine's ``/work/...`` reached a bug list)."""
    monkeypatch.setenv("FMIN_TEST_PID_FILE", str(tmp_path / "pid"))
    checkout(tmp_path / "fuser")
    monkeypatch.chdir(tmp_path)
    try:
        got = seeded.load(["fuser"])
        assert got.seeds and all(s.path.startswith("fuser/tests/python/test_shapes.py::") for s in got.seeds)
    finally:
        seeded._CACHE.clear()
        nvfuser_tests.cleanup()


def test_the_workflows_tests_python_is_the_checkouts_tests(tmp_path, monkeypatch):
    """nvFuser's CI runs ``fmin fuzz --seeds tests/python`` from its checkout (docs/ci/fmin-fuzz.yml):
    that folder is the checkout's traced tests, named from the root, not 22 files read as scripts;
    a folder inside it is those of its own test files; any other folder is plain scripts."""
    monkeypatch.setenv("FMIN_TEST_PID_FILE", str(tmp_path / "pid"))
    checkout(tmp_path / "fuser")
    (tmp_path / "fuser" / "tests" / "python" / "direct").mkdir()
    (tmp_path / "fuser" / "tests" / "python" / "direct" / "test_other.py").write_text(
        TEST_SHAPES.split("def test_class_with_definition")[0])
    monkeypatch.chdir(tmp_path / "fuser")
    assert nvfuser_tests.checkout_of("tests/python") == "." and nvfuser_tests.checkout_of("csrc") is None
    assert nvfuser_tests.checkout_of("tests") is None and nvfuser_tests.checkout_of(str(tmp_path)) is None
    try:
        got = seeded.load(["tests/python"])
        names = [s.path for s in got.seeds]
        assert len(got.harvests) == 1 and not any("expected a fusion" in why for why in got.unreadable)
        assert "tests/python/test_shapes.py::test_module_level_fusion::module_fusion" in names
        assert any(n.startswith("tests/python/direct/test_other.py::") for n in names)
        inner = [s.path for s in seeded.load(["tests/python/direct"]).seeds]
        assert inner and all(n.startswith("tests/python/direct/test_other.py::") for n in inner)
    finally:
        seeded._CACHE.clear()
        nvfuser_tests.cleanup()


def test_a_replay_in_a_fresh_process_draws_the_same_seeded_programs(harvested):
    d, got, _ = harvested
    first = seeded.chunk(3, 0, [d])
    seeded._CACHE.clear()
    nvfuser_tests.cleanup()            # as a new process: traced again, into another scratch folder
    again = seeded.chunk(3, 0, [d])
    assert [(e.seed_file, e.mutations) for e in first] == [(e.seed_file, e.mutations) for e in again]
    assert [e.program.stmts for e in first] == [e.program.stmts for e in again]
    assert seeded.program_for("3.0.2", [d]).seed_file == first[2].seed_file


def test_the_scratch_folder_is_removed_when_the_process_ends(harvested):
    d, got, _ = harvested
    scratch = nvfuser_tests.harvest(d).scratch
    assert os.path.isdir(scratch)
    nvfuser_tests.cleanup()
    assert not os.path.exists(scratch)


def test_a_campaign_leaves_no_scratch_folder_and_prints_the_report(tmp_path):
    d = checkout(tmp_path / "fuser")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": ROOT, "FMIN_TEST_PID_FILE": str(tmp_path / "pid")}
    p = subprocess.run([sys.executable, "-m", "minimizer", "fuzz", "--seeds", d, "--backend", "reference",
                        "--device", "cpu", "--max-examples", "2", "--jobs", "1", "--corpus", str(tmp_path / "corpus")],
                       env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), p.stderr[-3000:]
    assert "12 fusion functions in tests/python, 10 read" in p.stderr
    assert "seed left out" not in p.stderr                  # the checkout's reasons are in the block
    assert not [x for x in os.listdir(tmp) if x.startswith("fmin-nvfuser-tests-")]


def test_a_worker_that_breaks_leaves_every_fusion_function_counted(tmp_path):
    d = checkout(tmp_path / "fuser", TEST_SHAPES + "\nimport signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    rows = nvfuser_tests.extract(d, str(tmp_path / "out"))
    assert len(rows) == 12 and all(r["why"].startswith("the harvest failed") for r in rows)


@pytest.mark.skipif(not os.path.isdir("/tmp/fuser-head/tests/python"), reason="no nvFuser checkout at /tmp/fuser-head")
def test_an_nvfuser_checkout_at_head():
    """Only where a checkout was materialized (docs/fuzz.md says how): most fusions are read."""
    try:
        got = seeded.load(["/tmp/fuser-head"])
        (r,) = got.harvests
        assert r.found >= 200 and r.read >= 0.75 * r.found
    finally:
        seeded._CACHE.clear()
        nvfuser_tests.cleanup()


def test_a_reduction_with_only_a_dtype_reduces_every_dim(tmp_path):
    """nvFuser's second reduction signature, ``(arg, dtype)``: read, printed back as written."""
    from minimizer.program.reader import parse_file
    from minimizer.program.printer import to_source
    text = textwrap.dedent("""\
        import torch
        from nvfuser import FusionDefinition, DataType

        def fusion_func(fd: FusionDefinition) -> None:
            T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
            T1 = fd.ops.prod(T0, DataType.Double)
            fd.add_output(T1)

        with FusionDefinition() as fd:
            fusion_func(fd)

        inputs = [torch.randn(2, 3, device="cuda")]
        fd.execute(inputs)
        """)
    (tmp_path / "prod.py").write_text(text)
    p = parse_file(str(tmp_path / "prod.py"))
    args = dict(p.op_stmts()[0].args)
    assert args["dtype"].name == "Double" and args.get("dims") is None
    s = seeded.read_seed(str(tmp_path / "prod.py"), None)
    assert s.info is not None
    assert "fd.ops.prod(T0, DataType.Double)" in to_source(p)


def test_reasons_group_by_their_first_parts():
    r = nvfuser_tests.reason
    assert r("/x/0001.py:3:4: the static check rejects it: fd.ops.slice: ValueError: dims 3 vs 2") == \
        "the static check rejects it: fd.ops.slice"
    assert r("its test failed before running it: RuntimeError: 'abc' took 12 s") == \
        "its test failed before running it: RuntimeError: '…' took N s"
    assert r("it failed while defining its fusion: AttributeError: DataType.Float4_e2m1fn is a dtype") == \
        "it failed while defining its fusion: AttributeError: DataType.Float4_e2m1fn is a dtype"
