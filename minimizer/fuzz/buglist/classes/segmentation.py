"""*Segmentation differences*: a kernel split that depends on the inputs' layout or order (a
performance observation, not a wrong answer), where the backend does not say it is expected
(``Policy.expected_segmentation``, claimed first by *by design*)."""
from __future__ import annotations

from ..evidence import Decision, is_segmentation
from .base import BugClass, register

NAME = "segmentation"


def split_differs(bucket, script, outcome, context) -> Decision | None:
    """A layout- or order-dependent bucket whose variants both run and split differently."""
    return Decision(NAME) if is_segmentation(bucket) else None


@register
class Segmentation(BugClass):
    name = NAME
    title = "Segmentation differences"
    intro = "the kernel split depends on the inputs' layout or order"
    order = page_order = 30
    claims = ((71, split_differs),)
