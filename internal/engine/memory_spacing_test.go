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

// TestOverrunFaults: a store past the memory the GPU maps around an
// allocation (paddingWindow: for a small one, 4 MiB below its granule to
// 6 MiB above it), up to 1 GiB away, faults instead of landing in a
// neighbour; inside that memory it lands in the allocation's own padding
// (TestPaddingAccesses). With the old 4 KiB guard gap the stores 8 KiB and
// 1 MiB past landed in b and c.
func TestOverrunFaults(t *testing.T) {
	m := testModule(t, pokePTX)
	a := m.buffer(t, 1024)
	b := m.buffer(t, 1<<20)
	c := m.buffer(t, 4<<20)
	neg := func(x uint64) uint64 { return -x }
	m.Mem.Warn = func(string) {}
	m.Mem.MapPadding = true // as a CUDA program's memory has it
	for _, off := range []uint64{6 << 20, 64 << 20, OverrunGuard - 4, neg(4<<20 + 4), neg(OverrunGuard)} {
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
	for _, off := range []uint64{1024, 8 << 10, 1 << 20} {
		if _, _, err := m.launchTest(t, run{kernel: "poke", params: u64p(a, off)}); err != nil {
			t.Errorf("store at a+%d, in its padding: %v", off, err)
		}
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

// fakeBacking backs allocations with Go memory and says where its device
// addresses end (a small window, so that it fills up).
type fakeBacking struct{ base, limit uint64 }

func (f fakeBacking) Bytes(base, size uint64) ([]byte, error) {
	if base < f.base || base+size > f.limit {
		panic("allocation outside the backing")
	}
	return make([]byte, size), nil
}
func (fakeBacking) Release(base, size uint64) {}
func (f fakeBacking) Limit() uint64           { return f.limit }

// TestBackedSlots: a backed memory (the CUDA runtime's shared window) keeps
// the 2 GiB slots and 1 GiB guards; freed slots are not reused while fresh
// ones remain, and once the window is full a new allocation takes the
// lowest gap that keeps the guards on both sides, and the use-after-free
// record of the range it reuses goes.
func TestBackedSlots(t *testing.T) {
	const base = 0x7000_0000_0000
	m := NewBackedMemory(base, fakeBacking{base, base + 4*slotAlign})
	var got []uint64
	for range 4 {
		a, err := m.Alloc(1 << 20)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a)
	}
	for i, a := range got {
		if want := uint64(base + i*slotAlign); a != want {
			t.Errorf("allocation %d at %#x, want %#x", i, a, want)
		}
	}
	if _, err := m.Alloc(1 << 20); err == nil || !strings.Contains(err.Error(), "out of device address space") {
		t.Fatalf("fifth allocation in a four-slot window: err = %v", err)
	}
	if err := m.FreeAs(got[1], "cudaFree #1"); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.FreedAt(got[1] + 8); !ok {
		t.Fatal("the freed slot is not remembered")
	}
	a, err := m.Alloc(1 << 20)
	if err != nil || a != got[1] {
		t.Fatalf("allocation after a free: %#x, %v; want the freed slot %#x", a, err, got[1])
	}
	if _, ok := m.FreedAt(got[1] + 8); ok {
		t.Error("the reused slot still reads as freed")
	}
	if f, ok := m.Find(a, 1<<20); !ok || f.Base != a {
		t.Errorf("the reused allocation is not found")
	}
	// A slot is taken only with a 1 GiB guard before the next live
	// allocation: freeing got[2] leaves 2 GiB up to got[3], room for 1 GiB
	// and its guard, not for a byte more.
	if err := m.Free(got[2]); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Alloc(1<<30 + 1); err == nil {
		t.Error("an allocation took a slot without its guard")
	}
	if b, err := m.Alloc(1 << 30); err != nil || b != got[2] {
		t.Errorf("1 GiB allocation: %#x, %v; want %#x", b, err, got[2])
	}
	if _, err := m.Alloc(1); err == nil {
		t.Error("an allocation fit in a full window")
	}
	// Device-only buffers (device launches' parameters) do not need the
	// window: they still get slots, above it.
	for range 3 {
		p, err := m.AllocPrivate(64)
		if err != nil || p < base+4*slotAlign+OverrunGuard || p%slotAlign != 0 {
			t.Fatalf("private allocation in a full window: %#x, %v", p, err)
		}
		if a, ok := m.Find(p, 64); !ok || a.Base != p {
			t.Fatalf("private allocation %#x is not found", p)
		}
		if err := m.Free(p); err != nil {
			t.Fatal(err)
		}
	}
}
