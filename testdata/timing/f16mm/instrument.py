#!/usr/bin/env python3
"""Adds %clock64 stamps to a Triton kernel's PTX, for the H100 and warpsim alike.

    instrument.py CASE_DIR OUT_DIR NAME [LAUNCH_FILE]

Reads CASE_DIR/LAUNCH_FILE (launch.json unless given; launch_sm80.json for the
sm_80 PTX) and the PTX it names; writes OUT_DIR/NAME.ptx and
OUT_DIR/NAME.json (a launch file: the same buffers and arguments, plus a
"stamps" buffer passed as one more kernel parameter, and module NAME.ptx).

Lane 0 of every warp writes the low 32 bits of %clock64 and the stamp's place
in the PTX (its line in NAME.points, from 0) to stamps[warp][i] (64 slots of
two 32-bit words a warp, warps numbered over the grid as ctaid.y*nctaid.x+ctaid.x, then warp in
block) at the kernel's entry and after each instruction that waits or orders:
bar.sync, wgmma.wait_group, cp.async.commit_group (not bulk),
tensormap.cp_fenceproxy, fence.proxy.tensormap, cp.async.bulk.wait_group, the
end of an mbarrier wait loop, and before ret; i counts up as the warp goes, so
a loop's iterations follow one another. The kinds of the stamps in program
order are written to OUT_DIR/NAME.points (one a line, with the PTX line it
follows); a stamp inside a loop repeats with it. Nothing else in the kernel changes."""
import json, os, re, sys

SLOTS = 64
case, out, name = sys.argv[1], sys.argv[2], sys.argv[3]
lf = json.load(open(os.path.join(case, sys.argv[4] if len(sys.argv) > 4 else "launch.json")))
src = open(os.path.join(case, lf["module"])).read().split("\n")
kernel = lf["launches"][0]["kernel"]

def STAMP(pid):
    return ["\tmov.u64 \t%wsv, %clock64;", "\tcvt.u32.u64 \t%wst3, %wsv;",
            "\tmov.b32 \t%%wst2, %d;" % pid, "\t@%wsl st.global.v2.u32 \t[%wsp], {%wst3, %wst2};", "\tadd.s64 \t%wsp, %wsp, 8;"]
after = [("bar.sync", re.compile(r"^\s*bar\.sync\b")),
         ("wgmma.wait_group", re.compile(r"^\s*wgmma\.wait_group\b")),
         ("cp.async.commit_group", re.compile(r"^\s*(@%\w+\s+)?cp\.async\.commit_group\b")),
         ("tensormap.cp_fenceproxy", re.compile(r"^\s*(@%\w+\s+)?tensormap\.cp_fenceproxy\b")),
         ("fence.proxy.tensormap", re.compile(r"^\s*(@%\w+\s+)?fence\.proxy\.tensormap\b")),
         ("cp.async.bulk.wait_group", re.compile(r"^\s*(@%\w+\s+)?cp\.async\.bulk\.wait_group\b")),
         ("mbarrier.wait", re.compile(r"^\s*@!complete bra\.uni waitLoop;"))]
res, points, nparams, in_params, entered, wait_block = [], [], 0, False, False, False
for i, l in enumerate(src):
    if l.startswith(".visible .entry %s(" % kernel):
        in_params = True
    if in_params and re.match(r"^\s*\.param\b", l):
        nparams += 1
        if not l.rstrip().endswith(","):
            l = l.rstrip() + ","
            res.append(l)
            res.append("\t.param .u64 .ptr .global .align 1 %s_param_%d" % (kernel, nparams))
            in_params = False
            continue
    if re.match(r"^\s*ret;", l):
        res += STAMP(len(points))
        points.append("ret")
    res.append(l)
    if l.startswith("$L__func_begin0:") and not entered:
        entered = True
        res += ["\t.reg .b64 \t%wsp, %wsv;", "\t.reg .b32 \t%wst<4>;", "\t.reg .pred \t%wsl;",
                "\tld.param.u64 \t%%wsp, [%s_param_%d];" % (kernel, nparams),
                "\tmov.u32 \t%wst0, %tid.x;", "\tand.b32 \t%wst1, %wst0, 31;", "\tsetp.eq.u32 \t%wsl, %wst1, 0;",
                "\tshr.u32 \t%wst0, %wst0, 5;", "\tmov.u32 \t%wst1, %ctaid.y;", "\tmov.u32 \t%wst2, %nctaid.x;",
                "\tmov.u32 \t%wst3, %ctaid.x;", "\tmad.lo.s32 \t%wst1, %wst1, %wst2, %wst3;",
                "\tmov.u32 \t%wst2, %ntid.x;", "\tshr.u32 \t%wst2, %wst2, 5;",
                "\tmad.lo.s32 \t%wst1, %wst1, %wst2, %wst0;",
                "\tmul.wide.u32 \t%%wsv, %%wst1, %d;" % (8 * SLOTS), "\tcvta.to.global.u64 \t%wsp, %wsp;",
                "\tadd.s64 \t%wsp, %wsp, %wsv;"] + STAMP(len(points))
        points.append("entry")
        continue
    for kind, rx in after:
        if rx.match(l):
            if kind == "mbarrier.wait":
                wait_block = True  # stamp after the enclosing block's closing brace
                break
            res += STAMP(len(points))
            points.append("%s (line %d)" % (kind, i + 1))
            break
    if wait_block and l.strip() == "}":
        wait_block = False
        res += STAMP(len(points))
        points.append("mbarrier.wait")
assert entered and nparams > 0, "entry not found"
open(os.path.join(out, name + ".ptx"), "w").write("\n".join(res))
open(os.path.join(out, name + ".points"), "w").write("\n".join(points) + "\n")
l0 = lf["launches"][0]
g = l0["grid"]
warps = g[0] * g[1] * g[2] * (l0["block"][0] // 32)
lf["module"] = name + ".ptx"
for b in lf["buffers"].values():
    if "file" in b:
        b["file"] = os.path.relpath(os.path.join(case, b["file"]), out)
lf["buffers"]["stamps"] = {"bytes": warps * SLOTS * 8}
l0["args"].append({"buffer": "stamps"})
json.dump(lf, open(os.path.join(out, name + ".json"), "w"), indent=1)
print(name, "stamps", len(points), "warps", warps)
