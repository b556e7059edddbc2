"""Failure signatures that stay the same across rebuilds and runs: the exception type and its
first line with numbers, addresses, tensor names and paths masked."""
from __future__ import annotations

import re

_MASKS = [
    (re.compile(r"0x[0-9a-fA-F]+"), "0x?"),
    (re.compile(r"(?<![A-Za-z_])(T|tv|S|c|V|iS|bS|rS|i)\d+\b"), r"\1?"),
    (re.compile(r"(/[\w.+-]+)+/"), ""),
    (re.compile(r"(?<![A-Za-z_\d])-?\d+(\.\d+)?(e[-+]?\d+)?"), "N"),
]


def mask(text: str) -> str:
    for rx, rep in _MASKS:
        text = rx.sub(rep, text)
    return re.sub(r"\s+", " ", text).strip()


def first_line(text: str) -> str:
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def generic_signature(exc_type: str, message: str) -> str:
    return f"{exc_type}: {mask(first_line(message))[:200]}"
