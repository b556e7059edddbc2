"""*fmin's own*: the generator or the reference was wrong, not the compiler — a bucket fmin owns,
a program fmin's static check refuses today (a rule learnt after the bucket was filed: the
generator or a mutation made it), or one the frontend refused for arguments it does not take."""
from __future__ import annotations

from ..evidence import Decision, static_rejection, values_unjudged
from .base import BugClass, register

NAME = "fmin"


def owned(bucket, script, outcome, context) -> Decision | None:
    """A bucket fmin itself owns (its generator or reference was found wrong)."""
    return Decision(NAME, "the generator or the reference was wrong") if bucket.owner == "fmin" else None


def rejected_today(bucket, script, outcome, context) -> Decision | None:
    """A program fmin's own static check refuses today: its generator or mutations made it."""
    rejected = static_rejection(script)
    return None if rejected is None else Decision(NAME, f"the static check rejects the program: {rejected}")


def unjudged_today(bucket, script, outcome, context) -> Decision | None:
    """A wrong result whose program's values fmin does not judge today (``program.unjudged``): the
    verdict was fmin's, made before it knew."""
    why = values_unjudged(script) if bucket.kind == "mismatch" else None
    return None if why is None else Decision(NAME, f"its values are no evidence: {why}")


def wrong_arguments(bucket, script, outcome, context) -> Decision | None:
    """A refusal while the fusion was defined that is the frontend's ``TypeError`` (``refusal``)."""
    refused = context.refused
    return refused if refused is not None and refused.cls == NAME else None


@register
class Fmin(BugClass):
    name = NAME
    title = "fmin's own"
    intro = "the generator or the reference was wrong"
    order, page_order = 60, 50
    claims = ((20, owned), (40, rejected_today), (45, unjudged_today), (50, wrong_arguments))
