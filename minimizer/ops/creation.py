"""Tensor factories: full, iota, triu, and the random ops uniform, normal, rand_like, randn_like.

Factories put their results on ``ctx.device``. The random references draw from
``ctx.generator``, so their values never match nvFuser's Philox streams (the ops are marked
``nondeterministic``); but where the script passes ``rng_seed``/``rng_offset`` the draw comes from
a generator seeded with exactly those, so that two ops given the same seed and offset (a
dropout mask regenerated in a backward fusion) agree with each other, as they do in nvFuser.
"""
from __future__ import annotations

import torch

from .dims import NOT_FOLLOWED, POINTWISE
from .elementwise import torch_dtype
from .registry import register
from .spec import DIRECT_ONLY, LEGACY_ONLY, OpSpec, Param, not_generated

_SEED = (Param("rng_seed", "scalar", None, keyword_only=True),
         Param("rng_offset", "scalar", None, keyword_only=True))


# none of these is generated: a factory takes no operand to start a step from, and random
# values never match the backend's; FewerDims carries a dim through rand_like/randn_like only
_FACTORY = not_generated("a factory: no operand for a generator step to start from")
_RANDOM = not_generated("random: its values never match the backend's (nondeterministic)")


def _generator(ctx, device, rng_seed, rng_offset):
    if torch.device(device).type == "meta":
        return None
    if rng_seed is None:
        return ctx.generator
    seed = hash((int(rng_seed), int(rng_offset or 0))) & (2**63 - 1)
    return torch.Generator(device=device).manual_seed(seed)


def _float_dtype(dtype) -> torch.dtype:
    dt = torch_dtype(dtype) or torch.float32
    if not dt.is_floating_point:
        raise TypeError(f"Random distributions only create floating point types! {dtype}")
    return dt


def _uniform(ctx, minval, maxval, shape, rng_seed=None, rng_offset=None, dtype=None):
    dt = _float_dtype(dtype)
    g = _generator(ctx, ctx.device, rng_seed, rng_offset)
    u = torch.rand([int(s) for s in shape], generator=g, dtype=dt, device=ctx.device)
    return u * (maxval - minval) + minval


def _normal(ctx, mean, std, shape, rng_seed=None, rng_offset=None, dtype=None):
    dt = _float_dtype(dtype)
    g = _generator(ctx, ctx.device, rng_seed, rng_offset)
    return torch.randn([int(s) for s in shape], generator=g, dtype=dt, device=ctx.device) * std + mean


def _like(draw):
    def ref(ctx, arg, rng_seed=None, rng_offset=None):
        if (rng_seed is None) != (rng_offset is None):
            raise ValueError("rng_seed and rng_offset must be provided together!")
        g = _generator(ctx, arg.device, rng_seed, rng_offset)
        return draw(arg.shape, generator=g, dtype=arg.dtype, device=arg.device)
    return ref


def _full(ctx, shape, fill_value, dtype):
    return torch.full([int(s) for s in shape], fill_value, dtype=torch_dtype(dtype), device=ctx.device)


def _iota(ctx, length, start=None, step=None, dtype=None):
    """``start + step * arange(length)``, start and step taken in ``dtype`` (default 0 and 1)."""
    dt = torch_dtype(dtype) or torch.int64
    start = 0 if start is None else start
    step = 1 if step is None else step
    if dt.is_floating_point:
        wide = torch.float64
    else:
        wide, start, step = torch.int64, int(start), int(step)
    return (torch.arange(int(length), dtype=wide, device=ctx.device) * step + start).to(dt)


def _triu(ctx, diagonal=0, **kw):
    return torch.triu(kw["arg"] if "arg" in kw else kw["input"], int(diagonal))


register(OpSpec("full", "creation", (Param("shape", "shape"), Param("fill_value", "scalar"),
                                     Param("dtype", "dtype")),
                ref=_full, doc="torch.full(shape, fill_value, dtype)", generate=_FACTORY, dim_rule=NOT_FOLLOWED))
register(OpSpec("iota", "creation", (
    Param("length", "scalar"),
    Param("start", "scalar", frontends=LEGACY_ONLY),   # legacy: required, None allowed
    Param("start", "scalar", None, frontends=DIRECT_ONLY),
    Param("step", "scalar", frontends=LEGACY_ONLY),
    Param("step", "scalar", None, frontends=DIRECT_ONLY),
    Param("dtype", "dtype", "Int"),
), ref=_iota, doc="start + step * arange(length)", generate=_FACTORY, dim_rule=NOT_FOLLOWED))
register(OpSpec("triu", "creation", (
    Param("input", "tensor", frontends=LEGACY_ONLY),
    Param("arg", "tensor", frontends=DIRECT_ONLY),
    Param("diagonal", "int", 0),
), ref=_triu, bypass=("input", "arg"), doc="torch.triu", renamed=(("input", "arg"),),
    generate=not_generated("not added to the generator yet"), dim_rule=NOT_FOLLOWED))

register(OpSpec("uniform", "random", (Param("minval", "scalar"), Param("maxval", "scalar"),
                                      Param("shape", "shape")) + _SEED
                + (Param("dtype", "dtype", "Float", keyword_only=True),),
                ref=_uniform, nondeterministic=True, doc="torch.rand * (maxval - minval) + minval",
                generate=_RANDOM, dim_rule=NOT_FOLLOWED))
register(OpSpec("normal", "random", (Param("mean", "scalar"), Param("std", "scalar"),
                                     Param("shape", "shape")) + _SEED
                + (Param("dtype", "dtype", "Float", keyword_only=True),),
                ref=_normal, nondeterministic=True, doc="torch.randn * std + mean",
                generate=_RANDOM, dim_rule=NOT_FOLLOWED))
for _name, _draw in (("rand_like", torch.rand), ("randn_like", torch.randn)):
    register(OpSpec(_name, "random", (Param("arg", "tensor"),) + tuple(
        Param(p.name, p.kind, p.default, frontends=LEGACY_ONLY, keyword_only=True) for p in _SEED),
        ref=_like(_draw), nondeterministic=True, bypass=("arg",),
        doc=f"torch.{_name}; legacy also takes rng_seed=, rng_offset=", generate=_RANDOM, dim_rule=POINTWISE))
