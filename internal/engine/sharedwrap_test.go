package engine

import (
	"encoding/binary"
	"testing"
)

// sharedWrapPTX: 32 lanes store 3*i+1 to shared word i (i < 64), then
// each lane l forms the row base s - 64 + 4l, below the shared window for
// l < 16 (it wraps in 32 bits), and reads [base+68] (word l+1), a v2.u32
// at [base+72] (words l+2, l+3; even lanes below 20 only, a partial
// warp) and stores 7 to [base+192] (word l+32) after the barrier, as
// nvcc's tiles do (testdata/programs8 needle: s - 64*tid, then [r+68]).
const sharedWrapPTX = `
.visible .entry wrap(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	.shared .align 8 .b8 s[256];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, s;
	shl.b32 %r3, %r1, 2;
	add.s32 %r4, %r2, %r3;
	mad.lo.s32 %r5, %r1, 3, 1;
	st.shared.u32 [%r4], %r5;
	add.s32 %r6, %r5, 96;
	st.shared.u32 [%r4+128], %r6;
	bar.sync 0;
	add.s32 %r7, %r4, -64;
	ld.shared.u32 %r8, [%r7+68];
	mov.u32 %r9, 0;
	mov.u32 %r10, 0;
	and.b32 %r13, %r1, 1;
	setp.eq.u32 %p0, %r13, 0;
	setp.lt.u32 %p1, %r1, 20;
	and.pred %p1, %p1, %p0;
	@%p1 ld.shared.v2.u32 {%r9, %r10}, [%r7+72];
	bar.sync 0;
	mov.u32 %r11, 7;
	st.shared.u32 [%r7+192], %r11;
	bar.sync 0;
	ld.shared.u32 %r12, [%r4+128];
	mul.wide.u32 %rd2, %r1, 16;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.u32 [%rd3], {%r8, %r9, %r10, %r12};
	ret;
}
`

// TestSharedAddressWrapsAt32Bits: a .shared address is register plus
// offset modulo 2^32, so a register below the window's start plus a
// positive offset lands inside it (the engine had added them in 64 bits
// and faulted at offset 0x1_0000_0004).
func TestSharedAddressWrapsAt32Bits(t *testing.T) {
	m := testModule(t, sharedWrapPTX)
	out := m.buffer(t, 32*16)
	if _, _, err := m.launchTest(t, run{kernel: "wrap", block: [3]uint32{32}, params: u64p(out)}); err != nil {
		t.Fatal(err)
	}
	got, _ := m.Mem.Bytes(out, 32*16)
	for l := uint32(0); l < 32; l++ {
		word := func(i uint32) uint32 { // shared word i as the kernel left it
			if i < 32 {
				return 3*i + 1
			}
			return 3*(i-32) + 1 + 96
		}
		want := [4]uint32{word(l + 1), 0, 0, 7} // word l+32 holds 7 after the stores
		if l < 20 && l%2 == 0 {
			want[1], want[2] = word(l+2), word(l+3)
		}
		for k := 0; k < 4; k++ {
			if g := binary.LittleEndian.Uint32(got[16*l+4*uint32(k):]); g != want[k] {
				t.Errorf("lane %d value %d = %d, want %d", l, k, g, want[k])
			}
		}
	}
}

// TestOperandSharedAddressWraps: the shared operands of the tensor-core and
// asynchronous instructions wrap at 32 bits as ld/st's do (operandAddr):
// each kernel addresses shared variable s (at offset 0) as [%r1+64] with
// %r1 = s - 64, below the window, and stores a value that says the
// operation reached s. Each would fault at 0x1_0000_0000 without the wrap.
func TestOperandSharedAddressWraps(t *testing.T) {
	const head = `
.visible .entry k(.param .u64 g, .param .u64 o) {
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 s[256];
	ld.param.u64 %rd1, [g];
	ld.param.u64 %rd2, [o];
	mov.u32 %r0, s;
	add.s32 %r1, %r0, -64;
	mov.u32 %r2, %tid.x;
`
	tests := []struct {
		name, body string
		want       uint32 // what thread 0 stores to o
	}{
		{"cp.async", `
	cp.async.ca.shared.global [%r1+64], [%rd1], 4;
	cp.async.wait_all;
	ld.shared.u32 %r3, [s];
	st.global.u32 [%rd2], %r3;`, 42},
		{"mbarrier", `
	setp.ne.u32 %p3, %r2, 0;
	@%p3 bra DONE;
	mbarrier.init.shared.b64 [%r1+64], 1;
	mbarrier.arrive.shared.b64 %rd3, [%r1+64];
	mbarrier.test_wait.parity.shared.b64 %p1, [%r1+64], 0;
	selp.u32 %r3, 42, 7, %p1;
	st.global.u32 [%rd2], %r3;
DONE:`, 42},
		{"ldmatrix", `
	mul.lo.u32 %r4, %r2, 4;
	add.s32 %r5, %r0, %r4;
	mov.u32 %r6, 42;
	st.shared.u32 [%r5], %r6;
	bar.warp.sync -1;
	and.b32 %r7, %r2, 7;
	mul.lo.u32 %r8, %r7, 16;
	add.s32 %r9, %r1, %r8;
	ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%r9+64];
	setp.eq.u32 %p1, %r2, 0;
	@%p1 st.global.u32 [%rd2], %r3;`, 42},
		{"cp.async.bulk", `
	setp.eq.u32 %p1, %r2, 0;
	@!%p1 bra DONE;
	mbarrier.init.shared.b64 [%r1+192], 1;
	mbarrier.arrive.expect_tx.shared.b64 %rd3, [%r1+192], 16;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1+64], [%rd1], 16, [%r1+192];
WAIT:
	mbarrier.try_wait.parity.shared.b64 %p2, [%r1+192], 0;
	@!%p2 bra WAIT;
	ld.shared.u32 %r3, [s];
	st.global.u32 [%rd2], %r3;
DONE:`, 42},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := testModule(t, head+tc.body+"\n\tret;\n}\n")
			g := m.buffer(t, 16)
			m.setU32s(t, g, []uint32{42, 0, 0, 0})
			o := m.buffer(t, 4)
			if _, _, err := m.launchTest(t, run{kernel: "k", block: [3]uint32{32, 1, 1}, params: u64p(g, o)}); err != nil {
				t.Fatal(err)
			}
			got, _ := m.Mem.Bytes(o, 4)
			if v := binary.LittleEndian.Uint32(got); v != tc.want {
				t.Errorf("thread 0 stored %d, want %d", v, tc.want)
			}
		})
	}
}
