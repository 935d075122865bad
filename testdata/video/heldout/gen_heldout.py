#!/usr/bin/env python3
"""Writes the held-out video probe: forms that testdata/video's probe does
not contain, chosen after warpsim's rules were read from that probe's SASS,
to check that the rules hold beyond the forms they were read from.

Same program as gen_probe.py (one __noinline__ function per form, 400 edge
rows then LCG rows), other forms and another LCG seed:

  gen_heldout.py forms | cu [DROPPED] | kept DROPPED | drop DROPPED PTX LOG
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gen_probe as g  # noqa: E402 (../gen_probe.py, or beside this file on the device machine)

U, S = "u32", "s32"
T3 = g.TYPES3


def forms():
    f = []
    t3 = g.t3
    # A. vmad negating the product and c together (the first probe negates one)
    for t in T3:
        for mods in ("", ".sat", ".shr7", ".sat.shr15"):
            for ops in ("-%1, %2, -%3", "%1, -%2, -%3", "-%1, -%2, -%3"):
                f.append("vmad%s%s %%0, %s;" % (t3(t), mods, ops))
    # B. vmad with selectors, negations, .po
    for t in ((U, U, U), (S, U, S), (U, S, U), (S, S, S)):
        for sa, sb in ((".b1", ".h0"), (".h1", ".b3"), (".b0", ".b0")):
            f.append("vmad%s.po.sat.shr7 %%0, %%1%s, %%2%s, %%3;" % (t3(t), sa, sb))
            f.append("vmad%s.sat %%0, -%%1%s, %%2%s, %%3;" % (t3(t), sa, sb))
            f.append("vmad%s.shr15 %%0, %%1%s, %%2%s, -%%3;" % (t3(t), sa, sb))
    # C. saturated merges of the other operations and types
    for op in ("vadd", "vsub", "vabsdiff", "vmin", "vmax"):
        for t in ((U, U, U), (S, S, U), (U, S, U), (S, U, S)):
            for s in (".b1", ".h0", ".h1"):
                f.append("%s%s.sat %%0%s, %%1, %%2, %%3;" % (op, t3(t), s))
    # D. saturated and plain shift merges
    for op in ("vshl", "vshr"):
        for d in (U, S):
            for a in (U, S):
                for mode in (".clamp", ".wrap"):
                    for s in (".b0", ".h1"):
                        f.append("%s.%s.%s.u32%s.sat %%0%s, %%1, %%2, %%3;" % (op, d, a, mode, s))
                f.append("%s.%s.%s.u32.clamp %%0.b3, %%1, %%2, %%3;" % (op, d, a))
    # E. selectors with a secondary .min/.max, saturated or not
    for op in ("vadd", "vsub", "vabsdiff", "vmin", "vmax"):
        for t in ((U, S, U), (S, U, S), (U, U, S)):
            for sat in ("", ".sat"):
                for op2, sa, sb in ((".min", ".h1", ".b2"), (".max", ".b3", ".h0")):
                    f.append("%s%s%s%s %%0, %%1%s, %%2%s, %%3;" % (op, t3(t), sat, op2, sa, sb))
    for op in ("vshl", "vshr"):
        for d, a in ((U, S), (S, U), (U, U)):
            for sat in ("", ".sat"):
                f.append("%s.%s.%s.u32.clamp%s.max %%0, %%1.h1, %%2.b0, %%3;" % (op, d, a, sat))
                f.append("%s.%s.%s.u32.wrap%s.min %%0, %%1.b2, %%2.h0, %%3;" % (op, d, a, sat))
    # F. merges without .sat, upper half
    for form in ("vmin.s32.u32.s32", "vmax.u32.s32.s32", "vabsdiff.s32.s32.u32", "vsub.u32.s32.u32"):
        for s in (".h1", ".b2"):
            f.append("%s %%0%s, %%1, %%2, %%3;" % (form, s))
    assert len(set(f)) == len(f), "duplicate forms"
    return f


g.forms = forms
g.HEAD = g.HEAD.replace("gen_probe.py", "gen_heldout.py").replace("video_simd.forms.txt", "video_heldout.forms.txt")
SEED_OLD, SEED_NEW = "0x2545f4914f6cdd1dull", "0x9e3779b97f4a7c15ull"

if __name__ == "__main__":
    if sys.argv[1] == "cu":
        dropped = g.read_dropped(sys.argv[2]) if len(sys.argv) > 2 else set()
        src = g.cu(dropped)
        assert SEED_OLD in src
        sys.stdout.write(src.replace(SEED_OLD, SEED_NEW))
    elif sys.argv[1] == "forms":
        print("\n".join(forms()))
    elif sys.argv[1] == "kept":
        dropped = g.read_dropped(sys.argv[2])
        print("\n".join(x for x in forms() if x not in dropped))
    elif sys.argv[1] == "drop":
        for form, err in g.refused(g.read_dropped(sys.argv[2]), sys.argv[3], sys.argv[4]).items():
            print("%s\t%s" % (form, err))
