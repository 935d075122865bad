#!/usr/bin/env python3
"""Runs Triton corpus launch files through the CUDA driver (triton_corpus.py's
run_launch: the PTX JIT-compiled by the driver), for the H100 recordings of
this folder.

    run_cases.py stamps STAMPDIR OUTDIR REPS
        every STAMPDIR/*.json (instrument.py's launch files) REPS times; all
        but the last run with the L2 flushed first (a 256 MiB memset, as
        Nsight Compute's cache control does), the last with the inputs as
        their upload left them; writes OUTDIR/<name>.r<rep>.stamps.bin
    run_cases.py files DIR NAME.json...
        each launch file of DIR once (for ncu), printing "launch <n> <file>".
    run_cases.py plain TRITONDIR CASE...
        each case's launch.json and launch_sm80.json once (for ncu), printing
        "launch <n> <case> <file>" in launch order.
Needs triton_corpus.py (testdata/triton) beside it or in TRITONDIR."""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
mode = sys.argv[1]
if mode == "plain":
    sys.path.insert(0, os.path.abspath(sys.argv[2]))
else:
    sys.path.insert(0, os.path.join(here, "triton"))
import triton_corpus as tc

drv = tc.Driver()
if mode == "stamps":
    src, out, reps = sys.argv[2], sys.argv[3], int(sys.argv[4])
    os.makedirs(out, exist_ok=True)
    import ctypes
    flush = ctypes.c_uint64()
    drv.call("cuMemAlloc_v2", ctypes.byref(flush), ctypes.c_size_t(256 << 20))
    state = {"flush": False}
    call = drv.call

    def wrapped(name, *args):
        if name == "cuLaunchKernel" and state["flush"]:
            call("cuMemsetD8_v2", flush, state.get("v", 0), ctypes.c_size_t(256 << 20))
            state["v"] = (state.get("v", 0) + 1) & 255
            call("cuCtxSynchronize")
        return call(name, *args)

    drv.call = wrapped
    for f in sorted(os.listdir(src)):
        if not f.endswith(".json"):
            continue
        lf = json.load(open(os.path.join(src, f)))
        name = f[:-5]
        for rep in range(reps):
            state["flush"] = rep < reps - 1
            try:
                res = tc.run_launch(drv, src, lf, ["stamps"])
            except Exception as e:
                print("FAIL", name, rep, e, flush=True)
                continue
            open(os.path.join(out, "%s.r%d.stamps.bin" % (name, rep)), "wb").write(res["stamps"])
            print("ok", name, rep, "flushed" if state["flush"] else "warm", flush=True)
elif mode == "files":
    d = sys.argv[2]
    for n, f in enumerate(sys.argv[3:]):
        lf = json.load(open(os.path.join(d, f)))
        try:
            tc.run_launch(drv, d, lf, [])
        except Exception as e:
            print("FAIL", f, e, flush=True)
            continue
        print("launch", n, f, flush=True)
elif mode == "plain":
    root = os.path.abspath(sys.argv[2])
    n = 0
    for case in sys.argv[3:]:
        d = os.path.join(root, case)
        outs = json.load(open(os.path.join(d, "meta.json")))["outputs"]
        for lfname in ("launch.json", "launch_sm80.json"):
            p = os.path.join(d, lfname)
            if not os.path.isfile(p):
                continue
            lf = json.load(open(p))
            try:
                tc.run_launch(drv, d, lf, outs)
            except Exception as e:
                print("FAIL", case, lfname, e, flush=True)
                continue
            for l in lf["launches"]:
                print("launch", n, case, lfname, l["kernel"], flush=True)
                n += 1
