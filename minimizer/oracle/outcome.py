"""``Outcome``: what one run of one script showed. The same record for every backend, so that
properties, reports and the fuzzer compare like with like."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

STATUSES = ("ok", "error", "crash", "timeout")


@dataclass
class Outcome:
    status: str                       # ok | error | crash | timeout
    backend: str = ""
    signature: str | None = None      # stable key of the failure (None when ok)
    message: str | None = None        # the failure's text (first lines)
    error_kind: str | None = None     # user-input | definition | compiler | runtime | environment | ...
    segments: int | None = None       # kernels/segments, where the backend has them
    schedulers: list[str] | None = None
    outputs: list[dict] = field(default_factory=list)   # [{shape, dtype, device}]
    seconds: float = 0.0
    environment: dict[str, Any] = field(default_factory=dict)
    log: str = ""                     # tail of what the script printed (stdout+stderr)
    values_path: str | None = None    # torch.save'd {"inputs": [...], "outputs": [...]} when asked for
    where: str | None = None          # execute | script: where the error was raised
    execute_seconds: float | None = None
    values: tuple | None = field(default=None, repr=False)  # (inputs, outputs) once loaded

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("log")
        d.pop("values")
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Outcome":
        known = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        return cls(**known)

    def load_values(self):
        """(inputs, outputs) saved by the worker, or None."""
        if not self.values_path:
            return None
        import torch
        v = torch.load(self.values_path, weights_only=False)
        self.values = (v["inputs"], v["outputs"])
        return self.values
