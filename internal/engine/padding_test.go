package engine

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
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

// poke5aPTX stores 0x5a5a5a5a at p + off, as granule.cu's writeAt does.
const poke5aPTX = `
.visible .entry poke5a(.param .u64 p, .param .u64 off)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	ld.param.u64 %rd2, [off];
	add.s64 %rd3, %rd1, %rd2;
	mov.u32 %r1, 0x5a5a5a5a;
	st.global.u32 [%rd3], %r1;
	ret;
}
`

// granuleCase is one plain run of testdata/hostile/granule.cu as the H100
// ran it: mode r (read), w (write, then read back), s (read after a freed
// allocation) or b (read around a 3 MiB allocation), the offset from the
// allocation's base, whether the launch succeeded and the value read.
type granuleCase struct {
	mode  byte
	off   int64
	ok    bool
	value uint32
}

// recordedGranule reads the plain runs of granule.cu from the recording.
func recordedGranule(t *testing.T) []granuleCase {
	t.Helper()
	f, err := os.Open("../../testdata/hostile/memcheck_h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := regexp.MustCompile(`^== \S+/granule ([rwsb]) (-?\d+)$`)
	result := regexp.MustCompile(`^(?:read|write) (-?\d+): sync (\w+)(?:; read back: sync \w+)? value (0x[0-9a-f]+|0) ran`)
	var out []granuleCase
	var cur *granuleCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if m := head.FindStringSubmatch(l); m != nil {
			off, _ := strconv.ParseInt(m[2], 10, 64)
			cur = &granuleCase{mode: m[1][0], off: off}
			continue
		}
		if strings.HasPrefix(l, "== ") {
			cur = nil
			continue
		}
		if m := result.FindStringSubmatch(l); m != nil && cur != nil {
			v, err := strconv.ParseUint(m[3], 0, 32)
			if err != nil {
				t.Fatal(err)
			}
			cur.ok, cur.value = m[2] == "cudaSuccess", uint32(v)
			out = append(out, *cur)
			cur = nil
		}
	}
	if len(out) < 25 {
		t.Fatalf("%d plain granule runs in the recording, want at least 25", len(out))
	}
	return out
}

// TestPaddingAccesses (issue 16: the in[i-1] stencil, reads and writes past
// an allocation's end): every plain run of testdata/hostile/granule.cu
// recorded on the H100 (memcheck_h100.txt), replayed on a fresh memory. A
// 1000-byte first allocation (its bytes 0x11) or a 3 MiB one is read or
// written at each recorded offset; the launch must succeed or fault as the
// H100's did, and read the value it read (zeros in padding nothing wrote,
// a write's value after it). Each memory warns once, pointing to warpsim
// sanitize, when a kernel touched its padding.
func TestPaddingAccesses(t *testing.T) {
	for _, c := range recordedGranule(t) {
		name := string(c.mode) + " " + strconv.FormatInt(c.off, 10)
		m := testModule(t, peekPTX+poke5aPTX)
		m.Mem.MapPadding = true // as a CUDA program's memory has it
		var warnings []string
		m.Mem.Warn = func(msg string) { warnings = append(warnings, msg) }
		size := 1000
		if c.mode == 'b' {
			size = 3 << 20
		}
		a := m.buffer(t, size)
		if a%PaddingGranule != 0 {
			t.Fatalf("allocation at %#x is not 2 MiB aligned, unlike the recording's", a)
		}
		b, err := m.Mem.Bytes(a, uint64(size))
		if err != nil {
			t.Fatal(err)
		}
		for i := range b {
			b[i] = 0x11
		}
		out := m.buffer(t, 4)
		off := uint64(c.off)
		if c.mode == 'w' {
			if _, _, err := m.launchTest(t, run{kernel: "poke5a", params: u64p(a, off)}); (err == nil) != c.ok {
				t.Errorf("%s: write err %v, the H100's launch succeeded: %v", name, err, c.ok)
				continue
			}
		}
		m.setU32s(t, out, []uint32{0xdeadbeef})
		_, _, err = m.launchTest(t, run{kernel: "peek", params: u64p(a, off, out)})
		if !c.ok {
			if f, ok := err.(*Fault); !ok || f.Kind != FaultOutOfBounds || !strings.Contains(f.Detail, "outside every allocation") {
				t.Errorf("%s: err %v, want an out-of-bounds fault as on the H100", name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, want the access to succeed as on the H100", name, err)
			continue
		}
		if got := m.u32s(t, out, 1)[0]; got != c.value {
			t.Errorf("%s: read %#x, the H100 %#x", name, got, c.value)
		}
		inside := c.off >= 0 && c.off+4 <= int64(size)
		if inside && len(warnings) != 0 {
			t.Errorf("%s: warned about an access inside the allocation: %q", name, warnings)
		}
		if !inside && (len(warnings) != 1 || !strings.Contains(warnings[0], "outside every allocation") || !strings.Contains(warnings[0], "warpsim sanitize")) {
			t.Errorf("%s: warnings %q, want one pointing to warpsim sanitize", name, warnings)
		}
	}
}

// TestPaddingNotShared: padding a kernel wrote is its allocation's own and
// goes with it: a neighbour's padding still reads zeros, and after a free
// the range faults (use after free) and its written pages are dropped.
func TestPaddingNotShared(t *testing.T) {
	m := testModule(t, peekPTX+poke5aPTX)
	m.Mem.Warn = func(string) {}
	m.Mem.MapPadding = true
	a := m.buffer(t, 1000)
	c := m.buffer(t, 1000)
	out := m.buffer(t, 4)
	if _, _, err := m.launchTest(t, run{kernel: "poke5a", params: u64p(a, 4096)}); err != nil {
		t.Fatal(err)
	}
	m.setU32s(t, out, []uint32{1})
	if _, _, err := m.launchTest(t, run{kernel: "peek", params: u64p(c, 4096, out)}); err != nil {
		t.Fatal(err)
	} else if v := m.u32s(t, out, 1)[0]; v != 0 {
		t.Errorf("the neighbour's padding reads %#x, want 0", v)
	}
	if err := m.Mem.Free(a); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Mem.pad); n != 0 {
		t.Errorf("%d padding pages kept after the free", n)
	}
	if _, _, err := m.launchTest(t, run{kernel: "peek", params: u64p(a, 0, out)}); err == nil {
		t.Errorf("a read of freed memory succeeded")
	}
}

// TestPaddingUnmapped: a memory without MapPadding (launch files, the Go
// API) keeps exact bounds but for the recorded stencil's read: a read in
// the granule below an allocation gives zeros; a write there, anything
// past the end and anything farther below fault.
func TestPaddingUnmapped(t *testing.T) {
	m := testModule(t, peekPTX+poke5aPTX)
	m.Mem.Warn = func(string) {}
	a := m.buffer(t, 1024)
	out := m.buffer(t, 4)
	neg := func(x uint64) uint64 { return -x }
	for _, c := range []struct {
		kernel string
		off    uint64
		fault  bool
	}{
		{"peek", neg(4), false},
		{"peek", neg(PaddingGranule), false},
		{"peek", neg(PaddingGranule + 4), true},
		{"peek", 1024, true},
		{"poke5a", neg(4), true},
		{"poke5a", 1024, true},
	} {
		params := u64p(a, c.off, out)
		if c.kernel == "poke5a" {
			params = u64p(a, c.off)
		}
		_, _, err := m.launchTest(t, run{kernel: c.kernel, params: params})
		if (err != nil) != c.fault {
			t.Errorf("%s at a%+d: err %v, want a fault: %v", c.kernel, int64(c.off), err, c.fault)
		}
	}
}
