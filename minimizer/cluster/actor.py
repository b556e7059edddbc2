"""One worker slot on a Ray cluster: an actor that is a ``fuzz.slot.Slot`` (warm fmin pools: one
worker of the backend under test, one of the reference that judges it, and the campaign's units of
work on them — the same slot ``--jobs`` runs as local processes), plus ``ready``: where it runs.

This module does not import Ray: ``runner`` wraps ``SlotActor`` with ``ray.remote``.
"""
from __future__ import annotations

import os
import socket

from ..fuzz.slot import RESUME_FILES, Slot

__all__ = ["RESUME_FILES", "SlotActor"]


class SlotActor(Slot):
    def ready(self) -> dict:
        """Start the workers so that the first program does not wait for them; say where this
        slot is."""
        environment = self.start()
        node = ""
        try:
            import ray
            node = ray.get_runtime_context().get_node_id()
        except Exception:
            pass
        return {"host": socket.gethostname(), "pid": os.getpid(), "node": node,
                "gpus": os.environ.get("CUDA_VISIBLE_DEVICES", ""),
                "code": os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                "environment": environment}
