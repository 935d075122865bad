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
