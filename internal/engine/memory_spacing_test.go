package engine

import (
	"strings"
	"testing"
)

// pokePTX stores 7 at p + off.
const pokePTX = `
.visible .entry poke(.param .u64 p, .param .u64 off)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	ld.param.u64 %rd2, [off];
	add.s64 %rd3, %rd1, %rd2;
	mov.u32 %r1, 7;
	st.global.u32 [%rd3], %r1;
	ret;
}
`

// TestOverrunFaults: a store up to 1 GiB past the end of an allocation (or
// before its start) faults instead of landing in a neighbour. With the old
// 4 KiB guard gap the stores 8 KiB and 1 MiB past landed in b and c.
func TestOverrunFaults(t *testing.T) {
	m := testModule(t, pokePTX)
	a := m.buffer(t, 1024)
	b := m.buffer(t, 1<<20)
	c := m.buffer(t, 4<<20)
	neg := func(x uint64) uint64 { return -x }
	for _, off := range []uint64{1024, 8 << 10, 1 << 20, OverrunGuard - 4, neg(4), neg(OverrunGuard)} {
		_, _, err := m.launchTest(t, run{kernel: "poke", params: u64p(a, off)})
		if f, ok := err.(*Fault); !ok || f.Kind != FaultOutOfBounds {
			t.Errorf("store at a%+d: err = %v, want an out-of-bounds fault", int64(off), err)
		}
	}
	for _, base := range []uint64{a, b, c} {
		if base%slotAlign != 0 {
			t.Errorf("allocation at %#x is not 2 GiB-aligned", base)
		}
	}
	if b-a < OverrunGuard+1024 || c-b < OverrunGuard+1<<20 {
		t.Errorf("allocations at %#x, %#x, %#x are closer than 1 GiB apart", a, b, c)
	}
	for _, x := range []uint64{b, c} {
		if v := m.u32s(t, x, 1)[0]; v != 0 {
			t.Errorf("a neighbour was overwritten: %#x holds %d", x, v)
		}
	}
}

// TestUseAfterFreeMessage: an access to freed memory says so, and which
// free released it, instead of "outside every allocation".
func TestUseAfterFreeMessage(t *testing.T) {
	m := testModule(t, pokePTX)
	keep := m.buffer(t, 4096)
	a := m.buffer(t, 1024)
	if err := m.Mem.FreeAs(a, "cudaFree #1"); err != nil {
		t.Fatal(err)
	}
	_, _, err := m.launchTest(t, run{kernel: "poke", params: u64p(a, 40)})
	f, ok := err.(*Fault)
	want := "is 40 bytes into a 1024-byte allocation at " // …that was freed by cudaFree #1
	if !ok || f.Kind != FaultOutOfBounds || !strings.Contains(f.Detail, want) || !strings.Contains(f.Detail, "freed by cudaFree #1") {
		t.Errorf("err = %v, want an out-of-bounds fault saying %q… freed by cudaFree #1", err, want)
	}
	if err := m.Mem.Free(a); err == nil || !strings.Contains(err.Error(), "already freed") {
		t.Errorf("double free: err = %v, want already freed", err)
	}
	if err := m.Mem.Free(keep + 8); err == nil || !strings.Contains(err.Error(), "not the start of an allocation") {
		t.Errorf("interior free: err = %v", err)
	}
}
