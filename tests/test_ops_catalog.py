"""The op catalog's torch references against hand-written torch expressions.

Each case calls ``spec.ref`` the way the interpreter does (every parameter of the frontend, defaults
filled in) and compares with a torch expression written out here. The same cases then run on
``meta`` tensors, which must give the shapes and dtypes of the CPU run.
"""
from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from minimizer.ops import CATALOG, BindError, Ctx, bind, op_names
from minimizer.model import DIRECT, LEGACY, DType, Ref, Stmt

L, D = LEGACY, DIRECT


def _g(seed):
    return torch.Generator().manual_seed(seed)


X = torch.rand(3, 4, generator=_g(1)) * 0.8 + 0.1          # in (0.1, 0.9): inside every domain
Y = torch.rand(3, 4, generator=_g(2)) * 0.8 + 0.1
B4 = torch.rand(4, generator=_g(3))                          # broadcasts against X
I = torch.tensor([[-7, 7, 12, -12], [5, -5, 9, 0]])
J = torch.tensor([[2, 2, 8, 8], [3, 3, 6, 4]])
BOOL = X > 0.5
CX = torch.complex(X, Y)


def call(op, fe=D, device="cpu", **kw):
    """``spec.ref`` with the parameters of ``fe``, defaults filled in like the interpreter does."""
    spec = CATALOG["ops." + op]
    for p in spec.params_for(fe):
        if p.name not in kw:
            assert not p.required, f"{op}: test omits required {p.name}"
            kw[p.name] = p.default
    unknown = set(kw) - {p.name for p in spec.params_for(fe)}
    assert not unknown, f"{op}: not parameters in {fe}: {unknown}"
    gen = _g(0) if device == "cpu" else None
    return spec.ref(Ctx(device=device, generator=gen, frontend=fe), **kw)


CASES: list[tuple[str, str, dict, object]] = []   # (op, frontend, kwargs, expected)


def case(op, expected, fe=D, **kw):
    CASES.append((op, fe, kw, expected))


# ---- unary: x in (0.1, 0.9), formulas where torch's own function is what the ref calls ----
UNARY = {
    "abs": lambda x: x.abs(), "acos": lambda x: x.acos(), "acosh": lambda x: (x + 1).acosh(),
    "asin": lambda x: x.asin(), "asinh": lambda x: x.asinh(), "atan": lambda x: x.atan(),
    "atanh": lambda x: 0.5 * torch.log((1 + x) / (1 - x)), "ceil": lambda x: x.ceil(),
    "cos": lambda x: x.cos(), "cosh": lambda x: (x.exp() + (-x).exp()) / 2, "exp": lambda x: math.e ** x,
    "exp2": lambda x: 2.0 ** x, "expm1": lambda x: x.exp() - 1, "erf": lambda x: x.erf(),
    "erfc": lambda x: 1 - x.erf(), "erfinv": lambda x: x.erfinv(), "erfcinv": lambda x: (1 - x).erfinv(),
    "floor": lambda x: x.floor(), "frac": lambda x: x - x.trunc(), "lgamma": lambda x: x.lgamma(),
    "log": lambda x: x.log(), "log10": lambda x: x.log() / math.log(10), "log1p": lambda x: (1 + x).log(),
    "log2": lambda x: x.log() / math.log(2), "neg": lambda x: -x, "relu": lambda x: x.clamp_min(0),
    "reciprocal": lambda x: 1 / x, "round": lambda x: x.round(), "rsqrt": lambda x: 1 / x.sqrt(),
    "sign": lambda x: x.sign(), "sigmoid": lambda x: 1 / (1 + (-x).exp()), "signbit": lambda x: x < 0,
    "silu": lambda x: x / (1 + (-x).exp()), "sin": lambda x: x.sin(), "sinh": lambda x: (x.exp() - (-x).exp()) / 2,
    "sqrt": lambda x: x ** 0.5, "tan": lambda x: x.sin() / x.cos(), "tanh": lambda x: x.tanh(),
    "trunc": lambda x: x.trunc(), "isfinite": lambda x: ~(x.isinf() | x.isnan()),
    "isreal": lambda x: torch.ones_like(x, dtype=torch.bool), "real": lambda x: x,
}
INPUT_FOR = {"acosh": X + 1}
for _op, _fn in UNARY.items():
    _x = INPUT_FOR.get(_op, X)
    case(_op, _fn(X), x=_x)
