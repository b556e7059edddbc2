"""How a script is run: one ``Backend`` per module (``reference``: eager torch; ``inductor``:
``torch.compile``; ``nvfuser``: the real library), found through the registry in ``base``.
Everything here runs in worker processes except the registry queries (``names``, ``get``,
``resolve``) and a backend's ``available``/``worker_env``."""
from .base import Backend, RunOptions, auto_order, get, help_text, names, register, resolve

__all__ = ["Backend", "RunOptions", "auto_order", "get", "help_text", "names", "register", "resolve"]
