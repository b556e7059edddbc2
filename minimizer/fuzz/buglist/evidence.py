"""What a bucket's class is decided from: the validity rules its program breaks, the compiler's
own refusals, fmin's static check today, whether values decide its verdict, the backend's policy.

``decide`` (``classes``) reads only what a bucket stores (``finding.json``, its outcome, its filed
script), so ``merge-findings`` reclassifies a corpus offline. The validity rules come through a
seam (``violations``: a function of a ``Program``), so a caller or a test can give its own.
``Context`` holds, for one bucket, what several classes' claims read, computed once and only
when a claim asks (parsing the script and judging its rules is the costly part).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from ... import backends
from ..judging.keys import difference
from ..judging.property import differs
from ..store.key import FAILURE, MISMATCH, SEGMENTATION, BucketKey
from ..store.record import Bucket

SEGMENTATION_KINDS = ("layout-dependent", "order-dependent")


@dataclass(frozen=True)
class Decision:
    """A bucket's class, why (in words; "" for a bug) and, for a missing check, the rule."""
    cls: str
    reason: str = ""
    rule: str | None = None


def default_violations() -> Callable | None:
    """``program.validity.violations`` where this fmin has it (None: no rule is known)."""
    try:
        from ...program.validity import violations
    except ImportError:
        return None
    return violations


#: what a deliberate refusal says (a check that names the unsupported case or the requirement)
_SAYS_UNSUPPORTED = re.compile(r"\b(?:not (?:yet )?supported|unsupported|should be|must be|only supports?)\b", re.I)


def static_rejection(script: str | None) -> str | None:
    """Why fmin's static check (``program.static``: the reference on meta tensors, with the ops'
    own rules such as ``scaled_mm``'s operand layouts) refuses the bucket's script today, or None.
    A campaign keeps no program it refuses; a bucket filed before a rule was learnt is fmin's."""
    if not script:
        return None
    try:
        from ...program import parse
        from ...program.static import check
        program = parse(script, "repro.py")
    except Exception:   # a script this fmin cannot read is judged by what it stored
        return None
    try:
        check(program)
    except Exception as e:
        return str(e)
    return None


def values_unjudged(script: str | None) -> str | None:
    """Why the bucket's program's output values are no evidence today (``program.unjudged``: random
    ops, a flash forward's uninitialized philox state...), or None. A wrong result filed before
    fmin knew is fmin's verdict, not a bug."""
    if not script:
        return None
    try:
        from ...program import parse
        from ...program.unjudged import value_unjudged
        why = value_unjudged(parse(script, "repro.py"))
    except Exception:   # a script this fmin cannot read is judged by what it stored
        return None
    return "; ".join(why) or None


def refusal(meta: Bucket, outcome: dict | None) -> Decision | None:
    """A failure raised while the fusion was being *defined*, as the backend's check of the
    definition (``error_kind`` "definition": nvFuser's user checks, not an internal assert): the
    compiler refuses the program with a message before anything runs — an unsupported case said
    so (``Non-TensorView outputs are not supported``, ``K should be broadcast in both inputs and
    weights, or neither``), which is what it should do with it; a check that fails without saying
    so (an unhandled dtype in a helper) is still a bug. A ``TypeError`` there is the frontend
    refusing arguments it does not take: the generator's or a mutation's error."""
    o = outcome or {}
    if meta.kind != "failure" or o.get("where") != "definition" or o.get("error_kind") != "definition":
        return None
    sig = str(o.get("signature") or "")
    if re.search(r"(?:^|: )TypeError: ", sig):
        return Decision("fmin", "the program calls the frontend with arguments it does not take")
    if not _SAYS_UNSUPPORTED.search(sig):   # a check that fails without saying why (``Could not
        return None                         # generate a max op for ... nvfuser_index_t``) is a bug
    return Decision("by-design", "refused while the fusion is defined: the compiler's own check of the "
                                 "definition says the case is not supported, before anything runs")


#: nvFuser's check of the target's compute capability against what the fusion uses (a Blackwell
#: dtype such as Float8_e8m0fnu or Float4_e2m1fn on a Hopper), made before it compiles
_NEEDS_NEWER_GPU = re.compile(r"compute capability is \w+ but this fusion requires at least", re.I)


def newer_gpu(meta: Bucket, outcome: dict | None) -> Decision | None:
    """A failure that says the GPU is too old for what the fusion uses: the compiler refusing,
    with the reason, a program this GPU cannot run — by design, whichever seed or mutation made it.
    Likewise any finding whose every seed is a fusion of an nvFuser test that skips itself on a GPU
    as old as the one it ran on (``harvest.guards``: ``nv_block_quantize`` before Blackwell): outside
    nvFuser's contract there, whatever it did (a campaign now sets such seeds aside)."""
    sig = str((outcome or {}).get("signature") or meta.key.cause or "")
    if meta.kind == "failure" and _NEEDS_NEWER_GPU.search(sig):
        return Decision("by-design", "the GPU it ran on is older than what the fusion uses (nvFuser's check of the "
                                     "compute capability says so before compiling)")
    from ...oracle.machine import parse_capability
    need, have = seeds_need(meta), parse_capability((meta.environment or {}).get("capability"))
    if need is not None and have is not None and need > have:
        return Decision("by-design", f"seeded from nvFuser tests that skip GPUs below compute capability "
                                     f"{need[0]}.{need[1]}; it ran on a {have[0]}.{have[1]}")
    return None


