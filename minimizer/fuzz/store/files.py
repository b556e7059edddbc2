"""A bucket directory's files: which script its replays run, and reading and writing them.

Below the store and its merges (``store``, ``examples``), which all read a bucket's scripts and
records the same way; ``store`` re-exports these names, where their callers import them from.
"""
from __future__ import annotations

import json
import os
import re


#: where a bucket keeps the attachments of the other op paths it absorbed (``examples``)
EXAMPLES = "examples"
_FINDING_LINE = re.compile(r"^(# finding: [^\n]*?, bucket )[0-9a-f]{12}:", re.M)


def rename_bucket(directory: str, new_id: str) -> None:
    """A filed ``repro.min.py`` names its bucket on its ``# finding:`` line (written by
    ``attachment._header_lines``); when the corpus re-keys the bucket (``Store.move``: its
    minimal repro gave another key, or it merged into another) the line names the id it is
    filed under now, not the one it was minimized under — and so do the attachments it keeps of
    the other op paths it absorbed."""
    kept = os.path.join(directory, EXAMPLES)
    others = [os.path.join(kept, n) for n in sorted(os.listdir(kept))] if os.path.isdir(kept) else []
    for d in [directory, *others]:
        path = os.path.join(d, "repro.min.py")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = _FINDING_LINE.sub(lambda m: f"{m.group(1)}{new_id}:", text, count=1)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)


def reduced_script(bucket_dir: str) -> str | None:
    """The file a bucket's replays run: ``reduced.py`` once filed; before filing (a corpus made
    by an older fmin) ``repro.min.py`` is the reducer's; unminimized, the original."""
    for name in ("reduced.py", "repro.min.py", "original.py"):
        if os.path.exists(os.path.join(bucket_dir, name)):
            return name
    return None


def reduced_path(d: str) -> str | None:
    """The path of the reducer's result in bucket directory ``d``; None before a reduction."""
    name = reduced_script(d)
    return os.path.join(d, name) if name not in (None, "original.py") else None


def read_stored(path: str):
    """A bucket's file: JSON parsed, a script as text; None when there is none."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f) if path.endswith(".json") else f.read()


def write_stored(path: str, text: str) -> None:
    """``text`` into ``path``, atomically (a killed fmin leaves the old file or the new one)."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


__all__ = ["EXAMPLES", "rename_bucket", "reduced_script", "reduced_path", "read_stored", "write_stored"]
