#!/usr/bin/env python3
"""Runs this folder's launch files (gen.py) through the CUDA driver (the PTX
JIT-compiled by the driver's ptxas, as warpsim runs the same PTX).

    run.py stamps DIR OUTDIR REPS   every DIR/*.json: one warm-up launch,
                                    then REPS launches, each rep's stamps
                                    to OUTDIR/<name>.r<rep>.bin
    run.py once DIR NAME...         each NAME.json of DIR once (for ncu)"""
import ctypes, json, os, struct, sys


class Driver:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.call("cuInit", 0)
        dev = ctypes.c_int()
        self.call("cuDeviceGet", ctypes.byref(dev), 0)
        self.ctx = ctypes.c_void_p()
        self.call("cuDevicePrimaryCtxRetain", ctypes.byref(self.ctx), dev)
        self.call("cuCtxSetCurrent", self.ctx)

    def call(self, name, *args):
        rc = getattr(self.lib, name)(*args)
        if rc != 0:
            raise RuntimeError("%s failed: %d" % (name, rc))


def run(drv, d, name, reps, out):
    lf = json.load(open(os.path.join(d, name + ".json")))
    ptx = open(os.path.join(d, lf["module"]), "rb").read() + b"\0"
    mod = ctypes.c_void_p()
    drv.call("cuModuleLoadData", ctypes.byref(mod), ctypes.c_char_p(ptx))
    fn = ctypes.c_void_p()
    drv.call("cuModuleGetFunction", ctypes.byref(fn), mod, b"rn")
    bufs = {}
    for b, spec in lf["buffers"].items():
        p = ctypes.c_uint64()
        drv.call("cuMemAlloc_v2", ctypes.byref(p), ctypes.c_size_t(spec["bytes"]))
        drv.call("cuMemsetD8_v2", p, 0, ctypes.c_size_t(spec["bytes"]))
        bufs[b] = (p, spec["bytes"])
    l = lf["launches"][0]
    keep = []
    for a in l["args"]:
        raw = struct.pack("<Q", bufs[a["buffer"]][0].value) if "buffer" in a else struct.pack("<i", a["s32"])
        keep.append(ctypes.create_string_buffer(raw, len(raw)))
    params = (ctypes.c_void_p * len(keep))(*[ctypes.cast(k, ctypes.c_void_p) for k in keep])
    g, b = l["grid"], l["block"]
    for rep in range(-1, reps):
        drv.call("cuLaunchKernel", fn, g[0], g[1], g[2], b[0], b[1], b[2], 0, None, params, None)
        drv.call("cuCtxSynchronize")
        if rep >= 0 and out:
            p, n = bufs["stamps"]
            host = ctypes.create_string_buffer(n)
            drv.call("cuMemcpyDtoH_v2", host, p, ctypes.c_size_t(n))
            open(os.path.join(out, "%s.r%d.bin" % (name, rep)), "wb").write(host.raw)
    for p, _ in bufs.values():
        drv.lib.cuMemFree_v2(p)
    drv.lib.cuModuleUnload(mod)


drv = Driver()
if sys.argv[1] == "stamps":
    d, out, reps = sys.argv[2], sys.argv[3], int(sys.argv[4])
    os.makedirs(out, exist_ok=True)
    for f in sorted(os.listdir(d)):
        if f.endswith(".json"):
            try:
                run(drv, d, f[:-5], reps, out)
                print("ok", f[:-5], flush=True)
            except Exception as e:
                print("FAIL", f[:-5], e, flush=True)
else:
    for n, name in enumerate(sys.argv[3:]):
        run(drv, sys.argv[2], name, 0, None)
        print("launch", n, name, flush=True)
