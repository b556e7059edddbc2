"""Errors that reach the user as ``file:line:col: message`` and exit code 2, never a traceback."""
from __future__ import annotations


class ScriptError(Exception):
    """A script fmin cannot read, or an argument it cannot act on, with where and what was expected."""

    def __init__(self, message: str, path: str = "<script>", line: int = 1, col: int = 1):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.col = col

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


class UsageError(Exception):
    """A command line fmin cannot act on (exit 2)."""
