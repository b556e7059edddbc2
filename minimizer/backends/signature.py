"""Failure signatures that stay the same across rebuilds and runs: the exception type and its
first line with numbers, addresses, tensor names and paths masked.

``mask`` rewrites, in one left-to-right pass (so one rule's output is never re-read by another):

* hexadecimal addresses ``0x7fc31c32d4a6`` -> ``0x?``;
* the directory part of paths (``/workspace/Fuser/csrc/ops/alias.cpp`` -> ``alias.cpp``): absolute
  paths, or relative ones with at least two directories;
* nvFuser kernel names ``nvfuser_pointwise_f0_c1_r0_g0`` -> ``nvfuser_pointwise_f?_c?_r?_g?``
  (and the bare counters ``nvfuser_12`` / ``kernel12``);
* TensorView names ``T0_g_float`` / ``T12_l___bfloat`` -> ``T?_g_float`` (memory type and dtype kept);
* IterDomain names, i.e. digits right before ``{``: ``iS12{i0}``, ``bS5{1 ex 6}``,
  ``iblockIdx.x846{...}``, ``iUS853{1}`` -> ``iS?{i?}``, ``bS?{N ex N}``, ``iblockIdx.x?{...}``;
* other IR/frontend value names: ``T3 tv3 TV3 S1 V2 c0 i5 d2 b1 f4 t29`` -> ``T? tv? ...`` (``t29``:
  a kernel IR tensor, in lowering asserts), but not namespaces such as ``c10::Half``;
* any other number, including negative, decimal, exponent and dotted (``0.2.36``) ones -> ``N``
  (``pointer: 140197796773888`` -> ``pointer: N``, ``Found 8 vs 1`` -> ``Found N vs N``). Digits
  that are part of a word (``float32``, ``bf16``, ``sm_90``, ``c10``) are left alone.

Whitespace runs collapse to one space, and spaces just inside brackets go (``[ iS0{i0} ]`` of
older builds reads as ``[iS0{i0}]``, ``ca_pos( 6 )`` as ``ca_pos(N)``).
"""
from __future__ import annotations

import re

_NAME_PREFIXES = "TV|tv|T|S|V|c|i|d|b|f|t"

_MASK = re.compile(
    r"(?P<hex>(?<![\w.])0x(?:[0-9a-fA-F]+|\?))"
    r"|(?P<path>(?<![\w.+/-])/(?:[\w.+-]+/)+|(?<![\w.+/-])(?:[\w.+-]+/){2,})"
    r"|(?P<kernel>(?<=_)f\d+_c\d+_r\d+_g\d+\b)"
    r"|(?P<counter>(?<=nvfuser_)\d+\b|(?<=kernel)\d+\b)"
    r"|(?P<tv>(?<![\w.?])T\d+(?=_))"
    r"|(?P<iterdomain>(?<![\w.?])[a-z?][A-Za-z.?]*?\d+(?=\{))"
    rf"|(?P<name>(?<![\w.:?])(?:{_NAME_PREFIXES})\d+(?![\w:]))"
    r"|(?P<num>(?<![\w.?])-?\d+(?:\.\d+)*(?:[eE][-+]?\d+)?)"
)


def _replace(m: re.Match) -> str:
    kind = m.lastgroup
    s = m.group(0)
    if kind == "hex":
        return "0x?"
    if kind == "path":
        return ""
    if kind == "kernel":
        return "f?_c?_r?_g?"
    if kind == "counter":
        return "?"
    if kind == "num":
        return "N"
    # tv / iterdomain / name: keep the letters, mask the trailing digits
    return re.sub(r"\d+$", "?", s)


def mask(text: str) -> str:
    text = _MASK.sub(_replace, text)
    text = re.sub(r"([\[(])\s+|\s+([\])])", lambda m: m.group(1) or m.group(2), text)
    return re.sub(r"\s+", " ", text).strip()


def first_line(text: str) -> str:
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def generic_signature(exc_type: str, message: str) -> str:
    return f"{exc_type}: {mask(first_line(message))[:200]}"


def generic_classify(error: BaseException) -> dict:
    """The outcome fields of an exception no backend knows better: the type and its masked first
    line (``error_kind`` "script" until a backend's classification says otherwise)."""
    msg = str(error)
    return {"error_kind": "script", "signature": generic_signature(type(error).__name__, msg),
            "message": f"{type(error).__name__}: {msg}"[-4000:]}
