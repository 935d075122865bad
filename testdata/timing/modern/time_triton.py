#!/usr/bin/env python3
"""Runs every launch of the Triton corpus (testdata/triton/<case>/launch.json and
launch_sm80.json) REPS times through the CUDA driver, in a fixed order, so that
Nsight Compute's rows (one per kernel launch, in launch order) can be matched to
cases: prints "launch <n> <case> <arch> <rep> <kernel>" for every launch, n
counting from 0 as ncu's IDs do.   time_triton.py TRITON_DIR [REPS]"""
import json, os, sys

root = os.path.abspath(sys.argv[1])
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
sys.path.insert(0, root)
import triton_corpus as tc

drv = tc.Driver()
n = 0
for case in sorted(os.listdir(root)):
    d = os.path.join(root, case)
    if case == "probes" or not os.path.isfile(os.path.join(d, "meta.json")):
        continue
    outs = json.load(open(os.path.join(d, "meta.json")))["outputs"]
    for arch, lfname in (("sm90", "launch.json"), ("sm80", "launch_sm80.json")):
        p = os.path.join(d, lfname)
        if not os.path.isfile(p):
            continue
        lf = json.load(open(p))
        for rep in range(reps):
            try:
                tc.run_launch(drv, d, lf, outs)
            except Exception as e:
                print("FAIL", case, arch, rep, e, flush=True)
                continue
            for l in lf["launches"]:
                print("launch", n, case, arch, rep, l["kernel"], flush=True)
                n += 1
