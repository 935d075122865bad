#!/usr/bin/env python3
"""Builds warpsim's fourth Triton batch (testdata/triton4) on a machine with an sm_90 GPU, Triton 3.6
and PyTorch, with ../triton3/triton_corpus3.py's recording (record_case, imported; it imports
../triton/triton_corpus.py in turn). Held out as a whole: written after batches 1 and 3 passed, from
what today's LLM and Triton users run and those batches lack: paged-attention decode with block
tables and grouped-query heads, grouped-query attention forward, flash-attention backward (dK/dV and
dQ as separate passes), fused MoE (tokens routed by expert-sorted ids), MoE block alignment
(histogram + cumsum), fp8 e4m3 matmuls with row-wise and 128x128 block scales into bf16, int8 W8A8
matmul with scales, batched 3-D tl.dot, conv2d as an implicit GEMM, group norm, per-token fp8 and
int8 quantization, tl.device_print and a failing tl.device_assert, tl.range(warp_specialize=True),
num_stages 1 and 5, num_warps 1, 2 and 16, top-k by a packed-key sort, tl.associative_scan on
tuples, interleave/join/split/flip/cat, GPT-J rotary embedding, an embedding bag with atomic adds,
the paged KV-cache write, uint8/int16/float64 arithmetic, float64 tl.dot and odd masked strided
shapes.

    python3 triton_corpus4.py OUTDIR        (CASES=a,b picks kernels; SHARD=i/n runs every n-th)
    ASSERT_ARCH=sm90 python3 triton_corpus4.py OUTDIR    (only the failing assert, for that arch)

What is new in the recording (the rest is record_case's):
- a kernel that prints (capture=True): each driver run's stdout (the device printf buffer, flushed at
  cuCtxSynchronize) is captured at the file-descriptor level and written as expected/<arch>/stdout.txt;
- the failing assert runs in a process of its own per arch (a device assert leaves the context
  unusable): compiled with debug=True but never launched by Triton, run once through the driver from
  its launch file; the driver's error (the CUresult name of cuCtxSynchronize) goes to
  expected/<arch>/error.txt and what the process printed on stdout and stderr to stdout.txt and
  stderr.txt; the output buffer's bytes are not recorded (a failed context cannot be read).
"""
import json
import os
import sys
import tempfile
import time
import traceback
import ctypes

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
if os.environ.get("ASSERT_ARCH"):
    os.environ["TRITON_DEBUG"] = "1"
import triton_corpus3 as t3  # noqa: E402  (parses OUTDIR from argv)
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

tc, log, libdevice = t3.tc, t3.log, t3.libdevice
OUT = t3.OUT
SEED = 20261128
LIBC = ctypes.CDLL(None)


class Case(t3.Case):
    """t3.Case plus capture (record the driver runs' stdout) and fails (the kernel must stop with an
    error: recorded in a process of its own)."""

    def __init__(self, *a, capture=False, fails=False, **k):
        super().__init__(*a, **k)
        self.capture, self.fails = capture, fails


# ---------------------------------------------------------------- attention

