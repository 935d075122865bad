package engine

import (
	"testing"

	"github.com/warpsim/warpsim/internal/hostmem"
)

// dynSharedPTX stages values through the dynamic shared array, addressed
// generically (cvta.shared), behind a static array that shifts its offset.
const dynSharedPTX = `
.extern .shared .align 16 .b8 dyn[];
.visible .entry dynsh(.param .u64 out)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<10>;
	.shared .align 4 .b8 stat[20];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %tid.y;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r2, %r3, %r1;
	mov.u64 %rd2, dyn;
	cvta.shared.u64 %rd3, %rd2;
	mul.wide.u32 %rd4, %r4, 4;
	add.s64 %rd5, %rd3, %rd4;
	mul.lo.s32 %r5, %r4, 7;
	st.u32 [%rd5], %r5;
	st.shared.u32 [stat], %r4;
	bar.sync 0;
	mov.u32 %r6, %dynamic_smem_size;
	shr.u32 %r7, %r6, 2;
	sub.s32 %r8, %r7, 1;
	sub.s32 %r8, %r8, %r4;
	mul.wide.u32 %rd6, %r8, 4;
	add.s64 %rd7, %rd3, %rd6;
	ld.u32 %r9, [%rd7];
	add.s64 %rd8, %rd1, %rd4;
	st.global.u32 [%rd8], %r9;
	ret;
}
`

func TestDynamicSharedGeneric(t *testing.T) {
	m := testModule(t, dynSharedPTX)
	out := m.buffer(t, 4*64)
	// 8×8 threads, 256 bytes of dynamic shared memory: thread i reads
	// element 63-i, written by thread 63-i as 7*(63-i).
	if _, _, err := m.launchTest(t, run{kernel: "dynsh", block: [3]uint32{8, 8}, dyn: 256, params: u64p(out)}); err != nil {
		t.Fatal(err)
	}
	for i, v := range m.u32s(t, out, 64) {
		if v != uint32(7*(63-i)) {
			t.Fatalf("out[%d] = %d, want %d", i, v, 7*(63-i))
		}
	}
	// With 128 bytes the upper half of the threads index past the end.
	_, _, err := m.launchTest(t, run{kernel: "dynsh", block: [3]uint32{8, 8}, dyn: 128, params: u64p(out)})
	if f, ok := err.(*Fault); !ok || f.Kind != FaultOutOfBounds || f.Thread != [3]uint32{0, 4, 0} {
		t.Errorf("err = %v, want out-of-bounds at thread (0,4,0)", err)
	}
}

// TestAllocBeyondHost: an allocation the host cannot back fails with an
// error instead of crashing the process (Go cannot recover from running out
// of memory).
func TestAllocBeyondHost(t *testing.T) {
	m := NewMemory()
	size := min(uint64(maxAlloc), hostmem.Available()+1<<30)
	if _, err := m.Alloc(size); err == nil {
		t.Fatalf("allocating %d bytes (the host has %d available) succeeded", size, hostmem.Available())
	} else {
		t.Log(err)
	}
}

// TestStraddling: a read that begins inside an allocation and ends in the
// memory mapped after it (MapPadding, as the CUDA runtime's memory is)
// gives the allocation's bytes, then zeros, as the H100's 16-byte cp.async
// 4 bytes past a 396-byte allocation succeeded (testdata/sanitize/probe5,
// cp_async_tail); without MapPadding, or wholly inside or outside the
// allocation, it is not a straddling read.
func TestStraddling(t *testing.T) {
	m := NewMemory()
	m.MapPadding = true
	base, err := m.Alloc(396)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := m.Find(base, 1)
	for i := range a.Data {
		a.Data[i] = byte(i)
	}
	var buf [64]byte
	b, ok := m.Straddling(m.snapshot(), base+384, 16, buf[:], false)
	want := []byte{128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 0, 0, 0, 0}
	if !ok || string(b) != string(want) {
		t.Errorf("straddling read: %v %v, want %v", b, ok, want)
	}
	for _, tc := range []struct {
		name string
		addr uint64
	}{{"inside", base + 380}, {"outside", base + 400}} {
		if _, ok := m.Straddling(m.snapshot(), tc.addr, 16, buf[:], false); ok {
			t.Errorf("%s: a straddling read", tc.name)
		}
	}
	m.MapPadding = false
	if _, ok := m.Straddling(m.snapshot(), base+384, 16, buf[:], false); ok {
		t.Error("without MapPadding: a straddling read")
	}
}
