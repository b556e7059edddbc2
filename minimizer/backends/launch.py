"""``python -m minimizer.backends.launch BACKEND DEVICE SCRIPT [KEY=VALUE ...]``: one script run
in this fresh process as a maintainer runs it, on a backend fmin stands in front of.

An nvFuser finding's attachment runs as ``python repro.min.py`` and needs nothing of fmin. A
finding of another backend has no such form: its script imports ``nvfuser_direct``, and what
stands behind that name is fmin's own ``FusionDefinition``, which hands the fusion to Inductor
(``torch.compile``) or to the reference. This runs the script exactly as a worker does
(``Runner.run_script``: the device map on the CPU, the seed, the backend's classification of a
failure), once, except that the script's own checks of its outputs run
(``RunOptions(standalone=True)``: a wrong result's attachment raises its AssertionError, which
a worker skips). ``KEY=VALUE`` items are Inductor config (the attachment's ``# inductor
config:`` line). The failure's text goes to stderr, and the last line on stdout is
``fmin-launch: {json}`` (status, signature, segments, schedulers, where) for the caller
(``fuzz/standalone.py``); the exit status is 0 when the script ran to its end, 1 when it failed.
"""
from __future__ import annotations

import json
import os
import sys

from ..argtypes import key_values
from .base import LAUNCH_LINE, RunOptions, runner_for

#: the outcome fields the caller reads
FIELDS = ("status", "signature", "error_kind", "where", "segments", "schedulers", "message")


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    backend_name, device, path = argv[1:4]
    config = key_values(argv[4:])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    backend = runner_for(backend_name)
    backend.warm(device)
    options = RunOptions(standalone=True, inductor_config=tuple(sorted(config.items())))
    result = backend.run_script(text, os.path.abspath(path), device, options)
    sys.stdout.flush()
    if result.get("status") != "ok":
        print(result.get("message") or result.get("signature"), file=sys.stderr)
    print(LAUNCH_LINE + json.dumps({k: result.get(k) for k in FIELDS}, default=str), flush=True)
    return 0 if result.get("status") == "ok" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
