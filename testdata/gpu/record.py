#!/usr/bin/env python3
"""Runs one conformance case on a real NVIDIA GPU and records what it wrote.

    python3 record.py CASE_DIR VARIANT      # VARIANT: nvcc or clang

Reads CASE_DIR/launch.json, the same warpsim launch file the simulator reads,
loads CASE_DIR/VARIANT.ptx with the CUDA driver API (cuModuleLoadDataEx JITs
the PTX text, whichever compiler wrote it), allocates and fills the buffers,
sets the module-scope variables named under "globals", runs every launch in
order, and writes

    CASE_DIR/expected/VARIANT/<buffer>.bin   every buffer's final bytes
    CASE_DIR/expected/VARIANT/stdout.txt     the kernels' printf output

The printf output is what the driver prints to the process's standard output
at synchronization; fd 1 is redirected to the file while the launches run.
Python's standard library and libcuda.so are all it needs (ctypes), so it
runs on any machine with a driver, no CUDA toolkit or pip package needed.
Exit status 0 on success; on any CUDA error it prints the error (and the JIT
log) and exits 1 without writing expected/.
"""

import ctypes
import json
import os
import shutil
import struct
import sys

CU_JIT_INFO_LOG_BUFFER = 3
CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4
CU_JIT_ERROR_LOG_BUFFER = 5
CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
CU_LIMIT_STACK_SIZE = 0
CU_LIMIT_PRINTF_FIFO_SIZE = 1

SCALAR = {"s8": "b", "s16": "h", "s32": "i", "s64": "q", "u8": "B", "u16": "H", "u32": "I",
          "u64": "Q", "f32": "f", "f64": "d"}


class CudaError(Exception):
    pass


class Driver:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.libc = ctypes.CDLL(None)

    def call(self, name, *args):
        rc = getattr(self.lib, name)(*args)
        if rc != 0:
            s = ctypes.c_char_p()
            self.lib.cuGetErrorName(rc, ctypes.byref(s))
            raise CudaError("%s failed: %d %s" % (name, rc, s.value.decode() if s.value else "?"))


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def typed_bytes(spec, where):
    """Bytes of a typed initializer {"f32": [...]} or {"file": ...} or {"bytes": N}."""
    if len(spec) != 1:
        raise ValueError("%s: expected one key, got %s" % (where, sorted(spec)))
    (k, v), = spec.items()
    if k == "bytes":
        return bytes(v)
    if k == "f16":
        return struct.pack("<%dH" % len(v), *[f16_bits(x) for x in v])
    if k in SCALAR:
        return struct.pack("<%d%s" % (len(v), SCALAR[k]), *v)
    raise ValueError("%s: unknown initializer %r" % (where, k))


def scalar_bytes(arg, where):
    (k, v), = arg.items()
    if k == "bytes_hex":
        return bytes.fromhex(v)
    if k == "f16":
        return struct.pack("<H", f16_bits(v))
    if k in SCALAR:
        return struct.pack("<" + SCALAR[k], v)
    raise ValueError("%s: unknown scalar %r" % (where, k))


