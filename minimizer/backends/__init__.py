"""How a script is run: ``reference`` (eager torch), ``inductor`` (torch.compile) or ``nvfuser``
(the real library). Each backend module offers ``warm(device)`` (import and set up once per
worker), ``run_script(text, path, ...)`` (run one script, return an outcome dict) and
``available()``."""
from __future__ import annotations

import importlib

NAMES = ("reference", "inductor", "nvfuser")


def get(name: str):
    if name not in NAMES:
        raise ValueError(f"unknown backend {name!r} (expected one of {', '.join(NAMES)})")
    return importlib.import_module(f"{__name__}.{name}")


def resolve(name: str) -> str:
    """``auto``: nvfuser where it imports and a GPU exists, else inductor."""
    if name != "auto":
        get(name)
        return name
    from . import nvfuser
    return "nvfuser" if nvfuser.available() else "inductor"
