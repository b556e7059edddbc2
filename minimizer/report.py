"""Reports of a reduction: JSON for machines, Markdown ready to paste into a GitHub issue.

Both are built from one dict (``build``), so they always say the same thing.
"""
from __future__ import annotations

from typing import Any

from .segments import SegmentGraph


def repro_header(environment: dict, command: str | None, prop: str, see: str | None = None) -> str:
    """The comment block a minimized script starts with: where it was confirmed (GPU, driver,
    torch, nvFuser and its options, fmin) and the command that made it — not the original's
    header, which names the machine the user had before (it is kept in ``report.md``). A result
    confirmed by a ``--test`` command alone (no backend run) says so: its versions are what is
    installed on this machine (``oracle.machine``). ``see``: the command that shows the result
    where ``python repro.min.py`` cannot (``Backend.see_command``)."""
    from . import __version__
    env = environment or {}
    lines = ["# Minimized by fmin " + __version__ + (f": {command}" if command else "")]
    lines.append(f"# property: {prop}")
    if see:
        lines.append(f"# see it here: {see}  (the script is written for nvFuser; `python` alone needs nvFuser)")
    where = env.get("gpu") or ("CPU" if str(env.get("device", "")).startswith("cpu") else env.get("device"))
    if where:
        how = env.get("confirmed_by") or f"{env.get('backend', '?')} backend"
        lines.append(f"# confirmed on: {where}" + (f", driver {env['driver']}" if env.get("driver") else "")
                     + f" ({how})")
    lines.append(f"# torch version: {env.get('torch', '?')}")
    for name in ("nvfuser_direct", "nvfuser"):
        if env.get(name):
            lines.append(f"# {name} version: {env[name]}")
    if env.get("triton"):
        lines.append(f"# triton version: {env['triton']}")
    opts = env.get("options") or {}
    if opts:
        lines.append("# environment: " + " ".join(f"{k}={v}" for k, v in sorted(opts.items())))
    icfg = env.get("inductor_config")
    if icfg:
        lines.append("# inductor config: " + ", ".join(f"{k}={v}" for k, v in icfg))
    return "\n".join(lines) + "\n"


def split_header(text: str) -> tuple[str, str]:
    """``text`` as (its leading block of comments and blank lines, the rest): the block a
    minimized script's header replaces, returned exactly, so that putting it back gives the text
    the reducer judged (its cache is keyed by text)."""
    lines = text.splitlines(keepends=True)
    k = 0
    while k < len(lines) and (lines[k].startswith("#") or not lines[k].strip()):
        k += 1
    return "".join(lines[:k]), "".join(lines[k:])


def with_header(text: str, header: str) -> str:
    """``text`` with its leading comment block (the original's header) replaced by ``header``."""
    return header + split_header(text)[1]


def replays_words(replays: dict | None) -> str:
    """``{"original": "3/3", "minimized": "3/3", "resumed": True}`` as a reader wants it:
    ``original 3/3, minimized 3/3 (resumed)``."""
    r = dict(replays or {})
    resumed = r.pop("resumed", False)
    return ", ".join(f"{k} {v}" for k, v in r.items()) + (" (resumed)" if resumed else "")


def original_header(text: str) -> str:
    """The original script's leading comment block (what machine and versions it came from)."""
    out = []
    for line in text.splitlines():
        if line.startswith("#"):
            out.append(line)
        elif line.strip():
            break
    return "\n".join(out)


def _outcome_dict(o) -> dict | None:
    if o is None:
        return None
    return {"status": o.status, "signature": o.signature, "segments": o.segments, "schedulers": o.schedulers,
            "error_kind": o.error_kind, "seconds": round(o.seconds, 4), "graph": o.graph}


