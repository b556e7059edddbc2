"""Does a bucket's attachment show its finding when it is run the way a maintainer runs it?

**The run.** The attachment's text is written, alone, into a fresh scratch directory as
``repro.min.py`` and run there in a fresh process with a timeout, its process group killed past
it: ``python repro.min.py`` for an nvFuser finding. The environment is the minimal one a
machine needs to import torch and nvFuser (``PASSED``: the paths, the CUDA and library
variables — on the lent H200 ``LD_PRELOAD`` carries the ABI shim —, nothing of fmin's and no
``NVFUSER_*``/``TORCH*`` setting) plus exactly the variables the attachment's header states
(``# environment: NVFUSER_DISABLE=... NVFUSER_DUMP=...``). A finding of another backend has
no such form (its script imports ``nvfuser_direct``, behind which fmin's own FusionDefinition
compiles with Inductor): it runs as ``python -m minimizer.backends.launch BACKEND DEVICE
repro.min.py`` with the header's Inductor config — the same run a worker makes, once, in a
fresh process, with the script's own output check active. On a machine that cannot run the
script (no nvFuser, no GPU) nothing runs, and the record says so (``ran: false`` and why).

**Reproduces** means it fails the way the bucket says (``Attachment.expect``): a failure, with
the same status and signature as recorded (the error's text, parsed from the traceback, through
the backend's own classification: the ``Failure`` check of ``findings.bucket_property``); a
wrong result, with the attachment's ``AssertionError: wrong result (KIND)`` for the bucket's
kind of difference; an order- or layout-dependent finding, with the failing variant's outcome
— its error, or its segmentation read from the ``NVFUSER_DUMP=segmented_fusion`` output.
"""
from __future__ import annotations

import builtins
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from ..backends.base import cuda_usable, get
from ..oracle.checks import Failure
from ..oracle.outcome import Outcome, outcome_key, outcome_words

#: what the run inherits from fmin's environment, where set: enough to find Python, torch, CUDA
#: and nvFuser's libraries, nothing that changes what they do
PASSED = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "CUDA_HOME",
          "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "VIRTUAL_ENV", "CONDA_PREFIX")
TAIL = 2000
_WRONG = re.compile(r"^AssertionError: wrong result \((\w+)\)")


def stated_environment(text: str) -> dict[str, str]:
    """The variables an attachment's header states (``# environment: K=V K=V``)."""
    for line in _header(text):
        if line.startswith("# environment:"):
            return dict(kv.split("=", 1) for kv in line.split(":", 1)[1].split() if "=" in kv)
    return {}


def stated_inductor_config(text: str) -> list[str]:
    """``KEY=VALUE`` items of the header's ``# inductor config: k=v, k=v`` line."""
    for line in _header(text):
        if line.startswith("# inductor config:"):
            return [kv.strip() for kv in line.split(":", 1)[1].split(", ") if kv.strip()]
    return []


