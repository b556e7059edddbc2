"""The reference backend runs every corpus script unchanged on the CPU, computes what hand-written
torch computes for the seed scripts, and rejects what nvFuser rejects."""
import os

import pytest
import torch

from conftest import ROOT, corpus_scripts
from minimizer.backends import RunOptions
from minimizer.oracle import Pool, Request
from torch_refs import REFS


@pytest.fixture(scope="module")
def pool():
    with Pool("reference", "cpu", jobs=2, timeout=600) as p:
        yield p


def _run(pool, path, **kw):
    with open(path, encoding="utf-8") as f:
        return pool.run(Request(f.read(), path, RunOptions(**kw)))


@pytest.mark.parametrize("path", corpus_scripts(), ids=lambda p: os.path.relpath(p, ROOT))
def test_corpus_script_runs(pool, path):
    out = _run(pool, path)
    assert out.status == "ok", f"{out.signature}\n{out.message}"
    assert out.outputs and all("shape" in o or "scalar" in o for o in out.outputs)


@pytest.mark.parametrize("rel", sorted(REFS))
def test_matches_hand_written_torch(pool, rel):
    out = _run(pool, os.path.join(ROOT, rel), want_values=True)
    assert out.status == "ok", out.message
    inputs, outputs = out.load_values()
    expected = REFS[rel](inputs)
    assert len(outputs) == len(expected)
    for got, want in zip(outputs, expected):
        assert got.shape == want.shape and got.dtype == want.dtype
        tol = {torch.bfloat16: (2e-2, 1e-2), torch.float16: (2e-3, 1e-3)}.get(got.dtype, (1e-5, 1e-4))
        torch.testing.assert_close(got, want, rtol=tol[0], atol=tol[1])


SCRIPT = """
import torch
from {mod} import FusionDefinition, DataType

def f(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    {body}

with FusionDefinition() as fd:
    f(fd)

fd.execute([{a}, {b}])
"""
A = "torch.randn(4, 8, device='cuda')"


@pytest.mark.parametrize("body,a,b,mod,expect", [
    ("T2 = fd.ops.add(T0, T1)\n    fd.add_output(T2)", A, "torch.randn(4, 8, dtype=torch.float16, device='cuda')",
     "nvfuser", "to be bound to a tensor of dtype Float, but got a tensor of dtype Half"),
    ("T2 = fd.ops.add(T0, T1)\n    fd.add_output(T2)", A, "torch.randn(8, 4, device='cuda').t()",
     "nvfuser", "stride mismatch with contiguity info"),
    ("T2 = fd.ops.add(T0, T1)\n    fd.add_output(T2)", "torch.randn(1, 8, device='cuda')", A,
     "nvfuser", "none of these dims is a broadcast"),
    ("S2 = fd.define_scalar(2.0, dtype=DataType.Double)\n    T3 = fd.ops.mul(T0, 2.0)\n    fd.add_output(T3)",
     A, A, "nvfuser", "legacy frontend takes no Python number"),
    ("T2 = fd.ops.sum(T0, dimz=[0])\n    fd.add_output(T2)", A, A, "nvfuser_direct", "unexpected keyword argument 'dimz'"),
    ("T2 = fd.ops.add(T0, T1)\n    fd.add_output(T2)", A, "3.0", "nvfuser_direct", "to be an at::Tensor but got scalar"),
])
def test_rejects_like_nvfuser(pool, body, a, b, mod, expect):
    out = pool.run(Request(SCRIPT.format(mod=mod, body=body, a=a, b=b)))
    assert out.status == "error"
    assert expect in out.message, out.message


def test_direct_frontend_takes_python_numbers_and_broadcasts_declared_dims(pool):
    body = ("T2 = fd.ops.sum(T1, dims=[1], keepdim=True)\n    T3 = fd.ops.mul(T0, 2.0)\n"
            "    T4 = fd.ops.sub(T3, T2)\n    fd.add_output(T4)")
    out = pool.run(Request(SCRIPT.format(mod="nvfuser_direct", body=body, a=A, b=A), options=RunOptions(want_values=True)))
    assert out.status == "ok", out.message
    (x, y), (res,) = out.load_values()
    torch.testing.assert_close(res, x * 2.0 - y.sum(1, keepdim=True))


def test_aliased_output_is_written_into_the_input(pool):
    body = "T2 = fd.ops.add(T0, T1)\n    fd.add_output(T2, T0)\n    T3 = fd.ops.neg(T1)\n    fd.add_output(T3)"
    script = SCRIPT.format(mod="nvfuser", body=body, a="x", b="y").replace(
        "fd.execute([x, y])", "x = torch.ones(4, 8, device='cuda'); y = torch.full((4, 8), 2.0, device='cuda')\n"
        "out = fd.execute([x, y])\nassert len(out) == 1 and (x == 3).all() and (out[0] == -2).all(), 'aliasing'")
    out = pool.run(Request(script))
    assert out.status == "ok", out.message
    assert len(out.outputs) == 1
