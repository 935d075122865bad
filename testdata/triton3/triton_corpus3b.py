#!/usr/bin/env python3
"""The second part of warpsim's third Triton batch (testdata/triton3): kernels aimed at what the
first part did not reach (directed-rounding and conversion libdevice functions, integer
intrinsics, float64 libdevice, FP8 conversions, native f16/bf16 arithmetic, custom reductions,
more Philox, atomics with sem/scope, warp-specialized and TMA matmuls, tl.dot_scaled,
thread-block clusters (num_ctas=2), vectorization hints, multi-output and packed inline asm,
int64/int16 arithmetic), recorded with triton_corpus3.py's record_case.

    python3 triton_corpus3b.py OUTDIR      (CASES=a,b picks kernels; SHARD=i/n runs every n-th)
"""
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import triton_corpus3 as t3  # noqa: E402  (parses OUTDIR from argv)
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

tc, Case, log, libdevice = t3.tc, t3.Case, t3.log, t3.libdevice
OUT = t3.OUT


@triton.jit
def ld_round_kernel(x_ptr, y_ptr, o_ptr, oi_ptr, ol_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    ax = tl.abs(x)
    tl.store(o_ptr + 0 * n + offs, libdevice.add_rd(x, y), mask=m)
    tl.store(o_ptr + 1 * n + offs, libdevice.add_ru(x, y), mask=m)
    tl.store(o_ptr + 2 * n + offs, libdevice.add_rz(x, y), mask=m)
    tl.store(o_ptr + 3 * n + offs, libdevice.mul_rd(x, y), mask=m)
    tl.store(o_ptr + 4 * n + offs, libdevice.mul_ru(x, y), mask=m)
    tl.store(o_ptr + 5 * n + offs, libdevice.div_rz(x, y), mask=m)
    tl.store(o_ptr + 6 * n + offs, libdevice.div_ru(x, y), mask=m)
    tl.store(o_ptr + 7 * n + offs, libdevice.rcp_rd(y), mask=m)
    tl.store(o_ptr + 8 * n + offs, libdevice.sqrt_ru(ax), mask=m)
    tl.store(o_ptr + 9 * n + offs, libdevice.sqrt_rz(ax), mask=m)
    tl.store(o_ptr + 10 * n + offs, libdevice.fma_rz(x, y, x), mask=m)
    tl.store(o_ptr + 11 * n + offs, libdevice.fma_rd(x, y, y), mask=m)
    tl.store(o_ptr + 12 * n + offs, libdevice.double2float_rd(x.to(tl.float64) * 1.1), mask=m)
    xi = (x * 1.0e6).to(tl.int32)
    tl.store(o_ptr + 13 * n + offs, libdevice.int2float_rz(xi * 37), mask=m)
    tl.store(o_ptr + 14 * n + offs, libdevice.ll2float_rd(xi.to(tl.int64) * 1234567), mask=m)
    tl.store(oi_ptr + 0 * n + offs, libdevice.float2int_rd(x * 1000.0), mask=m)
    tl.store(oi_ptr + 1 * n + offs, libdevice.float2int_ru(x * 1000.0), mask=m)
    tl.store(oi_ptr + 2 * n + offs, libdevice.float2int_rn(x * 1000.0), mask=m)
    tl.store(oi_ptr + 3 * n + offs, libdevice.float2uint_rn(ax * 1000.0).to(tl.int32, bitcast=True), mask=m)
    tl.store(ol_ptr + offs, libdevice.float2ll_rz(x * 1.0e12), mask=m)


# Not recorded: Triton 3.6's libdevice has no mul64hi (AttributeError at compile; logs/record2.log).
@triton.jit
def ld_bits_kernel(x_ptr, y_ptr, o_ptr, ol_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    y = tl.load(y_ptr + offs, mask=m, other=1)
    tl.store(o_ptr + 0 * n + offs, libdevice.popc(x).to(tl.int32), mask=m)
    tl.store(o_ptr + 1 * n + offs, libdevice.clz(x).to(tl.int32), mask=m)
    tl.store(o_ptr + 2 * n + offs, libdevice.ffs(x), mask=m)
    tl.store(o_ptr + 3 * n + offs, libdevice.byte_perm(x, y, y & 0x7777), mask=m)
    tl.store(o_ptr + 4 * n + offs, libdevice.mulhi(x, y), mask=m)
    tl.store(o_ptr + 5 * n + offs, libdevice.mul24(x, y), mask=m)
    tl.store(o_ptr + 6 * n + offs, libdevice.hadd(x, y), mask=m)
    tl.store(o_ptr + 7 * n + offs, libdevice.rhadd(x, y), mask=m)
    xl = x.to(tl.int64) * 0x10001 + y
    tl.store(ol_ptr + 0 * n + offs, libdevice.mul64hi(xl, xl * 3 + 5), mask=m)
    tl.store(ol_ptr + 1 * n + offs, libdevice.popc(xl).to(tl.int64), mask=m)


@triton.jit
def ld_f64_kernel(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.5)
    y = tl.load(y_ptr + offs, mask=m, other=0.5)
    tl.store(o_ptr + 0 * n + offs, libdevice.pow(tl.abs(x) + 0.5, y), mask=m)
    tl.store(o_ptr + 1 * n + offs, libdevice.tanh(x), mask=m)
    tl.store(o_ptr + 2 * n + offs, libdevice.erf(x), mask=m)
    tl.store(o_ptr + 3 * n + offs, libdevice.log1p(tl.abs(x)), mask=m)
    tl.store(o_ptr + 4 * n + offs, libdevice.cbrt(x), mask=m)
    tl.store(o_ptr + 5 * n + offs, libdevice.atan2(x, y), mask=m)
    tl.store(o_ptr + 6 * n + offs, libdevice.cos(x), mask=m)
    tl.store(o_ptr + 7 * n + offs, libdevice.exp2(y), mask=m)


@triton.jit
def ld_f64_round_kernel(x_ptr, y_ptr, o_ptr, oi_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.5)
    y = tl.load(y_ptr + offs, mask=m, other=0.5)
    tl.store(o_ptr + 0 * n + offs, libdevice.add_rd(x, y), mask=m)
    tl.store(o_ptr + 1 * n + offs, libdevice.div_ru(x, y), mask=m)
    tl.store(o_ptr + 2 * n + offs, libdevice.sqrt_rz(tl.abs(x)), mask=m)
    tl.store(o_ptr + 3 * n + offs, libdevice.rcp_rn(y), mask=m)
    tl.store(o_ptr + 4 * n + offs, libdevice.fma_rd(x, y, x), mask=m)
    tl.store(o_ptr + 5 * n + offs, libdevice.ll2double_ru(libdevice.double2ll_rd(x * 1.0e15) * 7), mask=m)
    tl.store(oi_ptr + offs, libdevice.double2int_rz(x * 1.0e6), mask=m)


@triton.jit
def ld_special_kernel(x_ptr, o_ptr, oi_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.5)
    ax = tl.abs(x)
    tl.store(o_ptr + 0 * n + offs, libdevice.j0(x * 8.0), mask=m)
    tl.store(o_ptr + 1 * n + offs, libdevice.j1(x * 8.0), mask=m)
    tl.store(o_ptr + 2 * n + offs, libdevice.y0(ax * 8.0 + 0.1), mask=m)
    tl.store(o_ptr + 3 * n + offs, libdevice.erfcx(x * 4.0), mask=m)
    tl.store(o_ptr + 4 * n + offs, libdevice.rcbrt(x * 3.0), mask=m)
    tl.store(o_ptr + 5 * n + offs, libdevice.nextafter(x, x + 1.0), mask=m)
    tl.store(o_ptr + 6 * n + offs, libdevice.logb(x * 100.0), mask=m)
    tl.store(o_ptr + 7 * n + offs, libdevice.fdim(x, 0.25), mask=m)
    tl.store(o_ptr + 8 * n + offs, libdevice.copysign(ax + 1.0, x - 0.5), mask=m)
    tl.store(o_ptr + 9 * n + offs, libdevice.erfcinv(ax + 0.01), mask=m)
    tl.store(o_ptr + 10 * n + offs, libdevice.asinh(x * 5.0) + libdevice.acosh(ax * 5.0 + 1.0), mask=m)
    tl.store(o_ptr + 11 * n + offs, libdevice.atanh(x * 0.99) + libdevice.cospi(x * 3.0), mask=m)
    tl.store(o_ptr + 12 * n + offs, libdevice.rint(x * 7.5) + libdevice.round(x * 7.5) * 100.0, mask=m)
    tl.store(o_ptr + 13 * n + offs, libdevice.saturatef(x * 2.0) + libdevice.trunc(x * 9.0), mask=m)
    tl.store(oi_ptr + 0 * n + offs, libdevice.ilogb(x * 100.0), mask=m)
    tl.store(oi_ptr + 1 * n + offs, libdevice.signbit(x).to(tl.int32), mask=m)
    tl.store(oi_ptr + 2 * n + offs, libdevice.llrint(x * 1.0e5).to(tl.int32), mask=m)


@triton.jit
def fp8_cvt_kernel(x_ptr, e4_ptr, e5_ptr, h5_ptr, b4_ptr, back_ptr, rz16_ptr, rzb_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    e4 = x.to(tl.float8e4nv)
    e5 = x.to(tl.float8e5)
    tl.store(e4_ptr + offs, e4.to(tl.int8, bitcast=True), mask=m)
    tl.store(e5_ptr + offs, e5.to(tl.int8, bitcast=True), mask=m)
    tl.store(h5_ptr + offs, x.to(tl.float16).to(tl.float8e5).to(tl.int8, bitcast=True), mask=m)
    tl.store(b4_ptr + offs, x.to(tl.bfloat16).to(tl.float8e4nv).to(tl.int8, bitcast=True), mask=m)
    tl.store(back_ptr + offs, e4.to(tl.float32) + e5.to(tl.float32) * 1000.0, mask=m)
    tl.store(rz16_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"), mask=m)
    tl.store(rzb_ptr + offs, x.to(tl.bfloat16, fp_downcast_rounding="rtz"), mask=m)


@triton.jit
def half_math_kernel(a_ptr, b_ptr, c_ptr, o16_ptr, ob_ptr, s_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=0.0)
    b = tl.load(b_ptr + offs, mask=m, other=1.0)
    c = tl.load(c_ptr + offs, mask=m, other=0.0)
    h = a * b + c
    h = tl.maximum(h, -a) - tl.abs(b) * 0.5
    h = tl.where(h > c, h / b, -h)
    h = h + a * a
    tl.store(o16_ptr + offs, h, mask=m)
    ab, bb, cb = a.to(tl.bfloat16), b.to(tl.bfloat16), c.to(tl.bfloat16)
    k = ab * bb + cb
    k = tl.minimum(k, bb) - tl.abs(ab)
    tl.store(ob_ptr + offs, k * 3.0 - cb, mask=m)
    tl.store(s_ptr + pid, tl.sum(tl.where(m, a * b, 0.0), axis=0))


@triton.jit
def _argmax_last(v1, i1, v2, i2):
    gt = (v1 > v2) | ((v1 == v2) & (i1 > i2))
    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)


@triton.jit
def _bit_or(a, b):
    return a | b


@triton.jit
def reduce_custom_kernel(x_ptr, xi_ptr, am_ptr, mx_ptr, mi_ptr, fl_ptr, xs_ptr, orr_ptr, s3_ptr,
                         M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    xi = tl.load(xi_ptr + r[:, None] * N + c[None, :])
    idx = tl.broadcast_to(c[None, :], (M, N))
    _, am = tl.reduce((x, idx), 1, _argmax_last)
    tl.store(am_ptr + r, am)
    mx, mi = tl.max(x, axis=1, return_indices=True)
    tl.store(mx_ptr + r, mx)
    tl.store(mi_ptr + r, mi)
    tl.store(fl_ptr + r[:, None] * N + c[None, :], tl.flip(x, 1))
    tl.store(xs_ptr + r, tl.xor_sum(xi, axis=1))
    tl.store(orr_ptr + r, tl.reduce(xi, 1, _bit_or))
    x3 = tl.reshape(x, (4, M // 4, N))
    s3 = tl.sum(x3, axis=0, keep_dims=False)
    tl.store(s3_ptr + tl.arange(0, M // 4)[:, None] * N + c[None, :], s3)


@triton.jit
def philox_more_kernel(n_ptr, i0_ptr, i1_ptr, i2_ptr, i3_ptr, r2_ptr, seed, big_seed, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(n_ptr + offs, tl.randn(seed, offs), mask=m)
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(i0_ptr + offs, a, mask=m)
    tl.store(i1_ptr + offs, b, mask=m)
    tl.store(i2_ptr + offs, c, mask=m)
    tl.store(i3_ptr + offs, d, mask=m)
    tl.store(r2_ptr + offs, tl.rand(big_seed, offs.to(tl.int64) * 3 + (1 << 33)), mask=m)


@triton.jit
def atomic_sem_kernel(x_ptr, acc_ptr, mx_ptr, xf_ptr, old_ptr, l_ptr, cas_ptr, casold_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(acc_ptr + (offs % 8), x, mask=m, sem="relaxed", scope="cta")
    tl.atomic_max(mx_ptr + (offs % 8), x, mask=m, sem="release", scope="sys")
    old = tl.atomic_xchg(xf_ptr + offs, x.to(tl.float32) * 0.5, mask=m, sem="acquire")
    tl.store(old_ptr + offs, old, mask=m)
    tl.atomic_add(l_ptr + (offs % 4), x.to(tl.int64) * 1000000007, mask=m, sem="relaxed", scope="gpu")
    o = tl.atomic_cas(cas_ptr + offs, (offs * 3).to(tl.int64), x.to(tl.int64), sem="acq_rel")
    tl.store(casold_ptr + offs, o, mask=m)


# Not recorded: Triton 3.6 fails its own pass pipeline (make_ttgir) on this loop for sm_90
# (logs/record2.log).
@triton.jit
def ws_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), warp_specialize=True):
        a = tl.load(a_ptr + rm[:, None] * K + (k * BK + rk)[None, :])
        b = tl.load(b_ptr + (k * BK + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def pipelined_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=4, loop_unroll_factor=2):
        a = tl.load(a_ptr + rm[:, None] * K + (k * BK + rk)[None, :])
        b = tl.load(b_ptr + (k * BK + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def tma_bf16_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    ad = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    bd = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    cd = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(ad.load([pm * BM, k]), bd.load([k, pn * BN]), acc)
    cd.store([pm * BM, pn * BN], acc.to(tl.bfloat16))


@triton.jit
def dot_scaled_kernel(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    rs = tl.arange(0, K // 32)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    a_s = tl.load(as_ptr + rm[:, None] * (K // 32) + rs[None, :])
    b_s = tl.load(bs_ptr + rn[:, None] * (K // 32) + rs[None, :])
    c = tl.dot_scaled(a, a_s, "e4m3", b, b_s, "e4m3")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def cluster_mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def vec_hints_kernel(x8_ptr, h_ptr, o_ptr, oh_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, G: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    pm, pn = tl.swizzle2d(pid // npn, pid % npn, npm, npn, G)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rn = tl.max_contiguous(tl.multiple_of(rn, BN), BN)
    off = rm[:, None] * N + rn[None, :]
    x = tl.load(x8_ptr + off).to(tl.int32)
    h = tl.load(h_ptr + off)
    tl.store(o_ptr + pm * npn + pn, tl.sum(tl.sum(x * (rn[None, :] % 7 - 3), axis=1), axis=0))
    tl.store(oh_ptr + off, (h * 2.0 + x.to(tl.float16)).to(tl.float16))


@triton.jit
def inline_asm_multi_kernel(x_ptr, y_ptr, b_ptr, s_ptr, d_ptr, bo_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    y = tl.load(y_ptr + offs, mask=m, other=0)
    s, d = tl.inline_asm_elementwise("{ add.s32 $0, $2, $3; sub.s32 $1, $2, $3; }", "=r,=r,r,r", [x, y],
                                     dtype=(tl.int32, tl.int32), is_pure=True, pack=1)
    tl.store(s_ptr + offs, s, mask=m)
    tl.store(d_ptr + offs, d, mask=m)
    b = tl.load(b_ptr + offs, mask=m, other=0)
    bo = tl.inline_asm_elementwise("prmt.b32 $0, $1, 0, 0x0123;", "=r,r", [b], dtype=tl.uint8, is_pure=True,
                                   pack=4)
    tl.store(bo_ptr + offs, bo, mask=m)


@triton.jit
def int64_int16_kernel(x_ptr, y_ptr, s_ptr, o64_ptr, o16_ptr, ob_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    y = tl.load(y_ptr + offs, mask=m, other=1)
    s = tl.load(s_ptr + offs, mask=m, other=1)
    tl.store(o64_ptr + 0 * n + offs, x // y, mask=m)
    tl.store(o64_ptr + 1 * n + offs, x % y, mask=m)
    tl.store(o64_ptr + 2 * n + offs, (x >> (y & 63)) ^ (x << 3), mask=m)
    tl.store(o64_ptr + 3 * n + offs, tl.maximum(x, y) - tl.minimum(x, -y) + tl.abs(x), mask=m)
    ux = x.to(tl.uint64, bitcast=True)
    uy = y.to(tl.uint64, bitcast=True)
    tl.store(o64_ptr + 4 * n + offs, (ux // (uy | 1) + (ux >> 7)).to(tl.int64, bitcast=True), mask=m)
    tl.store(o16_ptr + 0 * n + offs, s * s + s * 3, mask=m)
    tl.store(o16_ptr + 1 * n + offs, s // 7 - s % 5 + (s >> 2), mask=m)
    tl.store(ob_ptr + offs, (ux > uy) ^ (x > y) | (s.to(tl.int8) < 0), mask=m)


def cases():
    out = []
    g = torch.Generator().manual_seed(98765)
    f16, bf16, f32, f64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
    randn = t3.randn

    n = 1000
    x, y = randn(n, f32, g, 3.0), randn(n, f32, g, 3.0)
    y[y.abs() < 1e-3] = 0.5
    out.append(Case("ld_round_f32", ld_round_kernel, (1,),
                    [("x", x), ("y", y), ("o", torch.zeros(15 * n)), ("oi", torch.zeros(4 * n, dtype=torch.int32)),
                     ("ol", torch.zeros(n, dtype=torch.int64)), ("n", n)],
                    dict(BLOCK=1024), 4, 3, ["o", "oi", "ol"],
                    "libdevice directed rounding: add/mul/div/rcp/sqrt/fma _rd/_ru/_rz, double2float_rd, int2float_rz, "
                    "ll2float_rd, float2int_rd/ru/rn, float2uint_rn, float2ll_rz"))
    xi = torch.randint(-(1 << 31), (1 << 31) - 1, (n,), generator=g, dtype=torch.int64).to(torch.int32)
    yi = torch.randint(-(1 << 31), (1 << 31) - 1, (n,), generator=g, dtype=torch.int64).to(torch.int32)
    xi[:4] = torch.tensor([0, -1, 1, -(1 << 31)], dtype=torch.int32)
    out.append(Case("ld_bits_i32", ld_bits_kernel, (1,),
                    [("x", xi), ("y", yi), ("o", torch.zeros(8 * n, dtype=torch.int32)),
                     ("ol", torch.zeros(2 * n, dtype=torch.int64)), ("n", n)],
                    dict(BLOCK=1024), 4, 3, ["o", "ol"],
                    "libdevice popc, clz, ffs, byte_perm, mulhi, mul24, hadd, rhadd, mul64hi, popcll"))
    xd, yd = randn(n, f64, g, 2.0), randn(n, f64, g, 2.0)
    yd[yd.abs() < 1e-3] = 0.25
    out.append(Case("ld_f64", ld_f64_kernel, (4,),
                    [("x", xd), ("y", yd), ("o", torch.zeros(8 * n, dtype=f64)), ("n", n)],
                    dict(BLOCK=256), 4, 3, ["o"], "float64 libdevice pow, tanh, erf, log1p, cbrt, atan2, cos, exp2"))
    out.append(Case("ld_f64_round", ld_f64_round_kernel, (4,),
                    [("x", xd), ("y", yd), ("o", torch.zeros(6 * n, dtype=f64)), ("oi", torch.zeros(n, dtype=torch.int32)),
                     ("n", n)],
                    dict(BLOCK=256), 4, 3, ["o", "oi"],
                    "float64 dadd_rd, ddiv_ru, dsqrt_rz, drcp_rn, fma_rd, double2ll_rd, ll2double_ru, double2int_rz"))
    xs = (torch.rand(n, generator=g) * 2.0 - 1.0).to(f32)
    xs[:4] = torch.tensor([0.0, -0.0, 1e-40, -1.0])
    out.append(Case("ld_special_f32", ld_special_kernel, (1,),
                    [("x", xs), ("o", torch.zeros(14 * n)), ("oi", torch.zeros(3 * n, dtype=torch.int32)), ("n", n)],
                    dict(BLOCK=1024), 4, 3, ["o", "oi"],
                    "libdevice j0, j1, y0, erfcx, rcbrt, nextafter, logb, fdim, copysign, erfcinv, asinh, acosh, atanh, "
                    "cospi, rint, round, saturatef, trunc, ilogb, signbit, llrint"))

    n = 1024
    x = randn(n, f32, g, 100.0)
    x[:16] = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 448.0, 449.0, 464.0, 480.0,
                           57344.0, 61440.0, 1e-3, 2.0 ** -9, 2.0 ** -10, 2.0 ** -17, -2.0 ** -16])
    i8 = lambda: torch.zeros(n, dtype=torch.int8)  # noqa: E731
    out.append(Case("fp8_cvt", fp8_cvt_kernel, (4,),
                    [("x", x), ("e4", i8()), ("e5", i8()), ("h5", i8()), ("b4", i8()), ("back", torch.zeros(n)),
                     ("rz16", torch.zeros(n, dtype=f16)), ("rzb", torch.zeros(n, dtype=bf16)), ("n", n)],
                    dict(BLOCK=256), 4, 3, ["e4", "e5", "h5", "b4", "back", "rz16", "rzb"],
                    "FP8 e4m3/e5m2 conversions from f32, f16 and bf16 (NaN, Inf, overflow, subnormals) and back, "
                    "f32 -> f16/bf16 with fp_downcast_rounding=rtz"))
    n = 1500
    out.append(Case("half_math", half_math_kernel, (6,),
                    [("a", randn(n, f16, g)), ("b", randn(n, f16, g) + 0.5), ("c", randn(n, f16, g)),
                     ("o16", torch.zeros(n, dtype=f16)), ("ob", torch.zeros(n, dtype=bf16)), ("s", torch.zeros(6, dtype=f16)),
                     ("n", n)],
                    dict(BLOCK=256), 4, 3, ["o16", "ob", "s"],
                    "native f16 and bf16 arithmetic (mul/add/max/min/abs/where/div), f16 sum"))
    M, N = 16, 64
    xr = torch.randint(-8, 8, (M, N), generator=g).to(f32)
    out.append(Case("reduce_custom", reduce_custom_kernel, (1,),
                    [("x", xr), ("xi", torch.randint(-(1 << 30), 1 << 30, (M, N), generator=g, dtype=torch.int32)),
                     ("am", torch.zeros(M, dtype=torch.int32)), ("mx", torch.zeros(M)), ("mi", torch.zeros(M, dtype=torch.int32)),
                     ("fl", torch.zeros((M, N))), ("xs", torch.zeros(M, dtype=torch.int32)),
                     ("orr", torch.zeros(M, dtype=torch.int32)), ("s3", torch.zeros((M // 4, N)))],
                    dict(M=M, N=N), 4, 3, ["am", "mx", "mi", "fl", "xs", "orr", "s3"],
                    "tl.reduce with a tuple combine (argmax, last index on ties), max with return_indices, tl.flip, "
                    "xor_sum, or-reduce, 3-D sum"))
    n = 3000
    out.append(Case("philox_more", philox_more_kernel, (3,),
                    [("rn", torch.zeros(n)), ("i0", torch.zeros(n, dtype=torch.int32)),
                     ("i1", torch.zeros(n, dtype=torch.int32)), ("i2", torch.zeros(n, dtype=torch.int32)),
                     ("i3", torch.zeros(n, dtype=torch.int32)), ("r2", torch.zeros(n)), ("seed", 777),
                     ("big_seed", (1 << 40) + 12345), ("n", n)],
                    dict(BLOCK=1024), 4, 3, ["rn", "i0", "i1", "i2", "i3", "r2"],
                    "tl.randn, tl.randint4x, tl.rand with a 64-bit seed and 64-bit offsets"))
    n = 2048  # tl.atomic_cas takes no mask: every lane is in bounds
    out.append(Case("atomic_sem", atomic_sem_kernel, (2,),
                    [("x", torch.randint(-1000, 1000, (n,), generator=g, dtype=torch.int32)),
                     ("acc", torch.zeros(8, dtype=torch.int32)), ("mx", torch.full((8,), -5000, dtype=torch.int32)),
                     ("xf", randn(n, f32, g)), ("old", torch.zeros(n)), ("l", torch.zeros(4, dtype=torch.int64)),
                     ("cas", (torch.arange(n, dtype=torch.int64) * 3) * (torch.arange(n) % 3 != 0).to(torch.int64)),
                     ("casold", torch.zeros(n, dtype=torch.int64)), ("n", n)],
                    dict(BLOCK=1024), 4, 3, ["acc", "mx", "xf", "old", "l", "cas", "casold"],
                    "atomics with sem relaxed/release/acquire/acq_rel and scope cta/gpu/sys: int32 add/max, f32 xchg "
                    "(old values), int64 add, int64 cas (old values)", inout=["mx", "xf", "cas"]))
    M, N, K = 128, 128, 256
    out.append(Case("ws_matmul_f16", ws_matmul_kernel, (1, 1),
                    [("a", randn((M, K), f16, g)), ("b", randn((K, N), f16, g)), ("c", torch.zeros((M, N), dtype=f16)),
                     ("M", M), ("N", N), ("K", K)],
                    dict(BM=128, BN=128, BK=64), 4, 3, ["c"],
                    "matmul with tl.range(warp_specialize=True), 128x128x256 f16"))
    M, N, K = 128, 64, 256
    out.append(Case("pipelined_mm_bf16", pipelined_matmul_kernel, (2, 1),
                    [("a", randn((M, K), bf16, g)), ("b", randn((K, N), bf16, g)), ("c", torch.zeros((M, N))),
                     ("M", M), ("N", N), ("K", K)],
                    dict(BM=64, BN=64, BK=32), 4, 4, ["c"],
                    "bf16 matmul with tl.range(num_stages=4, loop_unroll_factor=2) -> f32"))
    M, N, K = 256, 128, 128
    out.append(Case("tma_bf16_w8", tma_bf16_kernel, (2, 1),
                    [("a", randn((M, K), bf16, g)), ("b", randn((K, N), bf16, g)), ("c", torch.zeros((M, N), dtype=bf16)),
                     ("M", M), ("N", N), ("K", K)],
                    dict(BM=128, BN=128, BK=64), 8, 4, ["c"],
                    "TMA tensor-descriptor bf16 matmul, 128x128x64 tiles, num_warps=8, num_stages=4", sm80=False))
    M, N, K = 64, 64, 128
    e4 = torch.float8_e4m3fn
    out.append(Case("dot_scaled_e4m3", dot_scaled_kernel, (1,),
                    [("a", randn((M, K), f32, g).to(e4)),
                     ("a_s", torch.randint(120, 134, (M, K // 32), generator=g, dtype=torch.uint8)),
                     ("b", randn((K, N), f32, g).to(e4)),
                     ("b_s", torch.randint(120, 134, (N, K // 32), generator=g, dtype=torch.uint8)),
                     ("c", torch.zeros((M, N)))],
                    dict(M=M, N=N, K=K), 4, 3, ["c"], "tl.dot_scaled mxfp8 e4m3 x e4m3 with e8m0 scales, 64x64x128"))
    M, N, K = 128, 128, 128
    out.append(Case("cluster_mm_f16", cluster_mm_kernel, (2, 1),
                    [("a", randn((M, K), f16, g)), ("b", randn((K, N), f16, g)), ("c", torch.zeros((M, N), dtype=f16)),
                     ("M", M), ("N", N), ("K", K)],
                    dict(BM=64, BN=128, BK=64), 4, 3, ["c"], "matmul with num_ctas=2 (a thread-block cluster)",
                    launch_opts=dict(num_ctas=2), sm80=False))
    M, N = 64, 256
    out.append(Case("vec_hints_i8", vec_hints_kernel, (8,),
                    [("x8", torch.randint(-128, 128, (M, N), generator=g, dtype=torch.int8)), ("h", randn((M, N), f16, g)),
                     ("o", torch.zeros(8, dtype=torch.int32)), ("oh", torch.zeros((M, N), dtype=f16)), ("M", M), ("N", N)],
                    dict(BM=32, BN=64, G=2), 4, 3, ["o", "oh"],
                    "tl.swizzle2d, tl.multiple_of/max_contiguous (vectorized int8 and f16 loads), int8 -> int32 sums"))
    n = 1000
    out.append(Case("inline_asm_multi", inline_asm_multi_kernel, (1,),
                    [("x", torch.randint(-(1 << 30), 1 << 30, (n,), generator=g, dtype=torch.int32)),
                     ("y", torch.randint(-(1 << 30), 1 << 30, (n,), generator=g, dtype=torch.int32)),
                     ("bytes", torch.randint(0, 256, (n,), generator=g, dtype=torch.uint8)),
                     ("s", torch.zeros(n, dtype=torch.int32)), ("d", torch.zeros(n, dtype=torch.int32)),
                     ("bo", torch.zeros(n, dtype=torch.uint8)), ("n", n)],
                    dict(BLOCK=1024), 4, 3, ["s", "d", "bo"],
                    "tl.inline_asm_elementwise with two outputs, and prmt on uint8 with pack=4"))
    n = 1000
    xl = torch.randint(-(1 << 62), 1 << 62, (n,), generator=g, dtype=torch.int64)
    yl = torch.randint(-(1 << 40), 1 << 40, (n,), generator=g, dtype=torch.int64)
    yl[yl == 0] = 7
    yl[:4] = torch.tensor([1, -1, 3, -3], dtype=torch.int64)
    out.append(Case("int64_int16", int64_int16_kernel, (4,),
                    [("x", xl), ("y", yl), ("s", torch.randint(-32768, 32767, (n,), generator=g, dtype=torch.int16)),
                     ("o64", torch.zeros(5 * n, dtype=torch.int64)), ("o16", torch.zeros(2 * n, dtype=torch.int16)),
                     ("ob", torch.zeros(n, dtype=torch.bool)), ("n", n)],
                    dict(BLOCK=256), 4, 3, ["o64", "o16", "ob"],
                    "int64 div/rem/shifts/min/max/abs, uint64 div and compare, int16 wrap-around, bool stores"))
    only = os.environ.get("CASES")
    if only:
        keep = set(only.split(","))
        out = [c for c in out if c.name in keep]
    shard = os.environ.get("SHARD")
    if shard:
        i, k = (int(v) for v in shard.split("/"))
        out = out[i::k]
    return out


def main():
    root = os.path.join(OUT, "triton3")
    os.makedirs(root, exist_ok=True)
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    drv = tc.Driver()
    summary = []
    for case in cases():
        t0 = time.time()
        log("== %s" % case.name)
        try:
            m = t3.record_case(drv, case, root)
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
    open(os.path.join(root, "SUMMARY_b_%s.txt" % tag), "w").write("\n".join(summary) + "\n")


if __name__ == "__main__":
    main()
