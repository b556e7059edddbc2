"""Fuzzing nvFuser fusion programs: Hypothesis strategies that generate ``Program`` values."""
from .sources.specs import tensor_specs
from .sources.strategies import covered_ops, op_calls, programs

__all__ = ["covered_ops", "op_calls", "programs", "tensor_specs"]
