#!/usr/bin/env python3
"""Builds warpsim's third Triton batch (testdata/triton3) on a machine with an sm_90 GPU,
Triton 3.6 and PyTorch, with the recording machinery of ../triton/triton_corpus.py
(imported: Driver, run_launch, launch_for, kept_args, compile_sm80, ...).

    python3 triton_corpus3.py OUTDIR          (CASES=a,b picks kernels; SHARD=i/n runs every n-th)

Kernels the first corpus lacks: dropout with tl.rand seeds, softmax backward, RMSNorm,
rotary embedding on a 3-D grid, SwiGLU, cross-entropy, associative scans, tl.sort,
tl.histogram, argmin with ties, tl.gather, join/split/permute/reshape, integer math,
float64, libdevice functions, clamp/fma/NaN propagation, cache and eviction hints, block
pointers, split-K with f32 atomics, f16/bf16 atomics, float atomic max/min, layer-norm
backward with atomic_cas/xchg locks, int8/fp8 e5m2/f16-accumulator/ieee/tf32x3 dots, causal
attention, a persistent TMA matmul, programmatic dependent launch and an int4 dequant GEMM.

Same files per kernel as ../triton (sm90.ptx, sm80.ptx, launch.json, launch_sm80.json, the
inputs, expected/<arch>/, meta.json). One difference: an output buffer whose first contents
matter (inout, e.g. an atomic max's -inf start) is written as <name>.bin and the launch
file names it as a {"file"} buffer; the expected bytes are its contents after the launch.
Kernels that use atomics are built so their results do not depend on the order (each
float address takes at most two additions onto zero, and a + b == b + a).
One failing kernel never stops the others; the log says what failed.
"""

import json
import os
import sys
import time
import traceback

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "triton"))
OUT = sys.argv[1] if len(sys.argv) > 1 else "triton3_out"
sys.argv = [sys.argv[0], OUT]
import triton_corpus as tc  # noqa: E402

try:
    from triton.language.extra import libdevice  # noqa: E402
except Exception:  # pragma: no cover
    from triton.language.extra.cuda import libdevice  # noqa: E402
try:
    from triton.language.extra.cuda import gdc_wait, gdc_launch_dependents  # noqa: E402
except Exception as e:  # the gdc case then fails alone
    gdc_wait = gdc_launch_dependents = None
    print("no gdc_wait/gdc_launch_dependents:", e, flush=True)

DEV = "cuda"
log = tc.log


def alloc(size, alignment, stream):
    return torch.empty(size, device=DEV, dtype=torch.int8)


try:
    triton.set_allocator(alloc)
except Exception as e:  # pragma: no cover
    log("set_allocator:", e)


# ---------------------------------------------------------------- kernels

@triton.jit
def dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    r = tl.rand(seed, offs)
    keep = r > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=m)


@triton.jit
def softmax_bwd_kernel(dx_ptr, y_ptr, dy_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    y = tl.load(y_ptr + row * stride + offs, mask=m, other=0.0)
    dy = tl.load(dy_ptr + row * stride + offs, mask=m, other=0.0)
    s = tl.sum(y * dy, axis=0)
    tl.store(dx_ptr + row * stride + offs, y * (dy - s), mask=m)


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, rstd_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(x_ptr + row * stride + offs, mask=m, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / N
    rstd = tl.math.rsqrt(ms + eps)
    w = tl.load(w_ptr + offs, mask=m, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride + offs, (x * rstd * w).to(tl.bfloat16), mask=m)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, S, H, D2: tl.constexpr):
    s = tl.program_id(0)
    h = tl.program_id(1)
    b = tl.program_id(2)
    base = ((b * S + s) * H + h) * (2 * D2)
    i = tl.arange(0, D2)
    x1 = tl.load(x_ptr + base + i).to(tl.float32)
    x2 = tl.load(x_ptr + base + D2 + i).to(tl.float32)
    c = tl.load(cos_ptr + s * D2 + i)
    sn = tl.load(sin_ptr + s * D2 + i)
    tl.store(out_ptr + base + i, (x1 * c - x2 * sn).to(tl.float16))
    tl.store(out_ptr + base + D2 + i, (x1 * sn + x2 * c).to(tl.float16))


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=m, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (a * tl.sigmoid(a) * b).to(tl.bfloat16), mask=m)


