"""Argument types for command-line flags that are numbers with a floor (``--jobs``, ``--max-ops``,
``--repeats``, timeouts): argparse then answers a bad value with the flag's name and exit 2."""
from __future__ import annotations

import argparse


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
