"""The scripts a command reads and the paths it writes, checked before anything runs.

A script fmin cannot read stops the command with ``file:line:col: what was expected`` (exit 2)
before a worker starts, and an output a command could not write is refused up front: one that
found out after its runs would lose them.
"""
from __future__ import annotations

import os

from ..errors import UsageError


def read_script(path: str):
    """The program of the script at ``path``; a missing file is a ``UsageError``, one fmin cannot
    read a ``ScriptError`` (both exit 2)."""
    from ..program import parse_file
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    return parse_file(path)


def require_out_dir(path: str, flag: str) -> None:
    """``path`` must be usable as the output directory of ``flag``: checked before anything runs
    (a command that finds out after its runs loses them)."""
    from ..outdir import check_out_dir
    try:
        check_out_dir(path, flag)
    except ValueError as e:
        raise UsageError(str(e)) from None


def require_out_file(path: str | None, flag: str) -> None:
    """``path`` (when given) must be writable as the file of ``flag``: checked before anything runs."""
    from ..outdir import check_out_file
    if path is None:
        return
    try:
        check_out_file(path, flag)
    except ValueError as e:
        raise UsageError(str(e)) from None