SPECIAL = torch.tensor([1.0, float("inf"), float("-inf"), float("nan")])
case("isinf", torch.tensor([False, True, True, False]), x=SPECIAL)
case("isnan", torch.tensor([False, False, False, True]), x=SPECIAL)
case("isneginf", torch.tensor([False, False, True, False]), x=SPECIAL)
case("isposinf", torch.tensor([False, True, False, False]), x=SPECIAL)
case("imag", Y, x=CX)
case("logical_not", ~BOOL, x=BOOL)
case("bitwise_not", -I - 1, x=I)
case("set", X, x=X)
case("segment_set", X, x=X)
case("cast", X.double(), arg=X, dtype="Double")
case("cast", torch.tensor([2, -2]), arg=torch.tensor([2.7, -2.7]), dtype="Int")

# ---- binary ----
case("add", X + B4, lhs=X, rhs=B4)
case("add", X + 2.5, lhs=X, rhs=2.5)
case("add", 2.5 + X, lhs=2.5, rhs=X)
case("sub", X - Y, lhs=X, rhs=Y)
case("mul", X * Y, lhs=X, rhs=Y)
case("div", X / Y, lhs=X, rhs=Y)
case("div", torch.tensor([[-3, 3, 1, -1], [1, -1, 1, 0]]), lhs=I, rhs=J)   # truncates
case("truediv", I / J, lhs=I, rhs=J)
case("fmod", torch.tensor([[-1, 1, 4, -4], [2, -2, 3, 0]]), lhs=I, rhs=J)
case("remainder", torch.tensor([[1, 1, 4, 4], [2, 1, 3, 0]]), lhs=I, rhs=J)
case("mod", torch.tensor([[-1, 1, 4, -4], [2, -2, 3, 0]]), lhs=I, rhs=J)
case("pow", X ** Y, lhs=X, rhs=Y)
case("atan2", torch.atan2(X, Y), lhs=X, rhs=Y)
case("nextafter", torch.nextafter(X, Y), lhs=X, rhs=Y)
case("minimum", torch.where(X < Y, X, Y), lhs=X, rhs=Y)
case("maximum", torch.where(X > 0.5, X, torch.full_like(X, 0.5)), lhs=X, rhs=0.5)
for _op, _fn in (("eq", lambda a, b: a == b), ("ne", lambda a, b: a != b), ("lt", lambda a, b: a < b),
                 ("le", lambda a, b: a <= b), ("gt", lambda a, b: a > b), ("ge", lambda a, b: a >= b)):
    case(_op, _fn(I, J), lhs=I, rhs=J)
case("logical_and", BOOL & (Y > 0.5), lhs=BOOL, rhs=Y > 0.5)
case("logical_or", BOOL | (X != X), lhs=BOOL, rhs=0.0)
case("bitwise_and", I & J, lhs=I, rhs=J)
case("bitwise_or", I | J, lhs=I, rhs=J)
case("bitwise_xor", I ^ J, lhs=I, rhs=J)
case("bitwise_left_shift", I * 4, lhs=I, rhs=2)
case("bitwise_right_shift", torch.div(I, 4, rounding_mode="floor"), lhs=I, rhs=2)
case("logical_right_shift", torch.tensor([2**62 - 2, 2]), lhs=torch.tensor([-8, 8]), rhs=2)
case("gcd", torch.tensor([[1, 1, 4, 4], [1, 1, 3, 4]]), lhs=I, rhs=J)
case("add_alpha", X + 3 * Y, fe=L, lhs=X, rhs=Y, alpha=3)
case("sub_alpha", I - 2 * J, fe=L, lhs=I, rhs=J, alpha=2.9)  # alpha takes the Int dtype: 2
case("complex", CX, real=X, imag=Y)

# ---- ternary ----
case("where", torch.where(BOOL, X, Y), condition=BOOL, x=X, y=Y)
case("where", torch.where(BOOL, X, torch.zeros_like(X)), condition=BOOL, x=X, y=0.0)
case("where", X, condition=True, x=X, y=Y[0, 0])
case("where", torch.where(BOOL, 1.0, 2.0).double(), condition=BOOL, x=1.0, y=2.0)   # Double scalars
case("lerp", X + 0.25 * (Y - X), x=X, y=Y, weight=0.25)
case("clamp", X.clamp(0.3, 0.6), input=X, min=0.3, max=0.6)
case("clamp", I.clamp(-5, 5), input=I, min=-5.9, max=5.9)          # bounds cast to Int
case("threshold", torch.where(X > 0.5, X, torch.full_like(X, -1.0)), input=X, threshold=0.5, value=-1.0)
case("addcmul", X + 0.5 * X * Y, input1=X, input2=X, input3=Y, alpha=0.5)

