#!/usr/bin/env python3
"""Runs launch files through the CUDA driver (triton_corpus.run_launch) and
writes the named output buffers:  runlf.py DIR OUTDIR LAUNCH.json:buf,buf ..."""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_corpus as tc

d, out = sys.argv[1], sys.argv[2]
drv = tc.Driver()
for spec in sys.argv[3:]:
    lfname, bufs = spec.split(":")
    lf = json.load(open(os.path.join(d, lfname)))
    try:
        res = tc.run_launch(drv, d, lf, bufs.split(","))
    except Exception as e:
        print("FAIL", lfname, e)
        continue
    od = os.path.join(out, os.path.splitext(lfname)[0])
    os.makedirs(od, exist_ok=True)
    for n, b in res.items():
        open(os.path.join(od, n + ".bin"), "wb").write(b)
    print("ok", lfname)
