"""``--test CMD``: the user's shell command exits 0 (C-Reduce's interestingness test)."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import ClassVar

from .base import Check, Trial, register


@dataclass
class ShellResult:
    returncode: int | None      # None when it timed out
    output: str                 # tail of stdout+stderr
    seconds: float


@register
@dataclass(frozen=True)
class ShellTest(Check):
    """The user's command exits 0. C-Reduce-compatible: it runs in a fresh directory holding a
    copy of the candidate under the original's basename, with that copy's path as ``$1`` (also
    ``$FMIN_SCRIPT``). ``$FMIN_CWD`` is where fmin was started; a relative command path such as
    ``./interesting.sh`` is resolved from there."""
    name: ClassVar[str] = "test"
    order: ClassVar[int] = 45
    cost: ClassVar[int] = 2
    needs_outcome: ClassVar[bool] = False
    command: str
    timeout: float = 300.0

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--test", metavar="CMD", help="shell command, the script's copy as $1 (run in its directory, "
                                                     "C-Reduce style); exit 0 = holds")
        g.add_argument("--test-timeout", metavar="S", type=float, default=None,
                       help="seconds --test may take (default: --timeout)")

    @classmethod
    def from_args(cls, args):
        if getattr(args, "test", None) is None:
            return None
        return cls(args.test, args.test_timeout or getattr(args, "timeout", 300.0))

    def gather(self, trial: Trial):
        return run_shell_test(self.command, trial.text, trial.path, self.timeout)

    def evidence_json(self, evidence):
        return None

    def holds(self, o, evidence=None):
        r = evidence
        if not isinstance(r, ShellResult):
            return False, "the command was not run"
        if r.returncode is None:
            return False, f"`{self.command}` timed out after {self.timeout:g} s"
        if r.returncode == 0:
            return True, f"`{self.command}` exited 0"
        last = next((ln for ln in reversed(r.output.splitlines()) if ln.strip()), "")
        return False, f"`{self.command}` exited {r.returncode}" + (f": {last.strip()[:200]}" if last else "")

    def describe(self):
        return f"`{self.command}` exits 0"


def run_shell_test(command: str, script_text: str, path: str, timeout: float = 300.0) -> ShellResult:
    """Run ``command`` as C-Reduce runs an interestingness test (see ``ShellTest``)."""
    base = os.path.basename(path) if path and not path.startswith("<") else "repro.py"
    cwd = os.getcwd()
    shell = shutil.which("bash") or "/bin/sh"
    with tempfile.TemporaryDirectory(prefix="fmin-test-") as d, tempfile.TemporaryFile() as log:
        copy = os.path.join(d, base)
        with open(copy, "w", encoding="utf-8") as f:
            f.write(script_text)
        cmd = _absolute_command(command, cwd, d)
        env = {**os.environ, "FMIN_SCRIPT": copy, "FMIN_CWD": cwd,
               "FMIN_ORIGINAL": os.path.abspath(path) if path and not path.startswith("<") else ""}
        t0 = time.perf_counter()
        words = shlex.split(cmd)
        if len(words) == 1 and os.access(words[0], os.X_OK):
            argv = [words[0], copy]   # a test script, picire-style: the candidate's path is its $1
        else:
            argv = [shell, "-c", cmd, "fmin-test", copy]   # a shell snippet: "$1" is the candidate
        p = subprocess.Popen(argv, cwd=d, env=env, stdin=subprocess.DEVNULL,
                             stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            rc = None
        finally:
            try:   # the command's whole process group: nothing it started outlives the test
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            p.wait()
        secs = time.perf_counter() - t0
        log.seek(0, 2)
        log.seek(max(0, log.tell() - 8000))
        return ShellResult(rc, log.read().decode(errors="replace"), secs)


def _absolute_command(command: str, cwd: str, tmp: str) -> str:
    """``./interesting.sh args`` -> ``/abs/interesting.sh args`` when it names a file under the
    starting directory (the command runs elsewhere); anything else is left as written."""
    m = re.match(r"\s*([^\s;&|<>()'\"$`]+)", command)
    if not m:
        return command
    tok = m.group(1)
    if "/" not in tok or tok.startswith(("/", "~")):
        return command
    if os.path.exists(os.path.join(tmp, tok)) or not os.path.exists(os.path.join(cwd, tok)):
        return command
    return command[:m.start(1)] + shlex.quote(os.path.abspath(os.path.join(cwd, tok))) + command[m.end(1):]