# ---- reductions ----
X3 = torch.rand(2, 3, 4, generator=_g(4))
case("sum", X3.sum((0, 2)), arg=X3, dims=[0, -1])
case("sum", X3.sum(), arg=X3)
case("sum", X3.sum(1, keepdim=True), arg=X3, dims=1, keepdim=True)
case("sum", X3.double().sum(1), arg=X3, dims=[1], dtype="Double")
case("sum", I.sum(1), arg=I.int(), dims=[1])                          # Int32 accumulates in Int
case("prod", X3.prod(2).prod(0), arg=X3, dims=[0, 2])
case("max", X3.max(1).values, arg=X3, dims=[1])
case("min", X3.min(2).values.min(0).values, arg=X3, dims=[0, 2])
case("var", X3.var(1, correction=0), fe=L, arg=X3, dims=[1], correction=0)
case("var", X3.var((0, 1)), arg=X3, dims=[0, 1])
case("var_mean", torch.var_mean(X3, 2, keepdim=True), arg=X3, dims=[2], keepdim=True)
case("welford", (X3.mean(1), ((X3 - X3.mean(1, keepdim=True)) ** 2).sum(1),
                 torch.full((2, 4), 3, dtype=torch.int32)), arg=X3, dims=[1])

# ---- scans and sorting ----
case("cumsum", X3.cumsum(1), fe=L, arg=X3, dim=1)
case("cumsum", I.int().cumsum(1).int(), arg=I.int(), dim=1)          # stays Int32
case("cumsum", X3.cumsum(2) + 1.0, arg=X3, dim=2, init=1.0)
case("cumprod", X3.cumprod(0), arg=X3, dim=0)
case("cummin", X3.cummin(2).values, arg=X3, dim=2)
case("cummax", X3.cummax(-1).values, arg=X3, dim=-1)
case("argsort", X3.argsort(1, descending=True), arg=X3, dim=1, descending=True)
case("topk", tuple(X3.topk(2, dim=-1, largest=True, sorted=True)), arg=X3, k=2, sorted=True)

# ---- shape ----
case("broadcast_in_dim", B4[None, :, None].expand(3, 4, 2), arg=B4, shape=(3, -1, 2), broadcast_dims=[1])
# the direct frontend counts a negative broadcast dim from the output's end (nvFuser's wrapDim)
case("broadcast_in_dim", B4[None, None, :].expand(3, 2, 4), arg=B4, shape=(3, 2, -1), broadcast_dims=[-1])
case("broadcast", X[:, None, :], arg=X, is_broadcast_dim=(False, True, False))
case("expand", X[None].expand(2, 3, 4), arg=X[None], shape=(2, -1, 4))
case("reshape", X.view(4, 3), arg=X, new_shape=(4, -1))
case("reshape", X.view(12), fe=L, arg=X, new_shape=(12,), original_shape=(3, 4))
case("permute", X3.transpose(0, 2).transpose(0, 1), arg=X3, dims=[1, 2, 0])
case("squeeze", X3[:, :1, :][:, 0], arg=X3[:, :1, :], dims=[1])
case("squeeze", X3[:, 0], arg=X3[:, :1].expand(2, 5, 4), dims=[-2], squeeze_expanded=True)
case("slice", X[1:3, 0:9], arg=X, start_indices=(1, 0), end_indices=(3, 9))
case("slice", X[1:3, 2:4], arg=X, start_indices=(1, 2), end_indices=(3, 4), strides=(1, 1),
     manual_normalization=True)