def seeds_need(meta: Bucket) -> tuple[int, int] | None:
    """The lowest compute capability that every seed of the bucket's programs asks for (its nvFuser
    test's skip guards, read where the test file is at hand), or None: a seed without a guard, one
    that cannot be read, or no seeds."""
    from ...harvest import guards
    needs = []
    for name in (meta.extra.get("seeds") or getattr(meta, "seeds", None) or {}):
        path, _, rest = str(name).partition("::")
        need = guards.required(path, rest.split("::")[0]) if rest else None
        if need is None:
            return None
        needs.append(need)
    return min(needs) if needs else None


def invalid(meta: Bucket, script: str | None, outcome: dict | None, violations=default_violations
            ) -> tuple[str, str] | None:
    """(rule, message) of the first validity rule the bucket's program breaks that excuses its
    verdict: a value rule its reference run recorded (``undefined``) or a static rule of its
    script, or None. A value rule excuses only a verdict that depends on values
    (``depends_on_values``): a dead overflowing ``cumprod`` says nothing about a host evaluation
    that fails whatever the values are."""
    valued = depends_on_values(meta, outcome)
    recorded = meta.undefined or meta.extra.get("undefined") or (outcome or {}).get("undefined") or ()
    for v in recorded if valued else ():
        return str(v.get("rule")), str(v.get("message", ""))
    find = violations() if violations is default_violations else violations
    if find is None or not script:
        return None
    try:
        from ...program import parse
        found = find(parse(script, "repro.py"))
    except Exception:   # a script this fmin cannot read is judged by what it stored
        return None
    on_values = value_rules()
    return next(((v.rule, v.message) for v in found if valued or v.rule not in on_values), None)


def refused_by(rule: str) -> str:
    """What nvFuser does with a program that breaks ``rule`` where it refuses it itself, as its own
    tests expect (``Rule.refused``: a CPU-only output), else "": the failure of such a program is
    the compiler keeping its contract, not a check that is missing."""
    try:
        from ...program.validity import base
    except ImportError:
        return ""
    return next((str(getattr(r, "refused", "")) for r in base.rules() if r.name == rule), "")


def value_rules() -> frozenset[str]:
    """The rules on values (``program.validity.VALUE_RULES``: they have a part that watches a run),
    where this fmin has them."""
    try:
        from ...program import validity
    except ImportError:
        return frozenset()
    return frozenset(validity.VALUE_RULES)


#: what a failed check of values says: an index past its extent (torch's host check, CUDA's
#: device-side assert) or the illegal address an unchecked one reaches
_VALUE_CHECK = re.compile(r"device-side assert|index out of (?:bounds|range)|out of bounds|"
                          r"illegal memory access|illegal address", re.I)


def depends_on_values(meta: Bucket, outcome: dict | None) -> bool:
    """Could other input values change the bucket's verdict? A wrong result of values (an
    aliased input's too), and a failure that is a check of values (``_VALUE_CHECK``, or a CUDA
    runtime error: ``error_kind`` "cuda"), can; a wrong dtype or shape, an internal assert, a
    compile error, a crash, a hang or a kernel split are the same whatever the values are."""
    key = meta.key
    if key.kind == MISMATCH:   # a wrong result, also one a layout or order variant shows
        return difference(meta) in ("values", "aliasing")
    if key.kind != FAILURE:
        return False
    o = outcome or {}
    said = " ".join(str(x) for x in (o.get("signature"), key.cause, key.message) if x)
    return o.get("error_kind") == "cuda" or bool(_VALUE_CHECK.search(said))


def is_segmentation(meta: Bucket) -> bool:
    """A layout- or order-dependent bucket whose variants both run and split the fusion
    differently (not one whose variant fails: that failure is the finding)."""
    return meta.kind in SEGMENTATION_KINDS and meta.key.kind == SEGMENTATION


def changed_kinds(key: BucketKey) -> frozenset[str]:
    """The scheduler kinds a segmentation bucket's key names (those whose counts change)."""
    return frozenset(key.schedulers)


def _policy(meta: Bucket) -> backends.Policy | None:
    try:
        return backends.policy_of(meta.backend or "")
    except ValueError:   # a backend this fmin does not know: nothing it could say is expected
        return None


@dataclass
class Context:
    """What the claims of several classes read about one bucket (``decide``'s ``context``):
    the validity rule it breaks, the compiler's refusal, the backend's policy, the ops and dtypes
    of its script. Each is computed on first use, so a bucket an earlier claim settles (a stale
    one) is never parsed, and one several claims ask about is parsed once."""
    bucket: Bucket
    script: str | None
    outcome: dict | None
    violations: object = default_violations

    @cached_property
    def broken(self) -> tuple[str, str] | None:
        """(rule, message) of the validity rule that excuses the verdict (``invalid``), or None."""
        return invalid(self.bucket, self.script, self.outcome, self.violations)

    @cached_property
    def refused(self) -> Decision | None:
        """The compiler's refusal while the fusion was defined (``refusal``), or None."""
        return refusal(self.bucket, self.outcome)

    @cached_property
    def policy(self) -> backends.Policy | None:
        """What the bucket's backend says is expected of it (None: a backend this fmin does not know)."""
        return _policy(self.bucket)

    @cached_property
    def ops(self) -> frozenset[str]:
        """The ops the script calls."""
        return frozenset(re.findall(r"\bops\.(\w+)\(", self.script or ""))

    @cached_property
    def dtypes(self) -> frozenset[str]:
        """The dtypes the script names."""
        return frozenset(re.findall(r"\bDataType\.(\w+)", self.script or ""))


__all__ = ["Context", "Decision", "refusal", "newer_gpu", "static_rejection", "values_unjudged", "invalid", "depends_on_values",
           "value_rules", "refused_by", "is_segmentation", "changed_kinds", "default_violations", "SEGMENTATION_KINDS"]
