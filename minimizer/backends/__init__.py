"""How a script is run: one ``Backend`` per module (``reference``: eager torch; ``inductor``:
``torch.compile``; ``nvfuser``: the real library), found through the registry in ``base``.
Everything here runs in worker processes except the registry queries (``names``, ``get``,
``resolve``) and a backend's ``available``/``worker_env``."""
from .base import AUTO_ORDER, Backend, RunOptions, get, names, register, resolve

__all__ = ["AUTO_ORDER", "Backend", "RunOptions", "get", "names", "register", "resolve"]
