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
    was started; a relative path in the command that names a file there (``bash pred.sh``,
    ``./interesting.sh``, ``python tools/pred.py``) is resolved from there, as C-Reduce resolves
    its test's path (``_absolute_command``)."""
    name: ClassVar[str] = "test"
    order: ClassVar[int] = 45
    cost: ClassVar[int] = 2
    needs_outcome: ClassVar[bool] = False
    #: a black box: a zero-size output or a 0-d tensor may make the user's comparison pass (or
    #: crash) for another reason than the one the test was written for
    guards_degenerate: ClassVar[bool] = True
    command: str
    timeout: float = 300.0

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--test", metavar="CMD", help="shell command, the script's copy as $1 (run in its directory, "
                                                     "C-Reduce style; relative paths to files are resolved from where "
                                                     "fmin was started; a CMD that does not mention $1 gets the path "
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


#: characters that end a word in a shell command; of those, the ones that start a new command
_WORD_END = " \t\n;&|()<>"
_NEW_COMMAND = ";&|()"


def _words(command: str):
    """(start, end, text, role) of each word of a shell command, quotes kept in ``text``; role:
    ``command`` (a command's position), ``output`` (after ``>``) or ``argument``. Enough of the
    shell's grammar to find the words that may name files."""
    i, n, role = 0, len(command), "command"
    while i < n:
        ch = command[i]
        if ch in _WORD_END:
            role = "command" if ch in _NEW_COMMAND else "output" if ch == ">" else role
            i += 1
            continue
        j = i
        while j < n and command[j] not in _WORD_END:
            if command[j] in "'\"":
                k = command.find(command[j], j + 1)
                j = n if k < 0 else k + 1
            else:
                j += 2 if command[j] == "\\" else 1
        word = command[i:j]
        yield i, min(j, n), word, role
        if not (role == "command" and re.fullmatch(r"[A-Za-z_]\w*=\S*", word)):   # ``X=1 cmd``: still to come
            role = "argument"
        i = j


def _absolute_command(command: str, cwd: str, tmp: str) -> str:
    """The command with every relative path that names a file under the starting directory made
    absolute, as C-Reduce resolves its test's path: ``bash pred.sh`` -> ``bash /abs/pred.sh``,
    ``./interesting.sh`` -> ``/abs/interesting.sh`` (the command runs in the candidate's
    directory, where they are not). Left as written: words the shell expands (``$``, globs), option
    words, a bare command name (looked up in PATH), and names that exist in the candidate's
    directory (the candidate's own basename, ``.``), and where output goes (``> out.log``: a file
    of the candidate's directory, as in C-Reduce, never one of the user's)."""
    out, last = [], 0
    for start, end, word, role in _words(command):
        if role == "output" or any(c in word for c in "$`*?[~") or word.startswith(("-", "/")):
            continue
        try:
            tokens = shlex.split(word)
        except ValueError:
            continue
        if len(tokens) != 1 or "=" in tokens[0] or (role == "command" and "/" not in tokens[0]):
            continue
        tok = tokens[0]
        if os.path.lexists(os.path.join(tmp, tok)) or not os.path.exists(os.path.join(cwd, tok)):
            continue
        out += [command[last:start], shlex.quote(os.path.abspath(os.path.join(cwd, tok)))]
        last = end
    return "".join(out) + command[last:]
