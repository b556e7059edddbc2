"""Does a bucket's attachment show its finding when it is run the way a maintainer runs it?

**The run.** The attachment's text is written, alone, into a fresh scratch directory as
``repro.min.py`` and run there in a fresh process with a timeout, its process group killed past
it, the backend's way (``Backend.standalone_command``): ``python repro.min.py`` for an nvFuser
finding; ``python -m minimizer.backends.launch BACKEND DEVICE repro.min.py`` with the header's
Inductor config for a backend fmin stands in front of (its script imports ``nvfuser_direct``,
behind which fmin's own FusionDefinition compiles with Inductor: the run a worker makes, once,
in a fresh process, with the script's own output check active). The environment is the minimal
one a machine needs to import torch and nvFuser (``PASSED``: the paths, the CUDA and library
variables — ``LD_PRELOAD`` where it carries an ABI shim —, nothing of fmin's and no
``NVFUSER_*``/``TORCH*`` setting): the attachment sets the options it needs itself, as a
maintainer's copy must. On a machine that cannot run the script (no nvFuser, no GPU) nothing
runs, and the record says so (``ran: false`` and why).

**Debug output is not the user's path.** fmin's own runs have the backend's dumps on
(``Facts.debug_env``: ``NVFUSER_DUMP``); the standalone run has not. An attachment that does
not reproduce without them is run once more with them: one that fails then is recorded
``dump_only`` (a failure of the dump code, which the bug list keeps apart from the bugs).

**Reproduces** means it fails the way the bucket says (``Attachment.expect``): a failure, with
the same status and root cause (``oracle.rootcause``: the site and the message's template, so an
assert that names other IR names for the minimized program is the same bug); a wrong result,
with the attachment's ``AssertionError: wrong result (KIND)`` for the bucket's kind of
difference; a segmentation finding, with the script's ``AssertionError`` that the two splits
differ; an order- or layout-dependent finding filed as one variant, with that variant's outcome
(its error, or the segmentation the launcher reports).
"""
from __future__ import annotations

import builtins
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from ...backends.base import SPLITS_DIFFER, get
from ...backends.signature import generic_classify
from ...oracle.outcome import Outcome, outcome_key, outcome_words
from ...oracle.rootcause import rootcause

#: what the run inherits from fmin's environment, where set: enough to find Python, torch, CUDA
#: and nvFuser's libraries, nothing that changes what they do
PASSED = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "CUDA_HOME",
          "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "VIRTUAL_ENV", "CONDA_PREFIX")
TAIL = 2000
_WRONG = re.compile(r"^AssertionError: wrong result \((\w+)\)")
#: what a segmentation attachment raises when its two versions split differently
SPLITS = SPLITS_DIFFER


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


def command(text: str, backend: str, device: str) -> tuple[list[str] | None, str]:
    """(argv, "") to run the attachment as ``repro.min.py`` in the scratch directory, or (None,
    why it cannot run on this machine): the backend's way (``Backend.standalone_command``)."""
    return get(backend).standalone_command(text, device, stated_inductor_config(text))


def environment(text: str, backend: str, *, debug: bool = False) -> dict[str, str]:
    """What the run is given: the names of ``PASSED`` that are set here (nothing that changes
    what torch or the backend does: the attachment sets the options it needs itself), this fmin
    on ``PYTHONPATH`` where the run goes through fmin's launcher, and with ``debug`` the header's
    debug-only variables (``Facts.debug_env``: nvFuser's dumps), which a user never has."""
    env = {k: os.environ[k] for k in PASSED if k in os.environ}
    if get(backend).facts.standalone_needs_fmin:   # the launcher is fmin's: this fmin, whatever the script's directory
        import minimizer   # the package's own path: right wherever this module lies inside it
        root = os.path.dirname(os.path.dirname(os.path.abspath(minimizer.__file__)))
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if debug:
        env.update({k: v for k, v in stated_environment(text).items() if k in get(backend).facts.debug_env})
    return env


def run(text: str, *, backend: str, device: str, timeout: float, debug: bool = False) -> dict:
    """Run the attachment (see the module docstring). Returns ``ran`` and, when it ran,
    ``exit_code``, ``timed_out``, ``seconds``, ``stdout``/``stderr`` (their tails), the
    ``environment`` it was given beyond ``PASSED`` and the names ``passed`` through."""
    at = time.strftime("%Y-%m-%dT%H:%M:%S")
    argv, why = command(text, backend, device)
    if argv is None:
        return {"ran": False, "why": why, "at": at}
    env = environment(text, backend, debug=debug)
    stated = {k: v for k, v in env.items() if k not in PASSED}
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
            "stderr": err.decode(errors="replace"), "environment": stated,
            "passed": sorted(set(env) - set(stated)), "at": at}


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
    """What the run showed, as an ``Outcome`` (status, signature, message, segmentation): what
    its output states (``Backend.standalone_outcome``), else its traceback."""
    if r["timed_out"]:
        return Outcome("timeout", backend, signature="timeout", message=f"no end within {r['seconds']} s")
    d = get(backend).standalone_outcome(r["stdout"], r["exit_code"])
    if d is None:
        return _crash_or_error(backend, r)
    return Outcome(d["status"], backend, signature=d.get("signature"), message=d.get("message"),
                   segments=d.get("segments"), schedulers=d.get("schedulers"), where=d.get("where"))


