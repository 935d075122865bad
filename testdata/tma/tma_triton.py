#!/usr/bin/env python3
"""Records Triton 3.6 kernels that use TMA (tl.make_tensor_descriptor, device-side tensor
descriptors built with tensormap.replace) into the Triton corpus layout (testdata/triton/<name>),
with ../triton/triton_corpus.py's record_case.

    python3 tma_triton.py OUTDIR
"""
import os
import sys

OUTDIR = sys.argv[1]
sys.argv = [sys.argv[0], OUTDIR]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "triton"))
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
import triton_corpus as tc  # noqa: E402


def alloc(size, alignment, stream):
    return torch.empty(size, device="cuda", dtype=torch.int8)


triton.set_allocator(alloc)


@triton.jit
def tma_scale_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    t = xd.load([pm * BM, pn * BN])
    yd.store([pm * BM, pn * BN], t * 2.0 + 1.0)


@triton.jit
def tma_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    ad = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    bd = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    cd = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = ad.load([pm * BM, k])
        b = bd.load([k, pn * BN])
        acc = tl.dot(a, b, acc)
    cd.store([pm * BM, pn * BN], acc.to(tl.float16))


def cases():
    g = tc.gen()
    out = []
    M, N = 100, 72
    x = tc.randn((M, N), torch.float32, g)
    out.append(tc.Case("tma_scale_f32", tma_scale_kernel, (4, 3),
                       [("x", x), ("y", torch.zeros((M, N))), ("M", M), ("N", N)],
                       dict(BM=32, BN=32), 4, 3, ["y"],
                       "TMA load and store through device-side tensor descriptors (tl.make_tensor_descriptor), "
                       "100x72 f32, 32x32 boxes with out-of-bounds edges", sm80=False))
    M, N, K = 128, 128, 96
    a, b = tc.randn((M, K), torch.float16, g), tc.randn((K, N), torch.float16, g)
    out.append(tc.Case("tma_matmul_f16", tma_matmul_kernel, (2, 2),
                       [("a", a), ("b", b), ("c", torch.zeros((M, N), dtype=torch.float16)), ("M", M), ("N", N),
                        ("K", K)],
                       dict(BM=64, BN=64, BK=32), 4, 3, ["c"],
                       "matmul with TMA descriptor loads (tl.make_tensor_descriptor) and wgmma, 128x128x96 f16",
                       sm80=False))
    return out


def main():
    root = os.path.join(OUTDIR, "triton")
    os.makedirs(root, exist_ok=True)
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    drv = tc.Driver()
    for case in cases():
        tc.log("== %s" % case.name)
        try:
            m = tc.record_case(drv, case, root)
            tc.log("  ", {a: (v.get("recorded"), v.get("triton_run_equal"), v.get("error", "")[:300])
                          for a, v in m["archs"].items()})
        except Exception:
            import traceback
            traceback.print_exc()


if __name__ == "__main__":
    main()
