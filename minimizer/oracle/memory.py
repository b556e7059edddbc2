"""Will the runs of a command fit in the memory of the device they run on? Asked before any
worker starts, so that a script with a 3 GB input is refused with a sentence (exit 2) instead of
getting fmin's workers SIGKILLed by the out-of-memory killer.

What a run needs comes from ``program.memory`` (the static check on ``meta`` tensors); what is
available from the device: the host's ``MemAvailable`` (``/proc/meminfo``, and the cgroup's
limit where one is set) for CPU runs, ``nvidia-smi --query-gpu=memory.free`` for CUDA runs —
fmin never initialises CUDA itself. ``plan`` says whether one run fits, and how many workers can
run side by side (``--jobs`` is lowered to what fits, with a note). The available-memory function
is a parameter (``available``), so tests give small fake limits; ``--max-memory`` caps it on the
command line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..backends import get as get_backend
from ..program.memory import Estimate, estimate, estimate_fp64, human

#: the part of what is available fmin plans with (the rest: the OS, the fmin process, slack)
USABLE = 0.9

Available = Callable[[str], "int | None"]


def host_available() -> int | None:
    """Bytes the host can still give: ``MemAvailable``, or the cgroup's limit minus its usage
    where that is smaller (a container)."""
    avail = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    for limit_f, usage_f in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                             ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                              "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        try:
            with open(limit_f) as f:
                raw = f.read().strip()
            with open(usage_f) as f:
                used = int(f.read().strip())
        except (OSError, ValueError):
            continue
        if raw.isdigit() and int(raw) < (1 << 60):
            left = max(0, int(raw) - used)
            avail = left if avail is None else min(avail, left)
        break
    return avail


def gpu_free() -> list[int] | None:
    """Free bytes of each visible GPU (``nvidia-smi``; ``CUDA_VISIBLE_DEVICES`` respected where it
    lists indices), or None when nvidia-smi cannot tell."""
    from .machine import visible_gpus
    rows = visible_gpus(("memory.free",))
    free = [int(r["memory.free"]) << 20 for r in rows or () if r["memory.free"].isdigit()]
    return free or None


def available(device: str) -> int | None:
    """What one worker on ``device`` may use: the host's available memory for ``cpu``, the
    least free memory among the visible GPUs for ``cuda``; None when it cannot be told."""
    if device.startswith("cuda"):
        free = gpu_free()
        return min(free) if free else None
    return host_available()


@dataclass
class Plan:
    jobs: int                       # workers that fit side by side (<= the jobs asked for)
    need: int                       # bytes one judgement needs at its peak (its largest run)
    have: int | None                # bytes available (None: unknown: nothing refused)
    refusal: str | None = None      # why nothing can run (None: it fits)
    note: str | None = None         # e.g. "--jobs lowered to 2"
    runs: tuple[tuple[str, int], ...] = ()   # (what, bytes) of each run a judgement makes


def plan(program, backend: str, device: str, jobs: int = 1, *, reference: bool = False, fp64: bool = False,
         available_fn: Available | None = None, cap: int | None = None, info=None) -> Plan:
    """Whether the runs of one judgement of ``program`` fit: the backend's own run, and the
    reference (``reference``) and its fp64 variant (``fp64``) that a property's checks ask for
    (``Property.runs_reference``, ``runs_fp64_reference``: ``--mismatch``), one after the other
    in one judging thread; ``jobs`` threads side by side. What a backend's run and worker take
    are its own facts (``Facts.fuses``, ``worker_bytes``). ``cap`` (``--max-memory``) bounds
    what is available. ``info``: the program's static check, where the caller has made it
    already (``check_partial``'s, so a rejected original is planned too)."""
    from ..program.static import check_partial
    info = info if info is not None else check_partial(program)
    est = estimate(program, info.values)
    b = get_backend(backend)
    runs = [(f"{backend} run", est.fused if b.facts.fuses else est.peak)]
    if reference and backend != "reference":
        runs.append(("reference run", est.peak))
    if fp64:
        e64 = estimate_fp64(program)
        if e64 is not None:
            runs.append(("fp64 reference run", e64.peak))
    on_host = not device.startswith("cuda")
    worker = max(b.facts.worker_bytes, get_backend("reference").facts.worker_bytes if reference or fp64 else 0)
    need = max(n for _, n in runs) + (worker if on_host else 0)
    have = (available_fn or available)(device)
    if cap is not None:
        have = cap if have is None else min(have, cap)
    if have is None:
        return Plan(jobs, need, None, runs=tuple(runs))
    usable = int(have * USABLE)
    where = "the host" if on_host else "the GPU"
    if need > usable:
        what = ", ".join(f"{w} ~{human(n)}" for w, n in runs)
        return Plan(0, need, have, refusal=(
            f"not enough memory: one run needs about {human(need)} ({what}; {est.largest_words()}), "
            f"{where} has {human(have)} available (fmin plans with {int(USABLE * 100)}% of it; estimated from "
            f"fmin's static check)"), runs=tuple(runs))
    fit = max(1, usable // max(need, 1))
    if fit < jobs:
        return Plan(int(fit), need, have, note=(
            f"--jobs lowered from {jobs} to {fit}: each run needs about {human(need)}, {where} has "
            f"{human(have)} available"), runs=tuple(runs))
    return Plan(jobs, need, have, runs=tuple(runs))


def parse_size(text: str) -> int:
    """``8G``, ``512M``, ``1.5GiB``, ``1000000`` -> bytes. Raises ValueError."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(i?[bB])?\s*", text)
    if not m:
        raise ValueError(f"expected a size such as 8G, 512M or 1000000, got {text!r}")
    mult = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[m.group(2).lower()]
    return int(float(m.group(1)) * mult)


__all__ = ["Plan", "plan", "available", "host_available", "gpu_free", "parse_size", "Estimate", "human"]
