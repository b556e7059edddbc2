"""A backend and a check added from one file each, outside the package (``FMIN_PLUGINS``), with no
other file touched: the toy backend is known to ``--help``, ``check``, ``reduce`` and ``fuzz``
(in the fmin process and in its workers, which find it by name), and the toy check's need for
the fp64 reference reaches the memory plan. Every call is a subprocess on the CPU, the toy
backend being the reference's semantics with a segmentation of its own."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from minimizer import plugins
from minimizer.errors import UsageError
from minimizer.oracle.memory import plan
from minimizer.program import parse

# One reduction is one kernel of its own ("reduction"), every other op is in one "pointwise"
# kernel: a softmax-like fusion then has kernel boundaries, which the default property keeps.
TOY_BACKEND = '''
"""A toy backend: the reference semantics, each reduction a kernel of its own."""
from minimizer.backends import Backend, Facts, Runner, register
from minimizer.backends.reference import classify, modules
from minimizer.backends.runner import run_with_modules
from minimizer.frontend.fusion_definition import reference_executor
from minimizer.ops import CATALOG
from minimizer.segments import Edge, Segment, SegmentGraph

_last = {}


def _executor(stmts, inputs, frontend, device):
    _last["stmts"] = list(stmts)
    return reference_executor(stmts, inputs, frontend, device)


def graph(stmts):
    ops = [s for s in stmts if s.is_op]
    seg_of, segments = {}, []
    reductions = [s for s in ops if CATALOG[s.call].family == "reduction"]
    rest = [s for s in ops if CATALOG[s.call].family != "reduction"]
    for s in reductions:
        seg_of.update(dict.fromkeys([n for n in s.outs if n], len(segments)))
        segments.append(("reduction", [s]))
    if rest:
        seg_of.update(dict.fromkeys([n for s in rest for n in s.outs if n], len(segments)))
        segments.append(("pointwise", rest))
    edges = set()
    for k, (_, body) in enumerate(segments):
        for s in body:
            for name in s.uses():
                if name in seg_of and seg_of[name] != k:
                    edges.add((seg_of[name], k, name))
    return SegmentGraph(tuple(Segment(kind, exprs=tuple(s.op for s in body)) for kind, body in segments),
                        tuple(Edge(p, c, t) for p, c, t in sorted(edges)))


class ToyRunner(Runner):
    def warm(self, device):
        self._modules = modules(_executor)
        return {"backend": self.facts.name, "device": device}

    def run_script(self, text, path, device, options, values_path=None):
        classes = {m.FusionDefinition for m in self._modules.values()}
        _last.clear()
        result = run_with_modules(text, path, self._modules, classes, device, options, values_path, classify)
        if result.get("status") == "ok" and "stmts" in _last:
            g = graph(_last["stmts"])
            result.update(graph=g.to_json(), segments=len(g.segments), schedulers=[s.scheduler for s in g.segments])
        return result


@register
class Toy(Backend):
    facts = Facts("toy", summary="the reference, each reduction a kernel of its own (a test's plugin)",
                  display_name="Toy", fuses=False, worker_bytes=400 << 20, warm_up="toy warm-up note")
    runner = ToyRunner
'''

# A check whose judgement needs the fp64 reference: the memory plan must count that run.
TOY_CHECK = '''
"""--finite-exactly: the fp64 reference's outputs are all finite."""
from dataclasses import dataclass
from typing import ClassVar

from minimizer.oracle.checks import Check, Missing, failure_words, register


