"""*By design*: a failure of a program breaking a rule that nvFuser enforces itself, as its own
tests expect (``Rule.refused``: an output computed from CPU scalars alone); a program the compiler
refuses with its own check while the fusion is defined (an unsupported case, said so) or because
the GPU is older than what the fusion uses; an expected segmentation
(``Policy.expected_segmentation``: a reshape without a view is a copy, a transposed input takes
the transpose scheduler); a documented semantic difference of the backend from eager torch
(``Policy.by_design``). Its rows say why."""
from __future__ import annotations

from ..evidence import Decision, changed_kinds, is_segmentation, newer_gpu, refused_by
from ...judging.property import differs
from ..table import cell
from .base import BugClass, register

NAME = "by-design"


def enforced_rule(bucket, script, outcome, context) -> Decision | None:
    """The failure of a program breaking a rule nvFuser refuses itself (``evidence.refused_by``)."""
    broken = context.broken
    said = refused_by(broken[0]) if broken is not None and bucket.kind == "failure" else ""
    return Decision(NAME, f"{said}: {broken[1]}") if said else None


def refused_unsupported(bucket, script, outcome, context) -> Decision | None:
    """The compiler's check of the definition saying the case is not supported (``refusal``)."""
    refused = context.refused
    return refused if refused is not None and refused.cls == NAME else None


def gpu_too_old(bucket, script, outcome, context) -> Decision | None:
    """nvFuser saying the GPU is older than what the fusion uses (``evidence.newer_gpu``)."""
    return newer_gpu(bucket, outcome)


def expected_split(bucket, script, outcome, context) -> Decision | None:
    """A segmentation difference the backend's policy expects of the ops and schedulers involved."""
    if not is_segmentation(bucket) or context.policy is None:
        return None
    changed = changed_kinds(bucket.key)   # none: only the segment count changed, which nothing expects
    why = context.policy.expected_segmentation(context.ops, changed) if changed else None
    return Decision(NAME, why) if why else None


def documented_difference(bucket, script, outcome, context) -> Decision | None:
    """A difference from eager torch the backend's policy documents (``Policy.by_design``)."""
    if context.policy is None:
        return None
    why = context.policy.by_design(bucket.kind, differs(bucket) or None, context.dtypes)
    return Decision(NAME, why) if why else None


@register
class ByDesign(BugClass):
    name = NAME
    title = "By design"
    intro = "documented semantic differences and expected segmentations"
    order, page_order = 40, 60
    claims = ((30, enforced_rule), (51, refused_unsupported), (52, gpu_too_old), (70, expected_split),
              (80, documented_difference))

    def table(self, rows: list[dict]) -> list[str]:
        """Each bucket with why it is by design."""
        out = ["| bucket | backend | kind | why | message | attachment |", "|---|---|---|---|---|---|"]
        for r in rows:
            out.append(f"| {r['bucket']} | {r['backend']} | {cell(r['kind'], 40)} | {cell(r['_class'].reason, 140)} | "
                       f"{cell(r['message'], 120)} | {r['attachment']} |")
        return out
