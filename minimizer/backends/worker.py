"""The worker process: runs repro scripts, one request at a time, and never anything in fmin.

Started by ``oracle.pool.Worker`` as ``python -m minimizer.backends.worker RESP_FD BACKEND DEVICE``. Requests arrive as
JSON lines on stdin; each answer is one JSON line on the file descriptor RESP_FD, so that the
script (and nvFuser's C++ side, which writes dumps to file descriptor 1) can print whatever it
likes: file descriptors 1 and 2 are pointed at a per-request capture file while a script runs.
Heavy imports (torch, the backend) happen once, at start. An answer that carries ``retire`` (the
backend's ``poisoned``: a sticky CUDA error) is this process's last: the pool replaces it before
it is given another script, and it exits (code 3) without reading another request.
"""
from __future__ import annotations

import json
import os
import sys
import time
import traceback

from .options import RunOptions


def main(argv: list[str]) -> int:
    resp = os.fdopen(int(argv[1]), "w", buffering=1)
    backend_name = argv[2] if len(argv) > 2 else "reference"
    device = argv[3] if len(argv) > 3 else "cpu"
    import torch  # noqa: F401  (warm-up: the first import is the slow part)
    from .base import runner_for
    backend = runner_for(backend_name)
    env_info = backend.warm(device)
    resp.write(json.dumps({"ready": True, "environment": env_info}) + "\n")
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        if req.get("op") == "exit":
            break
        result = _serve(backend, req, env_info)
        resp.write(json.dumps(result) + "\n")
        if result.get("retire"):
            return 3  # the answer asked the pool to replace this process; it kills it on reading that
    return 0


def _serve(backend, req: dict, env_info: dict) -> dict:
    capture = req.get("capture") or os.devnull
    saved = os.dup(1), os.dup(2)
    sys.stdout.flush(), sys.stderr.flush()
    fd = os.open(capture, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1), os.dup2(fd, 2)
    os.close(fd)
    t0 = time.perf_counter()
    try:
        result = backend.run_script(req["script"], req.get("path", "<script>"), req.get("device", "cpu"),
                                    RunOptions.from_json(req.get("options")), req.get("values"))
    except BaseException as e:  # a bug of fmin's own: report it, keep serving
        result = {"status": "error", "error_kind": "fmin-internal",
                  "signature": f"fmin-internal: {type(e).__name__}",
                  "message": "".join(traceback.format_exception(e))[-4000:]}
    finally:
        sys.stdout.flush(), sys.stderr.flush()
        os.dup2(saved[0], 1), os.dup2(saved[1], 2)
        os.close(saved[0]), os.close(saved[1])
    result["seconds"] = time.perf_counter() - t0
    result["max_rss"] = _max_rss()
    why = _poisoned(backend, result, req.get("device", "cpu"))
    if why:
        result["retire"] = why
    log = ""
    if capture != os.devnull:
        try:
            with open(capture, errors="replace") as f:
                log = f.read()
            backend.analyze_log(result, log)
        except OSError:
            pass
    try:   # the decisions are a view of the run: never let them fail it
        result["decisions"] = backend.decision_features(result, log)
    except Exception:
        pass
    result["id"] = req.get("id")
    result.setdefault("environment", {}).update(env_info)
    return result


def _max_rss() -> int:
    """This worker's peak resident set so far, in bytes (``ru_maxrss``: KiB on Linux)."""
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _poisoned(backend, result: dict, device: str) -> str | None:
    """Why this process must serve nothing more (``Runner.poisoned``). A check that itself
    fails leaves the process in doubt: it is retired too."""
    try:
        return backend.poisoned(result, device)
    except Exception as e:
        return f"the {backend.facts.name} backend could not tell whether this process is still usable: {e!r}"


if __name__ == "__main__":
    sys.exit(main(sys.argv))
