#!/usr/bin/env python3
"""gen_hand2.py writes hand2.ptx: more forms for ptxas (-arch=sm_90) to aggregate or not, one atomic a kernel.
%rd1 = the buffer (global), %rd5 = its uniform address, %r1 = %tid.x, %r9 = a parameter (uniform), %r7 = a varying
value (%tid.x * 2654435761 >> 26), %r12 = a shared address (uniform), %r13 = %rd8 (generic, uniform)."""
K = {}
G = "[%rd5]"
def atom(name, line, pre=""):
    K[name] = (pre, line)
for op, t in [("and", "b32"), ("or", "b32"), ("xor", "b32"), ("min", "s32"), ("max", "s32"), ("min", "u32")]:
    atom(f"r2_red_{op}_{t}_uni", f"red.global.{op}.{t} {G}, %r9;")
    atom(f"r2_red_{op}_{t}_var", f"red.global.{op}.{t} {G}, %r7;")
atom("r2_red_and_b64_uni", f"red.global.and.b64 {G}, %rd9;", "cvt.u64.u32 %rd9, %r9;")
atom("r2_red_add_u64_var", f"red.global.add.u64 {G}, %rd9;", "cvt.u64.u32 %rd9, %r7;")
atom("r2_red_add_u64_uni", f"red.global.add.u64 {G}, %rd9;", "cvt.u64.u32 %rd9, %r9;")
atom("r2_red_min_u64_var", f"red.global.min.u64 {G}, %rd9;", "cvt.u64.u32 %rd9, %r7;")
atom("r2_red_inc_u32", f"red.global.inc.u32 {G}, 1000;")
atom("r2_red_dec_u32", f"red.global.dec.u32 {G}, 1000;")
atom("r2_red_add_s32_var", f"red.global.add.s32 {G}, %r7;")
atom("r2_red_add_f16x2", f"red.global.add.noftz.f16x2 {G}, %r9;")
atom("r2_red_add_f32_uni", f"red.global.add.f32 {G}, %f1;", "mov.b32 %f1, %r9;")
atom("r2_atom_add_s32_var", f"atom.global.add.s32 %r10, {G}, %r7;")
atom("r2_atom_add_u64_uni", f"atom.global.add.u64 %rd10, {G}, %rd9;", "cvt.u64.u32 %rd9, %r9;")
atom("r2_atom_add_u32_var_nouse", f"atom.global.add.u32 %r11, {G}, %r7;")
atom("r2_atom_and_b32_var", f"atom.global.and.b32 %r10, {G}, %r7;")
atom("r2_atom_inc_u32", f"atom.global.inc.u32 %r10, {G}, 1000;")
atom("r2_atom_max_u32_uni", f"atom.global.max.u32 %r10, {G}, %r9;")
atom("r2_sh_red_add_var", "red.shared.add.u32 [%r12], %r7;")
atom("r2_sh_red_add_uni", "red.shared.add.u32 [%r12], %r9;")
atom("r2_sh_red_max_var", "red.shared.max.u32 [%r12], %r7;")
atom("r2_sh_red_or_var", "red.shared.or.b32 [%r12], %r7;")
atom("r2_sh_atom_add_uni", "atom.shared.add.u32 %r10, [%r12], %r9;")
atom("r2_sh_atom_add_u64_imm", "atom.shared.add.u64 %rd10, [%r12], 1;")
atom("r2_sh_atom_exch_uni", "atom.shared.exch.b32 %r10, [%r12], %r9;")
atom("r2_gen_red_add_var", "red.add.u32 [%rd8], %r7;")
atom("r2_gen_atom_add_var", "atom.add.u32 %r10, [%rd8], %r7;")
# address forms (atom.global.add.u32 %r10, [addr], 1, result stored)
A = "atom.global.add.u32 %r10, [%rd5], 1;"
atom("r2_a_laneid_and", A, "mov.u32 %r5, %laneid; and.b32 %r5, %r5, 32; mul.wide.u32 %rd6, %r5, 8; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_tid_and0", A, "and.b32 %r5, %r1, 0; mul.wide.u32 %rd6, %r5, 8; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_ldgeneric", A, "ld.u32 %r5, [%rd8+512]; mul.wide.u32 %rd6, %r5, 8; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_ldconst", A, "ld.const.u32 %r5, [hc]; mul.wide.u32 %rd6, %r5, 8; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_ldvolatile", A, "ld.volatile.global.u32 %r5, [%rd1+512]; mul.wide.u32 %rd6, %r5, 8; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_atomres", A, "atom.global.exch.b32 %r5, [%rd1+512], 0; mul.wide.u32 %rd6, %r5, 8; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_ballot", A, "and.b32 %r5, %r1, 1; setp.eq.u32 %p3, %r5, 1; vote.sync.ballot.b32 %r5, %p3, -1; and.b32 %r5, %r5, 8; cvt.u64.u32 %rd6, %r5; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_redux", A, "redux.sync.max.u32 %r5, %r1, -1; and.b32 %r5, %r5, 8; cvt.u64.u32 %rd6, %r5; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_shfl_var_lane", A, "and.b32 %r6, %r1, 1; shfl.sync.idx.b32 %r5, %r9, %r6, 31, -1; mul.wide.u32 %rd6, %r5, 8; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_shfl_down", A, "shfl.sync.down.b32 %r5, %r9, 1, 31, -1; mul.wide.u32 %rd6, %r5, 8; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_clock", A, "mov.u32 %r5, %clock; and.b32 %r5, %r5, 0; mul.wide.u32 %rd6, %r5, 8; add.s64 %rd5, %rd1, %rd6;")
atom("r2_a_divphi_uni_if", A, "setp.eq.u32 %p1, %r9, 5; mov.u64 %rd5, %rd1; @%p1 bra L1; add.s64 %rd5, %rd1, 8; L1:")
atom("r2_a_guarded_mov", A, "and.b32 %r5, %r1, 1; setp.eq.u32 %p1, %r5, 1; mov.u64 %rd5, %rd1; @%p1 add.s64 %rd5, %rd1, 8;")
atom("r2_a_guarded_mov_uni", A, "setp.eq.u32 %p1, %r9, 5; mov.u64 %rd5, %rd1; @%p1 add.s64 %rd5, %rd1, 8;")
atom("r2_a_div_single_def", A, "and.b32 %r5, %r1, 1; setp.eq.u32 %p1, %r5, 1; @%p1 bra L1; add.s64 %rd5, %rd1, 8; L1:")
# loops: a counter that is uniform inside a loop whose exit is divergent, used as the address
K["r2_a_divloop_ctr"] = ("loopctr", "")
K["r2_a_uniloop_ctr"] = ("uniloopctr", "")
K["r2_a_divloop_after"] = ("loopafter", "")
out = [".version 8.0", ".target sm_90", ".address_size 64", "", ".global .align 8 .u32 hg;", ".const .align 4 .u32 hc;",
       ".shared .align 8 .b8 hs[64];", ""]
