package engine

import "testing"

// TestMad24Saturates runs mad24.hi{.sat}.s32 through the engine, with
// values derived by hand: the .hi word is bits 16-47 of the 48-bit product
// of the low 24 bits, sign-extended. 0x7fffff² = 2^46 - 2^24 + 1, whose
// bits 16-47 are 2^30 - 2^8 = 0x3fffff00; plus 0x7fffffff that is over
// MaxInt32, so .sat gives 0x7fffffff and plain mad24 wraps to 0xbffffeff.
// 0x800000 is -2^23: -2^23·(2^23-1) = -(2^46 - 2^23), whose bits 16-47 are
// -(2^30 - 2^7); plus MinInt32 that is under it: 0x80000000 with .sat,
// 0x40000080 wrapped.
func TestMad24Saturates(t *testing.T) {
	m := testModule(t, `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.b32 %r1, 0x7fffff;
	mov.b32 %r2, 0x7fffffff;
	mov.b32 %r3, 0x800000;
	mov.b32 %r4, 0x80000000;
	mad24.hi.sat.s32 %r5, %r1, %r1, %r2;
	mad24.hi.s32 %r6, %r1, %r1, %r2;
	st.global.u32 [%rd1], %r5;
	st.global.u32 [%rd1+4], %r6;
	mad24.hi.sat.s32 %r5, %r3, %r1, %r4;
	mad24.hi.s32 %r6, %r3, %r1, %r4;
	st.global.u32 [%rd1+8], %r5;
	st.global.u32 [%rd1+12], %r6;
	ret;
}`)
	out := m.buffer(t, 16)
	if _, _, err := m.launchTest(t, run{kernel: "k", params: u64p(out)}); err != nil {
		t.Fatal(err)
	}
	want := []uint32{0x7fffffff, 0xbffffeff, 0x80000000, 0x40000080}
	for i, got := range m.u32s(t, out, 4) {
		if got != want[i] {
			t.Errorf("result %d = %#x, want %#x", i, got, want[i])
		}
	}
}
