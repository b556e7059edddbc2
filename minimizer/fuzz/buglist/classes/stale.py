"""*Stale*: a bucket no longer shown when replayed (fixed since, or explained by a rule fmin has
learnt), with why and since when. It comes first: a bucket a recheck found stale is stale,
whatever else it is."""
from __future__ import annotations

import re

from ..evidence import Decision
from ..table import cell
from .base import BugClass, register

NAME = "stale"


def marked_stale(bucket, script, outcome, context) -> Decision | None:
    """A bucket a recheck marked stale, with the reason it recorded."""
    return Decision(NAME, str(bucket.stale.reason)) if bucket.stale is not None else None


def stale_words(reason: str) -> str:
    """A stale bucket's reason as a reader wants it. Older fmins wrote a difference from eager
    that the exact (fp64) reference showed to be rounding as "outputs differ in values, not in
    values"; what that means is said instead (the judgement now says so itself)."""
    return re.sub(r"outputs differ in (\w+), not in \1\b",
                  r"no mismatch in \1, rounding only (the \1 that differ from eager are as close to the exact "
                  r"result as eager's own rounding)", reason)


@register
class Stale(BugClass):
    name = NAME
    title = "Stale"
    intro = "no longer shown when replayed"
    order = page_order = 70
    claims = ((10, marked_stale),)

    def table(self, rows: list[dict]) -> list[str]:
        """The bucket, its key, why it is stale and since when."""
        out = ["| bucket | backend | kind | key | why stale | since |", "|---|---|---|---|---|---|"]
        for r in rows:
            s = r["_m"].stale
            out.append(f"| [{r['bucket']}]({r['bucket']}/) | {r['backend']} | {cell(r['kind'], 40)} | "
                       f"{cell(r['_m'].key, 100)} | {cell(stale_words(s.reason), 140)} | "
                       f"{str(s.at)[:10]} |")
        return out
