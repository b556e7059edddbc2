"""What an ``fmin`` command line asks for, read before its argument parser is built.

Building a command's options asks the backend, property and oracle registries, which import
torch: seconds on a loaded machine. Two mistakes of a user's first day must not wait for that:
a script path that does not exist (a typo) is reported at once, with the name as typed; and the
command word ``reduce`` may be left out wherever the options go — ``fmin -q repro.py`` is
``fmin repro.py -q`` is ``fmin reduce repro.py -q``. A word that is neither a file nor a command
(``fmin fuz``) is answered with the command it resembles.
"""
from __future__ import annotations

import difflib
import os

from .errors import UsageError

#: options the top-level parser answers itself (no command)
TOP_LEVEL = ("-h", "--help", "-V", "--version")
#: the commands whose scripts are checked here, and how many positional scripts each takes;
#: ``check`` is not among them: a script it cannot read is a row of its own (``check --json``)
SCRIPTS_OF = {"reduce": 1, "isolate": 2, "upgrade": 1}
#: the options of those commands that take no value, so that the word after one is a script;
#: every other option takes the next word as its value (an optional value too, as argparse
#: reads ``--boundary repro.py``). tests/test_cli_traps.py keeps this equal to the parsers'.
NO_VALUE = frozenset({"-h", "--help", "-q", "--quiet", "--allow-degenerate", "--keep-frontend", "--no-resume",
                      "--connected", "--layout-dependent", "--mismatch", "--order-dependent"})


def routed(argv: list[str], commands: tuple[str, ...]) -> list[str]:
    """``argv`` with the command word the user left out: anything that does not start with a
    command or a top-level option is a reduction (``fmin repro.py``, ``fmin -q repro.py``)."""
    if not argv or argv[0] in commands or argv[0] in TOP_LEVEL:
        return list(argv)
    return ["reduce", *argv]


def positionals(words: list[str]) -> list[str]:
    """The positional words of a command's arguments (after the command word): neither an option
    nor the value of one (``--out DIR``); everything after ``--``."""
    out, skip = [], False
    for n, w in enumerate(words):
        if skip:
            skip = False
        elif w == "--":
            return out + words[n + 1:]
        elif w.startswith("-") and w != "-":
            skip = "=" not in w and w not in NO_VALUE
        else:
            out.append(w)
    return out


def check_scripts(argv: list[str], typed: list[str], commands: tuple[str, ...]) -> None:
    """A script of ``argv`` (already ``routed``) that does not exist: a ``UsageError`` naming it,
    raised before any parser is built. ``typed``: the command line as the user typed it (whether
    the command word was left out changes what a missing name most likely was)."""
    if not argv or argv[0] not in SCRIPTS_OF or any(w in ("-h", "--help") for w in argv[1:]):
        return
    implied = not typed or typed[0] != argv[0]
    for n, path in enumerate(positionals(argv[1:])[:SCRIPTS_OF[argv[0]]]):
        if not os.path.exists(path):
            raise UsageError(missing_words(path, commands) if implied and n == 0 else f"{path}: no such file")


def missing_words(word: str, commands: tuple[str, ...]) -> str:
    """What to say of the first word of ``fmin WORD ...`` when no file ``WORD`` exists: a command
    typed after options (they go after it), a command's misspelling, or a missing script."""
    names = ", ".join(commands)
    if word in commands:
        return f"{word}: options go after the command word: fmin {word} [OPTIONS]"
    close = difflib.get_close_matches(word, commands, n=1)
    if close:
        return f"{word}: no such file or command; did you mean `fmin {close[0]}`? (commands: {names})"
    if not word.endswith(".py"):
        return f"{word}: no such file or command (commands: {names}; `fmin SCRIPT` reduces SCRIPT)"
    return f"{word}: no such file"


__all__ = ["TOP_LEVEL", "SCRIPTS_OF", "NO_VALUE", "routed", "positionals", "check_scripts", "missing_words"]
