"""How one script is to be run: the typed ``RunOptions`` a request carries to the worker."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RunOptions:
    """How one script is to be run. Sent to the worker with each request as JSON.

    ``seed``            torch seed set before the script runs (every backend)
    ``want_values``     save the last ``fd.execute``'s inputs (after execution) and outputs (every backend)
    ``time_execute``    execute the last fusion this many more times, warm, and report the median
                        (``--slower``; every backend)
    ``fp64``            compute every floating value in float64 (the exact reference; ``reference``)
    ``perturb``         with ``fp64``: every floating input moved by a few ulps of the program's narrowest
                        floating dtype, signs drawn from this seed (0: none; ``reference``): another
                        legitimate exact result, for the ill-conditioned elements of a wrong result
    ``narrow_scans``    half/bfloat16 ``cumsum``/``cumprod`` accumulate in their own dtype, as a scan kernel
                        may: True in order, "low"/"high" at the bound of any order (``ops/scans.py``;
                        ``reference``)
    ``narrow_attention`` flash attention's P and dS rounded to the query's dtype before the matmuls that
                        read them, as ATen's flash kernels do (``ops/linalg.NARROW_P``; ``reference``)
    ``eager``           run Inductor's translation without compiling it (fuzz triage; ``inductor``)
    ``inductor_config`` Inductor config patched around every compile (``--inductor-config``; ``inductor``)
    ``standalone``      run it as a maintainer would: the script's own checks of its outputs run (a wrong
                        result's attachment ends with one, ``fuzz/attachment.py``); inside fmin's runs they
                        are skipped, fmin judges outputs itself (every backend; ``backends/launch.py``)
    """
    seed: int = 0
    want_values: bool = False
    time_execute: int = 0
    fp64: bool = False
    perturb: int = 0
    narrow_scans: bool | str = False
    narrow_attention: bool = False
    eager: bool = False
    inductor_config: tuple[tuple[str, Any], ...] = ()
    standalone: bool = False

    def replace(self, **kw) -> "RunOptions":
        return dataclasses.replace(self, **kw)

    def over(self, defaults: "RunOptions") -> "RunOptions":
        """These options, with every field left at its default taken from ``defaults`` (a pool's
        options for all its runs under a request's own)."""
        blank = RunOptions()
        return RunOptions(**{f.name: getattr(self, f.name) if getattr(self, f.name) != getattr(blank, f.name)
                             else getattr(defaults, f.name) for f in dataclasses.fields(self)})

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d["inductor_config"] = [list(kv) for kv in self.inductor_config]
        return d

    @classmethod
    def from_json(cls, d: dict | None) -> "RunOptions":
        d = dict(d or {})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown run options: {', '.join(sorted(unknown))}")
        if "inductor_config" in d:
            d["inductor_config"] = tuple((k, v) for k, v in d["inductor_config"])
        return cls(**d)
