"""Read what real nvFuser prints: the ``NVFUSER_DUMP=segmented_fusion`` block and error texts.

Both formats are documented in ``docs/`` and tested against output captured on an H200 with
nvFuser 0.2.36 (``tests/data/nvfuser/``). Signatures follow the rule that they must survive a
rebuild: source file (relative to ``csrc/``), function and masked message; the line number is only
a hint, since it moves between builds.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .signature import first_line, mask

_GROUP = re.compile(r"^g\{(?:\((\w+)\))?\s*$")


def segments_from_dump(text: str) -> list[str | None] | None:
    """Scheduler per segment from the LAST segmented-fusion block, or None if there is none.

    Counts ``g{(<scheduler>)`` lines between ``group details:`` and ``} //Segmented_Fusion``.
    """
    end = text.rfind("} //Segmented_Fusion")
    if end < 0:
        return None
    start = text.rfind("group details:", 0, end)
    if start < 0:
        return None
    out: list[str | None] = []
    for line in text[start:end].splitlines():
        m = _GROUP.match(line.strip())
        if m:
            out.append(m.group(1))
    return out


_ASSERT = re.compile(r'INTERNAL ASSERT FAILED at "?(?P<file>[^":\s]+)"?:(?P<line>\d+)')
_RAISED = re.compile(r"Exception raised from (?P<func>\S+) at (?P<file>[^:\s]+):(?P<line>\d+)")
_GROUP_ERR = "Error from segmentation group"


@dataclass
class NvfError:
    kind: str            # internal-assert | user-check | input-mismatch | compile | cuda | other
    file: str | None
    func: str | None
    line: int | None
    message: str         # the inner message (first meaningful line)
    signature: str


def _rel(path: str | None) -> str | None:
    if not path:
        return None
    i = path.find("csrc/")
    return path[i + 5:] if i >= 0 else path.rsplit("/", 1)[-1]


_INPUT_PATTERNS = ("to be an at::Tensor", "to be bound to a tensor of dtype", "stride mismatch with contiguity",
                   "Expecting an expanded dimension", "incompatible function arguments")


def parse_error(exc_type: str, text: str) -> NvfError:
    """Turn an nvFuser exception text into a stable signature (see nvfuser-interfaces §5.4)."""
    body = text
    if _GROUP_ERR in body:
        # the parallel-compile / segment-run wrappers: prefer the first inner internal assert
        parts = body.split(_GROUP_ERR)[1:]
        inner = next((p for p in parts if "INTERNAL ASSERT FAILED" in p), parts[0])
        body = re.sub(r"^\s*\d+:\s*", "", inner)
    m = _ASSERT.search(body)
    r = _RAISED.search(body)
    func = r.group("func") if r else None
    if m:
        file = _rel(m.group("file"))
        line = int(m.group("line"))
        after = body[m.end():]
        after = after.split("Exception raised from")[0]
        after = re.sub(r"^,? ?please report a bug[^\n]*?issues\.\s*", "", after.lstrip(", "))
        msg = _strip_expected(after)
        sig = f"nvfuser internal assert: {file}:{func or '?'}: {mask(msg)[:160]}"
        return NvfError("internal-assert", file, func, line, msg, sig)
    head = body.split("Exception raised from")[0]
    msg = _strip_expected(head)
    if any(p in body for p in _INPUT_PATTERNS):
        kind = "input-mismatch"
    elif "CUDA NVRTC compile error" in body or "NVRTC error" in body:
        kind = "compile"
    elif re.search(r"CUDA error|cudaError|illegal memory access", body):
        kind = "cuda"
    elif r is not None:
        kind = "user-check"
    else:
        kind = "other"
    file = _rel(r.group("file")) if r else None
    where = f"{file}:{func}: " if r else ""
    sig = f"nvfuser {kind}: {where}{exc_type}: {mask(msg)[:160]}"
    return NvfError(kind, file, func, int(r.group("line")) if r else None, msg, sig)


def _strip_expected(text: str) -> str:
    """The message without the ``Expected <cond> .`` preamble of 0.2.31+ builds."""
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    if not lines:
        return ""
    line = lines[0]
    m = re.match(r"Expected (.*?) \. (.*)", line)
    if m and m.group(2).strip():
        return m.group(2).strip()
    return first_line(line)
