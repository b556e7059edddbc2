"""How a script is run: one ``Backend`` per module (``reference``: eager torch; ``inductor``:
``torch.compile``; ``nvfuser``: the real library), found through the registry in ``base``. Each
is three parts: its ``Runner`` (what runs in worker processes), its ``Facts`` and its ``Policy``
(what its findings mean for the bug list); the ``Backend`` object answers the rest in fmin
(``available``, ``worker_env``, root causes, standalone attachments)."""
from .base import (Backend, Facts, Policy, RunOptions, Runner, auto_order, get, help_text, names, policy_of, register,
                   resolve, runner_for)

__all__ = ["Backend", "Facts", "Policy", "RunOptions", "Runner", "auto_order", "get", "help_text", "names", "policy_of",
           "register", "resolve", "runner_for"]
