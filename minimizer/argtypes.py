"""Argument types for command-line flags that are numbers with a floor (``--jobs``, ``--max-ops``,
``--repeats``, timeouts): argparse then answers a bad value with the flag's name and exit 2."""
from __future__ import annotations

import argparse
import json


def number(kind, low: float, inclusive: bool = True, what: str = "a number"):
    """An argparse type: ``kind`` (int or float) at least ``low`` (above it if not inclusive)."""
    def parse(text: str):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {'a whole number' if kind is int else what}, "
                                             f"got {text!r}") from None
        if v < low or (v == low and not inclusive):
            raise argparse.ArgumentTypeError(f"expected a number {'>=' if inclusive else '>'} {low:g}, got {text!r}")
        return v
    return parse


POSITIVE_INT = number(int, 1)
NON_NEGATIVE_INT = number(int, 0)
POSITIVE_SECONDS = number(float, 0, inclusive=False)


def key_values(items) -> dict:
    """``KEY=VALUE`` items (``--inductor-config``, the ``# inductor config:`` line of a repro's
    header) as a dict, each VALUE read as JSON, else kept as a string. Raises ValueError naming a
    malformed item."""
    out = {}
    for item in items:
        key, eq, value = str(item).partition("=")
        if not eq or not key.strip():
            raise ValueError(f"expected KEY=VALUE, got {item!r}")
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
    return out
