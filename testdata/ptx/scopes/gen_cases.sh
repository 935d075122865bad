#!/bin/sh
# gen_cases.sh writes the label-scoping probes (cases/*.ptx). Each is one
# kernel k(.param .u64 out) run by one warp of 32 threads; thread t writes
# words at out + 32*t. %p1 is true on odd threads, %p2 on threads with bit 1
# set. The expected path of every branch is stated in the case's comment;
# the H100's outputs (out_*.bin) say which label each branch really took.
set -e
cd "$(dirname "$0")"
mkdir -p cases
cd cases
head() {
cat <<H
// $1
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<8>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd1, %rd1, %rd2;
	and.b32 %r2, %r1, 1;
	setp.ne.u32 %p1, %r2, 0;
	and.b32 %r2, %r1, 2;
	setp.ne.u32 %p2, %r2, 0;
	mov.u32 %r3, 0;
	mov.u32 %r4, 0;
H
}
tail() {
cat <<T
	st.global.u32 [%rd1], %r3;
	st.global.u32 [%rd1+4], %r4;
	ret;
}
T
}

# 01: the same label in two sibling blocks (Triton's pasted inline asm).
{ head "siblings: SKIP in two sibling blocks, each branch to its own"; cat <<'B'
	{
	.reg .b32 %t;
	mov.u32 %t, 1;
	@%p1 bra SKIP;
	add.u32 %r3, %r3, %t;
SKIP:
	add.u32 %r3, %r3, 10;
	}
	{
	.reg .b32 %t;
	mov.u32 %t, 100;
	@%p2 bra SKIP;
	add.u32 %r3, %r3, %t;
SKIP:
	add.u32 %r3, %r3, 1000;
	}
B
tail; } > 01_siblings.ptx

# 02: an inner label shadows an outer one of the same name.
{ head "shadow: L outside and inside a block; a branch before the block, one inside, one after"; cat <<'B'
	@%p2 bra L;
	{
	@%p1 bra L;
	add.u32 %r3, %r3, 1;
L:
	add.u32 %r3, %r3, 2;
	}
	add.u32 %r3, %r3, 4;
L:
	add.u32 %r3, %r3, 8;
B
tail; } > 02_shadow.ptx

# 03: an inner label shadows an outer one defined earlier (backward branches).
{ head "shadow back: outer L before the block, inner L after the inner branch; a loop of 3"; cat <<'B'
L:
	add.u32 %r3, %r3, 1;
	add.u32 %r4, %r4, 1;
	setp.lt.u32 %p3, %r4, 3;
	and.pred %p4, %p1, %p3;
	{
	@%p4 bra L;
	add.u32 %r3, %r3, 10;
L:
	add.u32 %r3, %r3, 100;
	}
	@%p3 bra L;
B
tail; } > 03_shadow_back.ptx

# 04: a branch in an outer block to a label defined only in an inner block.
{ head "outer into inner: IN is defined only inside the block"; cat <<'B'
	@%p1 bra IN;
	add.u32 %r3, %r3, 1;
	{
	add.u32 %r3, %r3, 2;
IN:
	add.u32 %r3, %r3, 4;
	}
	add.u32 %r3, %r3, 8;
B
tail; } > 04_outer_into_inner.ptx

# 05: nested blocks branch out to labels of enclosing blocks.
{ head "nested: from depth 2 and 3 to labels of depth 1 and 0"; cat <<'B'
	{
	{
	@%p1 bra MID;
	add.u32 %r3, %r3, 1;
	{
	@%p2 bra OUT;
	add.u32 %r3, %r3, 2;
	}
	add.u32 %r3, %r3, 4;
	}
MID:
	add.u32 %r3, %r3, 8;
	}
	add.u32 %r3, %r3, 16;
OUT:
	add.u32 %r3, %r3, 32;
B
tail; } > 05_nested.ptx

# 06: the same label twice in one block (function level).
{ head "duplicate at function level"; cat <<'B'
	@%p1 bra D;
	add.u32 %r3, %r3, 1;
D:
	add.u32 %r3, %r3, 2;
D:
	add.u32 %r3, %r3, 4;
B
tail; } > 06_dup_function.ptx

# 07: the same label twice in one inner block.
{ head "duplicate inside one block"; cat <<'B'
	{
	@%p1 bra D;
	add.u32 %r3, %r3, 1;
D:
	add.u32 %r3, %r3, 2;
D:
	add.u32 %r3, %r3, 4;
	}
B
tail; } > 07_dup_block.ptx

# 08: a branch to a label of a sibling block.
{ head "sibling reference: X is defined in the first block, used in the second"; cat <<'B'
	{
	add.u32 %r3, %r3, 1;
X:
	add.u32 %r3, %r3, 2;
	}
	{
	@%p1 bra X;
	add.u32 %r3, %r3, 4;
	}
B
tail; } > 08_sibling_ref.ptx