def _header(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        if not line.startswith("#") and line.strip():
            break
        out.append(line)
    return out


def _frontend(text: str) -> str:
    m = re.search(r"^\s*(?:from|import)\s+(nvfuser_direct|nvfuser)\b", text, re.M)
    return m.group(1) if m else "nvfuser_direct"


def command(text: str, backend: str, device: str) -> tuple[list[str] | None, str]:
    """(argv, "") to run the attachment as ``repro.min.py`` in the scratch directory, or (None,
    why it cannot run on this machine)."""
    if backend == "nvfuser":
        fe = _frontend(text)
        if importlib.util.find_spec(fe) is None:
            return None, f"{fe} is not installed here: an nvFuser finding runs standalone where nvFuser is"
        if not cuda_usable():
            return None, "no CUDA device here: an nvFuser finding runs standalone on a GPU"
        return [sys.executable, "repro.min.py"], ""
    b = get(backend)
    if not b.available(device):
        return None, f"the {backend} backend cannot run on {device} here: {b.unavailable_reason(device)}"
    return [sys.executable, "-m", "minimizer.backends.launch", backend, device, "repro.min.py",
            *stated_inductor_config(text)], ""


def run(text: str, *, backend: str, device: str, timeout: float) -> dict:
    """Run the attachment (see the module docstring). Returns ``ran`` and, when it ran,
    ``exit_code``, ``timed_out``, ``seconds``, ``stdout``/``stderr`` (their tails), the
    ``environment`` it was given (stated) and the names ``passed`` through."""
    at = time.strftime("%Y-%m-%dT%H:%M:%S")
    argv, why = command(text, backend, device)
    if argv is None:
        return {"ran": False, "why": why, "at": at}
    stated = stated_environment(text)
    env = {k: os.environ[k] for k in PASSED if k in os.environ}
    if backend != "nvfuser":   # the launcher is fmin's: this fmin, whatever the script's directory
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.update(stated)
    scratch = tempfile.mkdtemp(prefix="fmin-standalone-")
    try:
        with open(os.path.join(scratch, "repro.min.py"), "w", encoding="utf-8") as f:
            f.write(text)
        t0 = time.monotonic()
        p = subprocess.Popen(argv, cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            out, err = p.communicate(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            timed_out = True
        seconds = time.monotonic() - t0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {"ran": True, "command": " ".join(["python", *argv[1:]]), "exit_code": p.returncode,
            "timed_out": timed_out, "seconds": round(seconds, 1), "stdout": out.decode(errors="replace"),
            "stderr": err.decode(errors="replace"), "environment": stated, "passed": sorted(set(env) - set(stated)),
            "at": at}


def last_exception(stderr: str) -> tuple[str, str] | None:
    """(type name, message) of the exception a Python traceback on ``stderr`` ends with."""
    lines = stderr.splitlines()
    starts = [k for k, line in enumerate(lines) if line.startswith("Traceback (most recent call last):")]
    if not starts:
        return None
    k = starts[-1] + 1
    while k < len(lines) and (lines[k].startswith(" ") or not lines[k].strip()):
        k += 1
    if k >= len(lines):
        return None
    m = re.match(r"^([A-Za-z_][\w.]*)(?::\s?(.*))?$", lines[k])
    if not m:
        return None
    return m.group(1).rsplit(".", 1)[-1], "\n".join([m.group(2) or "", *lines[k + 1:]]).strip()


def outcome(backend: str, r: dict) -> Outcome:
    """What the run showed, as an ``Outcome`` (status, signature, message, segmentation)."""
    if r["timed_out"]:
        return Outcome("timeout", backend, signature="timeout", message=f"no end within {r['seconds']} s")
    if backend != "nvfuser":
        import json
        line = next((ln for ln in reversed(r["stdout"].splitlines()) if ln.startswith("fmin-launch: ")), None)
        if line is None:
            return _crash_or_error(backend, r)
        d = json.loads(line.split(": ", 1)[1])
        return Outcome(d["status"], backend, signature=d.get("signature"), message=d.get("message"),
                       segments=d.get("segments"), schedulers=d.get("schedulers"), where=d.get("where"))
    if r["exit_code"] == 0:
        d: dict = {}
        get("nvfuser").analyze_log(d, r["stdout"])
        return Outcome("ok", backend, segments=d.get("segments"), schedulers=d.get("schedulers"))
    return _crash_or_error(backend, r)


def _crash_or_error(backend: str, r: dict) -> Outcome:
    from ..oracle.pool import _signal_name
    code = r["exit_code"]
    if code is not None and code < 0:
        sig = _signal_name(code)
        return Outcome("crash", backend, signature=f"crash: {sig}", message=f"the process died ({sig})")
    exc = last_exception(r["stderr"])
    if exc is None:
        return Outcome("error", backend, signature=f"exit code {code}", message=r["stderr"][-TAIL:])
    name, message = exc
    base = getattr(builtins, name, None)
    base = base if isinstance(base, type) and issubclass(base, BaseException) else Exception
    err = type(name, (base,), {"__str__": lambda self: message})()
    if backend == "nvfuser" and not _WRONG.match(f"{name}: {message}"):
        from ..backends.nvfuser import classify
        sig = classify(err)["signature"]
    else:
        from ..backends.runner import generic_classify
        sig = generic_classify(err)["signature"]
    return Outcome("error", backend, signature=sig, message=f"{name}: {message}")


def judge(expect: dict, o: Outcome) -> tuple[bool, str]:
    """Did the run show what the attachment must show? (reproduced, in words)"""
    kind = expect.get("kind")
    if kind == "failure":
        ok, why = Failure(expect.get("status"), expect.get("signature")).holds(o)
        return ok, why
    if kind == "mismatch":
        m = _WRONG.match(o.message or "") if o.status == "error" else None
        if m and m.group(1) in (expect.get("differs"), "count"):
            return True, (o.message or "").splitlines()[0][:300]
        if m:
            return False, f"a wrong result in {m.group(1)}, not in {expect.get('differs')}"
        return False, f"{outcome_words(o)} instead of the check's AssertionError"
    if kind == "outcome":
        want = Outcome(expect.get("status"), o.backend, signature=expect.get("signature"),
                       segments=expect.get("segments"), schedulers=expect.get("schedulers"))
        if (outcome_key(o) == outcome_key(want) if want.ok else
                (o.status, o.signature) == (want.status, want.signature)):   # an error: the same error
            return True, outcome_words(o)
        if o.ok and o.segments is None and want.ok:
            return False, "it ran, but printed no segmentation to compare (the header states no NVFUSER_DUMP)"
        return False, f"{outcome_words(o)} instead of {outcome_words(want)}"
    return False, "the attachment shows nothing fmin can check"


def standalone(text: str, expect: dict, *, backend: str, device: str, timeout: float) -> dict:
    """The record ``finding.json`` keeps: the run (``run``) and whether it reproduced (``judge``),
    with the tail of its output."""
    r = run(text, backend=backend, device=device, timeout=timeout)
    if not r["ran"]:
        return {"ran": False, "reproduced": None, "why": r["why"], "at": r["at"]}
    o = outcome(backend, r)
    ok, why = judge(expect, o)
    tail = (r["stderr"].strip() or r["stdout"].strip())[-TAIL:]
    shows = (o.message or "").strip().splitlines()[0][:300] if o.status == "error" and o.message else outcome_words(o)
    return {"ran": True, "reproduced": ok, "why": why, "command": r["command"], "exit_code": r["exit_code"],
            "timed_out": r["timed_out"], "seconds": r["seconds"], "shows": shows, "tail": tail,
            "environment": r["environment"], "passed": r["passed"], "at": r["at"]}
