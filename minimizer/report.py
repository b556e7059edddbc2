"""Reports of a reduction: JSON for machines, Markdown ready to paste into a GitHub issue.

Both are built from one dict (``build``), so they always say the same thing.
"""
from __future__ import annotations

from typing import Any


def _outcome_dict(o) -> dict | None:
    if o is None:
        return None
    return {"status": o.status, "signature": o.signature, "segments": o.segments, "schedulers": o.schedulers,
            "error_kind": o.error_kind, "seconds": round(o.seconds, 4)}


def build(*, script: str, sizes_before: tuple[int, int, int], sizes_after: tuple[int, int, int],
          bytes_before: int, minimal_script: str, prop: str, backend: str, oracle_calls: int, cache_hits: int,
          seconds: float, interrupted: bool, passes: list[dict], also_interesting: list[str],
          before=None, after=None, replays: dict | None = None, environment: dict | None = None) -> dict[str, Any]:
    """The report of one reduction, from plain values (sizes are (ops, inputs, outputs))."""
    (ob, ib, xb), (oa, ia, xa) = sizes_before, sizes_after
    return {
        "script": script,
        "backend": backend,
        "property": prop,
        "ops_before": ob, "ops_after": oa,
        "inputs_before": ib, "inputs_after": ia,
        "outputs_before": xb, "outputs_after": xa,
        "bytes_before": bytes_before, "bytes_after": len(minimal_script),
        "oracle_calls": oracle_calls, "cache_hits": cache_hits,
        "seconds": round(seconds, 2),
        "interrupted": interrupted,
        "outcome_before": _outcome_dict(before), "outcome_after": _outcome_dict(after),
        "replays": replays or {},
        "passes": passes,
        "also_interesting": also_interesting,
        "environment": environment or {},
        "minimal_script": minimal_script,
    }


def _seg_row(name: str, o: dict | None) -> str:
    if not o:
        return f"| {name} | – | – | – |"
    scheds = ", ".join(o["schedulers"]) if o.get("schedulers") else "–"
    what = o["status"] + (f" ({o['signature']})" if o.get("signature") else "")
    return f"| {name} | {what} | {o['segments'] if o.get('segments') is not None else '–'} | {scheds} |"


def to_markdown(d: dict[str, Any]) -> str:
    env = d.get("environment") or {}
    env_lines = "\n".join(f"- {k}: {v}" for k, v in sorted(env.items()) if not isinstance(v, dict))
    opts = (env.get("options") or {}) if isinstance(env.get("options"), dict) else {}
    if opts:
        env_lines += "\n- options: " + ", ".join(f"{k}={v}" for k, v in sorted(opts.items()))
    remap = env.get("device_remap") if isinstance(env.get("device_remap"), dict) else {}
    if remap:
        env_lines += "\n- devices remapped (the script names devices this machine does not have): " + ", ".join(
            f"{k} -> {v}" for k, v in sorted(remap.items()))
    lines = [
        f"## Minimized repro of `{d['script']}`",
        "",
        f"fmin reduced the script under the property **{d['property']}** on the `{d['backend']}` backend"
        + (" (interrupted: this is the best result so far)." if d["interrupted"] else "."),
        "",
        *([f"**Warning: the minimized script did not show the property when re-run "
           f"({(d.get('replays') or {}).get('minimized')}).**", ""] if d.get("verified") is False else []),
        *([f"fmin's reference rejects the original at {d['static_error']}; the reduction ran without fmin's "
           f"static filter (every candidate judged by the backend or the test).", ""]
          if d.get("static_error") else []),
        "| | before | after |",
        "|---|---:|---:|",
        f"| ops | {d['ops_before']} | {d['ops_after']} |",
        f"| inputs | {d['inputs_before']} | {d['inputs_after']} |",
        f"| outputs | {d['outputs_before']} | {d['outputs_after']} |",
        f"| bytes | {d['bytes_before']} | {d['bytes_after']} |",
        "",
        f"{d['oracle_calls']} oracle calls, {d['cache_hits']} cache hits, {d['seconds']} s.",
        "",
        "### Outcome",
        "",
        "| | outcome | segments | schedulers |",
        "|---|---|---:|---|",
        _seg_row("original", d.get("outcome_before")),
        _seg_row("minimized", d.get("outcome_after")),
        "",
    ]
    if d.get("replays"):
        lines += ["Replays: " + ", ".join(f"{k}: {v}" for k, v in d["replays"].items()), ""]
    lines += ["### Environment", "", env_lines or "- (not recorded)", "",
              "### Minimal script", "", "```python", d["minimal_script"].rstrip("\n"), "```", ""]
    lines += ["<details><summary>Passes</summary>", "",
              "| pass | proposed | invalid | cached | tested | accepted | seconds |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for p in d["passes"]:
        lines.append(f"| {p['pass']} | {p['proposed']} | {p['invalid']} | {p['cached']} | {p['tested']} "
                     f"| {p['accepted']} | {p['seconds']:.1f} |")
    lines += ["", "</details>", ""]
    if d.get("also_interesting"):
        lines += ["Other failures seen on the way (saved, not pursued): "
                  + ", ".join(f"`{p}`" for p in d["also_interesting"]), ""]
    return "\n".join(lines)