def build(*, script: str, sizes_before: tuple[int, int, int], sizes_after: tuple[int, int, int],
          bytes_before: int, minimal_script: str, prop: str, backend: str, oracle_calls: int, cache_hits: int,
          seconds: float, interrupted: bool, passes: list[dict], also_interesting: list[str],
          before=None, after=None, replays: dict | None = None, environment: dict | None = None,
          flaky: bool = False, static_error: str | None = None, verified: bool | None = None,
          original_header: str = "", mismatch: dict | None = None, property_reason: str | None = None,
          wall_seconds: float | None = None, command: str | None = None,
          upgraded: str | None = None, bytes_after: int | None = None,
          backend_title: str | None = None, calls_before_resume: int = 0,
          see: str | None = None) -> dict[str, Any]:
    """The report of one reduction, from plain values (sizes are (ops, inputs, outputs)), built
    once: ``mismatch`` and ``property_reason`` come with a re-verified result, ``upgraded`` says
    why a translation was reduced instead of the script as written; ``bytes_after``: the
    reduced program's size without the header a confirmed result gets; ``backend_title`` is how
    sentences name the backend (its ``Facts.title``: "nvFuser"). ``oracle_calls`` counts every
    run of a resumed reduction, ``calls_before_resume`` those before its last resume. ``see``:
    how to see the result where ``python repro.min.py`` cannot (``Backend.see_command``)."""
    (ob, ib, xb), (oa, ia, xa) = sizes_before, sizes_after
    d = {
        "script": script,
        "backend": backend,
        "backend_title": backend_title or backend,
        "property": prop,
        "ops_before": ob, "ops_after": oa,
        "inputs_before": ib, "inputs_after": ia,
        "outputs_before": xb, "outputs_after": xa,
        "bytes_before": bytes_before, "bytes_after": len(minimal_script) if bytes_after is None else bytes_after,
        "oracle_calls": oracle_calls, "cache_hits": cache_hits,
        **({"oracle_calls_before_resume": calls_before_resume} if calls_before_resume else {}),
        "seconds": round(seconds, 2),
        "interrupted": interrupted,
        "outcome_before": _outcome_dict(before), "outcome_after": _outcome_dict(after),
        "replays": replays or {},
        "passes": passes,
        "also_interesting": also_interesting,
        "environment": environment or {},
        "minimal_script": minimal_script,
        "flaky": flaky,
        "static_error": static_error,
        "verified": verified,
        "original_header": original_header,
    }
    if mismatch:
        d["mismatch"] = mismatch
    if property_reason is not None:
        d["property_reason"] = property_reason
    d["wall_seconds"] = wall_seconds
    d["command"] = command
    if see:
        d["see"] = see
    if upgraded:
        d["upgraded"] = upgraded
    return d


def _graph_sections(d: dict) -> list[str]:
    """The segment graphs (Mermaid, which GitHub draws): the minimized one open, the original's
    folded; each kernel boundary with nvFuser's reason for not merging where it gave one."""
    out = []
    for key, title, folded in (("outcome_after", "Segments of the minimized script", False),
                               ("outcome_before", "Segments of the original", True)):
        g = SegmentGraph.from_json((d.get(key) or {}).get("graph"))
        if g is None or not g.segments:
            continue
        body = ["```mermaid", g.mermaid(), "```", ""]
        for b in g.boundaries():
            body.append(f"- boundary {b.words()}" + (f" — not merged: {b.reason}" if b.reason else ""))
        if g.boundaries():
            body.append("")
        if folded:
            out += [f"<details><summary>{title}: {g.words()}</summary>", "", *body, "</details>", ""]
        else:
            out += [f"### {title}", "", g.words(), "", *body]
    return out


def summary(d: dict[str, Any]) -> str:
    """One line a maintainer reads first: what the minimized script shows."""
    after = d.get("outcome_after") or d.get("outcome_before") or {}
    size = f"{d['ops_after']}-op"
    backend = d.get("backend_title") or d["backend"]
    if after.get("status") not in (None, "ok"):
        return f"{backend} {'crashes' if after['status'] == 'crash' else 'fails'} on a {size} fusion: `{after.get('signature')}`"
    mm = d.get("mismatch") or {}
    if mm:
        return f"{backend} computes a wrong result in a {size} fusion: {d.get('property_reason') or d['property']}"
    g = SegmentGraph.from_json(after.get("graph"))
    if g is not None and g.segments:
        bs = g.boundaries()
        if bs:
            b = bs[0]
            why = f" (not merged: {b.reason})" if b.reason else ""
            return f"{backend} splits a {size} fusion into {g.kernels} kernels at {b.words()}{why}"
        return f"{backend} runs a {size} fusion as {g.words()}"
    return f"a {size} fusion that shows {d['property']}"


