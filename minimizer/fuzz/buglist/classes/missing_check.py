"""*Missing checks*: the program breaks a rule of a well-defined fusion (``program.validity``: an
input written by two outputs, a shift out of range, an integer overflow ...) and the compiler
accepted it. Whatever it computed is not a wrong result; what is missing is a check that refuses
the program. One row per rule. A rule on values (an overflow, a cast out of range) excuses only a
verdict the values decide (``evidence.depends_on_values``); an internal assert, a compile error or
a crash that happens whatever the values are is a bug of the program all the same."""
from __future__ import annotations

from ..evidence import Decision
from ..table import cell, counts, plural
from .base import BugClass, register

NAME = "missing-check"


def breaks_a_rule(bucket, script, outcome, context) -> Decision | None:
    """A program that breaks a validity rule excusing its verdict (``evidence.invalid``)."""
    broken = context.broken
    return None if broken is None else Decision(NAME, broken[1], broken[0])


def _by_rule(rows: list[dict]) -> dict[str, list[dict]]:
    rules: dict[str, list[dict]] = {}
    for r in rows:
        rules.setdefault(r["_class"].rule or "?", []).append(r)
    return rules


@register
class MissingCheck(BugClass):
    name = NAME
    title = "Missing checks"
    intro = "the compiler accepts a program that breaks a rule of a well-defined fusion (one row per rule; its " \
            "buckets are not bugs)"
    order = page_order = 20
    claims = ((31, breaks_a_rule),)

    def count(self, rows: list[dict]) -> int:
        """The rules broken (its rows are rules)."""
        return len(_by_rule(rows))

    def tally(self, rows: list[dict]) -> str:
        return f"{plural(len(rows), 'bucket')} of {plural(self.count(rows), 'missing check')}"

    def table(self, rows: list[dict]) -> list[str]:
        """One row per rule: the rule, how many buckets break it and how the compiler answered."""
        out = ["| rule | what breaks it (first bucket) | buckets | the compiler's answer |", "|---|---|---|---|"]
        for rule, rs in sorted(_by_rule(rows).items(), key=lambda kv: -len(kv[1])):
            answers = ", ".join(f"{k} ×{n}" if n > 1 else k for k, n in counts(r["kind"] for r in rs))
            links = ", ".join(f"[{r['bucket']}]({r['bucket']}/)" for r in rs)
            out.append(f"| {rule} | {cell(rs[0]['_class'].reason, 160)} | {links} | {cell(answers, 80)} |")
        return out