def _crash_or_error(backend: str, r: dict) -> Outcome:
    from ...oracle.pool import _signal_name
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
    # the attachment's own check is fmin's text, not the backend's error
    sig = (generic_classify(err) if _WRONG.match(f"{name}: {message}") else get(backend).classify_error(err))["signature"]
    return Outcome("error", backend, signature=sig, message=f"{name}: {message}")


def expected_key(expect: dict, backend: str) -> str | None:
    """The root cause the attachment must show (``oracle.rootcause``): the one its expectation
    records, else the one of its recorded signature (an attachment filed before keys were kept)."""
    return expect.get("key") or rootcause({"status": expect.get("status"), "signature": expect.get("signature"),
                                           "backend": backend})


def _same_failure(expect: dict, o: Outcome) -> bool:
    """The status and the root cause (not the whole message: one assert prints other IR names
    for another program, ``bS?{N}`` and ``bS?{N ex N}``)."""
    return o.status == expect.get("status") and rootcause(o) == expected_key(expect, o.backend)


def reproduces(expect: dict, o: Outcome) -> tuple[bool, str]:
    """Did the run show what the attachment must show? (reproduced, in words)"""
    kind = expect.get("kind")
    if kind == "failure":
        if _same_failure(expect, o):
            return True, f"{o.status} `{o.signature}`"
        return False, f"{outcome_words(o)}, expected {expect.get('status')} `{expected_key(expect, o.backend)}`"
    if kind == "mismatch":
        m = _WRONG.match(o.message or "") if o.status == "error" else None
        if m and m.group(1) in (expect.get("differs"), "count"):
            return True, (o.message or "").splitlines()[0][:300]
        if m:
            return False, f"a wrong result in {m.group(1)}, not in {expect.get('differs')}"
        return False, f"{outcome_words(o)} instead of the check's AssertionError"
    if kind == "segmentation":   # the script compares the two splits itself
        if o.status == "error" and (o.message or "").startswith(f"AssertionError: {SPLITS}"):
            return True, (o.message or "").splitlines()[0][:300]
        return False, f"{outcome_words(o)} instead of the script's AssertionError ({SPLITS})"
    if kind == "outcome":
        want = Outcome(expect.get("status"), o.backend, signature=expect.get("signature"),
                       segments=expect.get("segments"), schedulers=expect.get("schedulers"))
        if outcome_key(o) == outcome_key(want) if want.ok else _same_failure(expect, o):
            return True, outcome_words(o)
        if o.ok and o.segments is None and want.ok:
            return False, "it ran, but printed no segmentation to compare"
        return False, f"{outcome_words(o)} instead of {outcome_words(want)}"
    return False, "the attachment shows nothing fmin can check"


def standalone(text: str, expect: dict, *, backend: str, device: str, timeout: float) -> dict:
    """The record ``finding.json`` keeps: the run (``run``: no debug variable set) and whether it
    reproduced (``reproduces``), with the tail of its output. One that does not is run once more with
    the header's debug variables (nvFuser's dumps, which fmin's own runs have on): if it shows the
    finding then, ``dump_only`` records that the failure is the debug output's own, never met by a
    user — not a bug of the compiler as users run it."""
    rec = _record(text, expect, backend=backend, device=device, timeout=timeout)
    if rec["ran"] and not rec["reproduced"] and any(k in get(backend).facts.debug_env for k in stated_environment(text)):
        again = _record(text, expect, backend=backend, device=device, timeout=timeout, debug=True)
        if again["ran"] and again["reproduced"]:
            rec["dump_only"] = True
            rec["why"] += f"; with {' '.join(f'{k}={v}' for k, v in again['environment'].items())} it does: " \
                          + again["why"]
    return rec


def _record(text: str, expect: dict, *, backend: str, device: str, timeout: float, debug: bool = False) -> dict:
    r = run(text, backend=backend, device=device, timeout=timeout, debug=debug)
    if not r["ran"]:
        return {"ran": False, "reproduced": None, "why": r["why"], "at": r["at"]}
    o = outcome(backend, r)
    ok, why = reproduces(expect, o)
    tail = local_paths((r["stderr"].strip() or r["stdout"].strip())[-TAIL:])
    shows = (o.message or "").strip().splitlines()[0][:300] if o.status == "error" and o.message else outcome_words(o)
    return {"ran": True, "reproduced": ok, "why": local_paths(why), "command": r["command"],
            "exit_code": r["exit_code"], "timed_out": r["timed_out"], "seconds": r["seconds"],
            "shows": local_paths(shows), "tail": tail, "environment": r["environment"], "passed": r["passed"],
            "at": r["at"]}


_ABS_PATH = re.compile(r"(?<![\w.:/])/(?:[\w.+-]+/)+(?=[\w.+-])")


def local_paths(text: str) -> str:
    """``text`` without the directories of absolute paths (``/tmp/nvfuser-210/nvfuser_direct/x.so``
    -> ``x.so``): a record read on another machine names no directory of this one."""
    return _ABS_PATH.sub("", text)
