"""A run's *decision features*: what the compiler decided about a program, as a set of short
strings (``sched:reduction#1``, ``segments:3``, ``reject:inner_persistent:not enough registers
...``, ``error:nvfuser internal-assert``), and its *decision signature* (a hash of the set).

Coverage-guided fuzzers (AFL's edges, syzkaller's signals) keep an input that made the target do
something it had not done before; for a fusion compiler the interesting "something" is a decision:
another scheduler for a segment, another reason not to merge two segments, another number of
kernels. The features are computed in the worker from what the backend already read of the run
(``Runner.decision_features``: its result dict and its log), so they cost no extra run, and they
travel back in the outcome (``Outcome.decisions``). Names, numbers and tensor ids are masked out
so that the same decision on another program is the same feature.

Counts are bucketed as AFL buckets hit counts (1, 2, 3, 4-7, 8+): three reduction kernels instead
of two is a new decision, nine instead of eight is not.
"""
from __future__ import annotations

import hashlib
import re

#: a feature's text is cut here (masked reasons are one line, usually far shorter)
FEATURE_CHARS = 120


def count_bucket(n: int) -> str:
    """``n`` as AFL's hit-count bucket: ``1``, ``2``, ``3``, ``4-7``, ``8+`` (``0`` for none)."""
    if n <= 3:
        return str(max(0, n))
    return "4-7" if n < 8 else "8+"


def pow2_bucket(n: int, cap: int = 16) -> str:
    """A heuristic's factor as a power-of-2 bucket: the largest power of 2 not above ``n``,
    ``<cap>+`` from ``cap`` on (``0`` for none). nvFuser's vectorization and unroll factors are
    powers of 2 already; a derived factor (a transpose's unroll of 6) lands with its neighbours."""
    if n < 1:
        return "0"
    if n >= cap:
        return f"{cap}+"
    return str(1 << (int(n).bit_length() - 1))


def norm(text: str) -> str:
    """A reason or message as a feature: tensor names (``T12_g_float``), numbers and spaces
    masked, so the same decision on another program reads the same."""
    text = re.sub(r"\bT\d+(_[a-z]_\w+)?", "T", str(text))
    text = re.sub(r"\d+", "N", text)
    return re.sub(r"\s+", " ", text).strip()[:FEATURE_CHARS]


def error_class(result: dict) -> str:
    """``error:<class>`` of a failed run: the signature's head (``nvfuser internal-assert``,
    ``RuntimeError``), not its message — a new message is a finding, not a new decision."""
    sig = str(result.get("signature") or "")
    head = sig.split(": ", 1)[0] if sig else ""
    return f"{result.get('status')}:{result.get('error_kind') or '-'}:{head[:60]}"


def generic(result: dict) -> list[str]:
    """The features every backend's result has: status (the error's class), each scheduler
    kind's kernel count (bucketed), the segment count (bucketed), each kernel boundary's
    (producer, consumer) kinds and the reasons the graph records for them, and each output's
    dtype and rank (a backend without segments, the reference, has only those)."""
    out = {f"status:{result.get('status')}"}
    if result.get("status") != "ok":
        out.add(f"error:{error_class(result)}")
    scheds = [str(s) for s in result.get("schedulers") or ()]
    for k in set(scheds):
        out.add(f"sched:{k}#{count_bucket(scheds.count(k))}")
    if result.get("segments") is not None:
        out.add(f"segments:{count_bucket(int(result['segments']))}")
    graph = result.get("graph") or {}
    segs = graph.get("segments") or []
    for e in graph.get("edges") or ():
        p, c = e.get("producer"), e.get("consumer")
        if isinstance(p, int) and isinstance(c, int) and p < len(segs) and c < len(segs):
            out.add(f"edge:{segs[p].get('scheduler')}>{segs[c].get('scheduler')}")
    for r in graph.get("rejections") or ():
        out.add(f"reject:{norm(r.get('reason', ''))}")
    for o in result.get("outputs") or ():
        if isinstance(o, dict):
            out.add(f"out:{o.get('dtype')}:r{len(o.get('shape') or ())}")
    return sorted(out)


def signature(features) -> str:
    """The decision signature of a run: 12 hex digits of a hash of its sorted features."""
    return hashlib.sha1("\n".join(sorted(features)).encode()).hexdigest()[:12]


__all__ = ["FEATURE_CHARS", "count_bucket", "pow2_bucket", "norm", "error_class", "generic", "signature"]
