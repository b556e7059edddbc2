"""Scripts written for ``cuda:1`` run on a machine with one GPU (or none): the device map
(``backends/devicemap.py``). On the CPU the reference and inductor backends run them for real;
the CUDA path (a missing ordinal becomes ``cuda:0``, ``fd.execute(..., device=1)`` too) is
tested as mapping logic, with a fake FusionDefinition standing in for nvFuser's."""
import os
import types

import pytest
import torch

from conftest import ROOT
from minimizer.backends import RunOptions
from minimizer.backends.devicemap import DeviceMap, cuda_index, remap
from minimizer.backends.runner import run_with_modules, generic_classify
from minimizer.oracle.pool import Pool, Request

CUDA1 = os.path.join(ROOT, "tests", "data", "broken", "cuda1_device.py")


@pytest.mark.parametrize("d,want", [
    ("cuda", (True, None)), ("cuda:1", (True, 1)), (torch.device("cuda", 2), (True, 2)), (1, (True, 1)),
    ("cpu", (False, None)), (torch.device("cpu"), (False, None)), (True, (False, None)), ("meta", (False, None)),
])
def test_cuda_index(d, want):
    assert cuda_index(d) == want


@pytest.mark.parametrize("d,count,want", [
    ("cuda:1", 1, "cuda:0"), ("cuda:1", 2, "cuda:1"), ("cuda:0", 1, "cuda:0"), ("cuda", 1, "cuda"),
    (1, 1, 0), (3, 2, 0), (0, 1, 0), (torch.device("cuda", 1), 1, torch.device("cuda", 0)),
    ("cpu", 1, "cpu"), ("cuda:1", 0, "cuda:0"),   # a worker that cannot count its GPUs still has cuda:0
])
def test_remap_on_cuda_keeps_the_spelling(d, count, want):
    got = remap(d, "cuda", count)
    assert got == want and type(got) is type(want)


@pytest.mark.parametrize("d", ["cuda", "cuda:0", "cuda:3", torch.device("cuda", 1), 1])
def test_remap_on_the_cpu_maps_every_cuda_device(d):
    assert remap(d, "cpu", 0) == "cpu"


def test_the_mode_rewrites_each_spelling_on_cuda():
    m = DeviceMap("cuda", cuda_count=1)
    t = torch.empty(2)
    f, a, k = m.rewrite(torch.randn, ((2,),), {"device": "cuda:1"})
    assert k["device"] == "cuda:0"
    f, a, k = m.rewrite(torch.randn, ((2,),), {"device": torch.device("cuda", 1)})
    assert k["device"] == torch.device("cuda", 0)
    f, a, k = m.rewrite(torch.Tensor.cuda, (t, 1), {})
    assert (f, a[1]) == (torch.Tensor.cuda, 0)
    f, a, k = m.rewrite(torch.Tensor.to, (t, "cuda:1"), {})
    assert a[1] == "cuda:0"
    f, a, k = m.rewrite(torch.Tensor.to, (t, torch.float16), {})   # a dtype is no device
    assert a[1] is torch.float16
    f, a, k = m.rewrite(torch.Tensor.to, (t, "cuda:0"), {})
    assert a[1] == "cuda:0"
    assert m.remapped == {"cuda:1": "cuda:0"}


def test_execute_device_argument_is_mapped_too():
    """``nvfuser_direct``'s ``execute(inputs, *, device=None)`` takes an index, a string or a
    torch.device: the runner maps it like every other device argument (here on a "cuda" worker
    of a machine that reports no GPU: ordinals >= 1 go to 0)."""
    seen = []

    class FakeFD:
        def __init__(self):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def execute(self, inputs, *, device=None):
            seen.append(device)
            return [torch.zeros(1)]

    mod = types.ModuleType("nvfuser_direct")
    mod.FusionDefinition = FakeFD
    text = ("from nvfuser_direct import FusionDefinition\nimport torch\nfd = FusionDefinition()\n"
            "fd.execute([], device=1)\nfd.execute([], device='cuda:1')\nfd.execute([], device=torch.device('cuda', 2))\n"
            "fd.execute([], device=0)\n")
    r = run_with_modules(text, "<fake>", {"nvfuser_direct": mod}, [FakeFD], "cuda", RunOptions(), None,
                         generic_classify)
    assert r["status"] == "ok", r
    assert seen == [0, "cuda:0", torch.device("cuda", 0), 0]
    assert r["environment"]["device_remap"] == {"cuda:1": "cuda:0", "cuda:2": "cuda:0"}


@pytest.mark.parametrize("backend", ["reference", "inductor"])
def test_cuda1_script_runs_on_the_cpu_backends(backend):
    with open(CUDA1, encoding="utf-8") as f:
        text = f.read()
    with Pool(backend, "cpu", timeout=300) as pool:
        o = pool.run(Request(text, CUDA1))
    assert o.status == "ok", o.message
    assert o.environment.get("device_remap") == {"cuda:1": "cpu"}
