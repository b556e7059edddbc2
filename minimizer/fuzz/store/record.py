"""A bucket's record, ``finding.json``: its fields as types, and the one place it is read and
written.

Every module of the fuzzer (campaign, findings, filing, attachment, the bug list, the Ray
runner) and the command line reads a bucket through ``Bucket``'s attributes, so a field has one
spelling and one type, and a field added here reaches them all. The file on disk carries its
schema version (``"schema": N``); ``load`` brings every older version to this one in memory
(``_MIGRATIONS``), so a corpus written by an older fmin is read as it is and rewritten in the
current schema the next time fmin saves the bucket. Keys this fmin does not know (written by a
newer one, or by hand) are kept in ``extra`` and written back: reading and saving a bucket never
drops data.

Free-form machine facts stay plain dicts: the environment a run reported, the generation
settings ``--replay`` needs, the property flags (``Property.from_flags``' keywords), an
attachment's expectation (``standalone.reproduces``'s input), the segment graphs of a
segmentation finding and the particulars a failure's row lists (the backend names them).

Adding a field: give ``Bucket`` (or the nested record it belongs to) an attribute with a
default (``None`` for one an older corpus does not have: it is then not written), add its JSON
name to the record's ``to_json``/``from_json`` (done by the helpers below for a plain value:
``_OPTIONAL`` or ``_NESTED``), and if its meaning changes for old records, bump ``SCHEMA`` and
add the step to ``_MIGRATIONS``.

The bucket's key is a record too (``key.BucketKey``), written as ``key_record`` next to its text
``key`` (the text for people, scripts and ``old_keys``; the record for fmin). Schema 2 added it:
a schema-1 record's key is read from its text once, by the migration (``oldkeys``).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields, replace

from .key import BucketKey
from .oldkeys import key_of

#: the version ``save`` writes; ``load`` migrates older ones
SCHEMA = 2
#: a bucket's record, in its directory
FILE = "finding.json"


def path_in(bucket_dir: str) -> str:
    """Where a bucket directory keeps its record."""
    return os.path.join(bucket_dir, FILE)


def exists(bucket_dir: str) -> bool:
    """Is ``bucket_dir`` a bucket (does it hold a record)?"""
    return os.path.exists(path_in(bucket_dir))


def _split(d: dict, names) -> tuple[dict, dict]:
    """(the known names' values, the rest)."""
    return {k: d[k] for k in names if k in d}, {k: v for k, v in d.items() if k not in names}


@dataclass
class Reduction:
    """What minimizing the bucket gave (the reducer's report), or the error that broke it."""
    ops_before: int | None = None
    ops_after: int | None = None
    inputs_before: int | None = None
    inputs_after: int | None = None
    oracle_calls: int | None = None
    seconds: float | None = None
    property: str | None = None
    interrupted: bool | None = None
    error: str | None = None                 # a reduction that broke: why (nothing else is recorded)
    extra: dict = field(default_factory=dict)

    _SUMMARY = ("ops_before", "ops_after", "inputs_before", "inputs_after", "oracle_calls", "seconds", "property",
                "interrupted")

    @classmethod
    def from_json(cls, d: dict) -> "Reduction":
        known, rest = _split(d, cls._SUMMARY + ("error",))
        return cls(**known, extra=rest)

    def to_json(self) -> dict:
        broken = self.error is not None and all(getattr(self, k) is None for k in self._SUMMARY)
        out = {} if broken else {k: getattr(self, k) for k in self._SUMMARY}
        if self.error is not None:
            out["error"] = self.error
        return {**out, **self.extra}


@dataclass
class Stale:
    """Why the bucket no longer shows its finding, when, and on which machine."""
    reason: str = ""
    at: str = ""
    environment: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, d: dict) -> "Stale":
        known, rest = _split(d, ("reason", "at", "environment"))
        return cls(**known, extra=rest)

    def to_json(self) -> dict:
        return {"reason": self.reason, "at": self.at, "environment": self.environment, **self.extra}


