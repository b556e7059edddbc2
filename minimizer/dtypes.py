"""nvFuser ``DataType`` names and their torch dtypes: the one table every module reads.

Scripts name dtypes two ways: ``DataType.BFloat16`` inside the fusion and ``torch.bfloat16`` in the
inputs list. Both map onto the nvFuser name, which is what the program model stores.
"""
from __future__ import annotations

import torch

# nvFuser DataType name -> torch dtype name (attribute of ``torch``), None where torch has none.
_NV_TO_TORCH: dict[str, str | None] = {
    "Double": "float64",
    "Float": "float32",
    "Half": "float16",
    "BFloat16": "bfloat16",
    "Int": "int64",
    "Int32": "int32",
    "UInt64": "uint64",
    "Bool": "bool",
    "ComplexFloat": "complex64",
    "ComplexDouble": "complex128",
    "Float8_e4m3fn": "float8_e4m3fn",
    "Float8_e5m2": "float8_e5m2",
    "Float8_e8m0fnu": "float8_e8m0fnu",
    # nvFuser's fp4 is unpacked; torch has only the packed type, which nvFuser reads as this one
    "Float4_e2m1fn": "float4_e2m1fn_x2",
    "Float4_e2m1fn_x2": "float4_e2m1fn_x2",
    "Index": "int64",
    "Null": None,
}

NV_DTYPES = tuple(_NV_TO_TORCH)

_TORCH_TO_NV: dict[str, str] = {}
for _nv, _t in _NV_TO_TORCH.items():
    if _t is not None and _t not in _TORCH_TO_NV and _nv != "Index":
        _TORCH_TO_NV[_t] = _nv
# torch spellings that alias the canonical names
_TORCH_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "long": "int64",
                  "int": "int32", "cfloat": "complex64", "cdouble": "complex128"}

FLOATING = frozenset({"Double", "Float", "Half", "BFloat16", "Float8_e4m3fn", "Float8_e5m2",
                      "Float8_e8m0fnu", "Float4_e2m1fn", "Float4_e2m1fn_x2"})
INTEGRAL = frozenset({"Int", "Int32", "UInt64", "Index"})
COMPLEX = frozenset({"ComplexFloat", "ComplexDouble"})


def is_nv_dtype(name: str) -> bool:
    return name in _NV_TO_TORCH


def to_torch(nv_name: str) -> torch.dtype:
    """torch dtype for an nvFuser DataType name; KeyError for Null or a dtype this torch lacks."""
    t = _NV_TO_TORCH[nv_name]
    if t is None or not hasattr(torch, t):
        raise KeyError(f"DataType.{nv_name} has no torch dtype here")
    return getattr(torch, t)


def torch_name(dtype: torch.dtype | str) -> str:
    """'float32' for torch.float32 or 'torch.float32' or 'float'."""
    s = str(dtype).removeprefix("torch.")
    return _TORCH_ALIASES.get(s, s)


def from_torch(dtype: torch.dtype | str) -> str:
    """nvFuser DataType name for a torch dtype (or its name)."""
    return _TORCH_TO_NV[torch_name(dtype)]


def of_python_scalar(value: object) -> str:
    """The DataType nvFuser infers for a Python scalar (bool before int: bool is an int)."""
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, int):
        return "Int"
    if isinstance(value, float):
        return "Double"
    if isinstance(value, complex):
        return "ComplexDouble"
    raise TypeError(f"not a scalar: {value!r}")


def category(x) -> str:
    """"bool", "int", "float" or "complex" for an nvFuser DataType name, a torch dtype or a Python
    number: the kinds nvFuser's ``hasSimilarDtype`` tells apart (a pad value must match its tensor's)."""
    if isinstance(x, torch.dtype):
        return "bool" if x == torch.bool else "complex" if x.is_complex else \
            "float" if x.is_floating_point else "int"
    name = x if isinstance(x, str) else of_python_scalar(x)
    return "bool" if name == "Bool" else "complex" if name in COMPLEX else "float" if name in FLOATING else "int"


def itemsize(nv_name: str) -> int:
    return to_torch(nv_name).itemsize
