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
    ``$FMIN_SCRIPT``); a command that does not mention ``$1`` gets the path appended
    (``python pred.py`` runs ``python pred.py /tmp/.../repro.py``). ``$FMIN_CWD`` is where fmin
    was started; a relative command path such as ``./interesting.sh`` is resolved from there."""
    name: ClassVar[str] = "test"
    order: ClassVar[int] = 45
    cost: ClassVar[int] = 2
    needs_outcome: ClassVar[bool] = False
    command: str
    timeout: float = 300.0

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--test", metavar="CMD", help="shell command, the script's copy as $1 (run in its directory, "
                                                     "C-Reduce style; a CMD that does not mention $1 gets the path "
                                                     "appended); exit 0 = holds")
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

    def detail(self, evidence) -> str:
        """The tail of what the command printed (stdout and stderr): shown when the original does
        not pass the test, so a test that is wrong (a typo, a missing file) says why."""
        if not isinstance(evidence, ShellResult):
            return ""
        lines = [ln for ln in evidence.output.splitlines() if ln.strip()]
        return "\n".join(lines[-15:])

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
        argv = shell_argv(cmd, copy, shell)
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


#: a command that names the candidate itself: ``$1``, ``${1}``, ``"$1"``, ``$@``, ``$*``, or
#: ``$FMIN_SCRIPT``
_MENTIONS_CANDIDATE = re.compile(r"\$(?:1(?!\d)|\{1\}|@|\*|\{@\}|\{\*\}|FMIN_SCRIPT\b|\{FMIN_SCRIPT\})")


def mentions_candidate(command: str) -> bool:
    return bool(_MENTIONS_CANDIDATE.search(command))


def shell_argv(command: str, candidate: str, shell: str = "/bin/sh") -> list[str]:
    """How ``command`` runs on ``candidate``. A shell snippet gets the candidate as ``$1``; one
    that never mentions it (``python pred.py``, ``./interesting.sh``) gets its path appended as
    its last argument, as C-Reduce, picire and Shrink Ray do. ``"$1"`` appended inside the shell
    keeps any path quoted; appended to the last simple command of a pipeline or list."""
    words = shlex.split(command) if command.strip() else []
    if len(words) == 1 and os.access(words[0], os.X_OK):
        return [words[0], candidate]   # a test script, picire-style: the candidate's path is its $1
    if not mentions_candidate(command):
        command = command.rstrip().rstrip(";").rstrip() + ' "$1"'
    return [shell, "-c", command, "fmin-test", candidate]


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