@dataclass
class Recurred:
    """A stale bucket met again by a campaign: the example and when."""
    example: str = ""
    at: str = ""
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, d: dict) -> "Recurred":
        known, rest = _split(d, ("example", "at"))
        return cls(**known, extra=rest)

    def to_json(self) -> dict:
        return {"example": self.example, "at": self.at, **self.extra}


@dataclass
class Recheck:
    """The last ``fmin fuzz --recheck`` of the bucket."""
    reproduces: bool | None = None
    reason: str = ""
    script: str = ""
    at: str = ""
    environment: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, d: dict) -> "Recheck":
        known, rest = _split(d, ("reproduces", "reason", "script", "at", "environment"))
        return cls(**known, extra=rest)

    def to_json(self) -> dict:
        return {"reproduces": self.reproduces, "reason": self.reason, "script": self.script, "at": self.at,
                "environment": self.environment, **self.extra}


@dataclass
class AttachmentRecord:
    """What the filed ``repro.min.py`` must show (``expect``, ``standalone.reproduces``'s input) and
    says about itself (``attachment.Attachment.to_json``)."""
    expect: dict = field(default_factory=dict)
    shows: str = ""
    variant: str | None = None
    passing_shows: str | None = None
    notes: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    _NAMES = ("expect", "shows", "variant", "passing_shows", "notes")

    @classmethod
    def from_json(cls, d: dict) -> "AttachmentRecord":
        known, rest = _split(d, cls._NAMES)
        return cls(**known, extra=rest)

    def to_json(self) -> dict:
        return {**{k: getattr(self, k) for k in self._NAMES}, **self.extra}

    @property
    def expects(self) -> str:
        """The kind of thing it must show ("failure", "outcome", "mismatch"; "none": nothing)."""
        return (self.expect or {}).get("kind", "none")


@dataclass
class StandaloneRun:
    """The attachment run on its own in a fresh process (``standalone.standalone``), or why it
    was not run (``ran`` False: only ``reproduced``, ``why`` and ``at`` then)."""
    ran: bool = False
    reproduced: bool | None = None
    why: str = ""
    command: str | None = None
    exit_code: int | None = None
    timed_out: bool | None = None
    seconds: float | None = None
    shows: str | None = None
    tail: str | None = None
    environment: dict | None = None
    passed: list | None = None
    at: str = ""
    dump_only: bool | None = None            # it reproduced only with the backend's debug output on
    extra: dict = field(default_factory=dict)

    _RUN = ("command", "exit_code", "timed_out", "seconds", "shows", "tail", "environment", "passed")

    @classmethod
    def from_json(cls, d: dict) -> "StandaloneRun":
        known, rest = _split(d, ("ran", "reproduced", "why", "at", "dump_only") + cls._RUN)
        return cls(**known, extra=rest)

    def to_json(self) -> dict:
        run = {k: getattr(self, k) for k in self._RUN} if self.ran else \
            {k: getattr(self, k) for k in self._RUN if getattr(self, k) is not None}
        dump = {} if self.dump_only is None else {"dump_only": self.dump_only}
        return {"ran": self.ran, "reproduced": self.reproduced, "why": self.why, **run, "at": self.at, **dump,
                **self.extra}


#: fields written only when set (an older corpus may not have them), in the order written
_OPTIONAL = ("dtypes", "ranks", "seeds", "old_keys", "layout_dependent", "order_dependent", "segment_graphs", "where",
             "particulars", "undefined", "ancestry")
#: fields that are records of their own
_NESTED = {"reduction": Reduction, "unvaried_reduction": Reduction, "recheck": Recheck, "stale": Stale,
           "recurred": Recurred, "attachment": AttachmentRecord, "standalone": StandaloneRun}
#: fields every record writes, in the order written
_ALWAYS = ("id", "kind", "owner", "key", "key_record", "words", "flags", "backend", "first_example", "examples",
           "count", "first_seen", "environment", "generator", "minimized")