for name, (pre, line) in K.items():
    b = [f".visible .entry {name}(.param .u64 pb, .param .u64 po, .param .u32 pu)", "{",
         ".reg .b32 %r<20>;", ".reg .b64 %rd<20>;", ".reg .pred %p<4>;", ".reg .f32 %f<4>;",
         "ld.param.u64 %rd8, [pb];", "cvta.to.global.u64 %rd1, %rd8;", "ld.param.u64 %rd2, [po];",
         "cvta.to.global.u64 %rd2, %rd2;", "ld.param.u32 %r9, [pu];",
         "mov.u32 %r1, %tid.x;", "mov.u32 %r2, %ctaid.x;", "mov.u32 %r3, %ntid.x;",
         "mad.lo.s32 %r4, %r2, %r3, %r1;", "mul.wide.u32 %rd3, %r4, 8;", "add.s64 %rd4, %rd2, %rd3;",
         "mul.lo.u32 %r7, %r1, -1640531535;", "shr.u32 %r7, %r7, 26;", "mov.u32 %r12, hs;",
         "mov.u32 %r10, 0;", "mov.u64 %rd10, 0;", "mov.u64 %rd5, %rd1;"]
    if pre == "loopctr":
        b += ["and.b32 %r6, %r1, 3;", "mov.u32 %r5, 0;", "L8:", "mul.wide.u32 %rd6, %r5, 8;", "add.s64 %rd7, %rd1, %rd6;",
              "atom.global.add.u32 %r10, [%rd7], 1;", "add.u32 %r5, %r5, 1;", "setp.le.u32 %p2, %r5, %r6;", "@%p2 bra L8;"]
    elif pre == "uniloopctr":
        b += ["mov.u32 %r5, 0;", "L8:", "mul.wide.u32 %rd6, %r5, 8;", "add.s64 %rd7, %rd1, %rd6;",
              "atom.global.add.u32 %r10, [%rd7], 1;", "add.u32 %r5, %r5, 1;", "setp.lt.u32 %p2, %r5, %r9;", "@%p2 bra L8;"]
    elif pre == "loopafter":
        b += ["and.b32 %r6, %r1, 3;", "mov.u32 %r5, 0;", "L8:", "add.u32 %r5, %r5, 1;", "setp.le.u32 %p2, %r5, %r6;", "@%p2 bra L8;",
              "mul.wide.u32 %rd6, %r5, 8;", "add.s64 %rd7, %rd1, %rd6;", "atom.global.add.u32 %r10, [%rd7], 1;"]
    else:
        for s in pre.split(";"):
            s = s.strip()
            if not s:
                continue
            if s.startswith("L1:"):
                b.append("L1:")
                s = s[3:].strip()
                if not s:
                    continue
            b.append(s + ";")
        b.append(line)
    b += ["cvt.u64.u32 %rd9, %r10;", "add.u64 %rd9, %rd9, %rd10;", "st.global.u64 [%rd4], %rd9;", "ret;", "}", ""]
    out += ["\t" + x if not (x.endswith(":") or x in ("{", "}") or x.startswith(".visible")) else x for x in b]
open("hand2.ptx", "w").write("\n".join(out))
print(len(K), "kernels")
