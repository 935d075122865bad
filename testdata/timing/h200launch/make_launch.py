#!/usr/bin/env python3
"""Writes launch/<name>.json for launchcost.cu's configurations (h200/events.txt's `cfg` lines, in order),
running h200/launchcost.ptx (nvcc 13's PTX of the recorded program) as the program launched them."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(HERE, "launch"), exist_ok=True)
for line in open(os.path.join(HERE, "h200", "events.txt")):
    w = line.split()
    if not w or w[0] != "cfg":
        continue
    kv = dict(x.split("=", 1) for x in w[1:])
    grid, block, kernel = int(kv["grid"]), int(kv["block"]), kv["kernel"]
    bufs, args = {}, []
    if kernel == "store_k":
        bufs = {"p": {"bytes": 8448 * 4}}
        args = [{"buffer": "p"}]
    elif kernel == "copy_k":
        bufs = {"a": {"bytes": 64 * 4}, "b": {"bytes": 64 * 4}}
        args = [{"buffer": "a"}, {"buffer": "b"}]
    d = {"module": "../h200/launchcost.ptx", "arch": "h200", "buffers": bufs,
         "launches": [{"kernel": kernel, "grid": [grid], "block": [block], "args": args}]}
    with open(os.path.join(HERE, "launch", kv["name"] + ".json"), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")