@triton.jit
def paged_attn_decode_kernel(out_ptr, q_ptr, k_cache, v_cache, block_tables, seq_lens, scale, max_blocks,
                             H: tl.constexpr, KVH: tl.constexpr, D: tl.constexpr, BS: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1)
    kvh = h // (H // KVH)
    seq_len = tl.load(seq_lens + b)
    d = tl.arange(0, D)
    t = tl.arange(0, BS)
    q = tl.load(q_ptr + (b * H + h) * D + d).to(tl.float32) * scale
    m_i = tl.full([1], float("-inf"), tl.float32)
    l_i = tl.zeros([1], tl.float32)
    acc = tl.zeros([D], tl.float32)
    for j in range(0, tl.cdiv(seq_len, BS)):
        blk = tl.load(block_tables + b * max_blocks + j)
        off = ((blk * BS + t[:, None]) * KVH + kvh) * D + d[None, :]
        k = tl.load(k_cache + off).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1)
        s = tl.where(j * BS + t < seq_len, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        v = tl.load(v_cache + off).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        m_i = m_new
    tl.store(out_ptr + (b * H + h) * D + d, (acc / l_i).to(tl.float16))


@triton.jit
def gqa_fwd_kernel(Q, K, V, O, sm_scale, N_CTX, H: tl.constexpr, KVH: tl.constexpr, D: tl.constexpr,
                   BM: tl.constexpr, BN: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    kvh = h // (H // KVH)
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    kv_base = (b * KVH + kvh) * N_CTX * D
    q = tl.load(Q + bh * N_CTX * D + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.zeros([BM], tl.float32) - float("inf")
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BN):
        n = start_n + offs_n
        k = tl.load(K + kv_base + n[None, :] * D + offs_d[:, None], mask=n[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k)
        qk = tl.where(n[None, :] < N_CTX, qk * qk_scale, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + kv_base + n[:, None] * D + offs_d[None, :], mask=n[:, None] < N_CTX, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + bh * N_CTX * D + offs_m[:, None] * D + offs_d[None, :], acc.to(O.dtype.element_ty),
             mask=offs_m[:, None] < N_CTX)


@triton.jit
def attn_bwd_dkdv_kernel(Q, K, V, DO, LSE, DELTA, DK, DV, sm_scale, N_CTX, D: tl.constexpr, BM: tl.constexpr,
                         BN: tl.constexpr):
    start_n = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh * N_CTX * D
    offs_n = start_n * BN + tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    nmask = offs_n < N_CTX
    k = tl.load(K + base + offs_n[:, None] * D + offs_d[None, :], mask=nmask[:, None], other=0.0)
    v = tl.load(V + base + offs_n[:, None] * D + offs_d[None, :], mask=nmask[:, None], other=0.0)
    dk = tl.zeros([BN, D], tl.float32)
    dv = tl.zeros([BN, D], tl.float32)
    for start_m in range(0, N_CTX, BM):
        offs_m = start_m + tl.arange(0, BM)
        mmask = offs_m < N_CTX
        q = tl.load(Q + base + offs_m[:, None] * D + offs_d[None, :], mask=mmask[:, None], other=0.0)
        do = tl.load(DO + base + offs_m[:, None] * D + offs_d[None, :], mask=mmask[:, None], other=0.0)
        lse = tl.load(LSE + bh * N_CTX + offs_m, mask=mmask, other=0.0)
        delta = tl.load(DELTA + bh * N_CTX + offs_m, mask=mmask, other=0.0)
        qkT = tl.dot(k, tl.trans(q))
        pT = tl.exp(qkT * sm_scale - lse[None, :])
        pT = tl.where(mmask[None, :] & nmask[:, None], pT, 0.0)
        dv += tl.dot(pT.to(do.dtype), do)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - delta[None, :])
        dk += tl.dot(dsT.to(q.dtype), q)
    dk *= sm_scale
    tl.store(DK + base + offs_n[:, None] * D + offs_d[None, :], dk.to(DK.dtype.element_ty), mask=nmask[:, None])
    tl.store(DV + base + offs_n[:, None] * D + offs_d[None, :], dv.to(DV.dtype.element_ty), mask=nmask[:, None])


@triton.jit
def attn_bwd_dq_kernel(Q, K, V, DO, LSE, DELTA, DQ, sm_scale, N_CTX, D: tl.constexpr, BM: tl.constexpr,
                       BN: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh * N_CTX * D
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    mmask = offs_m < N_CTX
    q = tl.load(Q + base + offs_m[:, None] * D + offs_d[None, :], mask=mmask[:, None], other=0.0)
    do = tl.load(DO + base + offs_m[:, None] * D + offs_d[None, :], mask=mmask[:, None], other=0.0)
    lse = tl.load(LSE + bh * N_CTX + offs_m, mask=mmask, other=0.0)
    delta = tl.load(DELTA + bh * N_CTX + offs_m, mask=mmask, other=0.0)
    dq = tl.zeros([BM, D], tl.float32)
    for start_n in range(0, N_CTX, BN):
        offs_n = start_n + tl.arange(0, BN)
        nmask = offs_n < N_CTX
        k = tl.load(K + base + offs_n[:, None] * D + offs_d[None, :], mask=nmask[:, None], other=0.0)
        v = tl.load(V + base + offs_n[:, None] * D + offs_d[None, :], mask=nmask[:, None], other=0.0)
        qk = tl.dot(q, tl.trans(k))
        p = tl.exp(qk * sm_scale - lse[:, None])
        p = tl.where(nmask[None, :], p, 0.0)
        dp = tl.dot(do, tl.trans(v))
        ds = p * (dp - delta[:, None])
        dq += tl.dot(ds.to(k.dtype), k)
    dq *= sm_scale
    tl.store(DQ + base + offs_m[:, None] * D + offs_d[None, :], dq.to(DQ.dtype.element_ty), mask=mmask[:, None])


@triton.jit
def reshape_and_cache_kernel(k_ptr, v_ptr, kc_ptr, vc_ptr, slot_ptr, v_inv_scale, KVH: tl.constexpr,
                             D: tl.constexpr, BS: tl.constexpr):
    tok = tl.program_id(0)
    slot = tl.load(slot_ptr + tok)
    blk = slot // BS
    off = slot % BS
    h = tl.arange(0, KVH)
    d = tl.arange(0, D)
    src = tok * KVH * D + h[:, None] * D + d[None, :]
    dst = ((blk * BS + off) * KVH + h[:, None]) * D + d[None, :]
    ok = slot >= 0
    tl.store(kc_ptr + dst, tl.load(k_ptr + src), mask=ok)
    v = tl.load(v_ptr + src).to(tl.float32) * v_inv_scale
    tl.store(vc_ptr + dst, v.to(tl.float8e5).to(tl.uint8, bitcast=True), mask=ok)


# ---------------------------------------------------------------- MoE

@triton.jit
def fused_moe_kernel(a_ptr, b_ptr, c_ptr, topk_w_ptr, sorted_ids_ptr, expert_ids_ptr, num_valid, N, K,
                     TOPK: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BN)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_tok = pid_m * BM + tl.arange(0, BM)
    tok = tl.load(sorted_ids_ptr + offs_tok)
    tmask = tok < num_valid
    e = tl.load(expert_ids_ptr + pid_m)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + (tok[:, None] // TOPK) * K + offs_k[None, :]
    b_ptrs = b_ptr + e * K * N + offs_k[:, None] * N + offs_n[None, :]
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=tmask[:, None] & (offs_k[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BK) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK
        b_ptrs += BK * N
    w = tl.load(topk_w_ptr + tok, mask=tmask, other=0.0)
    acc = acc * w[:, None]
    tl.store(c_ptr + tok[:, None] * N + offs_n[None, :], acc.to(tl.float16), mask=tmask[:, None] & (offs_n[None, :] < N))


@triton.jit
def moe_align_kernel(ids_ptr, cnt_ptr, start_ptr, sorted_ptr, NUMEL: tl.constexpr, E: tl.constexpr,
                     BM: tl.constexpr):
    i = tl.arange(0, NUMEL)
    ids = tl.load(ids_ptr + i)
    cnt = tl.histogram(ids, E)
    padded = (cnt + BM - 1) // BM * BM
    start = tl.cumsum(padded, 0) - padded
    tl.store(cnt_ptr + tl.arange(0, E), cnt)
    tl.store(start_ptr + tl.arange(0, E), start)
    same = (ids[:, None] == ids[None, :]) & (i[None, :] < i[:, None])
    rank = tl.sum(same.to(tl.int32), 1)
    mine = tl.sum(tl.where(ids[:, None] == tl.arange(0, E)[None, :], start[None, :], 0), 1)
    tl.store(sorted_ptr + mine + rank, i)


# ---------------------------------------------------------------- matmuls

@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, BM: tl.constexpr, BN: tl.constexpr,
              BK: tl.constexpr, PREC: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * sam + kk[None, :] * sak, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * sbk + rn[None, :] * sbn, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def mm_staged_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                     STAGES: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k0 in tl.range(0, K, BK, num_stages=STAGES):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :])
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def ws_mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    acc = tl.zeros([BM, BN], tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), warp_specialize=True):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([pid_n * BN, k * BK])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def fp8_rowwise_mm_kernel(a_ptr, b_ptr, as_ptr, bs_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                          BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=rm[:, None] < M, other=0.0)
        b = tl.load(b_ptr + rn[None, :] * K + kk[:, None], mask=rn[None, :] < N, other=0.0)
        acc = tl.dot(a, b, acc)
    a_s = tl.load(as_ptr + rm, mask=rm < M, other=0.0)
    b_s = tl.load(bs_ptr + rn, mask=rn < N, other=0.0)
    acc = acc * a_s[:, None] * b_s[None, :]
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def fp8_block_mm_kernel(a_ptr, b_ptr, as_ptr, bs_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                        BK: tl.constexpr):
    # DeepSeek-style block scales: a_s[M, K/BK] per row and K block, b_s[N/BN, K/BK] per 128x128 block of B
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    nkb = K // BK
    acc = tl.zeros([BM, BN], tl.float32)
    for kb in range(0, nkb):
        kk = kb * BK + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :])
        b = tl.load(b_ptr + rn[None, :] * K + kk[:, None])
        a_s = tl.load(as_ptr + rm * nkb + kb)
        b_s = tl.load(bs_ptr + pid_n * nkb + kb)
        acc += tl.dot(a, b) * a_s[:, None] * b_s
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16))


