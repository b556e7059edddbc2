"""Backends, checks, validity rules and bug-list classes from outside the package:
``FMIN_PLUGINS=module[,module...]``.

Each entry is a module name importable from ``sys.path`` (``PYTHONPATH``), or the path of a
``.py`` file. The registries (``backends.base``, ``oracle.checks.base``,
``program.validity.base`` and ``fuzz.buglist.classes.base``) import them after their own
package's modules, so a plugin's ``@register`` classes are known wherever a registry is asked:
in the fmin process (``--backend``, the property flags, ``--help``) and in every worker process, which inherits
fmin's environment (a worker finds its backend by name in the same registry, the reference's
``ValueWatch`` a plugin's value rule). One variable rather than Python entry points: a plugin is
then one file, with nothing to install, and a test or a CI job sets it for one command.

A plugin that cannot be imported stops the command with the entry and the error (a
``UsageError``: exit 2, no traceback).
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import threading
import traceback

from .errors import UsageError

VARIABLE = "FMIN_PLUGINS"

_LOCK = threading.RLock()


def entries(environ=None) -> list[str]:
    """The plugin entries named in ``FMIN_PLUGINS`` (comma-separated, blanks ignored)."""
    raw = (os.environ if environ is None else environ).get(VARIABLE, "")
    return [e.strip() for e in raw.split(",") if e.strip()]


def _is_file(entry: str) -> bool:
    return entry.endswith(".py") or os.sep in entry or (os.altsep is not None and os.altsep in entry)


def module_name(entry: str) -> str:
    """The name a plugin is imported under: the module name itself, or ``fmin_plugin_<stem>``
    for a file (so that it cannot shadow a module of the same name)."""
    if not _is_file(entry):
        return entry
    stem = os.path.splitext(os.path.basename(entry))[0]
    return "fmin_plugin_" + "".join(c if c.isalnum() else "_" for c in stem)


def _where(error: BaseException, entry: str) -> str:
    """`` (file:line)`` of the innermost frame of the plugin's own file, where there is one."""
    frames = traceback.extract_tb(error.__traceback__)
    path = os.path.abspath(entry) if _is_file(entry) else None
    mine = [f for f in frames if path is not None and os.path.abspath(f.filename) == path
            or path is None and module_name(entry).replace(".", os.sep) in f.filename]
    return f" ({mine[-1].filename}:{mine[-1].lineno})" if mine else ""


def _import(entry: str) -> None:
    name = module_name(entry)
    if name in sys.modules:
        return
    if not _is_file(entry):
        importlib.import_module(name)
        return
    if not os.path.isfile(entry):
        raise FileNotFoundError(f"no such file: {entry}")
    spec = importlib.util.spec_from_file_location(name, os.path.abspath(entry))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise


def load(environ=None) -> list[str]:
    """Import every plugin named in ``FMIN_PLUGINS`` (once each); returns the module names.
    Raises UsageError naming the entry that failed and why."""
    names = []
    with _LOCK:
        for entry in entries(environ):
            try:
                _import(entry)
            except UsageError:
                raise
            except Exception as e:
                raise UsageError(f"{VARIABLE}: cannot import plugin {entry!r}{_where(e, entry)}: "
                                 f"{type(e).__name__}: {e}") from None
            names.append(module_name(entry))
    return names


__all__ = ["VARIABLE", "entries", "load", "module_name"]
