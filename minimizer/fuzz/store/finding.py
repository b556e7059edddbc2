"""A finding as judging hands it to the store: what the store files into a bucket (``Store.add``).

It lives with the store, below judging, because it is the store's input: judging
(``judging.oracles``) makes findings, the store files them, and neither needs the other's code
to do so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .key import BucketKey

if TYPE_CHECKING:
    from ...oracle.outcome import Outcome


@dataclass
class Finding:
    kind: str                    # the bucket's: failure | mismatch | order-dependent | layout-dependent | generator
    owner: str                   # "fmin" or the backend's name
    key: BucketKey               # bucket: the same key is the same bug (``judging.keys``)
    words: str                   # one line for people
    flags: dict = field(default_factory=dict)   # reduce property flags (empty: the default property)
    outcome: "Outcome | None" = None
    found_as: str = ""           # what the oracle found (``layout-dependent`` for a failing relayout); kind if ""
    marks: dict = field(default_factory=dict)   # bucket marks: {"layout_dependent": True} (its failure needs
    #                                             another layout than the generated program's)
    text: str | None = None      # the program that shows it, when not the judged one (a failing variant)
    traits: dict = field(default_factory=dict)  # ``keys.traits`` of that program: input dtypes and ranks

    def to_json(self) -> dict:
        return {"kind": self.kind, "owner": self.owner, "key": self.key.text, "words": self.words,
                "flags": self.flags, **self.marks}


__all__ = ["Finding"]