# 09: brx.idx tables with the same names in two sibling blocks.
{ head "brx siblings: table T and labels A B E in two sibling blocks"; cat <<'B'
	{
	.reg .b32 %i;
	and.b32 %i, %r1, 1;
T: .branchtargets A, B;
	brx.idx %i, T;
A:
	add.u32 %r3, %r3, 1;
	bra.uni E;
B:
	add.u32 %r3, %r3, 2;
E:
	add.u32 %r3, %r3, 4;
	}
	{
	.reg .b32 %i;
	shr.b32 %i, %r1, 1;
	and.b32 %i, %i, 1;
T: .branchtargets A, B;
	brx.idx %i, T;
A:
	add.u32 %r3, %r3, 10;
	bra.uni E;
B:
	add.u32 %r3, %r3, 20;
E:
	add.u32 %r3, %r3, 40;
	}
B
tail; } > 09_brx_siblings.ptx

# 10: an outer table naming a label defined only in an inner block.
{ head "brx outer table, inner label"; cat <<'B'
	and.b32 %r5, %r1, 1;
T: .branchtargets A, C;
	brx.idx %r5, T;
A:
	add.u32 %r3, %r3, 1;
	{
C:
	add.u32 %r3, %r3, 2;
	}
B
tail; } > 10_brx_outer_inner.ptx

# 11: an inner table naming labels of the enclosing block, shadowed inside.
{ head "brx inner table: A outside and inside, C outside only"; cat <<'B'
	{
	and.b32 %r5, %r1, 1;
T: .branchtargets A, C;
	brx.idx %r5, T;
A:
	add.u32 %r3, %r3, 1;
	bra.uni E;
	}
A:
	add.u32 %r3, %r3, 100;
C:
	add.u32 %r3, %r3, 2;
E:
	add.u32 %r3, %r3, 4;
B
tail; } > 11_brx_inner_table.ptx

# 12: registers: an inner .reg shadows an outer one; same name twice in one block.
{ head "reg shadow: %t outside (5) and inside (7)"; cat <<'B'
	{
	.reg .b32 %t;
	mov.u32 %t, 5;
	{
	.reg .b32 %t;
	mov.u32 %t, 7;
	add.u32 %r3, %r3, %t;
	}
	add.u32 %r4, %r4, %t;
	}
B
tail; } > 12_reg_shadow.ptx

{ head "reg duplicate in one block"; cat <<'B'
	{
	.reg .b32 %t;
	.reg .b32 %t;
	mov.u32 %t, 5;
	add.u32 %r3, %r3, %t;
	}
B
tail; } > 13_reg_dup.ptx

# 14: a label with the name of a function, called inside a block.
{ cat <<'B'
// call: a .func f and a label f inside the kernel
.version 8.0
.target sm_90
.address_size 64
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .b32 %x;
	ld.param.b32 %x, [a];
	add.u32 %x, %x, 1;
	st.param.b32 [r], %x;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd1, %rd1, %rd2;
	{
	.param .b32 pa;
	.param .b32 pr;
	st.param.b32 [pa], %r1;
	call (pr), f, (pa);
	ld.param.b32 %r3, [pr];
f:
	add.u32 %r3, %r3, 10;
	}
	st.global.u32 [%rd1], %r3;
	ret;
}
B
} > 14_label_named_func.ptx

# 20: 70,000 declared .f32 registers, two used.
{ head "declared 70000 registers, two used"; cat <<'B'
	.reg .f32 %f<70000>;
	cvt.rn.f32.u32 %f69999, %r1;
	add.f32 %f3, %f69999, 0f3F000000;
	mov.b32 %r3, %f3;
B
tail; } > 20_regs_declared.ptx

# 21: ten million declared registers (ptxas's verdict only).
{ head "declared 10000000 registers, one used"; cat <<'B'
	.reg .b32 %q<10000000>;
	add.u32 %q9999999, %r1, 3;
	mov.u32 %r3, %q9999999;
B
tail; } > 21_regs_huge.ptx

# 22: a straight chain through 70,001 registers, all used:
# c0 = tid, c(i+1) = c(i) + (i%7 + 1); c70000 = tid + 10000*28 = tid + 280000.
{ head "chain through 70001 used registers: tid + 280000"
  printf '\t.reg .b32 %%c<70001>;\n\tmov.u32 %%c0, %%r1;\n'
  awk 'BEGIN { for (i = 0; i < 70000; i++) printf "\tadd.u32 %%c%d, %%c%d, %d;\n", i+1, i, i%7+1 }'
  printf '\tmov.u32 %%r3, %%c70000;\n'
  tail; } > 22_chain70k.ptx

# 15: a label defined at function level after a block, used from the block
# and shadowed in a nested block of a sibling.
{ head "mixed: Triton-like pasted asm with outer DONE"; cat <<'B'
	{
	@%p1 bra DONE;
	add.u32 %r3, %r3, 1;
	}
	{
	{
	@%p2 bra DONE;
	add.u32 %r3, %r3, 2;
DONE:
	add.u32 %r3, %r3, 4;
	}
	add.u32 %r3, %r3, 8;
	}
DONE:
	add.u32 %r3, %r3, 16;
B
tail; } > 15_mixed.ptx
