"""*Failures of the debug dumps*: a failure its attachment shows only with the backend's debug
output on (``standalone.dump_only``: nvFuser's ``NVFUSER_DUMP``) — the dump code's own failure,
which no user without the dump meets."""
from __future__ import annotations

from ..evidence import Decision
from .base import BugClass, register

NAME = "debug-dump"


def dump_only(bucket, script, outcome, context) -> Decision | None:
    """A bucket whose attachment fails only with the debug dump on."""
    if bucket.standalone is not None and bucket.standalone.dump_only:
        return Decision(NAME, "its attachment fails only with the backend's debug output on")
    return None


@register
class DebugDump(BugClass):
    name = NAME
    title = "Failures of the debug dumps"
    intro = "shown only with the backend's debug output on (NVFUSER_DUMP), which users do not run with"
    order, page_order = 50, 40
    claims = ((60, dump_only),)
