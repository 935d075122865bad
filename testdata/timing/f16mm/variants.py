#!/usr/bin/env python3
"""Ablations of an instrumented Triton kernel (instrument.py's NAME.ptx/.json/.points in DIR): each variant drops
the PTX lines a pattern matches (copies, wgmma, a TMA store), so that the H100 and warpsim time the rest alone.

    variants.py DIR NAME SUFFIX REGEX [SUFFIX REGEX ...]   writes DIR/NAME_SUFFIX.{ptx,json,points}"""
import json, os, re, shutil, sys

d, name = sys.argv[1], sys.argv[2]
ptx = open(os.path.join(d, name + ".ptx")).read().split("\n")
lf = json.load(open(os.path.join(d, name + ".json")))
for suffix, rx in zip(sys.argv[3::2], sys.argv[4::2]):
    v = name + "_" + suffix
    keep = [l for l in ptx if not re.search(rx, l)]
    print(v, "dropped", len(ptx) - len(keep), "lines")
    open(os.path.join(d, v + ".ptx"), "w").write("\n".join(keep))
    lf["module"] = v + ".ptx"
    json.dump(lf, open(os.path.join(d, v + ".json"), "w"), indent=1)
    shutil.copy(os.path.join(d, name + ".points"), os.path.join(d, v + ".points"))