case("pad", torch.cat([torch.zeros(3, 1), X, torch.zeros(3, 2)], 1), arg=X, pad_widths=(1, 2))
case("pad", torch.cat([torch.full((1, 4), 7.0), X], 0), arg=X, pad_widths=(0, 0, 1, 0), value=7.0)
case("cat", torch.stack([X, Y]).transpose(0, 1).reshape(3, 8), tensors=(X, Y), dim=-1)
case("stride_order", X.t().contiguous().t(), arg=X, stride_order=[0, 1])
case("shape", (3, 4), arg=X)
case("size", 4, arg=X, dim=-1)
case("at", 7, fe=L, arg=(5, 7, 9), index=1)
case("tensor_sizes", (2, 3, 4), fe=L, arg=X3)

# ---- indexing ----
IDX = torch.tensor([2, 0, 2])
case("index_select", X[IDX], arg=X, index=IDX.int(), dim=0)
case("select", X[:, 2], arg=X, index=2, dim=1)
GI = torch.tensor([[0, 3], [1, 1], [2, 0]])
case("gather", torch.stack([X[r, GI[r]] for r in range(3)]), arg=X, index=GI, dim=1)
case("gather", torch.stack([X[r, GI[r]] for r in range(3)]), fe=L, arg1=X, index=GI.int(), dim=1)
case("take_along_axis", torch.stack([X[r, GI[r]] for r in range(3)]), arg=X, index=GI, dim=1)
_scat = X.clone()
for _r in range(3):
    for _c in range(2):
        _scat[_r, GI[_r, _c]] = Y[_r, _c]
case("scatter", _scat, arg=X, index=GI, src=Y[:, :2], dim=1)
_scat0 = X.clone()
for _r in range(3):
    _scat0[_r, GI[_r]] = 0.0
case("scatter", _scat0, fe=L, arg1=X, index=GI, src=0.0, dim=1)
_acc = torch.zeros(4, 2)
_vals = torch.rand(3, 2, generator=_g(5))
_acc_expect = _acc.clone()
for _i, _row in zip(IDX.tolist(), _vals):
    _acc_expect[_i] += _row
case("index_put_accumulate", _acc_expect, fe=L, acc=_acc, index=IDX, value=_vals)
W = torch.rand(5, 3, generator=_g(6))
TOK = torch.tensor([[4, 0], [1, 4]])
case("embedding_fwd", W[TOK], input=TOK, weight=W)
case("embedding_fwd", torch.where(TOK[..., None] == 4, 0.0, W[TOK]), input=TOK,
     weight=torch.cat([W[:4], torch.zeros(1, 3)]), padding_idx=4)

# ---- creation and random ----
case("full", torch.tensor([[1.5, 1.5]], dtype=torch.float16), shape=(1, 2), fill_value=1.5, dtype="Half")
case("iota", torch.tensor([3, 5, 7, 9]), length=4, start=3, step=2)
case("iota", torch.tensor([0, 1, 2]), fe=L, length=3, start=None, step=None)
case("iota", torch.tensor([0.5, 0.25, 0.0]), length=3, start=0.5, step=-0.25, dtype="Float")
case("triu", X.clone().masked_fill(torch.ones(3, 4, dtype=torch.bool).tril(0), 0), arg=X, diagonal=1)
case("triu", X * torch.ones(3, 4).triu(), fe=L, input=X)
case("uniform", torch.rand(2, 3, generator=_g(0)) * 2.0 - 1.0, minval=-1.0, maxval=1.0, shape=(2, 3))
case("normal", torch.randn(5, generator=_g(0), dtype=torch.float64) * 2.0 + 1.0, mean=1.0, std=2.0,
     shape=(5,), dtype="Double")
case("rand_like", torch.rand(3, 4, generator=_g(0)), arg=X)
case("randn_like", torch.randn(3, 4, generator=_g(0)), arg=X)

# ---- matmul, attention, norm ----
case("matmul", X @ Y.t(), arg1=X, arg2=Y.t())
case("linear", X @ Y.t() + B4[:3], arg1=X, arg2=Y, bias=B4[:3])
Q, K, V = (torch.rand(1, 2, 5, 8, generator=_g(s)) for s in (7, 8, 9))
DO = torch.rand(1, 2, 5, 8, generator=_g(10))


def _attention(causal, mask=None):
    q, k, v = (t.clone().requires_grad_() for t in (Q, K, V))
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
    s = (q @ k.transpose(-2, -1)) / math.sqrt(8)
    if causal:
        s = s.masked_fill(~torch.ones(5, 5, dtype=torch.bool).tril(), float("-inf"))
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    lse = torch.logsumexp(s, -1)
    o.backward(DO)
    return o.detach(), lse.detach(), (q.grad, k.grad, v.grad)