@triton.jit
def xent_kernel(logits_ptr, tgt_ptr, loss_ptr, dlogits_ptr, V, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    m = offs < V
    x = tl.load(logits_ptr + row * stride + offs, mask=m, other=-float("inf"))
    t = tl.load(tgt_ptr + row)
    mx = tl.max(x, axis=0)
    e = tl.exp(x - mx)
    s = tl.sum(e, axis=0)
    lse = mx + tl.log(s)
    xt = tl.sum(tl.where(offs == t, x, 0.0), axis=0)
    valid = t != -100
    tl.store(loss_ptr + row, tl.where(valid, lse - xt, 0.0))
    g = e / s - tl.where(offs == t, 1.0, 0.0)
    tl.store(dlogits_ptr + row * stride + offs, tl.where(valid, g, 0.0), mask=m)


@triton.jit
def _lin_rec(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def scan_kernel(a_ptr, b_ptr, h_ptr, cs_ptr, cp_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < N
    a = tl.load(a_ptr + row * N + offs, mask=m, other=1.0)
    b = tl.load(b_ptr + row * N + offs, mask=m, other=0.0)
    _, h = tl.associative_scan((a, b), 0, _lin_rec)
    tl.store(h_ptr + row * N + offs, h, mask=m)
    tl.store(cs_ptr + row * N + offs, tl.cumsum(b, axis=0, reverse=True), mask=m)
    tl.store(cp_ptr + row * N + offs, tl.cumprod(a, axis=0), mask=m)


@triton.jit
def sort_kernel(x_ptr, asc_ptr, desc_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + offs)
    tl.store(asc_ptr + row * N + offs, tl.sort(x))
    tl.store(desc_ptr + row * N + offs, tl.sort(x, descending=True))


@triton.jit
def histogram_kernel(x_ptr, hist_ptr, BLOCK: tl.constexpr, NB: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    h = tl.histogram(x, NB)
    tl.atomic_add(hist_ptr + tl.arange(0, NB), h)


@triton.jit
def argmin_kernel(x_ptr, idx_ptr, val_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=m, other=float("inf"))
    tl.store(idx_ptr + rows, tl.argmin(x, axis=1), mask=rows < M)
    tl.store(val_ptr + rows, tl.min(x, axis=1), mask=rows < M)


@triton.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    src = tl.load(src_ptr + r[:, None] * N + c[None, :])
    idx = tl.load(idx_ptr + r[:, None] * N + c[None, :])
    tl.store(out_ptr + r[:, None] * N + c[None, :], tl.gather(src, idx, 1))


@triton.jit
def shape_kernel(a_ptr, b_ptr, o1_ptr, o2_ptr, o3_ptr, o4_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(a_ptr + i)
    b = tl.load(b_ptr + i)
    j = tl.join(a, b)
    tl.store(o1_ptr + tl.arange(0, 2 * N), tl.reshape(j, (2 * N,)))
    lo, hi = tl.split(tl.reshape(a, (N // 2, 2)))
    tl.store(o2_ptr + tl.arange(0, N // 2), lo - hi * 0.5)
    p = tl.permute(tl.reshape(a, (8, N // 8)), (1, 0))
    tl.store(o3_ptr + i, tl.reshape(p, (N,)))
    t = tl.trans(tl.reshape(b, (N // 16, 16)))
    tl.store(o4_ptr + i, tl.reshape(t, (N,)) + 1.0)


@triton.jit
def intmath_kernel(x_ptr, y_ptr, u8_ptr, q_ptr, r_ptr, sh_ptr, ush_ptr, hi_ptr, w_ptr, uu_ptr, n,
                   BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    y = tl.load(y_ptr + offs, mask=m, other=1)
    u = tl.load(u8_ptr + offs, mask=m, other=0)
    tl.store(q_ptr + offs, x // y, mask=m)
    tl.store(r_ptr + offs, x % y, mask=m)
    tl.store(sh_ptr + offs, x >> (y & 31), mask=m)
    ux = x.to(tl.uint32, bitcast=True)
    uy = y.to(tl.uint32, bitcast=True)
    tl.store(ush_ptr + offs, ((ux >> (uy & 31)) + ux // (uy | 1)).to(tl.int32, bitcast=True), mask=m)
    tl.store(hi_ptr + offs, tl.umulhi(ux, uy).to(tl.int32, bitcast=True), mask=m)
    w = x.to(tl.int64) * y.to(tl.int64) + 12345678901
    tl.store(w_ptr + offs, w // 7 - (w % 1000003), mask=m)
    uu = (u * 3 + 7) ^ (u >> 2)
    tl.store(uu_ptr + offs, uu, mask=m)


@triton.jit
def f64_kernel(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    z = tl.fma(x, y, x * 0.5) + tl.sqrt(tl.abs(x)) + x / (tl.abs(y) + 1.0)
    z = z + tl.exp(x * 0.25) + tl.log(tl.abs(y) + 1.0) + tl.sin(x)
    tl.store(o_ptr + offs, z, mask=m)


@triton.jit
def libdevice_a_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.5)
    tl.store(o_ptr + 0 * n + offs, libdevice.pow(tl.abs(x) + 0.5, x * 3.0), mask=m)
    tl.store(o_ptr + 1 * n + offs, libdevice.tanh(x * 3.0), mask=m)
    tl.store(o_ptr + 2 * n + offs, libdevice.erfinv(x), mask=m)
    tl.store(o_ptr + 3 * n + offs, libdevice.asin(x), mask=m)
    tl.store(o_ptr + 4 * n + offs, libdevice.acos(x), mask=m)
    tl.store(o_ptr + 5 * n + offs, libdevice.atan2(x, x + 0.3), mask=m)
    tl.store(o_ptr + 6 * n + offs, libdevice.log1p(x), mask=m)
    tl.store(o_ptr + 7 * n + offs, libdevice.expm1(x), mask=m)


@triton.jit
def libdevice_b_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.5)
    tl.store(o_ptr + 0 * n + offs, libdevice.cbrt(x * 10.0), mask=m)
    tl.store(o_ptr + 1 * n + offs, libdevice.sinh(x * 4.0), mask=m)
    tl.store(o_ptr + 2 * n + offs, libdevice.cosh(x * 4.0), mask=m)
    tl.store(o_ptr + 3 * n + offs, libdevice.lgamma(x + 2.0), mask=m)
    tl.store(o_ptr + 4 * n + offs, libdevice.tgamma(x + 1.5), mask=m)
    tl.store(o_ptr + 5 * n + offs, libdevice.hypot(x, x * 0.75 + 0.1), mask=m)
    tl.store(o_ptr + 6 * n + offs, libdevice.fmod(x * 7.0, 0.8), mask=m)
    tl.store(o_ptr + 7 * n + offs, libdevice.exp10(x) + libdevice.log10(tl.abs(x) + 0.01), mask=m)
    tl.store(o_ptr + 8 * n + offs, libdevice.normcdfinv((x + 1.0) * 0.5), mask=m)


@triton.jit
def clamp_kernel(x_ptr, y_ptr, o_ptr, n, lo, hi, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    tl.store(o_ptr + 0 * n + offs, tl.clamp(x, lo, hi), mask=m)
    tl.store(o_ptr + 1 * n + offs, tl.fma(x, y, x), mask=m)
    tl.store(o_ptr + 2 * n + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL), mask=m)
    tl.store(o_ptr + 3 * n + offs, tl.maximum(x, y), mask=m)
    tl.store(o_ptr + 4 * n + offs, tl.math.div_rn(x, y), mask=m)
    tl.store(o_ptr + 5 * n + offs, tl.math.sqrt_rn(tl.abs(x)), mask=m)
    tl.store(o_ptr + 6 * n + offs, tl.math.fdiv(x, y), mask=m)
    tl.store(o_ptr + 7 * n + offs, tl.sqrt(x), mask=m)


@triton.jit
def cache_hints_kernel(x_ptr, y_ptr, o_ptr, o2_ptr, o3_ptr, n, BLOCK: tl.constexpr):
    # (ptxas refuses an eviction priority beside .cg/.ca/.wt, so each hint comes alone)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, cache_modifier=".cg")
    y = tl.load(y_ptr + offs, mask=m, eviction_policy="evict_first")
    z = tl.load(x_ptr + offs, mask=m, volatile=True)
    w = tl.load(y_ptr + offs, mask=m, cache_modifier=".cv")
    v = tl.load(x_ptr + offs + 1, mask=m, eviction_policy="evict_last")
    u = tl.load(y_ptr + offs + 1, mask=m, cache_modifier=".ca")
    tl.store(o_ptr + offs, x * y + z - w, mask=m, cache_modifier=".cs")
    tl.store(o2_ptr + offs, x - y, mask=m, cache_modifier=".wt")
    tl.store(o3_ptr + offs, v * u, mask=m, eviction_policy="evict_first")


@triton.jit
def blockptr_mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (sam, sak), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (sbk, sbn), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (scm, scn), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))


@triton.jit
def splitk_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    grid_n = tl.cdiv(N, BN)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = pid_k * BK + tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK * SPLIT_K)):
        kr = K - k * BK * SPLIT_K
        a = tl.load(a_ptrs, mask=rk[None, :] < kr, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < kr, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * SPLIT_K
        b_ptrs += BK * SPLIT_K * sbk
    tl.atomic_add(c_ptr + rm[:, None] * scm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def atomic16_kernel(x_ptr, idx_ptr, h_ptr, b_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    i = tl.load(idx_ptr + offs, mask=m, other=0)
    tl.atomic_add(h_ptr + i, x.to(tl.float16), mask=m)
    tl.atomic_add(b_ptr + i, x.to(tl.bfloat16), mask=m)


@triton.jit
def atomic_minmax_kernel(x_ptr, fmax_ptr, fmin_ptr, imax_ptr, ior_ptr, ixor_ptr, n, NB: tl.constexpr,
                         BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    k = offs % NB
    tl.atomic_max(fmax_ptr + k, x, mask=m)
    tl.atomic_min(fmin_ptr + k, x, mask=m)
    xi = (x * 1000.0).to(tl.int32)
    tl.atomic_max(imax_ptr + k, xi, mask=m)
    tl.atomic_or(ior_ptr + k, xi & 0xFF0, mask=m)
    tl.atomic_xor(ixor_ptr + k, xi, mask=m)


@triton.jit
def ln_bwd_kernel(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N, GROUP_SIZE_M: tl.constexpr,
                  BLOCK_SIZE_N: tl.constexpr):
    # Triton tutorial 05's _layer_norm_bwd_dx_fused: partial dW/dB summed per lock under a
    # spin lock (atomic_cas / atomic_xchg). Two rows share each lock, so the sum is a + b
    # whatever order they take it in.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr, ACC: tl.constexpr, PREC: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        if PREC == "default":
            acc = tl.dot(a, b, acc, out_dtype=ACC)
        else:
            acc = tl.dot(a, b, acc, input_precision=PREC, out_dtype=ACC)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :], acc.to(c_ptr.dtype.element_ty))


@triton.jit
def attn_causal_kernel(Q, K, V, Out, Lse, sm_scale, N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       D: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    base = off_h * N_CTX * D
    q = tl.load(Q + base + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = (start_m + 1) * BLOCK_M
    for start_n in range(0, hi, BLOCK_N):
        k = tl.load(K + base + (start_n + offs_n)[None, :] * D + offs_d[:, None])
        qk = tl.dot(q, k) * qk_scale
        causal = offs_m[:, None] >= (start_n + offs_n)[None, :]
        qk = tl.where(causal, qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V + base + (start_n + offs_n)[:, None] * D + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Lse + off_h * N_CTX + offs_m, m_i + tl.math.log2(l_i))
    tl.store(Out + base + offs_m[:, None] * D + offs_d[None, :], acc.to(Out.dtype.element_ty))


@triton.jit
def persistent_tma_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                          NUM_PROGS: tl.constexpr):
    start_pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    for tile_id in tl.range(start_pid, num_tiles, NUM_PROGS):
        pid_m = tile_id // num_pid_n
        pid_n = tile_id % num_pid_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(0, tl.cdiv(K, BK)):
            a = a_desc.load([pid_m * BM, ki * BK])
            b = b_desc.load([pid_n * BN, ki * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def gdc_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    gdc_wait()
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    gdc_launch_dependents()
    tl.store(y_ptr + offs, x * 3.0 - 1.0, mask=m)


@triton.jit
def dequant_mm_kernel(a_ptr, q_ptr, s_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr):
    # int4 weights, two per uint8 along K (low nibble first), minus 8, times a per-column f16 scale.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk2 = tl.arange(0, BK // 2)
    scale = tl.load(s_ptr + rn)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + tl.arange(0, BK))[None, :])
        q = tl.load(q_ptr + (k // 2 + rk2)[:, None] * N + rn[None, :])
        lo = (q & 0xF).to(tl.int8) - 8
        hi = (q >> 4).to(tl.int8) - 8
        w = tl.reshape(tl.permute(tl.join(lo, hi), (0, 2, 1)), (BK, BN))
        acc = tl.dot(a, w.to(tl.float16) * scale[None, :], acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


# ---------------------------------------------------------------- cases

class Case(tc.Case):
    """tc.Case plus inout (outputs whose first contents are recorded as an input file) and
    launch_opts (extra options for Triton's launch, retried without them if refused)."""

    def __init__(self, *a, inout=(), launch_opts=None, **k):
        super().__init__(*a, **k)
        self.inout = set(inout)
        self.launch_opts = launch_opts or {}


def randn(shape, dtype, g, scale=1.0):
    return tc.randn(shape, dtype, g, scale)


def cases():
    out = []
    g = torch.Generator().manual_seed(4321)
    f16, bf16, f32 = torch.float16, torch.bfloat16, torch.float32

    n = 3000
    out.append(Case("dropout_f32", dropout_kernel, (3,),
                    [("x", randn(n, f32, g)), ("out", torch.zeros(n)), ("n", n), ("p", 0.3), ("seed", 2024)],
                    dict(BLOCK=1024), 4, 3, ["out"], "low-memory dropout: tl.rand(seed, offsets) > p, n=3000"))

    M, N = 48, 300
    y = torch.softmax(randn((M, N), f32, g, 2.0), dim=1)
    out.append(Case("softmax_bwd_f32", softmax_bwd_kernel, (M,),
                    [("dx", torch.zeros((M, N))), ("y", y), ("dy", randn((M, N), f32, g)), ("stride", N),
                     ("n_cols", N)],
                    dict(BLOCK=512), 2, 3, ["dx"], "softmax backward y*(dy - sum(y*dy)), 48x300 f32, num_warps=2"))

    M, N = 8, 2000
    out.append(Case("rmsnorm_bf16_w16", rmsnorm_kernel, (M,),
                    [("x", randn((M, N), bf16, g)), ("w", randn(N, bf16, g)), ("y", torch.zeros((M, N), dtype=bf16)),
                     ("rstd", torch.zeros(M)), ("stride", N), ("N", N), ("eps", 1e-6)],
                    dict(BLOCK=2048), 16, 3, ["y", "rstd"], "RMSNorm forward, 8x2000 bf16, BLOCK=2048, num_warps=16"))

    B, S, H, D2 = 2, 16, 4, 32
    pos = torch.arange(S, dtype=torch.float32)[:, None]
    inv = 1.0 / (10000 ** (torch.arange(D2, dtype=torch.float32) / D2))
    ang = pos * inv[None, :]
    out.append(Case("rope_f16_grid3d", rope_kernel, (S, H, B),
                    [("x", randn((B, S, H, 2 * D2), f16, g)), ("cos", torch.cos(ang).contiguous()),
                     ("sin", torch.sin(ang).contiguous()), ("out", torch.zeros((B, S, H, 2 * D2), dtype=f16)),
                     ("S", S), ("H", H)],
                    dict(D2=D2), 1, 3, ["out"], "rotary embedding (half split), f16, 3-D grid 16x4x2, num_warps=1"))

    n = 2500
    out.append(Case("swiglu_bf16_w1", swiglu_kernel, (10,),
                    [("a", randn(n, bf16, g, 2.0)), ("b", randn(n, bf16, g)), ("out", torch.zeros(n, dtype=bf16)),
                     ("n", n)],
                    dict(BLOCK=256), 1, 3, ["out"], "SwiGLU silu(a)*b, bf16, n=2500, num_warps=1"))

    M, V = 16, 1000
    tgt = torch.randint(0, V, (M,), generator=g, dtype=torch.int64)
    tgt[5] = -100
    out.append(Case("xent_f32", xent_kernel, (M,),
                    [("logits", randn((M, V), f32, g, 3.0)), ("tgt", tgt), ("loss", torch.zeros(M)),
                     ("dlogits", torch.zeros((M, V))), ("V", V), ("stride", V)],
                    dict(BLOCK=1024), 4, 3, ["loss", "dlogits"],
                    "cross-entropy forward+grad (log-sum-exp, int64 targets, ignore_index -100), 16x1000 f32"))

    M, N = 8, 200
    out.append(Case("scan_f32", scan_kernel, (M,),
                    [("a", 1.0 + randn((M, N), f32, g, 0.02)), ("b", randn((M, N), f32, g)),
                     ("h", torch.zeros((M, N))), ("cs", torch.zeros((M, N))), ("cp", torch.zeros((M, N))), ("N", N)],
                    dict(BLOCK=256), 4, 3, ["h", "cs", "cp"],
                    "tl.associative_scan (linear recurrence h=a*h+b), reverse tl.cumsum, tl.cumprod, 8x200 f32"))

    x = torch.randint(-50, 50, (8, 128), generator=g).to(f32) * 0.25
    x[0, 3] = -0.0
    x[0, 9] = 0.0
    out.append(Case("sort_f32", sort_kernel, (8,),
                    [("x", x), ("asc", torch.zeros((8, 128))), ("desc", torch.zeros((8, 128)))],
                    dict(N=128), 4, 3, ["asc", "desc"], "tl.sort ascending and descending, 8 rows of 128 f32 with ties"))

    x = torch.randint(0, 64, (4096,), generator=g, dtype=torch.int32)
    out.append(Case("histogram_i32", histogram_kernel, (4,), [("x", x), ("hist", torch.zeros(64, dtype=torch.int32))],
                    dict(BLOCK=1024, NB=64), 4, 3, ["hist"], "tl.histogram per program + tl.atomic_add, 4096 values"))

    M, N = 50, 100
    out.append(Case("argmin_f32", argmin_kernel, (7,),
                    [("x", torch.randint(-20, 20, (M, N), generator=g).to(f32)),
                     ("idx", torch.zeros(M, dtype=torch.int32)), ("val", torch.zeros(M)), ("M", M), ("N", N)],
                    dict(BM=8, BN=128), 2, 3, ["idx", "val"], "tl.argmin/tl.min along rows with ties, 50x100, num_warps=2"))

    M, N = 32, 64
    out.append(Case("gather_f32", gather_kernel, (1,),
                    [("src", randn((M, N), f32, g)), ("idx", torch.randint(0, N, (M, N), generator=g, dtype=torch.int32)),
                     ("out", torch.zeros((M, N)))],
                    dict(M=M, N=N), 4, 3, ["out"], "tl.gather along axis 1, 32x64 f32"))

    N = 256
    out.append(Case("shape_ops_f32", shape_kernel, (1,),
                    [("a", randn(N, f32, g)), ("b", randn(N, f32, g)), ("o1", torch.zeros(2 * N)),
                     ("o2", torch.zeros(N // 2)), ("o3", torch.zeros(N)), ("o4", torch.zeros(N))],
                    dict(N=N), 4, 3, ["o1", "o2", "o3", "o4"], "tl.join, tl.split, tl.permute, tl.trans, tl.reshape"))

    n = 1000
    x = torch.randint(-(1 << 30), 1 << 30, (n,), generator=g, dtype=torch.int32)
    yv = torch.randint(-5000, 5000, (n,), generator=g, dtype=torch.int32)
    yv[yv == 0] = 3
    yv[:8] = torch.tensor([1, -1, 2, -2, 7, -7, 1 << 20, -(1 << 20)], dtype=torch.int32)
    out.append(Case("intmath_i32", intmath_kernel, (4,),
                    [("x", x), ("y", yv), ("u8", torch.randint(0, 256, (n,), generator=g, dtype=torch.uint8)),
                     ("q", torch.zeros(n, dtype=torch.int32)), ("r", torch.zeros(n, dtype=torch.int32)),
                     ("sh", torch.zeros(n, dtype=torch.int32)), ("ush", torch.zeros(n, dtype=torch.int32)),
                     ("hi", torch.zeros(n, dtype=torch.int32)), ("w", torch.zeros(n, dtype=torch.int64)),
                     ("uu", torch.zeros(n, dtype=torch.uint8)), ("n", n)],
                    dict(BLOCK=256), 4, 3, ["q", "r", "sh", "ush", "hi", "w", "uu"],
                    "integer // % >> (signed, unsigned), umulhi, int64 mul/div/mod, uint8 wrap, n=1000"))

    n = 1000
    out.append(Case("f64_math", f64_kernel, (4,),
                    [("x", randn(n, torch.float64, g, 3.0)), ("y", randn(n, torch.float64, g, 3.0)),
                     ("o", torch.zeros(n, dtype=torch.float64)), ("n", n)],
                    dict(BLOCK=256), 4, 3, ["o"], "float64 fma, sqrt, division, exp, log, sin (libdevice), n=1000"))

    n = 1000
    x = (torch.rand(n, generator=g) * 1.9 - 0.95).to(f32)
    out.append(Case("libdevice_a_f32", libdevice_a_kernel, (1,), [("x", x), ("o", torch.zeros(8 * n)), ("n", n)],
                    dict(BLOCK=1024), 4, 3, ["o"], "libdevice pow, tanh, erfinv, asin, acos, atan2, log1p, expm1"))
    out.append(Case("libdevice_b_f32", libdevice_b_kernel, (1,), [("x", x), ("o", torch.zeros(9 * n)), ("n", n)],
                    dict(BLOCK=1024), 4, 3, ["o"],
                    "libdevice cbrt, sinh, cosh, lgamma, tgamma, hypot, fmod, exp10, log10, normcdfinv"))

    n = 777
    x, yv = randn(n, f32, g, 3.0), randn(n, f32, g, 3.0)
    x[:6] = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1e-40])
    yv[:6] = torch.tensor([1.0, float("nan"), 2.0, -0.0, 0.0, float("inf")])
    yv[10:14] = torch.tensor([0.0, -0.0, 1e-39, -1e30])
    out.append(Case("clamp_nan_f32", clamp_kernel, (1,),
                    [("x", x), ("y", yv), ("o", torch.zeros(8 * n)), ("n", n), ("lo", -1.5), ("hi", 2.25)],
                    dict(BLOCK=1024), 4, 3, ["o"],
                    "tl.clamp, tl.fma, minimum(propagate_nan=ALL), maximum, div_rn, sqrt_rn, fdiv, sqrt; NaN/Inf/-0/"
                    "subnormal inputs"))

    n = 2000
    out.append(Case("cache_hints_f32", cache_hints_kernel, (8,),
                    [("x", torch.cat([randn(n, f32, g), torch.ones(1)])),
                     ("y", torch.cat([randn(n, f32, g), torch.ones(1)])), ("o", torch.zeros(n)),
                     ("o2", torch.zeros(n)), ("o3", torch.zeros(n)), ("n", n)],
                    dict(BLOCK=256), 4, 3, ["o", "o2", "o3"],
                    "loads .cg/.ca/.cv/volatile/evict_last/evict_first, stores .cs/.wt/evict_first"))

    M, N, K = 100, 80, 72
    a, b = randn((M, K), f16, g), randn((K, N), f16, g)
    c = torch.zeros((M, N), dtype=f16)
    out.append(Case("blockptr_mm_f16", blockptr_mm_kernel, (2, 2),
                    [("a", a), ("b", b), ("c", c), ("M", M), ("N", N), ("K", K), ("sam", K), ("sak", 1), ("sbk", N),
                     ("sbn", 1), ("scm", N), ("scn", 1)],
                    dict(BM=64, BN=64, BK=32), 4, 3, ["c"],
                    "matmul through tl.make_block_ptr/tl.advance with boundary_check, (100,80,72) f16"))

    M, N, K = 128, 64, 256
    out.append(Case("splitk_f16_atomic", splitk_kernel, (2, 2),
                    [("a", randn((M, K), f16, g)), ("b", randn((K, N), f16, g)), ("c", torch.zeros((M, N))),
                     ("M", M), ("N", N), ("K", K), ("sam", K), ("sbk", N), ("scm", N)],
                    dict(BM=64, BN=64, BK=32, SPLIT_K=2), 4, 3, ["c"],
                    "split-K matmul (SPLIT_K=2) f16 -> f32 with tl.atomic_add, (128,64,256)"))

    n = 2048
    idx = (torch.randperm(n, generator=g) // 2).to(torch.int32)
    out.append(Case("atomic_f16_bf16", atomic16_kernel, (8,),
                    [("x", randn(n, f32, g)), ("idx", idx), ("h", torch.zeros(n // 2, dtype=f16)),
                     ("bb", torch.zeros(n // 2, dtype=bf16)), ("n", n)],
                    dict(BLOCK=256), 4, 3, ["h", "bb"], "f16 and bf16 tl.atomic_add, each address hit twice"))

    n, NB = 3000, 16
    init = lambda v, dt: torch.full((NB,), v, dtype=dt)  # noqa: E731
    out.append(Case("atomic_minmax_f32", atomic_minmax_kernel, (3,),
                    [("x", randn(n, f32, g, 5.0)), ("fmax", init(-float("inf"), f32)), ("fmin", init(float("inf"), f32)),
                     ("imax", init(-(1 << 31), torch.int32)), ("ior", init(0, torch.int32)),
                     ("ixor", init(0x5A5A5A5A, torch.int32)), ("n", n)],
                    dict(NB=NB, BLOCK=1024), 4, 3, ["fmax", "fmin", "imax", "ior", "ixor"],
                    "tl.atomic_max/min on f32 (signed), atomic_max/or/xor on int32, from recorded starting values",
                    inout=["fmax", "fmin", "imax", "ior", "ixor"]))

    M, N, G = 32, 300, 16
    x, dy, w = randn((M, N), f32, g), randn((M, N), f32, g), randn(N, f32, g)
    mean = x.mean(dim=1)
    rstd = 1.0 / torch.sqrt(x.var(dim=1, unbiased=False) + 1e-5)
    out.append(Case("ln_bwd_lock_f32", ln_bwd_kernel, (M,),
                    [("DX", torch.zeros((M, N))), ("DY", dy), ("DW", torch.zeros((G, N))), ("DB", torch.zeros((G, N))),
                     ("X", x), ("W", w), ("Mean", mean.contiguous()), ("Rstd", rstd.contiguous()),
                     ("Lock", torch.zeros(2 * G, dtype=torch.int32)), ("stride", N), ("N", N)],
                    dict(GROUP_SIZE_M=G, BLOCK_SIZE_N=512), 4, 3, ["DX", "DW", "DB", "Lock"],
                    "layer-norm backward (tutorial 05) with atomic_cas/atomic_xchg spin locks, 32x300, 2 rows per lock"))

    def dot(name, a, b, c, acc, prec, desc, bt=False, sm80=True, w=4, s=3):
        M, K = a.shape
        N = c.shape[1]
        if bt:  # b is (N, K) row-major: K-major B
            sbk, sbn = 1, K
        else:
            sbk, sbn = N, 1
        out.append(Case(name, dot_kernel, (M // 64, N // 64),
                        [("a", a), ("b", b), ("c", c), ("M", M), ("N", N), ("K", K), ("sam", K), ("sak", 1),
                         ("sbk", sbk), ("sbn", sbn), ("scm", N)],
                        dict(BM=64, BN=64, BK=32, ACC=acc, PREC=prec), w, s, ["c"], desc, sm80=sm80))

    M, N, K = 128, 64, 128
    dot("dot_i8_i32", torch.randint(-128, 128, (M, K), generator=g, dtype=torch.int8),
        torch.randint(-128, 128, (K, N), generator=g, dtype=torch.int8), torch.zeros((M, N), dtype=torch.int32),
        tl.int32, "default", "int8 tl.dot with out_dtype=tl.int32, (128,64,128)")
    if hasattr(torch, "float8_e5m2"):
        dot("dot_fp8e5m2_f32", randn((M, K), f32, g).to(torch.float8_e5m2),
            randn((N, K), f32, g).to(torch.float8_e5m2), torch.zeros((M, N)), tl.float32, "default",
            "fp8 e5m2 tl.dot (B K-major) -> f32, (128,64,128)", bt=True)
    dot("dot_f16acc", randn((M, K), f16, g), randn((K, N), f16, g), torch.zeros((M, N), dtype=f16), tl.float16,
        "default", "f16 tl.dot with f16 accumulation (out_dtype=tl.float16), (128,64,128)")
    dot("dot_ieee_f32", randn((M, K), f32, g), randn((K, N), f32, g), torch.zeros((M, N)), tl.float32, "ieee",
        "f32 tl.dot with input_precision=ieee (FMA, no tensor cores), (128,64,128)")
    dot("dot_tf32x3_f32", randn((M, K), f32, g), randn((K, N), f32, g), torch.zeros((M, N)), tl.float32, "tf32x3",
        "f32 tl.dot with input_precision=tf32x3, (128,64,128)")

    H, NC, D = 2, 128, 32
    q, k, v = (randn((H, NC, D), bf16, g) for _ in range(3))
    out.append(Case("attn_causal_bf16", attn_causal_kernel, (NC // 64, H),
                    [("Q", q), ("K", k), ("V", v), ("Out", torch.zeros((H, NC, D), dtype=bf16)),
                     ("Lse", torch.zeros((H, NC))), ("sm_scale", 0.17677669), ("N_CTX", NC)],
                    dict(BLOCK_M=64, BLOCK_N=32, D=D), 4, 2, ["Out", "Lse"],
                    "causal attention forward (masked online softmax, exp2, log-sum-exp out), bf16, 2 heads, 128x32"))

    M, N, K = 192, 128, 96
    out.append(Case("persistent_tma_f16", persistent_tma_kernel, (4,),
                    [("a", randn((M, K), f16, g)), ("b", randn((N, K), f16, g)), ("c", torch.zeros((M, N), dtype=f16)),
                     ("M", M), ("N", N), ("K", K)],
                    dict(BM=64, BN=64, BK=64, NUM_PROGS=4), 4, 3, ["c"],
                    "persistent matmul over 6 tiles on 4 programs with tensor descriptors (TMA), K edge zero-filled, "
                    "(192,128,96) f16"))

    n = 1500
    out.append(Case("gdc_pdl_f32", gdc_kernel, (2,), [("x", randn(n, f32, g)), ("y", torch.zeros(n)), ("n", n)],
                    dict(BLOCK=1024), 4, 3, ["y"],
                    "programmatic dependent launch: gdc_wait / gdc_launch_dependents (griddepcontrol), launch_pdl",
                    launch_opts=dict(launch_pdl=True)))

    M, N, K = 64, 128, 128
    out.append(Case("dequant_int4_mm_f16", dequant_mm_kernel, (1, 2),
                    [("a", randn((M, K), f16, g)),
                     ("q", torch.randint(0, 256, (K // 2, N), generator=g, dtype=torch.uint8)),
                     ("s", (torch.rand(N, generator=g) * 0.1 + 0.01).to(f16)),
                     ("c", torch.zeros((M, N), dtype=f16)), ("M", M), ("N", N), ("K", K)],
                    dict(BM=64, BN=64, BK=64), 4, 3, ["c"],
                    "int4 dequant GEMM (uint8 nibbles, join/permute/reshape, per-column scale) f16, (64,128,128)"))

    only = os.environ.get("CASES")
    if only:
        keep = set(only.split(","))
        out = [c for c in out if c.name in keep]
    shard = os.environ.get("SHARD")
    if shard:
        i, n = (int(v) for v in shard.split("/"))
        out = out[i::n]
    return out


# ---------------------------------------------------------------- recording (tc.record_case plus inout)

def record_case(drv, case, root):
    d = os.path.join(root, case.name)
    os.makedirs(d, exist_ok=True)
    dev_args, bufs = [], {}
    for n, v in case.args:
        if torch.is_tensor(v):
            dv = v.to(DEV)
            dev_args.append(dv)
            if n not in case.outputs or n in case.inout:
                open(os.path.join(d, n + ".bin"), "wb").write(tc.tensor_bytes(v))
                bufs[n] = {"file": n + ".bin"}
            else:
                bufs[n] = {"bytes": v.numel() * v.element_size()}
        else:
            dev_args.append(v)
    opts = dict(case.launch_opts)
    try:
        compiled = case.kernel[case.grid](*dev_args, num_warps=case.num_warps, num_stages=case.num_stages,
                                          **opts, **case.consts)
    except Exception as e:
        if not opts:
            raise
        log("  launch with %s failed (%s); again without" % (opts, str(e)[:300]))
        opts = {}
        for (n, v), dv in zip(case.args, dev_args):
            if torch.is_tensor(v):
                dv.copy_(v.to(DEV))
        compiled = case.kernel[case.grid](*dev_args, num_warps=case.num_warps, num_stages=case.num_stages,
                                          **case.consts)
    torch.cuda.synchronize()
    triton_out = {n: tc.tensor_bytes(dv) for (n, v), dv in zip(case.args, dev_args) if n in case.outputs}
    meta = {"kernel": compiled.metadata.name, "description": case.desc, "grid": (list(case.grid) + [1, 1])[:3],
            "num_warps": case.num_warps, "num_stages": case.num_stages, "constexprs": case.consts,
            "python_args": [n for n, _ in case.args], "outputs": case.outputs, "inout": sorted(case.inout),
            "launch_opts": opts,
            "dtypes": {n: tc.dtype_name(v) for n, v in case.args if torch.is_tensor(v)},
            "triton": triton.__version__, "torch": torch.__version__, "archs": {}}
    for attr in ("cluster_dims", "num_ctas", "global_scratch_size", "profile_scratch_size", "maxnreg",
                 "launch_pdl"):
        if hasattr(compiled.metadata, attr):
            v = getattr(compiled.metadata, attr)
            meta[attr] = list(v) if isinstance(v, tuple) else v
    kept, how = tc.kept_args(case, compiled)
    meta["ptx_args"] = [n for n, _ in kept]
    meta["ptx_args_from"] = how
    variants = [("sm90", compiled, "launch.json")]
    if case.sm80:
        try:
            k80, how80 = tc.compile_sm80(case, compiled)
            variants.append(("sm80", k80, "launch_sm80.json"))
            meta["sm80_compiled_by"] = how80
        except Exception as e:
            meta["sm80_error"] = str(e)[:2000]
            log("  sm80 compile failed: %s" % str(e)[:500])
    for arch, k, lname in variants:
        ptx = k.asm["ptx"]
        open(os.path.join(d, arch + ".ptx"), "w").write(ptx)
        params = tc.ptx_entry_params(ptx, k.metadata.name)
        if not tc.args_match(kept, params):
            alt = tc.heuristic_kept(case)
            if tc.args_match(alt, params):
                kept = alt
                meta["ptx_args"] = [n for n, _ in kept]
                meta["ptx_args_from"] = "heuristic (signature did not match the PTX)"
            else:
                meta["archs"][arch] = {"recorded": False, "error": "cannot match args %s to PTX params %s" % (
                    [n for n, _ in kept], params)}
                log("  " + meta["archs"][arch]["error"])
                continue
        lf, nextra = tc.launch_for(case, kept, params, k.metadata, arch + ".ptx", bufs)
        nct = int(getattr(k.metadata, "num_ctas", 1) or 1)
        if nct > 1:  # Triton launches gridX * num_ctas CTAs in clusters of num_ctas
            lf["launches"][0]["grid"][0] *= nct
            lf["launches"][0]["cluster"] = [nct, 1, 1]
        json.dump(lf, open(os.path.join(d, lname), "w"), indent=1)
        am = {"shared": int(k.metadata.shared), "ptx_params": len(params), "extra_params": nextra,
              "launch": lname}
        try:
            res = tc.run_launch(drv, d, lf, case.outputs)
            od = os.path.join(d, "expected", arch)
            os.makedirs(od, exist_ok=True)
            for n, data in res.items():
                open(os.path.join(od, n + ".bin"), "wb").write(data)
            if arch == "sm90":
                am["triton_run_equal"] = all(res[n] == triton_out[n] for n in case.outputs)
            am["recorded"] = True
        except Exception as e:
            am["recorded"] = False
            am["error"] = str(e)[:2000]
            log("  %s driver run failed: %s" % (arch, str(e)[:800]))
        meta["archs"][arch] = am
    if not meta["archs"].get("sm90", {}).get("recorded"):
        od = os.path.join(d, "expected", "sm90_triton")
        os.makedirs(od, exist_ok=True)
        for n, data in triton_out.items():
            open(os.path.join(od, n + ".bin"), "wb").write(data)
    json.dump(meta, open(os.path.join(d, "meta.json"), "w"), indent=1, default=str)
    return meta


def main():
    root = os.path.join(OUT, "triton3")
    os.makedirs(root, exist_ok=True)
    log("triton", triton.__version__, "torch", torch.__version__, torch.cuda.get_device_name(0))
    torch.cuda.init()
    torch.zeros(1, device=DEV)
    drv = tc.Driver()
    summary = []
    for case in cases():
        t0 = time.time()
        log("== %s" % case.name)
        try:
            m = record_case(drv, case, root)
            line = "%s: %s" % (case.name, ", ".join(
                "%s %s%s" % (a, "recorded" if v.get("recorded") else "FAILED",
                             "" if v.get("triton_run_equal", True) else " (differs from Triton's run!)")
                for a, v in m["archs"].items()))
            if "sm80_error" in m:
                line += ", sm80 not compiled"
        except Exception:
            traceback.print_exc()
            line = "%s: FAILED (see log)" % case.name
        log("  %s (%.1f s)" % (line, time.time() - t0))
        summary.append(line)
    tag = os.environ.get("SHARD", "all").replace("/", "of")
    open(os.path.join(root, "SUMMARY_%s.txt" % tag), "w").write("\n".join(summary) + "\n")


if __name__ == "__main__":
    main()
