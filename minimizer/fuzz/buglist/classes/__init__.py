"""The class of a bucket: which section of the bug list it belongs to, one module per class.

A maintainer reads *Bugs* first and trusts it, so only what is a bug of the compiler as users run
it goes there: an internal assert, a crash or a wrong result of a **valid** program. Everything
else fmin finds is kept, in a section of its own: *missing checks* (``missing_check``: the
program breaks a validity rule and the compiler accepted it), *segmentation* differences,
*by design* (what nvFuser refuses on purpose, expected splits, documented differences), failures
of the *debug dumps*, *fmin's own* and the *stale* buckets; each module says what its class takes.

``decide`` asks the classes' claims in their precedence (``base``): stale; owned by fmin; a
broken validity rule (by design where nvFuser enforces the rule itself, else a missing check);
a program fmin's static check refuses today; a refusal while the fusion is defined or a GPU too
old; the debug dump; a segmentation difference (by design where expected); a documented
difference; else a bug. It reads only what a bucket stores, so ``merge-findings`` reclassifies a
corpus offline. Adding a class is adding a module here (or a plugin, ``FMIN_PLUGINS``): the page
(``page.render``) shows a section for every registered class.
"""
from __future__ import annotations

from ..evidence import (SEGMENTATION_KINDS, Context, Decision, changed_kinds, default_violations, depends_on_values,
                        invalid, is_segmentation, newer_gpu, refusal, refused_by, static_rejection, value_rules)
from .base import BugClass, decide, names, on_page, register, registered


def __getattr__(name: str):
    """``CLASSES``: the registered classes' names in order, read when asked (a plugin's class too)."""
    if name == "CLASSES":
        return names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CLASSES", "BugClass", "Context", "Decision", "decide", "names", "on_page", "register", "registered",
           "refusal", "newer_gpu", "static_rejection", "invalid", "depends_on_values", "value_rules", "refused_by",
           "is_segmentation", "changed_kinds", "default_violations", "SEGMENTATION_KINDS"]