@triton.jit
def w8a8_mm_kernel(a_ptr, b_ptr, as_ptr, bs_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.int32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=rm[:, None] < M, other=0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    a_s = tl.load(as_ptr + rm, mask=rm < M, other=0.0)
    b_s = tl.load(bs_ptr + rn, mask=rn < N, other=0.0)
    c = acc.to(tl.float32) * a_s[:, None] * b_s[None, :]
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def bmm3d_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BB: tl.constexpr):
    pid = tl.program_id(0)
    ob = pid * BB + tl.arange(0, BB)
    om = tl.arange(0, M)
    on = tl.arange(0, N)
    ok = tl.arange(0, K)
    a = tl.load(a_ptr + ob[:, None, None] * M * K + om[None, :, None] * K + ok[None, None, :])
    b = tl.load(b_ptr + ob[:, None, None] * K * N + ok[None, :, None] * N + on[None, None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + ob[:, None, None] * M * N + om[None, :, None] * N + on[None, None, :], c)


@triton.jit
def dot_f64_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    om = tl.arange(0, M)
    on = tl.arange(0, N)
    ok = tl.arange(0, K)
    a = tl.load(a_ptr + om[:, None] * K + ok[None, :])
    b = tl.load(b_ptr + ok[:, None] * N + on[None, :])
    tl.store(c_ptr + om[:, None] * N + on[None, :], tl.dot(a, b))


@triton.jit
def conv2d_igemm_kernel(x_ptr, w_ptr, y_ptr, NB, H, W, KO, P, Q, C: tl.constexpr, R: tl.constexpr, S: tl.constexpr,
                        PAD: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # x NHWC, w [KO, R, S, C], y [NB, P, Q, KO], stride 1
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)
    n = offs_m // (P * Q)
    pq = offs_m % (P * Q)
    p = pq // Q
    q = pq % Q
    offs_n = pid_n * BN + tl.arange(0, BN)
    KK = R * S * C
    acc = tl.zeros([BM, BN], tl.float32)
    for k0 in range(0, KK, BK):
        offs_k = k0 + tl.arange(0, BK)
        r = offs_k // (S * C)
        s = (offs_k // C) % S
        c = offs_k % C
        ih = p[:, None] + r[None, :] - PAD
        iw = q[:, None] + s[None, :] - PAD
        amask = (offs_m[:, None] < NB * P * Q) & (offs_k[None, :] < KK) & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        a = tl.load(x_ptr + ((n[:, None] * H + ih) * W + iw) * C + c[None, :], mask=amask, other=0.0)
        b = tl.load(w_ptr + offs_n[None, :] * KK + offs_k[:, None], mask=(offs_k[:, None] < KK) & (offs_n[None, :] < KO),
                    other=0.0)
        acc += tl.dot(a, b)
    tl.store(y_ptr + offs_m[:, None] * KO + offs_n[None, :], acc.to(tl.float16),
             mask=(offs_m[:, None] < NB * P * Q) & (offs_n[None, :] < KO))


# ---------------------------------------------------------------- norms, quantization

@triton.jit
def group_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, C, HW, G, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    g = pid % G
    CPG = C // G
    GS = CPG * HW
    base = pid * GS
    s = tl.zeros([BLOCK], tl.float32)
    for i in range(0, GS, BLOCK):
        o = i + tl.arange(0, BLOCK)
        s += tl.load(x_ptr + base + o, mask=o < GS, other=0.0)
    mean = tl.sum(s, 0) / GS
    v = tl.zeros([BLOCK], tl.float32)
    for i in range(0, GS, BLOCK):
        o = i + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + o, mask=o < GS, other=0.0)
        xc = tl.where(o < GS, x - mean, 0.0)
        v += xc * xc
    rstd = 1.0 / tl.sqrt(tl.sum(v, 0) / GS + eps)
    for i in range(0, GS, BLOCK):
        o = i + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + o, mask=o < GS, other=0.0)
        ch = g * CPG + o // HW
        w = tl.load(w_ptr + ch, mask=o < GS, other=0.0)
        bb = tl.load(b_ptr + ch, mask=o < GS, other=0.0)
        tl.store(y_ptr + base + o, (x - mean) * rstd * w + bb, mask=o < GS)
    tl.store(mean_ptr + pid, mean)
    tl.store(rstd_ptr + pid, rstd)


@triton.jit
def add_layernorm_kernel(x_ptr, r_ptr, w_ptr, b_ptr, y_ptr, rout_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=m, other=0.0).to(tl.float32)
    x += tl.load(r_ptr + row * N + offs, mask=m, other=0.0).to(tl.float32)
    tl.store(rout_ptr + row * N + offs, x.to(tl.bfloat16), mask=m)
    mean = tl.sum(x, 0) / N
    xc = tl.where(m, x - mean, 0.0)
    var = tl.sum(xc * xc, 0) / N
    rstd = tl.rsqrt(var + eps)
    w = tl.load(w_ptr + offs, mask=m, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=m, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + offs, (xc * rstd * w + b).to(tl.bfloat16), mask=m)


@triton.jit
def quant_fp8_token_kernel(x_ptr, q_ptr, s_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=m, other=0.0).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x), 0), 1e-12)
    scale = amax / 448.0
    q = tl.clamp(x / scale, -448.0, 448.0).to(tl.float8e4nv)
    tl.store(q_ptr + row * N + offs, q.to(tl.int8, bitcast=True), mask=m)
    tl.store(s_ptr + row, scale)


@triton.jit
def quant_int8_token_kernel(x_ptr, q_ptr, s_ptr, raw_ptr, u_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=m, other=0.0).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x), 0), 1e-8)
    scale = amax / 127.0
    q = tl.clamp(libdevice.rint(x / scale), -128.0, 127.0).to(tl.int8)
    tl.store(q_ptr + row * N + offs, q, mask=m)
    tl.store(s_ptr + row, scale)
    # plain conversions as written, out of range included
    tl.store(raw_ptr + row * N + offs, (x * 40.0).to(tl.int8), mask=m)
    tl.store(u_ptr + row * N + offs, (tl.abs(x) * 50.0).to(tl.uint8), mask=m)


# ---------------------------------------------------------------- printf, assert

@triton.jit
def device_print_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.device_print("x=", x)
    i = (x * 100.0).to(tl.int32)
    tl.device_print("i", i, hex=True)
    tl.device_print("pid", pid)
    tl.store(y_ptr + offs, x * 2.0, mask=offs < n)


@triton.jit(debug=True)
def device_assert_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.device_assert(x < 50, "x must stay below 50")
    tl.store(y_ptr + offs, x + 1, mask=offs < n)


# ---------------------------------------------------------------- sorting, scans, shapes

@triton.jit
def topk_kernel(x_ptr, v_ptr, i_ptr, N: tl.constexpr, K: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + offs)
    xb = x.to(tl.int32, bitcast=True)
    key = tl.where(xb < 0, xb ^ 0x7FFFFFFF, xb)
    packed = (key.to(tl.int64) << 32) | (N - 1 - offs).to(tl.int64)
    s = tl.sort(packed, descending=True)
    idx = (N - 1) - s.to(tl.int32)
    kb = (s >> 32).to(tl.int32)
    v = tl.where(kb < 0, kb ^ 0x7FFFFFFF, kb).to(tl.float32, bitcast=True)
    tl.store(v_ptr + row * K + offs, v, mask=offs < K)
    tl.store(i_ptr + row * K + offs, idx, mask=offs < K)


@triton.jit
def _max_idx(v1, i1, v2, i2):
    take2 = v2 >= v1
    return tl.where(take2, v2, v1), tl.where(take2, i2, i1)


@triton.jit
def _add2(a1, c1, a2, c2):
    return a1 + a2, c1 + c2