def to_markdown(d: dict[str, Any]) -> str:
    """The report for a GitHub issue: what it shows, the script, before/after, the segment graph,
    differing values, how it was made, the environment of the confirming run."""
    env = d.get("environment") or {}
    env_lines = [f"- {k}: {v}" for k, v in sorted(env.items()) if not isinstance(v, (dict, list))]
    opts = env.get("options") if isinstance(env.get("options"), dict) else {}
    if opts:
        env_lines.append("- options: " + ", ".join(f"`{k}={v}`" for k, v in sorted(opts.items())))
    remap = env.get("device_remap") if isinstance(env.get("device_remap"), dict) else {}
    if remap:
        env_lines.append("- devices remapped (the script names devices this machine does not have): " + ", ".join(
            f"{k} -> {v}" for k, v in sorted(remap.items())))
    before, after = d.get("outcome_before") or {}, d.get("outcome_after") or {}
    lines = [f"## {summary(d)}", ""]
    if d.get("verified") is False:
        lines += [f"**Warning: the minimized script did not show the property when re-run "
                  f"({(d.get('replays') or {}).get('minimized')}).**", ""]
    if d["interrupted"]:
        lines += ["**Interrupted: this is the best result so far, not a 1-minimal one.** Running the same command "
                  "again resumes the reduction from it.", ""]
    if d.get("upgraded"):
        lines += [f"Note: {d['upgraded']}.", ""]
    if d.get("static_error"):
        lines += [f"fmin's reference rejects the original at {d['static_error']}; the reduction ran without fmin's "
                  f"static filter (every candidate judged by the backend or the test).", ""]
    if d.get("see"):
        lines += [f"To see it on a machine without nvFuser: `{d['see']}` (the script is written for nvFuser; "
                  f"fmin runs it on {d.get('backend_title') or d['backend']}, which confirmed it; "
                  f"`python repro.min.py` alone needs nvFuser).", ""]
    lines += ["```python", d["minimal_script"].rstrip("\n"), "```", "",
              "| | original | minimized |", "|---|---:|---:|",
              f"| ops | {d['ops_before']} | {d['ops_after']} |",
              f"| inputs | {d['inputs_before']} | {d['inputs_after']} |",
              f"| outputs | {d['outputs_before']} | {d['outputs_after']} |",
              f"| bytes | {d['bytes_before']} | {d['bytes_after']} |",
              f"| outcome | {_outcome_words(before)} | {_outcome_words(after)} |", ""]
    lines += _graph_sections(d)
    lines += _mismatch_section(d.get("mismatch"))
    made = [f"- property: {d['property']}",
            f"- command: `{d['command']}`" if d.get("command") else None,
            f"- backend: `{d['backend']}`",
            "- replays: " + replays_words(d.get("replays")) if d.get("replays") else None,
            f"- {d['oracle_calls']} oracle call{'' if d['oracle_calls'] == 1 else 's'} ("
            + (f"{d['oracle_calls_before_resume']} before the resume; " if d.get("oracle_calls_before_resume")
               else "") + f"{d['cache_hits']} answered from the cache), reduction "
            f"{d['seconds']} s" + (f", {d['wall_seconds']} s in all (workers' start and replays included)"
                                   if d.get("wall_seconds") is not None else "")]
    lines += ["### How it was made", "", *[m for m in made if m], ""]
    lines += ["### Environment of the confirming run", "", *(env_lines or ["- (not recorded)"]), ""]
    if d.get("original_header"):
        lines += ["<details><summary>The original script's header</summary>", "", "```", d["original_header"],
                  "```", "", "</details>", ""]
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


def _outcome_words(o: dict) -> str:
    if not o:
        return "–"
    if o.get("status") != "ok":
        return f"{o.get('status')} `{o.get('signature')}`"
    g = SegmentGraph.from_json(o.get("graph"))
    if g is not None and g.segments:
        return g.words().split(";")[0]
    if o.get("segments") is not None:
        return f"{o['segments']} segments [{', '.join(o.get('schedulers') or [])}]"
    return "ok"


def _mismatch_section(mm: dict | None) -> list[str]:
    """The outputs that differ, with their worst elements: index, the backend's value, the exact
    result, eager torch's."""
    if not mm:
        return []
    judged = (mm.get("judgement") or mm.get("comparison") or {}).get("outputs") or []
    bad = [o for o in judged if not o.get("ok")]
    if not bad:
        return []
    out = ["### Differing values", ""]
    for o in bad:
        out += [f"**{o.get('label')}** ({o.get('dtype')}{o.get('shape')}): {o.get('reason') or ''}", ""]
        rows = o.get("worst_elements") or []
        if rows:
            out += ["| index | backend | exact | eager |", "|---|---:|---:|---:|"]
            out += [f"| {r.get('index')} | {r.get('backend')} | {r.get('exact')} | {r.get('eager')} |" for r in rows]
            out.append("")
    return out
