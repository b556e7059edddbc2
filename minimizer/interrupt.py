"""Ctrl-C (and SIGTERM) that cannot be lost.

Python turns SIGINT into a ``KeyboardInterrupt`` raised in whatever Python code the main thread
runs next — which may be a garbage-collector callback (Hypothesis registers one to time its
tests), a ``__del__`` or a weakref callback. An exception raised there is not propagated: Python
prints "Exception ignored in: ..." and goes on, and a campaign then runs to its end as if the
user had never pressed Ctrl-C. So the handler here also records the signal, and the loops of a
long command call ``check`` at points where raising is safe: a swallowed interrupt surfaces
there, one program or one bucket later.

SIGTERM (``timeout``, a CI job's cancel, a batch scheduler) is handled as Ctrl-C is, so a
campaign writes its summary and bug list and a reduction its best so far instead of the process
vanishing with nothing written.
"""
from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager

_PENDING = threading.Event()
#: how many interrupts Python swallowed (reported to ``sys.unraisablehook``) for ``check`` to raise again
swallowed = [0]


def _handler(signum, frame):
    _PENDING.set()
    raise KeyboardInterrupt


@contextmanager
def handled():
    """SIGINT and SIGTERM handled as above while the block runs, where this is the main thread and
    the signal has Python's default handling (a host that set its own handler keeps it)."""
    saved = {}
    if threading.current_thread() is threading.main_thread():
        for sig, default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL)):
            if signal.getsignal(sig) is default:
                saved[sig] = signal.signal(sig, _handler)
    hook = sys.unraisablehook
    if saved:
        sys.unraisablehook = _quiet(hook)
    _PENDING.clear()
    try:
        yield
    finally:
        for sig, old in saved.items():
            signal.signal(sig, old)
        sys.unraisablehook = hook
        _PENDING.clear()


def _quiet(hook):
    """``sys.unraisablehook`` that says nothing of a swallowed interrupt (``check`` raises it
    again: "Exception ignored ... KeyboardInterrupt" would only alarm), every other to ``hook``."""
    def unraisable(info):
        if isinstance(info.exc_value, KeyboardInterrupt) and _PENDING.is_set():
            swallowed[0] += 1
            return
        hook(info)
    return unraisable


def check() -> None:
    """A safe point: raise the ``KeyboardInterrupt`` of a signal received since the last one was
    handled (``clear``), in case its own raise was swallowed. It stays pending until then: a
    reduction that a campaign runs in a thread stops at its own check, and the campaign still
    stops at its next one."""
    if _PENDING.is_set():
        raise KeyboardInterrupt


def clear() -> None:
    """The interrupt has been handled (its ``KeyboardInterrupt`` caught): ``check`` raises no more."""
    _PENDING.clear()
