"""A campaign's resume log: which examples it judged, so a killed campaign resumes where it stopped."""
from __future__ import annotations

import json
import os

from ...errors import UsageError
from ...oracle.session import text_key


class Progress:
    """Which examples of one campaign were judged, so that a killed campaign resumes where it
    stopped: ``<corpus>/campaign-<backend>-<device>-<seed>-<i>of<n>.jsonl``. Its first line holds
    the generation settings (an example id means a program only under them); then one line per
    judged example (``{"id": ..., "h": the text's key}``, ``oracle.session.text_key``: a resumed
    campaign's ``Session`` knows them, so a duplicate of a judged program is skipped), written
    after the example's findings are stored, and one per chunk whose every program was judged (``{"chunk": k}``: a resumed
    campaign does not even regenerate it). Lines are appended as the campaign goes: a killed
    driver loses at most the line it was writing (a torn last line is cut off), so an example is
    judged again only if it was killed between storing its findings and recording it.

    ``resume=False`` starts the record over. Bucket directories never look at this file, and
    ``merge-findings`` and ``Store.buckets`` ignore it."""

    def __init__(self, root: str, backend: str, device: str, seed: int, shard: tuple[int, int],
                 settings: dict, resume: bool = True):
        os.makedirs(root, exist_ok=True)
        self.path = os.path.join(root, f"campaign-{backend}-{device}-{seed}-{shard[0]}of{shard[1]}.jsonl")
        self.settings = {"backend": backend, "device": device, "seed": seed, "shard": list(shard), **settings}
        self.judged: set[str] = set()
        self.seen: set[str] = set()
        self.chunks: set[int] = set()
        if resume and os.path.exists(self.path):
            self._read()
        else:
            with open(self.path, "w", encoding="utf-8") as f:
                f.write(json.dumps({"campaign": self.settings}) + "\n")
        self._f = open(self.path, "a", encoding="utf-8")

    def _read(self) -> None:
        with open(self.path, "rb") as f:
            raw = f.read()
        if raw and not raw.endswith(b"\n"):   # torn by a kill while it was written: cut it off
            raw = raw[:raw.rfind(b"\n") + 1]
            os.truncate(self.path, len(raw))
        for n, line in enumerate(raw.decode().splitlines()):
            try:
                d = json.loads(line)
            except ValueError:
                raise UsageError(f"{self.path}:{n + 1}: not a line of a campaign's progress record") from None
            if "campaign" in d:
                if d["campaign"] != self.settings:
                    raise UsageError(f"{self.path} records a campaign with other settings "
                                     f"({json.dumps(d['campaign'], sort_keys=True)}); its example ids mean other "
                                     f"programs: start over with --no-resume or use another --corpus")
            elif "chunk" in d:
                self.chunks.add(int(d["chunk"]))
            elif "id" in d:
                self.judged.add(d["id"])
                self.seen.add(d.get("h", ""))

    def judged_one(self, example_id: str, text: str) -> None:
        self._line({"id": example_id, "h": text_key(text)})
        self.judged.add(example_id)

    def chunk_done(self, k: int) -> None:
        self._line({"chunk": k})
        self.chunks.add(k)

    def _line(self, d: dict) -> None:
        self._f.write(json.dumps(d) + "\n")
        self._f.flush()

    def close(self) -> None:
        self._f.close()


__all__ = ["Progress"]