_o, _lse, _grads = _attention(True)
_seed, _off = torch.zeros(2, dtype=torch.uint64), torch.zeros((), dtype=torch.uint64)
case("sdpfa_fwd", (_o, _lse, _seed, _off), query=Q, key=K, value=V, is_causal=True)
case("sdpfa_fwd", (_o, _lse, _seed, _off), fe=L, query=Q, key=K, value=V, bias=0.0, mask=True)  # old layout
MASK = torch.rand(1, 1, 5, 5, generator=_g(11)) > 0.3
MASK[..., 0] = True
_om, _lsem, _ = _attention(False, MASK)
case("sdpfa_fwd", (_om, _lsem, _seed, _off), query=Q, key=K, value=V, mask=MASK)
case("sdpfa_bwd", _grads, grad_output=DO, query=Q, key=K, value=V, output=_o, logsumexp=_lse,
     dropout_p=0.0, is_causal=True, philox_seed=_seed, philox_offset=_off, scale=None)
NX = torch.rand(4, 3, 5, generator=_g(12))
NW, NB = torch.rand(3, generator=_g(13)), torch.rand(3, generator=_g(14))
RM, RV = torch.rand(3, generator=_g(15)), torch.rand(3, generator=_g(16)) + 0.5
_bn_mean, _bn_var = NX.mean((0, 2)), NX.var((0, 2), unbiased=False)
case("batch_norm", (F.batch_norm(NX, None, None, NW, NB, training=True, eps=1e-5), _bn_mean,
                    1 / (_bn_var + 1e-5).sqrt()),
     fe=L, arg=NX, weight=NW, bias=NB, running_mean=None, running_var=None, momentum=0.1, eps=1e-5,
     training=True)
case("batch_norm", (F.batch_norm(NX, RM, RV, NW, NB, training=False, eps=1e-5), RM, 1 / (RV + 1e-5).sqrt()),
     fe=L, arg=NX, weight=NW, bias=NB, running_mean=RM, running_var=RV, momentum=0.1, eps=1e-5,
     training=False)
_nxl = NX.permute(0, 2, 1)
case("batch_norm", (F.batch_norm(NX, None, None, training=True).permute(0, 2, 1), _bn_mean,
                    1 / (_bn_var + 1e-5).sqrt()),
     fe=L, arg=_nxl, weight=None, bias=None, running_mean=None, running_var=None, momentum=0.1,
     eps=1e-5, training=True, channels_last=True)

# scaled_mm: fp8 operands with per-tensor scales, accumulated in fp32, written in the output dtype;
# K and N multiples of 16, the second operand column-major (what cuBLAS takes: the static check
# refuses the rest, ``linalg._scaled_mm_rules``)
_f8a = (torch.arange(48.0).reshape(3, 16) / 32).to(torch.float8_e4m3fn)
_f8b = (torch.arange(256.0).reshape(16, 16) / 128).to(torch.float8_e4m3fn).t()
_s1, _s2 = torch.tensor(0.5), torch.tensor(2.0)
case("scaled_mm", (((_f8a.float() * 0.5) @ (_f8b.float() * 2.0)).to(torch.bfloat16), None, None),
     fe=L, mat1=_f8a, mat2=_f8b, scale1=_s1, scale2=_s2, dtype="BFloat16")

# grouped_mm: ATen's own at::_grouped_mm where this torch has it (its CPU kernel wants 16-byte
# strides), the offsets splitting mat1's 8 rows 3 + 5 (tests/test_grouped_mm.py: every form)
_ga, _gb = torch.rand(8, 8, generator=_g(13)), torch.rand(2, 8, 4, generator=_g(14))
_goffs = torch.tensor([3, 8], dtype=torch.int32)
case("grouped_mm", torch._grouped_mm(_ga, _gb, _goffs) if hasattr(torch, "_grouped_mm")
     else torch.cat([_ga[:3] @ _gb[0], _ga[3:] @ _gb[1]]), mat1=_ga, mat2=_gb, offsets=_goffs)

