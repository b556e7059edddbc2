"""Capture real failed outcomes on this (CPU) machine for the triage tests.

    python3 scripts/capture_triage.py [tests/data/triage/cpu.jsonl]

Runs broken scripts (``tests/data/broken``) and provoked environment failures through real
workers of the reference, inductor and nvfuser backends and writes one JSON line per run: the
case, the category it must triage to, and the outcome's fields triage reads (status, error_kind,
where, signature, message, script_line; the log only for crashes). Environment failures are
provoked, not simulated: the nvfuser backend on a machine without the wheel, the reference
backend asked for CUDA on a CPU-only torch, a worker whose address space is capped (``ulimit
-v``: torch's CPU allocator fails), a worker SIGKILLed while it runs (what the OOM killer does),
Inductor with ``CXX`` naming no compiler.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

BROKEN = os.path.join(ROOT, "tests", "data", "broken")
FIELDS = ("status", "error_kind", "where", "signature", "message", "script_line")


def _text(name: str) -> str:
    with open(os.path.join(BROKEN, name), encoding="utf-8") as f:
        return f.read()


def _record(case: str, expect: str, backend: str, o) -> dict:
    d = {"case": case, "expect": expect, "backend": backend, **{k: getattr(o, k) for k in FIELDS}}
    if o.status == "crash":
        d["log"] = o.log[-2000:]
    return d


def _capped(limit_gb: float) -> dict:
    """Run in a child whose address space is capped: a worker started there inherits the cap."""
    code = ("import json,sys; sys.path.insert(0, %r)\n"
            "from minimizer.oracle.pool import run_script\n"
            "o = run_script(sys.stdin.read(), backend='reference', path='huge_input.py', timeout=120)\n"
            "print(json.dumps({k: getattr(o, k) for k in %r}))\n") % (ROOT, FIELDS)
    big = _text("no_outputs.py").replace("# expect: fusion definition\n", "").replace(
        "fd.ops.sum(tv1, dims=[1], keepdim=False, dtype=DataType.Float)\n",
        "fd.ops.sum(tv1, dims=[1], keepdim=False, dtype=DataType.Float)\n    fd.add_output(tv2)\n").replace(
        "torch.testing.make_tensor((8, 32), dtype=torch.float32, device='cuda:0')",
        "torch.ones((32, 4096, 12288), dtype=torch.float32, device='cuda:0')")

    def cap():
        lim = int(limit_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    r = subprocess.run([sys.executable, "-c", code], input=big, capture_output=True, text=True, preexec_fn=cap,
                       timeout=300)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(out: str) -> int:
    from minimizer.backends import RunOptions
    from minimizer.oracle.pool import Pool, Request
    from minimizer.oracle.outcome import Outcome
    rows = []
    scripts = {n: _text(n) for n in sorted(os.listdir(BROKEN)) if n.endswith(".py")}
    for backend in ("reference", "inductor"):
        with Pool(backend, "cpu", timeout=300) as pool:
            for name, text in scripts.items():
                expect = text.splitlines()[0].removeprefix("# expect: ").split()[0]
                o = pool.run(Request(text, os.path.join(BROKEN, name)))
                rows.append(_record(f"{name}", expect, backend, o))
            # a worker killed while it runs: the OOM killer's SIGKILL
            o = pool.run(Request(scripts["bad_inputs.py"].replace("low=2, high=1", "low=0, high=1")
                                 + "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "killed.py"))
            rows.append(_record("worker SIGKILLed", "environment", backend, o))
    # Inductor's fault injection: a real C++ compile error of the compiler under test
    relu = scripts["bad_inputs.py"].replace("low=2, high=1", "low=-1, high=1").replace("fd.ops.exp(tv0)",
                                                                                        "fd.ops.relu(tv0)")
    with Pool("inductor", "cpu", timeout=300, options=RunOptions(
            inductor_config=(("cpp.inject_relu_bug_TESTING_ONLY", "compile_error"),))) as pool:
        rows.append(_record("inductor compile error (injected)", "fusion", "inductor",
                            pool.run(Request(relu, "relu.py"))))
    with Pool("inductor", "cpu", timeout=300, env={"CXX": "/nonexistent/g++"}) as pool:
        rows.append(_record("inductor, CXX names no compiler", "environment", "inductor",
                            pool.run(Request(relu, "relu.py"))))
    with Pool("reference", "cpu", timeout=300) as pool:
        wrong = scripts["bad_inputs.py"].replace("low=2, high=1", "low=0, high=1").replace(
            "dtype=torch.float32", "dtype=torch.float16")
        rows.append(_record("input dtype differs from define_tensor", "fusion", "reference",
                            pool.run(Request(wrong, "wrong_dtype.py"))))
    # nvFuser not installed (this machine has no wheel): the script's own import fails
    with Pool("nvfuser", "cpu", timeout=300) as pool:
        rows.append(_record("nvfuser_direct not installed", "environment", "nvfuser",
                            pool.run(Request(scripts["bad_reshape.py"], "bad_reshape.py"))))
        legacy = scripts["bad_reshape.py"].replace("from nvfuser_direct import", "from nvfuser import")
        rows.append(_record("legacy nvfuser not installed", "environment", "nvfuser",
                            pool.run(Request(legacy, "legacy.py"))))
    # a CUDA device asked of a CPU-only torch (the reference backend run on "cuda")
    with Pool("reference", "cuda", timeout=300) as pool:
        rows.append(_record("no CUDA in this torch", "environment", "reference",
                            pool.run(Request(scripts["bad_reshape.py"], "bad_reshape.py"))))
    # out of host memory: torch's CPU allocator fails under a capped address space
    d = _capped(6.0)
    rows.append(_record("host out of memory (address space capped)", "environment", "reference",
                        Outcome(**{k: d[k] for k in FIELDS})))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    for r in rows:
        print(f"{r['backend']:10} {r['case']:45} {r['expect']:12} {r['status']:6} {r['where'] or '-':10} "
              f"{(r['signature'] or '')[:80]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "data", "triage", "cpu.jsonl")))
