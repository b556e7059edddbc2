"""What a campaign covered of the compiler's decisions: the distinct decision features and
signatures (``backends.decisions``) of the programs it judged, in example order.

Every campaign counts them (generative, seeded, seeded with ``--feedback``), so campaigns of
equal time can be compared by what they made the compiler decide, not only by what broke.
With ``--feedback`` a seeded program that showed a feature no earlier program of the campaign
showed joins the seed queue (``seedqueue``): the "new edge" of AFL, here a new decision.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...backends.decisions import signature


@dataclass
class Coverage:
    features: Counter = field(default_factory=Counter)      # feature -> programs that showed it
    signatures: Counter = field(default_factory=Counter)    # decision signature -> programs
    programs: int = 0                                       # programs that reported decisions
    #: features earlier campaigns on the corpus showed (``store.learned``): not new to this one,
    #: though its own counts above start from zero
    known: frozenset = frozenset()

    def add(self, decisions) -> set[str]:
        """One judged program's decision features; returns those no earlier program showed (of
        this campaign, or of the earlier ones it was started from)."""
        if decisions is None:
            return set()
        feats = set(decisions)
        new = {f for f in feats if f not in self.features and f not in self.known}
        self.features.update(feats)
        self.signatures[signature(feats)] += 1
        self.programs += 1
        return new

    def words(self) -> str:
        return f"{len(self.signatures)} signatures, {len(self.features)} features ({self.programs} programs)"

    def to_json(self) -> dict:
        return {"signatures": len(self.signatures), "features": len(self.features), "programs": self.programs,
                "feature_counts": dict(sorted(self.features.items()))}


__all__ = ["Coverage"]