# nv_block_quantize, MXFP8: amax 31/8 over 448 is 2^-6.85, rounded up to the scale 2^-6; the values
# times 2^6 in e4m3 (NVFP4 and its rounding: tests/test_fp4.py)
_q = torch.arange(32.0).reshape(1, 32) / 8
case("nv_block_quantize", ((_q * 64).to(torch.float8_e4m3fn), torch.tensor([[2.0 ** -6]]).to(torch.float8_e8m0fnu)),
     input=_q, block_size=32, dtype="Float8_e4m3fn")

# Every op of the catalog is exercised above; nothing is skipped.
SKIPPED: dict[str, str] = {}


def _flat(v):
    return list(v) if isinstance(v, tuple) and any(isinstance(x, torch.Tensor) for x in v) else [v]


def _close(got, want, op):
    if isinstance(want, torch.Tensor):
        assert isinstance(got, torch.Tensor), op
        assert got.shape == want.shape and got.dtype == want.dtype, (op, got.shape, got.dtype, want.shape, want.dtype)
        if want.dtype == torch.uint64:
            assert torch.equal(got.long(), want.long()), op
        elif want.dtype.itemsize == 1 and want.dtype.is_floating_point:   # fp8: torch compares them bitwise only
            assert torch.equal(got.view(torch.uint8), want.view(torch.uint8)), op
        else:
            torch.testing.assert_close(got, want, equal_nan=True, atol=1e-5, rtol=1e-4, msg=op)
    else:
        assert got == want, (op, got, want)


def test_every_op_is_exercised():
    exercised = {op for op, *_ in CASES}
    assert exercised == set(op_names()) - set(SKIPPED)


