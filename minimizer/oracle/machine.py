"""This machine as an environment record, made in fmin without running anything.

A result is confirmed by a run, and the run's environment record (a worker's ``Runner.warm``:
torch, nvFuser, GPU, options) goes into its header. A ``--test`` command alone runs no worker:
the user's command is the run, on this machine, with what is installed here. This record says
so — torch's version (already imported by fmin's static check), nvFuser's from package metadata
(nothing of nvFuser is imported into fmin), the GPU and driver from ``nvidia-smi`` (fmin never
initialises CUDA itself), the ``NVFUSER_*`` options the command inherits — so a header never reads
``torch version: ?`` nor names the original's machine.
"""
from __future__ import annotations

import os
import subprocess


def visible_gpus(fields: tuple[str, ...]) -> list[dict[str, str]] | None:
    """``nvidia-smi --query-gpu=index,FIELDS`` per visible GPU (``CUDA_VISIBLE_DEVICES``
    respected where it lists indices), or None when nvidia-smi cannot tell."""
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu=index,{','.join(fields)}", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    rows = {}
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == len(fields) + 1 and parts[0].isdigit():
            rows[parts[0]] = dict(zip(fields, parts[1:]))
    if not rows:
        return None
    vis = os.environ.get("CUDA_VISIBLE_DEVICES")
    if vis is not None:
        ids = [g.strip() for g in vis.split(",") if g.strip()]
        if all(g.isdigit() for g in ids):
            return [rows[g] for g in ids if g in rows]
    return list(rows.values())


def compute_capability(device: str) -> tuple[int, int] | None:
    """The compute capability of the GPU ``device`` names (``cuda``, ``cuda:1``: its index among the
    visible ones), from ``nvidia-smi`` without initialising CUDA; None without one or where it
    cannot tell."""
    if not device.startswith("cuda"):
        return None
    gpus = visible_gpus(("compute_cap",)) or []
    _, _, index = device.partition(":")
    k = int(index) if index.isdigit() else 0
    return parse_capability(gpus[k].get("compute_cap", "") if k < len(gpus) else "")


def parse_capability(text) -> tuple[int, int] | None:
    """``"9.0"`` (nvidia-smi's ``compute_cap``, a worker's recorded ``capability``) as ``(9, 0)``;
    None where it is not one."""
    major, dot, minor = str(text or "").partition(".")
    return (int(major), int(minor)) if dot and major.isdigit() and minor.isdigit() else None


def installed_version(module: str) -> str | None:
    """The version of the distribution that provides the top-level ``module`` (None: not
    installed); found without importing it."""
    import importlib.metadata
    import importlib.util
    try:
        if importlib.util.find_spec(module) is None:
            return None
    except (ImportError, ValueError):
        return None
    for dist in importlib.metadata.packages_distributions().get(module, []):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return "installed (no package metadata)"


def this_machine(device: str) -> dict:
    """The environment record of a result confirmed here by a ``--test`` command alone
    (``confirmed_by``): the same keys a worker's record has, where they can be known."""
    import torch
    env: dict = {"confirmed_by": "the --test command", "device": device, "torch": torch.__version__}
    for module in ("nvfuser_direct", "nvfuser"):
        v = installed_version(module)
        if v is not None:
            env[module] = v
    gpus = visible_gpus(("name", "driver_version")) if device.startswith("cuda") else None
    if gpus:
        env["gpu"], env["driver"] = gpus[0]["name"], gpus[0]["driver_version"]
    opts = {k: v for k, v in os.environ.items() if k.startswith("NVFUSER_")}
    if opts:
        env["options"] = opts
    return env


__all__ = ["compute_capability", "parse_capability", "installed_version", "this_machine", "visible_gpus"]