#: what a bucket counts over its examples (``keys.traits``, a seeded example's seed file)
TRAITS = ("dtypes", "ranks", "seeds")
#: marks a finding puts on its bucket (``finding.Finding.marks``)
MARKS = ("layout_dependent", "order_dependent", "segment_graphs", "ancestry")
#: marks of the example that opened the bucket: a later example's does not replace them
FIRST_MARKS = ("ancestry",)


@dataclass
class Bucket:
    """One bucket of the findings corpus (``store.Store``), as its ``finding.json`` records it."""
    id: str = ""                             # ``store.bucket_id(key)``: the directory's name
    kind: str = ""                           # failure | mismatch | order-dependent | layout-dependent | generator
    owner: str = ""                          # "fmin" or the backend's name
    key: BucketKey = field(default_factory=BucketKey)   # the root cause (``judging.keys``), as a record
    words: str = ""                          # one line for people
    flags: dict = field(default_factory=dict)   # the property flags it is reduced under (``Property.from_flags``)
    backend: str = ""
    first_example: str = ""                  # the example id that opened it
    examples: list = field(default_factory=list)   # example ids seen (50 at most)
    count: int = 0                           # occurrences
    first_seen: str = ""
    environment: dict = field(default_factory=dict)   # the machine of the run that opened it
    generator: dict | None = None            # generation settings (frontend, max_ops, seeds) ``--replay`` needs
    minimized: bool = False
    dtypes: dict | None = None               # input dtype -> examples showing it
    ranks: dict | None = None                # input rank (as a string) -> examples
    seeds: dict | None = None                # seed file -> seeded examples mutated from it
    old_keys: list | None = None             # keys it absorbed (``Store.resolve`` answers to them)
    layout_dependent: bool | None = None     # some examples fail only with the inputs relayouted
    order_dependent: bool | None = None      # ... only with the inputs permuted
    segment_graphs: dict | None = None       # a segmentation finding's two graphs
    where: str | None = None                 # where its error was raised, where a finder knows it
    particulars: dict | None = None          # what its row lists beside the root cause (name -> values:
                                             # ``oracle.rootcause.particulars``), joined over its examples
    undefined: list | None = None            # value rules (``program.validity``) the reference run of its
                                             # script broke, as ``--recheck`` saw them: not a valid program
    #: how the program that opened it was made, where a feedback queue made it
    #: (``seedqueue.DerivedExample.ancestry``): ``{"seed_file", "chain": [{"id", "mutations"}, ...]}``;
    #: ``fmin fuzz --replay <first_example> --seeds ...`` rebuilds it from the id alone
    ancestry: dict | None = None
    reduction: Reduction | None = None
    unvaried_reduction: Reduction | None = None   # an order/layout bucket's reduction before it became a failure
    recheck: Recheck | None = None
    stale: Stale | None = None
    recurred: Recurred | None = None
    attachment: AttachmentRecord | None = None
    standalone: StandaloneRun | None = None
    schema: int = SCHEMA                     # the version read (a newer fmin's is kept as it is)
    extra: dict = field(default_factory=dict)   # keys this fmin does not know, kept as they were

    @classmethod
    def from_json(cls, d: dict) -> "Bucket":
        """A record of the current schema (``load`` migrates older ones first)."""
        d = dict(d)
        schema = d.pop("schema", SCHEMA)
        known, rest = _split(d, _ALWAYS + _OPTIONAL)
        nested = {k: _NESTED[k].from_json(rest.pop(k)) for k in list(rest)
                  if k in _NESTED and isinstance(rest[k], dict)}
        text, parts = known.pop("key", None), known.pop("key_record", None) or {}
        key = BucketKey.from_json(parts)
        if text is not None and key.text != text:   # a form this fmin does not write (a newer one's): as written
            key = replace(key, verbatim=text)
        return cls(**known, key=key, **nested, schema=schema, extra=rest)

    def to_json(self) -> dict:
        key = {"key": self.key.text, "key_record": self.key.to_json()}
        out = {"schema": self.schema, **{k: key[k] if k in key else getattr(self, k) for k in _ALWAYS}}
        if out["generator"] is None:
            del out["generator"]
        out.update({k: getattr(self, k) for k in _OPTIONAL if getattr(self, k) is not None})
        out.update({k: getattr(self, k).to_json() for k in _NESTED if getattr(self, k) is not None})
        return {**out, **self.extra}

    def mark(self, marks: dict) -> None:
        """A finding's marks (``MARKS``) onto the bucket; one this fmin does not know goes to ``extra``."""
        for name, value in marks.items():
            if name in FIRST_MARKS and (self.count or getattr(self, name) is not None):
                continue   # only the opening example's (marked before it is counted)
            if name in MARKS:
                setattr(self, name, value)
            else:
                self.extra[name] = value

    def count_traits(self, traits: dict) -> None:
        """One example's traits (name -> values: ``TRAITS``) counted into the bucket."""
        for name, values in traits.items():
            seen = getattr(self, name) if name in TRAITS else self.extra.get(name)
            if seen is None:
                seen = {}
                if name in TRAITS:
                    setattr(self, name, seen)
                else:
                    self.extra[name] = seen
            for v in values:
                seen[str(v)] = seen.get(str(v), 0) + 1

    @property
    def reproduced_standalone(self) -> bool:
        """Was its attachment shown to reproduce in a run of its own?"""
        return self.standalone is not None and self.standalone.reproduced is True