def record(case_dir, variant):
    lf = json.load(open(os.path.join(case_dir, "launch.json")))
    ptx_path = os.path.join(case_dir, variant + ".ptx")
    ptx = open(ptx_path, "rb").read() + b"\0"

    d = Driver()
    d.call("cuInit", 0)
    dev = ctypes.c_int()
    d.call("cuDeviceGet", ctypes.byref(dev), 0)
    ctx = ctypes.c_void_p()
    d.call("cuDevicePrimaryCtxRetain", ctypes.byref(ctx), dev)
    d.call("cuCtxSetCurrent", ctx)
    d.call("cuCtxSetLimit", CU_LIMIT_STACK_SIZE, ctypes.c_size_t(16384))
    d.call("cuCtxSetLimit", CU_LIMIT_PRINTF_FIFO_SIZE, ctypes.c_size_t(64 << 20))

    errlog = ctypes.create_string_buffer(1 << 16)
    infolog = ctypes.create_string_buffer(1 << 16)
    opts = (ctypes.c_int * 4)(CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
    vals = (ctypes.c_void_p * 4)(ctypes.cast(errlog, ctypes.c_void_p).value, 1 << 16,
                                 ctypes.cast(infolog, ctypes.c_void_p).value, 1 << 16)
    mod = ctypes.c_void_p()
    try:
        d.call("cuModuleLoadDataEx", ctypes.byref(mod), ctypes.c_char_p(ptx), 4, opts, vals)
    except CudaError as e:
        raise CudaError("%s: %s\n%s" % (ptx_path, e, errlog.value.decode(errors="replace")))

    # Buffers, in the launch file's order.
    bufs = {}
    for name, spec in lf["buffers"].items():
        where = "buffers.%s" % name
        if "file" in spec:
            data = open(os.path.join(case_dir, spec["file"]), "rb").read()
        else:
            data = typed_bytes(spec, where)
        size = max(len(data), 1)
        ptr = ctypes.c_uint64()
        d.call("cuMemAlloc_v2", ctypes.byref(ptr), ctypes.c_size_t(size))
        d.call("cuMemsetD8_v2", ptr, 0, ctypes.c_size_t(size))
        if data:
            d.call("cuMemcpyHtoD_v2", ptr, ctypes.c_char_p(data), ctypes.c_size_t(len(data)))
        bufs[name] = (ptr.value, len(data))

    for name, spec in lf.get("globals", {}).items():
        data = typed_bytes(spec, "globals.%s" % name)
        ptr, size = ctypes.c_uint64(), ctypes.c_size_t()
        d.call("cuModuleGetGlobal_v2", ctypes.byref(ptr), ctypes.byref(size), mod, name.encode())
        if len(data) > size.value:
            raise ValueError("globals.%s: %d bytes for a %d-byte variable" % (name, len(data), size.value))
        d.call("cuMemcpyHtoD_v2", ptr, ctypes.c_char_p(data), ctypes.c_size_t(len(data)))

    out_dir = os.path.join(case_dir, "expected", variant)
    os.makedirs(out_dir, exist_ok=True)
    stdout_path = os.path.join(out_dir, "stdout.txt")
    sys.stdout.flush()
    d.libc.fflush(None)
    saved = os.dup(1)
    fd = os.open(stdout_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    try:
        for li, l in enumerate(lf["launches"]):
            fn = ctypes.c_void_p()
            d.call("cuModuleGetFunction", ctypes.byref(fn), mod, l["kernel"].encode())
            keep = []
            for ai, a in enumerate(l.get("args", [])):
                where = "launches[%d].args[%d]" % (li, ai)
                if "buffer" in a:
                    raw = struct.pack("<Q", bufs[a["buffer"]][0] + a.get("offset", 0))
                else:
                    raw = scalar_bytes(a, where)
                keep.append(ctypes.create_string_buffer(raw, len(raw)))
            params = (ctypes.c_void_p * max(len(keep), 1))(*[ctypes.cast(k, ctypes.c_void_p) for k in keep])
            g = (l.get("grid", [1, 1, 1]) + [1, 1])[:3]
            b = (l.get("block", [1, 1, 1]) + [1, 1])[:3]
            d.call("cuLaunchKernel", fn, g[0], g[1], g[2], b[0], b[1], b[2], l.get("shared_bytes", 0), None,
                   params, None)
            d.call("cuCtxSynchronize")
        d.libc.fflush(None)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(fd)

    for name, (ptr, size) in bufs.items():
        host = ctypes.create_string_buffer(max(size, 1))
        if size:
            d.call("cuMemcpyDtoH_v2", host, ctypes.c_uint64(ptr), ctypes.c_size_t(size))
        with open(os.path.join(out_dir, name + ".bin"), "wb") as f:
            f.write(host.raw[:size])
    info = infolog.value.decode(errors="replace").strip()
    return info


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("nvcc", "clang"):
        print(__doc__, file=sys.stderr)
        return 2
    case_dir, variant = sys.argv[1], sys.argv[2]
    try:
        info = record(case_dir, variant)
    except (CudaError, ValueError, OSError, KeyError) as e:
        print("FAIL %s %s: %s" % (os.path.basename(case_dir.rstrip("/")), variant, e), file=sys.stderr)
        shutil.rmtree(os.path.join(case_dir, "expected", variant), ignore_errors=True)
        return 1
    print("ok   %s %s%s" % (os.path.basename(case_dir.rstrip("/")), variant, (" (" + info + ")") if info else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