@triton.jit
def scan_tuple_kernel(x_ptr, v_ptr, i_ptr, m_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + offs)
    v, i = tl.associative_scan((x, offs), 0, _max_idx)
    tl.store(v_ptr + row * N + offs, v)
    tl.store(i_ptr + row * N + offs, i)
    s, c = tl.associative_scan((x, tl.full([N], 1, tl.int32)), 0, _add2, reverse=True)
    tl.store(m_ptr + row * N + offs, s / c.to(tl.float32))


@triton.jit
def shape_ops2_kernel(a_ptr, b_ptr, o1_ptr, o2_ptr, o3_ptr, o4_ptr, o5_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    il = tl.interleave(a, b)
    tl.store(o1_ptr + tl.arange(0, 2 * N), il)
    j = tl.join(a * b, a - b)
    tl.store(o2_ptr + tl.arange(0, 2 * N), tl.reshape(tl.permute(j, (1, 0)), (2 * N,)))
    x, y = tl.split(tl.reshape(il, (N, 2)))
    tl.store(o3_ptr + offs, x * 2.0 - y)
    f = tl.flip(a, 0)
    f2 = tl.reshape(tl.flip(tl.reshape(b, (N // 8, 8)), 1), (N,))
    tl.store(o4_ptr + offs, f + f2)
    ia = (a * 64.0).to(tl.int32)
    ib = (b * 64.0).to(tl.int32)
    c = tl.cat(ia, ib, can_reorder=True)
    tl.store(o5_ptr + 0, tl.sum(c, 0))
    tl.store(o5_ptr + 1, tl.max(c, 0))
    tl.store(o5_ptr + 2, tl.xor_sum(c, 0))


@triton.jit
def rope_gptj_kernel(x_ptr, cos_ptr, sin_ptr, o_ptr, H: tl.constexpr, D: tl.constexpr):
    s = tl.program_id(0)
    h = tl.arange(0, H)
    dd = tl.arange(0, D)
    d2 = tl.arange(0, D // 2)
    x = tl.load(x_ptr + (s * H + h[:, None]) * D + dd[None, :]).to(tl.float32)
    x1, x2 = tl.split(tl.reshape(x, (H, D // 2, 2)))
    c = tl.load(cos_ptr + s * (D // 2) + d2)[None, :]
    sn = tl.load(sin_ptr + s * (D // 2) + d2)[None, :]
    o = tl.interleave(x1 * c - x2 * sn, x2 * c + x1 * sn)
    tl.store(o_ptr + (s * H + h[:, None]) * D + dd[None, :], o.to(tl.bfloat16))


@triton.jit
def embedding_bag_kernel(w_ptr, idx_ptr, off_ptr, out_ptr, D: tl.constexpr):
    bag = tl.program_id(0)
    part = tl.program_id(1)
    start = tl.load(off_ptr + bag)
    end = tl.load(off_ptr + bag + 1)
    mid = start + (end - start + 1) // 2
    lo = tl.where(part == 0, start, mid)
    hi = tl.where(part == 0, mid, end)
    d = tl.arange(0, D)
    acc = tl.zeros([D], tl.float32)
    for i in range(lo, hi):
        row = tl.load(idx_ptr + i)
        acc += tl.load(w_ptr + row * D + d)
    tl.atomic_add(out_ptr + bag * D + d, acc, sem="relaxed")


# ---------------------------------------------------------------- arithmetic, odd shapes

@triton.jit
def small_int_f64_kernel(u_ptr, v_ptr, s_ptr, t_ptr, d_ptr, e_ptr, ou_ptr, os_ptr, od_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    u = tl.load(u_ptr + offs, mask=m, other=1)
    v = tl.load(v_ptr + offs, mask=m, other=1)
    vv = v | 1
    tl.store(ou_ptr + 0 * n + offs, u + v, mask=m)
    tl.store(ou_ptr + 1 * n + offs, u * v, mask=m)
    tl.store(ou_ptr + 2 * n + offs, u // vv, mask=m)
    tl.store(ou_ptr + 3 * n + offs, u % vv, mask=m)
    tl.store(ou_ptr + 4 * n + offs, u >> (v & 7), mask=m)
    tl.store(ou_ptr + 5 * n + offs, u - v, mask=m)
    tl.store(ou_ptr + 6 * n + offs, tl.maximum(u, v) ^ tl.minimum(u, v), mask=m)
    tl.store(ou_ptr + 7 * n + offs, (u.to(tl.float32) * 1.7).to(tl.uint8), mask=m)
    s = tl.load(s_ptr + offs, mask=m, other=1)
    t = tl.load(t_ptr + offs, mask=m, other=1)
    tl.store(os_ptr + 0 * n + offs, s * t, mask=m)
    tl.store(os_ptr + 1 * n + offs, s // t, mask=m)
    tl.store(os_ptr + 2 * n + offs, s % t, mask=m)
    tl.store(os_ptr + 3 * n + offs, s >> 3, mask=m)
    tl.store(os_ptr + 4 * n + offs, s + t, mask=m)
    tl.store(os_ptr + 5 * n + offs, tl.abs(s) + (s < t).to(tl.int16), mask=m)
    tl.store(os_ptr + 6 * n + offs, (s.to(tl.float32) * 0.37).to(tl.int16), mask=m)
    d = tl.load(d_ptr + offs, mask=m, other=1.0)
    e = tl.load(e_ptr + offs, mask=m, other=1.0)
    tl.store(od_ptr + 0 * n + offs, d * e + d, mask=m)
    tl.store(od_ptr + 1 * n + offs, d / e, mask=m)
    tl.store(od_ptr + 2 * n + offs, tl.sqrt(tl.abs(d)), mask=m)
    tl.store(od_ptr + 3 * n + offs, d.to(tl.float32).to(tl.float64), mask=m)
    tl.store(od_ptr + 4 * n + offs, (d * 1.0e10).to(tl.int64).to(tl.float64), mask=m)
    tl.store(od_ptr + 5 * n + offs, tl.fma(d, e, 1.0), mask=m)
    tl.store(od_ptr + 6 * n + offs, libdevice.exp(d) - libdevice.log(tl.abs(e)), mask=m)
    tl.store(od_ptr + 7 * n + offs, s.to(tl.float64) * d + u.to(tl.float64), mask=m)


@triton.jit
def odd_mask2d_kernel(x_ptr, y_ptr, lse_ptr, M, N, sxm, sxn, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    om = pid * BM + tl.arange(0, BM)
    on = tl.arange(0, BN)
    mask = (om[:, None] < M) & (on[None, :] < N)
    x = tl.load(x_ptr + om[:, None] * sxm + on[None, :] * sxn, mask=mask, other=float("-inf"))
    mx = tl.max(x, 1)
    mx = tl.where(om < M, mx, 0.0)
    e = tl.exp(x - mx[:, None])
    s = tl.sum(e, 1)
    tl.store(y_ptr + om[:, None] * N + on[None, :], e / s[:, None], mask=mask)
    tl.store(lse_ptr + om, mx + tl.log(s), mask=om < M)


# ---------------------------------------------------------------- cases

def cases():
    out = []
    g = torch.Generator().manual_seed(SEED)
    f16, bf16, f32, f64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
    i8, u8, i16, i32, i64 = torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64
    e4 = torch.float8_e4m3fn
    randn = t3.randn

    # paged attention decode: 3 sequences, 8 query heads on 2 KV heads, head 64, 16-token blocks
    B, H, KVH, D, BS, NBLK, MAXB = 3, 8, 2, 64, 16, 16, 4
    bt = torch.randperm(NBLK, generator=g)[:B * MAXB].to(i32).reshape(B, MAXB)
    out.append(Case("paged_attn_decode_f16", paged_attn_decode_kernel, (B, H),
                    [("out", torch.zeros((B, H, D), dtype=f16)), ("q", randn((B, H, D), f16, g)),
                     ("k_cache", randn((NBLK, BS, KVH, D), f16, g)), ("v_cache", randn((NBLK, BS, KVH, D), f16, g)),
                     ("block_tables", bt), ("seq_lens", torch.tensor([37, 64, 5], dtype=i32)), ("scale", 0.127),
                     ("max_blocks", MAXB)],
                    dict(H=H, KVH=KVH, D=D, BS=BS), 4, 2, ["out"],
                    "paged-attention decode: block tables, gathered K/V blocks, online softmax, 8 query heads on 2 KV "
                    "heads, ragged sequence lengths 37/64/5"))
    Bq, H, KVH, N_CTX, D = 2, 4, 2, 80, 32
    out.append(Case("gqa_fwd_bf16", gqa_fwd_kernel, (2, Bq * H),
                    [("q", randn((Bq, H, N_CTX, D), bf16, g)), ("k", randn((Bq, KVH, N_CTX, D), bf16, g)),
                     ("v", randn((Bq, KVH, N_CTX, D), bf16, g)), ("o", torch.zeros((Bq, H, N_CTX, D), dtype=bf16)),
                     ("sm_scale", 0.1768), ("N_CTX", N_CTX)],
                    dict(H=H, KVH=KVH, D=D, BM=64, BN=32), 4, 2, ["o"],
                    "grouped-query attention forward (4 heads on 2 KV heads), bf16, N_CTX=80 masked, exp2"))
    BH, N_CTX, D = 4, 96, 64
    q, k, v, do = (randn((BH, N_CTX, D), f16, g, 0.7) for _ in range(4))
    sm_scale = 0.125
    s = (q.float() @ k.float().transpose(1, 2)) * sm_scale
    lse = torch.logsumexp(s, -1).contiguous()
    o = torch.softmax(s, -1) @ v.float()
    delta = (o * do.float()).sum(-1).contiguous()
    attn_args = [("q", q), ("k", k), ("v", v), ("do", do), ("lse", lse), ("delta", delta)]
    out.append(Case("attn_bwd_dkdv_f16", attn_bwd_dkdv_kernel, (3, BH),
                    attn_args + [("dk", torch.zeros((BH, N_CTX, D), dtype=f16)), ("dv", torch.zeros((BH, N_CTX, D), dtype=f16)),
                                 ("sm_scale", sm_scale), ("N_CTX", N_CTX)],
                    dict(D=D, BM=32, BN=32), 4, 2, ["dk", "dv"],
                    "flash-attention backward, dK/dV pass (recomputed P from log-sum-exp, dS = P(dP - delta)), f16"))
    out.append(Case("attn_bwd_dq_f16", attn_bwd_dq_kernel, (3, BH),
                    attn_args + [("dq", torch.zeros((BH, N_CTX, D), dtype=f16)), ("sm_scale", sm_scale),
                                 ("N_CTX", N_CTX)],
                    dict(D=D, BM=32, BN=32), 4, 2, ["dq"], "flash-attention backward, dQ pass, f16"))
    T, KVH, D, BS, NBLK = 20, 2, 64, 16, 8
    slots = torch.randperm(NBLK * BS, generator=g)[:T].to(i64)
    slots[3] = -1
    slots[11] = -1
    out.append(Case("reshape_and_cache_f16", reshape_and_cache_kernel, (T,),
                    [("k", randn((T, KVH, D), f16, g)), ("v", randn((T, KVH, D), f16, g)),
                     ("kc", randn((NBLK, BS, KVH, D), f16, g)),
                     ("vc", torch.randint(0, 256, (NBLK, BS, KVH, D), generator=g, dtype=u8)),
                     ("slots", slots), ("v_inv_scale", 1.0 / 0.37)],
                    dict(KVH=KVH, D=D, BS=BS), 1, 2, ["kc", "vc"],
                    "paged KV-cache write: tokens scattered to slot_mapping (int64, -1 skipped), K as f16, V scaled "
                    "to fp8 e5m2; num_warps=1", inout=["kc", "vc"]))

    # fused MoE: 40 tokens, top-2 of 4 experts, K=96, N=64, expert-sorted ids padded to BM=16
    TOK, E, TOPK, K, N, BM = 40, 4, 2, 96, 64, 16
    ids = torch.stack([torch.randperm(E, generator=g)[:TOPK] for _ in range(TOK)]).flatten()
    w = torch.softmax(torch.randn((TOK, TOPK), generator=g), -1).flatten().to(f32)
    sorted_ids, expert_ids = [], []
    for ex in range(E):
        sel = [i for i in range(TOK * TOPK) if int(ids[i]) == ex]
        while len(sel) % BM:
            sel.append(TOK * TOPK)
        sorted_ids += sel
        expert_ids += [ex] * (len(sel) // BM)
    out.append(Case("fused_moe_f16", fused_moe_kernel, ((len(sorted_ids) // BM) * (N // 32),),
                    [("a", randn((TOK, K), f16, g)), ("b", randn((E, K, N), f16, g, 0.3)),
                     ("c", torch.zeros((TOK * TOPK, N), dtype=f16)), ("topk_w", w),
                     ("sorted_ids", torch.tensor(sorted_ids, dtype=i32)), ("expert_ids", torch.tensor(expert_ids, dtype=i32)),
                     ("num_valid", TOK * TOPK), ("N", N), ("K", K)],
                    dict(TOPK=TOPK, BM=BM, BN=32, BK=32), 4, 3, ["c"],
                    "fused MoE: tokens routed by expert-sorted ids (padded, masked), per-block expert weights, "
                    "top-k weight multiply, f16"))
    out.append(Case("moe_align_i32", moe_align_kernel, (1,),
                    [("ids", torch.randint(0, 8, (64,), generator=g, dtype=i32)), ("cnt", torch.zeros(8, dtype=i32)),
                     ("start", torch.zeros(8, dtype=i32)), ("sorted", torch.full((64 + 8 * 3,), 64, dtype=i32))],
                    dict(NUMEL=64, E=8, BM=4), 4, 2, ["cnt", "start", "sorted"],
                    "MoE block alignment: tl.histogram of expert ids, padded tl.cumsum, rank within expert, scatter",
                    inout=["sorted"]))

    # matmuls
    def mm(name, a, b, c, M, N, K, bm, bn, bk, w, s, prec, desc):
        out.append(Case(name, mm_kernel, ((M + bm - 1) // bm, (N + bn - 1) // bn),
                        [("a", a), ("b", b), ("c", c), ("M", M), ("N", N), ("K", K), ("sam", K), ("sak", 1), ("sbk", N),
                         ("sbn", 1), ("scm", N)],
                        dict(BM=bm, BN=bn, BK=bk, PREC=prec), w, s, ["c"], desc))
    M, N, K = 100, 72, 88
    mm("mm_stages1_f16", randn((M, K), f16, g), randn((K, N), f16, g), torch.zeros((M, N), dtype=f16), M, N, K,
       64, 32, 32, 4, 1, "tf32", "f16 matmul, num_stages=1, odd masked shape (100,72,88)")
    M, N, K = 128, 256, 128
    mm("mm_w16_f16", randn((M, K), f16, g), randn((K, N), f16, g), torch.zeros((M, N), dtype=f16), M, N, K,
       128, 256, 32, 16, 3, "tf32", "f16 matmul, 128x256x32 tiles, num_warps=16")
    M, N, K = 64, 64, 64
    mm("mm_w1_bf16", randn((M, K), bf16, g), randn((K, N), bf16, g), torch.zeros((M, N)), M, N, K,
       32, 32, 32, 1, 2, "tf32", "bf16 matmul -> f32, num_warps=1 (no warpgroup)")
    M, N, K = 64, 64, 80
    mm("mm_w2_tf32", randn((M, K), f32, g), randn((K, N), f32, g), torch.zeros((M, N)), M, N, K,
       64, 32, 32, 2, 2, "tf32", "f32 matmul with tf32 tensor cores, num_warps=2, K=80 masked")
    M, N, K = 128, 128, 384
    out.append(Case("mm_stages5_bf16", mm_staged_kernel, (2, 2),
                    [("a", randn((M, K), bf16, g)), ("b", randn((K, N), bf16, g)), ("c", torch.zeros((M, N))),
                     ("M", M), ("N", N), ("K", K)],
                    dict(BM=64, BN=64, BK=32, STAGES=5), 4, 5, ["c"],
                    "bf16 matmul -> f32, tl.range(num_stages=5), K=384"))
    M, N, K = 128, 128, 256
    out.append(Case("ws_mm_f16", ws_mm_kernel, (1, 1),
                    [("a", randn((M, K), f16, g)), ("b", randn((N, K), f16, g)), ("c", torch.zeros((M, N), dtype=f16)),
                     ("M", M), ("N", N), ("K", K)],
                    dict(BM=128, BN=128, BK=64), 4, 3, ["c"],
                    "tensor-descriptor matmul with tl.range(warp_specialize=True), 128x128x256 f16"))
    M, N, K = 96, 128, 128
    out.append(Case("fp8_rowwise_mm_bf16", fp8_rowwise_mm_kernel, (2, 2),
                    [("a", randn((M, K), f32, g, 40.0).to(e4)), ("b", randn((N, K), f32, g, 40.0).to(e4)),
                     ("a_s", torch.rand(M, generator=g) * 0.02 + 0.001), ("b_s", torch.rand(N, generator=g) * 0.02 + 0.001),
                     ("c", torch.zeros((M, N), dtype=bf16)), ("M", M), ("N", N), ("K", K)],
                    dict(BM=64, BN=64, BK=64), 4, 3, ["c"],
                    "fp8 e4m3 matmul (B as [N,K]) with row-wise scales into bf16, M=96 masked"))
    M, N, K = 64, 256, 256
    out.append(Case("fp8_block_mm_bf16", fp8_block_mm_kernel, (1, 2),
                    [("a", randn((M, K), f32, g, 40.0).to(e4)), ("b", randn((N, K), f32, g, 40.0).to(e4)),
                     ("a_s", torch.rand((M, K // 128), generator=g) * 0.02 + 0.001),
                     ("b_s", torch.rand((N // 128, K // 128), generator=g) * 0.02 + 0.001),
                     ("c", torch.zeros((M, N), dtype=bf16)), ("M", M), ("N", N), ("K", K)],
                    dict(BM=64, BN=128, BK=128), 4, 3, ["c"],
                    "fp8 e4m3 matmul with 128x128 block scales (DeepSeek-style, per K block) into bf16"))
    M, N, K = 64, 96, 128
    out.append(Case("w8a8_mm_f16", w8a8_mm_kernel, (1, 2),
                    [("a", torch.randint(-128, 128, (M, K), generator=g, dtype=i8)),
                     ("b", torch.randint(-128, 128, (K, N), generator=g, dtype=i8)),
                     ("a_s", torch.rand(M, generator=g) * 0.01), ("b_s", torch.rand(N, generator=g) * 0.01),
                     ("c", torch.zeros((M, N), dtype=f16)), ("M", M), ("N", N), ("K", K)],
                    dict(BM=64, BN=64, BK=64), 4, 3, ["c"],
                    "int8 W8A8 matmul (int32 accumulation) with per-token and per-channel scales into f16, N=96 masked"))
    out.append(Case("bmm3d_f16", bmm3d_kernel, (4,),
                    [("a", randn((8, 32, 32), f16, g)), ("b", randn((8, 32, 32), f16, g)), ("c", torch.zeros((8, 32, 32)))],
                    dict(M=32, N=32, K=32, BB=2), 4, 2, ["c"], "batched 3-D tl.dot, [2,32,32] x [2,32,32] f16 -> f32"))
    out.append(Case("dot_f64", dot_f64_kernel, (1,),
                    [("a", randn((32, 32), f64, g)), ("b", randn((32, 32), f64, g)), ("c", torch.zeros((32, 32), dtype=f64))],
                    dict(M=32, N=32, K=32), 4, 2, ["c"], "float64 tl.dot 32x32x32"))
    NB, Hh, Ww, C, KO = 2, 10, 10, 16, 32
    out.append(Case("conv2d_igemm_f16", conv2d_igemm_kernel, (4, 1),
                    [("x", randn((NB, Hh, Ww, C), f16, g)), ("w", randn((KO, 3, 3, C), f16, g, 0.2)),
                     ("y", torch.zeros((NB, Hh, Ww, KO), dtype=f16)), ("NB", NB), ("H", Hh), ("W", Ww), ("KO", KO),
                     ("P", Hh), ("Q", Ww)],
                    dict(C=C, R=3, S=3, PAD=1, BM=64, BN=32, BK=32), 4, 2, ["y"],
                    "conv2d 3x3 pad 1 as an implicit GEMM (NHWC, gathered im2col tiles, K=144 masked), f16"))

    # norms, quantization
    Nn, C, G, HW = 2, 12, 4, 63
    out.append(Case("group_norm_f32", group_norm_kernel, (Nn * G,),
                    [("x", randn((Nn, C, HW), f32, g, 2.0) + 0.3), ("w", randn(C, f32, g)), ("b", randn(C, f32, g)),
                     ("y", torch.zeros((Nn, C, HW))), ("mean", torch.zeros(Nn * G)), ("rstd", torch.zeros(Nn * G)),
                     ("C", C), ("HW", HW), ("G", G), ("eps", 1e-5)],
                    dict(BLOCK=128), 2, 2, ["y", "mean", "rstd"],
                    "group norm (4 groups of 3 channels x 63), three passes, num_warps=2"))
    R, Ncol = 6, 3000
    out.append(Case("add_layernorm_bf16_w16", add_layernorm_kernel, (R,),
                    [("x", randn((R, Ncol), bf16, g)), ("r", randn((R, Ncol), bf16, g)), ("w", randn(Ncol, bf16, g)),
                     ("b", randn(Ncol, bf16, g)), ("y", torch.zeros((R, Ncol), dtype=bf16)),
                     ("rout", torch.zeros((R, Ncol), dtype=bf16)), ("N", Ncol), ("eps", 1e-6)],
                    dict(BLOCK=4096), 16, 2, ["y", "rout"],
                    "fused residual add + layer norm, bf16, 6x3000, BLOCK=4096, num_warps=16"))
    x = randn((16, 700), f32, g, 3.0)
    x[3] = 0.0
    x[5] *= 1.0e4
    x[7, :5] = torch.tensor([448.0, -1e-6, 3e-3, 1e5, -2.0])
    out.append(Case("quant_fp8_token", quant_fp8_token_kernel, (16,),
                    [("x", x.to(bf16)), ("q", torch.zeros((16, 700), dtype=i8)), ("s", torch.zeros(16)), ("N", 700)],
                    dict(BLOCK=1024), 4, 2, ["q", "s"],
                    "per-token fp8 e4m3 quantization: row absmax, scale, clamp, cvt with satfinite; bf16 in"))
    x = randn((16, 500), f32, g, 2.0)
    x[2] = 0.0
    x[9, :4] = torch.tensor([3.5, -3.5, 2.5, -100.0])
    out.append(Case("quant_int8_token", quant_int8_token_kernel, (16,),
                    [("x", x.to(f16)), ("q", torch.zeros((16, 500), dtype=i8)), ("s", torch.zeros(16)),
                     ("raw", torch.zeros((16, 500), dtype=i8)), ("u", torch.zeros((16, 500), dtype=u8)), ("N", 500)],
                    dict(BLOCK=512), 2, 2, ["q", "s", "raw", "u"],
                    "per-token int8 quantization (absmax, rint, clamp) and plain f32 -> int8/uint8 conversions out of "
                    "range, f16 in, num_warps=2"))

    # printf, assert
    xp = randn(20, f32, g, 3.0)
    xp[:4] = torch.tensor([0.0, -0.0, 1.0e-7, -123.456])
    out.append(Case("device_print_f32", device_print_kernel, (1,),
                    [("x", xp), ("y", torch.zeros(20)), ("n", 20)], dict(BLOCK=32), 1, 2, ["y"],
                    "tl.device_print of an f32 tensor, an int32 tensor in hex and the program id; num_warps=1",
                    capture=True))
    xa = torch.randint(-20, 50, (24,), generator=g, dtype=i32)
    xa[13] = 77
    out.append(Case("device_assert_i32", device_assert_kernel, (1,),
                    [("x", xa), ("y", torch.zeros(24, dtype=i32)), ("n", 24)], dict(BLOCK=32), 1, 2, ["y"],
                    "tl.device_assert that fails in one lane (x[13] = 77), compiled with debug=True", fails=True))

    # sorting, scans, shapes
    xt = (torch.randint(-40, 40, (6, 128), generator=g).to(f32) / 4.0)
    xt[0, :3] = torch.tensor([-0.0, 0.0, -1e-30])
    out.append(Case("topk_f32", topk_kernel, (6,),
                    [("x", xt), ("v", torch.zeros((6, 8))), ("i", torch.zeros((6, 8), dtype=i32))],
                    dict(N=128, K=8), 2, 2, ["v", "i"],
                    "top-8 of 128 by sorting packed int64 keys (order-preserving float bits, index tie-break), "
                    "num_warps=2"))
    xs = randn((4, 256), f32, g)
    xs[1] = torch.randint(-3, 3, (256,), generator=g).to(f32)
    out.append(Case("scan_tuple_f32", scan_tuple_kernel, (4,),
                    [("x", xs), ("v", torch.zeros((4, 256))), ("i", torch.zeros((4, 256), dtype=i32)),
                     ("m", torch.zeros((4, 256)))],
                    dict(N=256), 4, 2, ["v", "i", "m"],
                    "tl.associative_scan on tuples: running max with its index (ties to the later), reversed "
                    "(sum, count) running mean"))
    out.append(Case("shape_ops2_f16", shape_ops2_kernel, (1,),
                    [("a", randn(64, f16, g)), ("b", randn(64, f16, g)), ("o1", torch.zeros(128, dtype=f16)),
                     ("o2", torch.zeros(128, dtype=f16)), ("o3", torch.zeros(64, dtype=f16)),
                     ("o4", torch.zeros(64, dtype=f16)), ("o5", torch.zeros(3, dtype=i32))],
                    dict(N=64), 4, 2, ["o1", "o2", "o3", "o4", "o5"],
                    "tl.interleave, tl.join + permute, tl.split, tl.flip (1-D and 2-D), tl.cat(can_reorder) "
                    "reduced, f16"))
    S, H, D = 24, 4, 64
    ang = torch.arange(S).to(f32)[:, None] * (10000.0 ** (-torch.arange(D // 2).to(f32) / (D // 2)))[None, :]
    out.append(Case("rope_gptj_bf16", rope_gptj_kernel, (S,),
                    [("x", randn((S, H, D), bf16, g)), ("cos", torch.cos(ang)), ("sin", torch.sin(ang)),
                     ("o", torch.zeros((S, H, D), dtype=bf16))],
                    dict(H=H, D=D), 4, 2, ["o"], "GPT-J (interleaved) rotary embedding with tl.split/tl.interleave, bf16"))
    lens = torch.randint(0, 8, (10,), generator=g)
    lens[4] = 0
    offsets = torch.cat([torch.zeros(1, dtype=i64), torch.cumsum(lens, 0)]).to(i32)
    out.append(Case("embedding_bag_f32", embedding_bag_kernel, (10, 2),
                    [("w", randn((50, 32), f32, g)), ("idx", torch.randint(0, 50, (int(lens.sum()),), generator=g, dtype=i32)),
                     ("offsets", offsets), ("out", torch.zeros((10, 32)))],
                    dict(D=32), 1, 2, ["out"],
                    "embedding bag (sum): each bag's two halves summed by two programs and tl.atomic_add-ed onto "
                    "zero; an empty bag; num_warps=1"))

    n = 1000
    dd = randn(n, f64, g, 3.0)
    dd[:4] = torch.tensor([0.0, -0.0, 1e-310, 7.0e300], dtype=f64)
    ee = randn(n, f64, g, 3.0)
    ee[ee.abs() < 1e-3] = 0.75
    tt = torch.randint(-32768, 32768, (n,), generator=g, dtype=torch.int32).to(i16)
    tt[tt == 0] = 7
    tt[tt == -1] = 5
    out.append(Case("small_int_f64", small_int_f64_kernel, (4,),
                    [("u", torch.randint(0, 256, (n,), generator=g, dtype=u8)),
                     ("v", torch.randint(0, 256, (n,), generator=g, dtype=u8)),
                     ("s", torch.randint(-32768, 32768, (n,), generator=g, dtype=torch.int32).to(i16)), ("t", tt),
                     ("d", dd), ("e", ee), ("ou", torch.zeros(8 * n, dtype=u8)), ("os", torch.zeros(7 * n, dtype=i16)),
                     ("od", torch.zeros(8 * n, dtype=f64)), ("n", n)],
                    dict(BLOCK=256), 4, 2, ["ou", "os", "od"],
                    "uint8 wrap/mul/div/rem/shift/min/max/cvt, int16 mul/div/rem/shift/abs/cvt, float64 fma/div/sqrt/"
                    "cvt/exp/log"))
    M, N = 37, 53
    xb = randn((N, M), f32, g, 4.0)
    out.append(Case("odd_mask2d_f32", odd_mask2d_kernel, (3,),
                    [("x", xb), ("y", torch.zeros((M, N))), ("lse", torch.zeros(M)), ("M", M), ("N", N),
                     ("sxm", 1), ("sxn", M)],
                    dict(BM=16, BN=64), 2, 2, ["y", "lse"],
                    "softmax and log-sum-exp over a transposed (strided) 37x53 input in 16x64 tiles, -inf padding"))

    only = os.environ.get("CASES")
    if only:
        keep = set(only.split(","))
        out = [c for c in out if c.name in keep]
    shard = os.environ.get("SHARD")
    if shard:
        i, k = (int(v) for v in shard.split("/"))
        out = [c for c in out if not c.fails][i::k]
    return out


# ---------------------------------------------------------------- recording

class Capture:
    """Redirects file descriptors 1 and 2 (where the CUDA driver prints device printf and assert
    messages) into files while open."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
        self.saved = [os.dup(1), os.dup(2)]
        os.dup2(self.files[0].fileno(), 1)
        os.dup2(self.files[1].fileno(), 2)
        return self

    def __exit__(self, *exc):
        LIBC.fflush(None)
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        for fd in self.saved:
            os.close(fd)
        self.text = []
        for f in self.files:
            f.seek(0)
            self.text.append(f.read())
            f.close()
        return False


captured = {}
_run_launch = tc.run_launch


def run_launch_capturing(drv, case_dir, lf, outputs):
    with Capture() as c:
        try:
            res = _run_launch(drv, case_dir, lf, outputs)
        except Exception:
            captured[lf["module"]] = None
            raise
    captured[lf["module"]] = c.text
    return res


def record_print(drv, case, root):
    tc.run_launch = run_launch_capturing
    try:
        meta = t3.record_case(drv, case, root)
    finally:
        tc.run_launch = _run_launch
    d = os.path.join(root, case.name)
    for arch in ("sm90", "sm80"):
        txt = captured.get(arch + ".ptx")
        if txt is not None and meta["archs"].get(arch, {}).get("recorded"):
            open(os.path.join(d, "expected", arch, "stdout.txt"), "wb").write(txt[0])
            open(os.path.join(d, "expected", arch, "stderr.txt"), "wb").write(txt[1])
    return meta


def record_assert(drv, case, root, arch):
    """Compiles without launching (Triton's own launch would leave the context failed), runs the launch
    file once through the driver, records the error and what was printed."""
    d = os.path.join(root, case.name)
    os.makedirs(d, exist_ok=True)
    bufs = {}
    dev_args = []
    for n, v in case.args:
        if torch.is_tensor(v):
            if n not in case.outputs:
                open(os.path.join(d, n + ".bin"), "wb").write(tc.tensor_bytes(v))
                bufs[n] = {"file": n + ".bin"}
            else:
                bufs[n] = {"bytes": v.numel() * v.element_size()}
            dev_args.append(v.to("cuda"))
        else:
            dev_args.append(v)
    compiled = case.kernel.warmup(*dev_args, grid=case.grid, num_warps=case.num_warps, num_stages=case.num_stages,
                                  **case.consts)
    if arch == "sm80":
        k = triton.compile(compiled.src, target=tc.GPUTarget("cuda", 80, 32),
                           options=dict(num_warps=case.num_warps, num_stages=case.num_stages, debug=True))
        how = "triton.compile(src, GPUTarget(cuda, 80, 32), debug=True)"
    else:
        k, how = compiled, "kernel.warmup (debug=True)"
    kept, _ = tc.kept_args(case, compiled)
    ptx = k.asm["ptx"]
    lname = "launch.json" if arch == "sm90" else "launch_sm80.json"
    open(os.path.join(d, arch + ".ptx"), "w").write(ptx)
    params = tc.ptx_entry_params(ptx, k.metadata.name)
    if not tc.args_match(kept, params):  # as record_case: names that differ from the kernel's parameters
        kept = tc.heuristic_kept(case)
    lf, nextra = tc.launch_for(case, kept, params, k.metadata, arch + ".ptx", bufs)
    json.dump(lf, open(os.path.join(d, lname), "w"), indent=1)
    err = "no error"
    with Capture() as c:
        try:
            _run_launch(drv, d, lf, case.outputs)
        except Exception as e:
            err = str(e)
    od = os.path.join(d, "expected", arch)
    os.makedirs(od, exist_ok=True)
    open(os.path.join(od, "error.txt"), "w").write(err + "\n")
    open(os.path.join(od, "stdout.txt"), "wb").write(c.text[0])
    open(os.path.join(od, "stderr.txt"), "wb").write(c.text[1])
    log("  %s %s: %s; stdout %d bytes, stderr %d bytes" % (case.name, arch, err, len(c.text[0]), len(c.text[1])))
    mp = os.path.join(d, "meta.json")
    meta = json.load(open(mp)) if os.path.exists(mp) else {
        "kernel": k.metadata.name, "description": case.desc, "grid": (list(case.grid) + [1, 1])[:3],
        "num_warps": case.num_warps, "num_stages": case.num_stages, "constexprs": case.consts,
        "python_args": [n for n, _ in case.args], "outputs": case.outputs, "inout": [], "launch_opts": {},
        "dtypes": {n: tc.dtype_name(v) for n, v in case.args if torch.is_tensor(v)}, "debug": True,
        "fails": True, "triton": triton.__version__, "torch": torch.__version__, "archs": {},
        "ptx_args": [n for n, _ in kept]}
    meta["archs"][arch] = {"shared": int(k.metadata.shared), "ptx_params": len(params), "extra_params": nextra,
                           "launch": lname, "compiled_by": how, "recorded": True, "error": err}
    json.dump(meta, open(mp, "w"), indent=1, default=str)
    return meta


def main():
    root = os.path.join(OUT, "triton4")
    os.makedirs(root, exist_ok=True)
    log("triton", triton.__version__, "torch", torch.__version__, torch.cuda.get_device_name(0))
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    drv = tc.Driver()
    aarch = os.environ.get("ASSERT_ARCH")
    if aarch:
        for case in [c for c in cases() if c.fails]:
            log("== %s (%s)" % (case.name, aarch))
            try:
                record_assert(drv, case, root, aarch)
            except Exception:
                traceback.print_exc()
        return
    summary = []
    for case in cases():
        if case.fails:
            continue
        t0 = time.time()
        log("== %s" % case.name)
        try:
            m = record_print(drv, case, root) if case.capture else t3.record_case(drv, case, root)
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
