"""The reduction passes, coarse to fine. ``PASSES`` is the order the driver runs them in."""
from .base import Pass, chunks
from .outputs import DropOutputs

PASSES: list[Pass] = [DropOutputs()]

__all__ = ["PASSES", "Pass", "chunks"]
