#!/usr/bin/env python3
"""Runs every launch of the fourth Triton batch (TRITON4_DIR/<case>/launch.json for sm90,
launch_sm80.json for sm80) REPS times through the CUDA driver, in a fixed order, so that Nsight
Compute's rows (one per kernel launch, in launch order) can be matched to cases: prints
"launch <n> <case> <arch> <rep> <kernel>" for every launch, n counting from 0 as ncu's IDs do.
As ../triton3/time_triton3.py, leaving out the kernel whose assert fails (it would end the context).
    time_triton4.py TRITON4_DIR [REPS [ARCH]]"""
import json, os, sys

root = os.path.abspath(sys.argv[1])
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
only = sys.argv[3] if len(sys.argv) > 3 else None
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "triton"))
import triton_corpus as tc

drv = tc.Driver()
n = 0
for case in sorted(os.listdir(root)):
    d = os.path.join(root, case)
    if not os.path.isfile(os.path.join(d, "meta.json")):
        continue
    meta = json.load(open(os.path.join(d, "meta.json")))
    if meta.get("fails"):
        continue
    for arch, lfname in (("sm90", "launch.json"), ("sm80", "launch_sm80.json")):
        p = os.path.join(d, lfname)
        if only and arch != only or not os.path.isfile(p) or not meta["archs"].get(arch, {}).get("recorded"):
            continue
        lf = json.load(open(p))
        for rep in range(reps):
            try:
                tc.run_launch(drv, d, lf, meta["outputs"])
            except Exception as e:
                print("FAIL", case, arch, rep, e, flush=True)
                continue
            for l in lf["launches"]:
                print("launch", n, case, arch, rep, l["kernel"], flush=True)
                n += 1