def _from_unversioned(d: dict) -> dict:
    """Schema 0, every record before records were versioned: the fields were the ones schema 1
    names (older ones lack some: no traits, generator, attachment), with the same meanings."""
    return d


def _from_schema_1(d: dict) -> dict:
    """Schema 1 held the key as its text alone; schema 2 holds its parts too (``key_record``).
    This is the one place a key's text is read back into parts (``oldkeys.key_of``: sanctioned
    here alone, for records written before the parts were); the text stays what it was, so the
    bucket keeps its id. ``old_keys`` stay texts: aliases a bucket answers to, not records."""
    return {**d, "key_record": key_of(d.get("key") or "", d.get("kind") or "").to_json()}


#: version -> the step that brings a record of that version to the next
_MIGRATIONS = {0: _from_unversioned, 1: _from_schema_1}


def migrate(d: dict) -> dict:
    """A record as JSON, of any schema up to ``SCHEMA``, brought to ``SCHEMA`` (a newer one is
    left as it is: its unknown keys ride along in ``extra``)."""
    version = d.get("schema", 0)
    d = {k: v for k, v in d.items() if k != "schema"}
    while version < SCHEMA:
        d = _MIGRATIONS[version](d)
        version += 1
    return {"schema": version, **d}


def from_json(d: dict) -> Bucket:
    """A record of any schema (migrated on the way)."""
    return Bucket.from_json(migrate(d))


def load(path: str) -> Bucket:
    """The record at ``path`` (a ``finding.json``), migrated to the current schema."""
    with open(path, encoding="utf-8") as f:
        return from_json(json.load(f))


def load_dir(bucket_dir: str) -> Bucket | None:
    """The record of a bucket directory, None when it holds none."""
    p = path_in(bucket_dir)
    return load(p) if os.path.exists(p) else None


def dumps(b: Bucket) -> str:
    return json.dumps(b.to_json(), indent=1, default=str)


def save(path: str, b: Bucket) -> None:
    """``b`` into ``path`` (a ``finding.json``), in the current schema, atomically."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(dumps(b))
    os.replace(tmp, path)


def save_dir(bucket_dir: str, b: Bucket) -> None:
    save(path_in(bucket_dir), b)


def names() -> set[str]:
    """Every field name a record has on disk (the JSON names), nested records' included."""
    out = ({f.name for f in fields(Bucket)} - {"extra"}) | {"key_record"}
    for cls in set(_NESTED.values()):
        out |= {f.name for f in fields(cls)} - {"extra"}
    return out


__all__ = ["SCHEMA", "FILE", "TRAITS", "MARKS", "Bucket", "Reduction", "Stale", "Recurred", "Recheck",
           "AttachmentRecord", "StandaloneRun", "path_in", "exists", "migrate", "from_json", "load", "load_dir",
           "dumps", "save", "save_dir", "names"]
