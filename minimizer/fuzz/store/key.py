"""A bucket's key as a record: the parts that make two findings one bug, each a field.

A key is what a bucket is (``judging.keys`` makes them; the store files by them): a failure is
its label, status and root cause, a wrong result its kind of difference, ops and the validity
rules its program breaks — or, where its minimal program shows a known mechanism, that mechanism
instead of the ops, and for a wrong shape the op where the extent is lost — a segmentation
change the schedulers whose counts change. Code that
asks what a key says reads these fields, never its text: a rule added to keys later (a
mechanism, a family of ops) is a field, not another regular expression over a string.

The text (``str(key)``, ``key.text``) is derived from the fields, for people and for the bucket's
id (``store.bucket_id``: a hash of the text), so it is exactly the string earlier fmins wrote
and a corpus keeps its directories. A key of an older fmin's form that today's fields cannot
say (``store.oldkeys``, on migration) keeps its text in ``verbatim``, with what could be read of
it in the fields.

A key is compared with a key, never with a string: ``key == "text"`` raises (the two would
silently differ); compare ``str(key)`` where the text is what counts (a bucket's identity, an
alias in ``old_keys``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

#: what a key can be of (``BucketKey.kind``)
FAILURE, MISMATCH, SEGMENTATION, GENERATOR = "failure", "mismatch", "segmentation", "generator"
#: an older fmin's key of an order/layout variant whose outcome changed (``... -> error `sig` ``)
OUTCOME_CHANGE = "outcome-change"


@dataclass(frozen=True, eq=False)
class BucketKey:
    """The parts of a bucket's key; unset parts are None or empty. ``text`` says them."""
    kind: str = ""                   # FAILURE | MISMATCH | SEGMENTATION | GENERATOR | OUTCOME_CHANGE; "" none
    label: str = ""                  # the backend; "reference" for a failure the reference shares (fmin's);
    #                                  "fmin" for the generator's
    status: str | None = None        # a failure's: error | crash | timeout
    cause: str | None = None         # a failure's root cause (``oracle.rootcause``); the generator's error
    site: str | None = None          # where the error was raised (FILE:FUNC), from the root cause
    message: str | None = None       # the root cause's message template
    difference: str | None = None    # a wrong result's: dtype | shape | values | aliasing (None: an older
    #                                  key that did not say)
    detail: str | None = None        # the difference's detail: the dtypes' classes (``int for bool``) or
    #                                  the dimension error (``an expanded extent returned as 1``)
    ops: tuple[str, ...] = ()        # a wrong result's ops, sorted, each once (an older key's as written)
    output_dtype: str | None = None  # an older wrong-result key's dtype of the differing output
    rules: tuple[str, ...] = ()      # validity rules the program breaks (``program.validity``), sorted
    mechanism: str | None = None     # a wrong result's known cause, told from its minimal program's
    #                                  structure (``judging.mechanisms``): it replaces the ops
    upstream: str | None = None      # the mechanism's issue upstream, where known (``NVIDIA/Fuser#5356``)
    lost_at: str | None = None       # a wrong shape's op where the extent is lost (the minimal repro's op
    #                                  producing the differing output)
    variant: str | None = None       # a segmentation change's: "order" | "layout"
    schedulers: tuple[str, ...] = ()   # the schedulers whose kernel counts change, sorted
    seeded: bool = False             # a segmentation change of a seed as written vs its variant
    #                                  (``sources.seeded``), in that path's words
    verbatim: str | None = None      # an older key's text, where the fields cannot say it
    extra: dict = field(default_factory=dict)   # parts a newer fmin wrote, kept as they were (not compared)

    def __post_init__(self):
        for name in ("ops", "rules", "schedulers"):   # lists (from JSON, a caller) are kept as tuples
            object.__setattr__(self, name, tuple(getattr(self, name)))

    # ------------------------------------------------------------------ the text
    @property
    def text(self) -> str:
        """The key as a string: the display form and what the bucket's id hashes."""
        if self.verbatim is not None:
            return self.verbatim
        if self.kind == FAILURE:
            return f"{self.label} {self.status} {self.cause}"
        if self.kind == MISMATCH:
            return self._mismatch_text()
        if self.kind == SEGMENTATION:
            names = ", ".join(self.schedulers) or "count"
            if self.seeded:
                return f"{self.label} segmentation depends on the input {self.variant} ({names})"
            return f"{self.label} {self.variant}-dependent segmentation changes ({names})"
        if self.kind == GENERATOR:
            return f"{self.label} generator {self.cause}"
        return ""

    def _mismatch_text(self) -> str:
        breaks = f" (breaks {', '.join(self.rules)})" if self.rules else ""
        if self.output_dtype is not None:   # an older key: the differing output's op and dtype
            what = f"{self.difference} " if self.difference else ""
            return f"{self.label} mismatch {what}{', '.join(self.ops)}{breaks} -> {self.output_dtype}"
        if self.mechanism is not None:
            tracked = f" ({self.upstream})" if self.upstream else ""
            return f"{self.label} mismatch {self.difference}: {self.mechanism}{tracked}{breaks}"
        if self.difference == "shape" and self.detail:
            at = f" at {self.lost_at}" if self.lost_at else ""
            return f"{self.label} mismatch shape ({self.detail}){at}{breaks}"
        what = f"{self.difference} ({self.detail})" if self.detail else f"{self.difference}"
        return f"{self.label} mismatch {what}: {', '.join(self.ops) or 'no op'}{breaks}"

    def __str__(self) -> str:
        return self.text

    # ------------------------------------------------------------------ equality
    def _parts(self) -> tuple:
        return tuple(getattr(self, name) for name in _DEFAULTS)

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            raise TypeError("a BucketKey compared with a string: compare str(key), the key's text")
        if not isinstance(other, BucketKey):
            return NotImplemented
        return self._parts() == other._parts()

    def __hash__(self) -> int:
        return hash(self._parts())

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        """The set fields (lists for tuples), in field order, then the parts a newer fmin wrote."""
        out = {}
        for name, default in _DEFAULTS.items():
            v = getattr(self, name)
            if v != default:
                out[name] = list(v) if isinstance(v, tuple) else v
        return {**out, **self.extra}

    @classmethod
    def from_json(cls, d: dict) -> "BucketKey":
        """A key written by ``to_json``; names this fmin does not know go to ``extra``."""
        return cls(**{k: v for k, v in d.items() if k in _DEFAULTS},
                   extra={k: v for k, v in d.items() if k not in _DEFAULTS})


#: every part of a key but ``extra``, with its default (what ``to_json`` leaves out)
_DEFAULTS = {f.name: f.default for f in fields(BucketKey) if f.name != "extra"}

__all__ = ["BucketKey", "FAILURE", "MISMATCH", "SEGMENTATION", "GENERATOR", "OUTCOME_CHANGE"]
