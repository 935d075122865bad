package engine

import (
	"strings"
	"testing"
)

// peekPTX copies the u32 at p + off (off signed) to out[0].
const peekPTX = `
.visible .entry peek(.param .u64 p, .param .u64 off, .param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [p];
	ld.param.u64 %rd2, [off];
	ld.param.u64 %rd4, [out];
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r1, [%rd3];
	st.global.u32 [%rd4], %r1;
	ret;
}
`

// TestPaddingReads (issue 16, the in[i-1] stencil): on the H100 a kernel
// reading 4 bytes before the program's first allocation, which is 2 MiB
// aligned, ran and returned cudaSuccess (testdata/hostile/h100.txt,
// stencil_before: "sync: cudaSuccess", "in % 2MiB = 0"). A plain run reads
// zeros in the 2 MiB granule below an allocation and warns once; farther
// below, past the end and every store keep faulting.
func TestPaddingReads(t *testing.T) {
	m := testModule(t, peekPTX+pokePTX)
	a := m.buffer(t, 1024)
	out := m.buffer(t, 4)
	var warnings []string
	m.Mem.Warn = func(msg string) { warnings = append(warnings, msg) }
	if a%PaddingGranule != 0 {
		t.Fatalf("allocation at %#x is not 2 MiB aligned, unlike the recording's", a)
	}
	neg := func(x uint64) uint64 { return -x }
	for _, c := range []struct {
		name  string
		off   uint64
		fault bool
	}{
		{"in[-1]", neg(4), false},
		{"the granule's first word", neg(PaddingGranule), false},
		{"in[-1] again", neg(4), false},
		{"below the granule", neg(PaddingGranule + 4), true},
		{"past the end", 1024, true},
	} {
		m.setU32s(t, out, []uint32{0xdeadbeef})
		_, _, err := m.launchTest(t, run{kernel: "peek", params: u64p(a, c.off, out)})
		if c.fault {
			if f, ok := err.(*Fault); !ok || f.Kind != FaultOutOfBounds || !strings.Contains(f.Detail, "outside every allocation") {
				t.Errorf("%s: err %v, want an out-of-bounds fault", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, want the read to succeed as on the H100", c.name, err)
		} else if got := m.u32s(t, out, 1)[0]; got != 0 {
			t.Errorf("%s: read %#x, want 0", c.name, got)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "outside every allocation") || !strings.Contains(warnings[0], "warpsim sanitize") {
		t.Errorf("warnings %q, want one pointing to warpsim sanitize", warnings)
	}
	// A store there still faults (TestOverrunFaults has more).
	if _, _, err := m.launchTest(t, run{kernel: "poke", params: u64p(a, neg(4))}); err == nil {
		t.Errorf("a store before the allocation succeeded")
	}
}