@pytest.mark.parametrize("op,fe,kw,expected", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_reference_matches_torch(op, fe, kw, expected):
    got = call(op, fe, **kw)
    want = expected
    if CATALOG["ops." + op].n_outputs > 1:
        assert isinstance(got, tuple) and len(got) == len(want), op
        for g, w in zip(got, want):
            _close(g, w, op)
    else:
        _close(got, want, op)


def _meta(v):
    if isinstance(v, torch.Tensor):   # keeping strides: an expanded dim stays stride 0
        return torch.empty_strided(v.shape, v.stride(), dtype=v.dtype, device="meta")
    if isinstance(v, tuple):
        return tuple(_meta(x) for x in v)
    return v


@pytest.mark.parametrize("op,fe,kw,expected", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_meta_matches_cpu_shape_and_dtype(op, fe, kw, expected):
    cpu = _flat(call(op, fe, **kw))
    meta = _flat(call(op, fe, device="meta", **{k: _meta(v) for k, v in kw.items()}))
    assert len(cpu) == len(meta)
    for c, m in zip(cpu, meta):
        if isinstance(c, torch.Tensor):
            assert m.device.type == "meta", op
            assert (m.shape, m.dtype) == (c.shape, c.dtype), op
        else:
            assert m == c, op


def test_meta_random_ops_need_no_generator():
    for op in ("uniform", "normal"):
        out = call(op, device="meta", **{"minval" if op == "uniform" else "mean": 0.0,
                                         "maxval" if op == "uniform" else "std": 1.0, "shape": (2, 3)})
        assert out.device.type == "meta" and out.shape == (2, 3)


def test_same_seed_and_offset_draw_the_same_numbers():
    a = call("uniform", minval=0.0, maxval=1.0, shape=(4,), rng_seed=3, rng_offset=8)
    b = call("uniform", minval=0.0, maxval=1.0, shape=(4,), rng_seed=3, rng_offset=8)
    c = call("uniform", minval=0.0, maxval=1.0, shape=(4,), rng_seed=3, rng_offset=12)
    assert torch.equal(a, b) and not torch.equal(a, c)


# ---- nvFuser's rejections ----
@pytest.mark.parametrize("op,kw", [
    ("sum", dict(arg=X, dims=[])),
    ("max", dict(arg=X, dims=[0], dtype="Float")),
    ("var_mean", dict(arg=X.half(), dims=[0])),
    ("slice", dict(arg=X, start_indices=(-1, 0), end_indices=(3, 4))),
    ("slice", dict(arg=X, start_indices=(0, 0), end_indices=(3, 4), strides=(1, 2))),
    ("squeeze", dict(arg=X, dims=[0])),
    ("squeeze", dict(arg=X3[:, :1].expand(2, 5, 4), dims=[1])),
    ("broadcast_in_dim", dict(arg=X, shape=(3, 4, 2), broadcast_dims=[1, 0])),
    ("cat", dict(tensors=(X, Y.double()), dim=1)),
    ("uniform", dict(minval=0, maxval=1, shape=(2,), dtype="Int")),
])
def test_rejects_what_nvfuser_rejects(op, kw):
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        call(op, **kw)


def test_legacy_broadcast_in_dim_refuses_a_negative_dim():
    """The legacy frontend's broadcast_in_dim checks each dim against the output's range."""
    with pytest.raises(ValueError, match="Invalid broadcast_dims value"):
        call("broadcast_in_dim", fe=L, arg=B4, shape=(3, 2, 4), broadcast_dims=[-1])


# ---- scalar-only operands give Python numbers ----
@pytest.mark.parametrize("op", [op for op in op_names("unary")])
def test_unary_on_a_scalar_is_a_number(op):
    arg = {"acosh": 1.5, "isreal": 0.5, "imag": 0.5 + 0.25j, "logical_not": True, "bitwise_not": 6}.get(op, 0.5)
    got = call(op, x=arg)
    assert isinstance(got, (bool, int, float, complex)), (op, type(got))


@pytest.mark.parametrize("op", [op for op in op_names("binary")])
def test_binary_on_scalars_is_a_number(op):
    fe = L if op.endswith("_alpha") else D
    ints = op.startswith("bitwise") or op in ("gcd", "logical_right_shift", "mod")
    a, b = (12, 3) if ints else (1.5, 0.5)
    kw = dict(real=a, imag=b) if op == "complex" else dict(lhs=a, rhs=b)
    if op.endswith("_alpha"):
        kw["alpha"] = 2
    got = call(op, fe, **kw)
    assert isinstance(got, (bool, int, float, complex)), (op, type(got))


def test_scalar_values_follow_nvfuser():
    assert call("div", lhs=-7, rhs=2) == -3                    # C++ truncation
    assert call("truediv", lhs=1, rhs=3) == 1 / 3              # computed in Double, not float32
    assert call("remainder", lhs=-7, rhs=2) == 1
    assert call("fmod", lhs=-7, rhs=2) == -1
    assert call("exp", x=1) == math.e
    assert call("mul", lhs=2, rhs=3) == 6 and isinstance(call("mul", lhs=2, rhs=3), int)
    assert call("lt", lhs=1, rhs=2) is True
    assert call("where", condition=False, x=1.0, y=2.0) == 2.0
    assert call("cast", arg=2.7, dtype=DType("Int")) == 2
    assert call("clamp", input=5, min=0, max=3) == 3


def test_zero_dim_tensor_and_number_keep_tensor_dtype():
    """The common dtype is the tensor's (a number does not promote it); nvFuser then computes a
    BFloat16 common dtype in Float and returns Float (cast_half_to_float)."""
    t = torch.tensor(0.5, dtype=torch.bfloat16)
    assert call("maximum", lhs=t, rhs=0.25).dtype == torch.float32
    assert call("atan2", lhs=0.25, rhs=t).dtype == torch.float32
    i = torch.tensor(3, dtype=torch.int32)
    assert call("maximum", lhs=i, rhs=2).dtype == torch.int32


@pytest.mark.parametrize("op,out", [("add", torch.float32), ("sin", torch.float32), ("truediv", torch.float32),
                                    ("abs", torch.float16), ("neg", torch.float32), ("relu", torch.float16),
                                    ("eq", torch.bool), ("lerp", torch.float32), ("addcmul", torch.float32)])
def test_half_arithmetic_returns_float_as_in_nvfuser(op, out):
    """csrc/type_promotion.cpp computeTypes(..., cast_half_to_float): seen on the H200 as the
    fuzz campaign's dtype mismatches (docs/fuzz.md); abs/relu keep their dtype, neg does not
    (arith.cpp promotes it: bucket a83e1b4ba63d, neg of a Half input returned Float)."""
    h = torch.ones(3, dtype=torch.float16)
    spec = CATALOG["ops." + op]
    kw = {p.name: (h if p.kind == "operand" else 0.5) for p in spec.params_for(D)}
    assert spec.ref(Ctx(device="cpu"), **kw).dtype == out


# ---- binding ----
def _bind(op, args=(), fe=D, **kw):
    return bind(CATALOG["ops." + op], tuple(args), tuple(kw.items()), fe)


def test_bind_positional_and_keyword():
    b = _bind("sum", (Ref("T0"), (1,)), fe=L, keepdim=False, dtype=DType("Float"))
    assert [n for n, _ in b.args] == ["arg", "dims", "keepdim", "dtype"] and b.npos == 2
    b = _bind("var", (Ref("T0"), (0,), 1), fe=L)
    assert dict(b.args)["correction"] == 1
    b = _bind("slice", (Ref("T0"),), start_indices=(0,), end_indices=(2,), manual_normalization=True)
    assert dict(b.args)["manual_normalization"] is True


def test_bind_era_aliases():
    b = _bind("sum", (Ref("T0"),), fe=L, axes=(1,), keepdim=False)
    assert dict(b.args)["dims"] == (1,) and b.aliases_used == {"axes"}
    b = _bind("sum", (Ref("T0"),), dim=1)
    assert dict(b.args)["dims"] == 1
    b = _bind("broadcast_in_dim", (Ref("T0"),), fe=L, output_shape=(2, 3), broadcast_dims=(1,))
    assert dict(b.args)["shape"] == (2, 3) and b.aliases_used == {"output_shape"}
    b = _bind("reshape", (Ref("T0"),), fe=L, original_shape=(2, 3), new_shape=(6,))
    assert dict(b.args)["original_shape"] == (2, 3)


def test_bind_per_frontend_names():
    _bind("scatter", fe=L, arg1=Ref("T0"), index=Ref("T1"), src=Ref("T2"), dim=0)
    _bind("scatter", fe=D, arg=Ref("T0"), index=Ref("T1"), src=1.0, dim=0)
    _bind("triu", fe=L, input=Ref("T0"))
    _bind("triu", fe=D, arg=Ref("T0"))
    _bind("iota", (Ref("S0"),), fe=D)
    with pytest.raises(BindError):
        _bind("scatter", fe=D, arg1=Ref("T0"), index=Ref("T1"), src=Ref("T2"), dim=0)
    with pytest.raises(BindError):
        _bind("reshape", (Ref("T0"),), fe=D, original_shape=(2, 3), new_shape=(6,))
    with pytest.raises(BindError):
        _bind("add_alpha", (Ref("T0"), Ref("T1"), Ref("S2")), fe=D)
    with pytest.raises(BindError):
        _bind("cummax", (Ref("T0"), 0), fe=L)


def test_bind_errors():
    with pytest.raises(BindError):
        _bind("sum", (Ref("T0"),), fe=L, axis=(1,))              # unknown keyword
    with pytest.raises(BindError):
        _bind("var", (Ref("T0"), (0,)), fe=L)                     # legacy var needs correction
    _bind("var", (Ref("T0"), (0,)), fe=D)                         # direct defaults it to 1
    with pytest.raises(BindError):
        _bind("iota", (Ref("S0"),), fe=L)                         # legacy iota needs start, step
    with pytest.raises(BindError):
        _bind("cast", (Ref("T0"),))                               # missing dtype
    with pytest.raises(BindError):
        _bind("uniform", (Ref("S0"), Ref("S1"), (2,), Ref("S2")), fe=L)  # rng_seed is keyword-only


# ---- through the interpreter ----
def test_interpreter_runs_catalog_entries_with_defaults():
    from minimizer.program.interpret import run
    stmts = [
        Stmt(("T0",), "define_tensor", (("shape", (-1, -1)), ("contiguity", (True, True)),
                                        ("dtype", DType("Float")))),
        Stmt(("T1",), "ops.sum", (("arg", Ref("T0")), ("dims", (1,))), npos=1),
        Stmt(("T2",), "ops.broadcast_in_dim", (("arg", Ref("T1")), ("shape", (3, 4)),
                                               ("broadcast_dims", (0,)))),
        Stmt(("T3",), "ops.sub", (("lhs", Ref("T0")), ("rhs", Ref("T2"))), npos=2),
        Stmt((), "add_output", (("output", Ref("T3")),), npos=1),
    ]
    for device in ("cpu", "meta"):
        x = X.to(device)
        out = run(stmts, [x], frontend=L).outputs[0]
        assert out.shape == (3, 4) and out.dtype == torch.float32
        if device == "cpu":
            torch.testing.assert_close(out, X - X.sum(1, keepdim=True))