@register
@dataclass(frozen=True)
class FiniteExactly(Check):
    name: ClassVar[str] = "finite-exactly"
    cost: ClassVar[int] = 1
    runs_fp64_reference: ClassVar[bool] = True

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--finite-exactly", action="store_true", help="the fp64 reference's outputs are all finite")

    @classmethod
    def from_args(cls, args):
        return cls() if getattr(args, "finite_exactly", False) else None

    def gather(self, trial):
        r = trial.run("reference", want_values=True, fp64=True)
        if not r.ok:
            return Missing(f"the fp64 reference gave {failure_words(r)}")
        import torch
        outs = r.load_values()["outputs"]
        return all(bool(torch.isfinite(t).all()) for t in outs if isinstance(t, torch.Tensor))

    def holds(self, o, evidence=None):
        return (True, "finite in fp64") if evidence else (False, "not finite in fp64")

    def describe(self):
        return "outputs finite in fp64"
'''

SOFTMAXISH = """
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    T1 = fd.ops.exp(T0)
    T2 = fd.ops.sum(T1, dims=[1])
    T3 = fd.ops.broadcast(T2, [False, True])
    T4 = fd.ops.sub(T1, T3)
    T5 = fd.ops.neg(T4)
    T6 = fd.ops.abs(T5)
    fd.add_output(T6)

with FusionDefinition() as fd:
    fusion(fd)

inputs = [torch.randn((4, 8), dtype=torch.float32, device='cuda:0')]
out = fd.execute(inputs)
"""

# a 64 MiB input: the fp64 reference run needs several times what the float32 one does
BIG = """
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    T1 = fd.ops.neg(T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    fusion(fd)

inputs = [torch.randn((4096, 4096), dtype=torch.float32, device='cuda:0')]
out = fd.execute(inputs)
"""


def fmin(env_plugins: str, *args, timeout=300):
    env = dict(os.environ, FMIN_PLUGINS=env_plugins)
    return subprocess.run([sys.executable, "-m", "minimizer", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=timeout)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("plugins")
    paths = {}
    for name, text in (("toy_backend.py", TOY_BACKEND), ("toy_check.py", TOY_CHECK),
                       ("softmaxish.py", SOFTMAXISH), ("big.py", BIG)):
        (d / name).write_text(text)
        paths[name] = str(d / name)
    return d, paths


def test_the_toy_backend_is_in_help(files):
    _, p = files
    r = fmin(p["toy_backend.py"], "check", "--help")
    assert r.returncode == 0, r.stderr
    assert "{auto,inductor,nvfuser,reference,toy}" in r.stdout
    flat = " ".join(r.stdout.split())
    assert "toy: the reference, each reduction a kernel of its own (a test's plugin)" in flat
    assert "auto = the first of nvfuser, inductor, reference that this machine can run" in flat   # not toy


def test_check_runs_on_the_toy_backend_in_its_workers(files):
    _, p = files
    r = fmin(p["toy_backend.py"], "check", "--backend", "toy", "--device", "cpu", "--json", p["softmaxish.py"])
    assert r.returncode == 0, r.stderr
    row = json.loads(r.stdout.splitlines()[0])
    assert row["status"] == "ok" and row["segments"] == 2 and row["schedulers"] == ["reduction", "pointwise"]


def test_reduce_on_the_toy_backend_keeps_a_boundary_and_reduces(files, tmp_path):
    _, p = files
    out = tmp_path / "out"
    r = fmin(p["toy_backend.py"], "reduce", "--backend", "toy", "--device", "cpu", "--out", str(out),
             p["softmaxish.py"])
    assert r.returncode == 0, r.stderr
    assert "fmin: starting 1 toy worker on cpu to run the original (toy warm-up note)" in r.stderr
    rep = json.loads((out / "report.json").read_text())
    assert rep["backend"] == "toy" and rep["verified"] is True
    assert rep["ops_before"] == 6 and rep["ops_after"] < rep["ops_before"]
    after = rep["outcome_after"]["graph"]
    assert {(after["segments"][e["producer"]]["scheduler"], after["segments"][e["consumer"]]["scheduler"])
            for e in after["edges"]} & {("reduction", "pointwise"), ("pointwise", "reduction")}
    assert (out / "report.md").read_text().startswith("## Toy splits a")   # its display name


def test_a_short_fuzz_campaign_on_the_toy_backend(files, tmp_path):
    _, p = files
    r = fmin(p["toy_backend.py"], "fuzz", "--backend", "toy", "--device", "cpu", "--max-examples", "4", "--seed", "3",
             "--oracles", "failure,differential", "--no-minimize", "--corpus", str(tmp_path / "corpus"),
             "--summary", str(tmp_path / "summary.json"), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["backend"] == "toy" and s["programs"] == 4, s


def test_a_bad_plugin_is_a_usage_error(files, tmp_path):
    _, p = files
    broken = tmp_path / "broken.py"
    broken.write_text("import minimizer\n\nraise RuntimeError('plugin bug')\n")
    r = fmin(str(broken), "check", "--help")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"FMIN_PLUGINS: cannot import plugin {str(broken)!r} ({broken}:3): RuntimeError: plugin bug" in r.stderr
    with pytest.raises(UsageError, match="cannot import plugin 'no_such_fmin_plugin': ModuleNotFoundError"):
        plugins.load({"FMIN_PLUGINS": " no_such_fmin_plugin, "})
    assert "fmin_plugin_broken" not in sys.modules   # a failed import leaves nothing half-loaded


def test_the_toy_checks_fp64_run_is_planned_for(files):
    """Under a --max-memory between what the script needs with and without the fp64 reference,
    the script is refused only when the toy check's flag asks for that run."""
    _, p = files
    prog = parse(BIG, "big.py")
    unlimited = lambda dev: 1 << 40   # noqa: E731
    plain = plan(prog, "reference", "cpu", 1, available_fn=unlimited).need
    fp64 = plan(prog, "reference", "cpu", 1, fp64=True, available_fn=unlimited).need
    assert fp64 > plain * 1.2
    cap = str(int((plain + fp64) / 2 / 0.9))
    both = p["toy_backend.py"] + "," + p["toy_check.py"]
    argv = ["check", "--backend", "reference", "--device", "cpu", "--json", "--max-memory", cap]
    asked = fmin(both, *argv, "--finite-exactly", p["big.py"])
    row = json.loads(asked.stdout.splitlines()[0])
    assert row["signature"] == "fmin: not enough memory" and "fp64 reference run" in row["message"], row
    not_asked = fmin(both, *argv, p["big.py"])
    assert not_asked.returncode == 0, not_asked.stderr
    assert json.loads(not_asked.stdout.splitlines()[0])["status"] == "ok"


# ---- the registry's facts, in-process (the built-in backends only)
def test_every_backend_states_its_facts():
    """What the command line, the memory plan, the start-up line and the reports read from a
    backend is on the backend; a new one that leaves its summary out fails here."""
    from minimizer import backends
    for name in backends.names():
        b = backends.get(name)
        assert b.facts.summary and b.facts.title and b.facts.worker_bytes > 0, name
    assert backends.auto_order() == ("nvfuser", "inductor", "reference")
    assert backends.get("nvfuser").facts.title == "nvFuser" and backends.get("reference").facts.title == "the reference"


def test_auto_takes_the_first_backend_this_machine_can_run(monkeypatch):
    from minimizer import backends
    can = {"nvfuser": False, "inductor": True, "reference": True}
    for name in can:
        monkeypatch.setattr(type(backends.get(name)), "available", lambda self, device=None: can[self.facts.name])
    assert backends.resolve("auto", "cpu") == "inductor"
    can["inductor"] = False
    assert backends.resolve("auto", "cpu") == "reference"
    can["reference"] = False   # nothing can run: the last, which then says why not
    assert backends.resolve("auto", "cuda") == "reference"
    can["nvfuser"] = True
    assert backends.resolve("auto", "cuda") == "nvfuser"
    assert backends.resolve("inductor") == "inductor"
    with pytest.raises(ValueError, match="unknown backend 'toy'"):
        backends.resolve("toy")
