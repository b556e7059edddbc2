"""What a finding of a backend means for the bug list (``Policy``): which of its differences from
eager torch are by design and which segmentations it is meant to make. Read by the fuzz layer's
classes (``fuzz/buglist/classes.py``), never by a worker: each backend module declares its
``Policy`` value beside the backend, apart from what runs scripts."""
from __future__ import annotations


class Policy:
    """The default: no documented difference, and the segmentation any backend makes of a reshape
    it cannot view. A backend with more to say subclasses it and extends the methods."""

    def expected_segmentation(self, ops: frozenset[str], changed: frozenset[str]) -> str | None:
        """Why a segmentation that changes with the inputs' layout or order is what the backend is
        meant to do, or None. ``ops``: the minimized program's ops; ``changed``: the scheduler
        kinds whose counts change. Any backend: a ``reshape`` alone is a view of a tensor whose
        memory allows one and a copy (a kernel) of one whose memory does not, as torch's is."""
        if ops == {"reshape"} and changed <= {"pointwise", "expr_eval", "no_op"}:
            return "a reshape of a tensor whose layout allows no view is a copy kernel, not a view (as in torch)"
        return None

    def by_design(self, kind: str, differs: str | None, dtypes: frozenset[str]) -> str | None:
        """Why a difference of ``kind`` (``differs``: what differs for a wrong result) in a program
        of these dtypes is a documented semantic difference of the backend from eager torch, not
        a bug, or None (the default: no such difference is documented)."""
        return None
