package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/cuda/cc"
	"github.com/warpsim/warpsim/internal/testenv"
)

const atomics16Dir = "../../testdata/atomics16"

// atomics16Form is one form of testdata/atomics16/forms.h.
type atomics16Form struct {
	n         int
	w         int    // bytes one thread's atomic touches
	cont, red bool   // 64 threads on one address; no old value returned
	body      string // the BODY line (for messages)
}

// atomics16Forms reads forms.h: the probe's forms, so that the test and
// the recorded program share one list.
func atomics16Forms(t *testing.T) []atomics16Form {
	b, err := os.ReadFile(filepath.Join(atomics16Dir, "forms.h"))
	if err != nil {
		t.Fatal(err)
	}
	var fs []atomics16Form
	head := regexp.MustCompile(`^#(?:el)?if FORM == (\d+)$`)
	for _, line := range strings.Split(string(b), "\n") {
		if m := head.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			fs = append(fs, atomics16Form{n: n})
			continue
		}
		if len(fs) == 0 {
			continue
		}
		f := &fs[len(fs)-1]
		switch {
		case strings.HasPrefix(line, "#define W "):
			f.w, _ = strconv.Atoi(strings.TrimPrefix(line, "#define W "))
		case line == "#define CONT 1":
			f.cont = true
		case strings.HasPrefix(line, "#define BODY "):
			f.body = strings.TrimPrefix(line, "#define BODY ")
			f.red = strings.Contains(f.body, `"red.`)
		}
	}
	if len(fs) == 0 {
		t.Fatal("forms.h: no forms")
	}
	return fs
}

var entryRE = regexp.MustCompile(`\.entry\s+([A-Za-z0-9_$]+)\s*\(`)

// TestAtomics16MatchH100 compiles testdata/atomics16/probe.cu with clang
// (the device code `warpsim cc` runs) once per form — f16/bf16 atomics and
// reductions, scalar, packed and sm_90 vector, and the 128-bit loads,
// stores and atomics — runs it in the engine on the recorded inputs and
// compares the memory after and every returned old value with the H100's
// (testdata/atomics16/run.sh). The contention forms (64 threads on one
// address, inputs that add exactly or min/max order-free) compare memory.
// Each form is a clang compilation: the plain run takes every sixth form
// (1, 7, …, 37: scalar, packed, vector, 128-bit and contention forms),
// TestLongAtomics16MatchH100 all 38.
func TestAtomics16MatchH100(t *testing.T) { checkAtomics16(t, 6) }

// TestLongAtomics16MatchH100 is TestAtomics16MatchH100 over every form.
func TestLongAtomics16MatchH100(t *testing.T) {
	testenv.Long(t)
	checkAtomics16(t, 1)
}

// checkAtomics16 compiles and compares every k-th form of forms.h (the
// first, the k+1-th, …).
func checkAtomics16(t *testing.T, k int) {
	testenv.NeedClang(t)
	src, err := filepath.Abs(filepath.Join(atomics16Dir, "probe.cu"))
	if err != nil {
		t.Fatal(err)
	}
	const threads, block = 512, 256
	for i, f := range atomics16Forms(t) {
		if i%k != 0 {
			continue
		}
		t.Run(fmt.Sprintf("form%02d", f.n), func(t *testing.T) {
			rec, err := testenv.ReadRecording(filepath.Join(atomics16Dir, "out", fmt.Sprintf("form_%02d.bin", f.n)))
			if err != nil {
				t.Fatal(err)
			}
			n := threads * f.w
			if len(rec) != 5*n {
				t.Fatalf("recording: %d bytes, want %d", len(rec), 5*n)
			}
			ptxText, err := atomics16PTX(src, f.n)
			if err != nil {
				t.Fatal(err)
			}
			e := entryRE.FindSubmatch(ptxText)
			if e == nil {
				t.Fatal("no kernel in clang's PTX")
			}
			m := testModule(t, string(ptxText))
			part := func(i int) []byte { return rec[i*n : (i+1)*n] }
			var bufs [4]uint64
			for i := range bufs {
				bufs[i] = m.buffer(t, n)
				b, err := m.Mem.Bytes(bufs[i], uint64(n))
				if err != nil {
					t.Fatal(err)
				}
				if i < 3 {
					copy(b, part(i)) // init, b, c; old starts zeroed
				} else {
					clear(b)
				}
			}
			if _, _, err := m.launchTest(t, run{kernel: string(e[1]), grid: [3]uint32{threads / block, 1, 1}, block: [3]uint32{block, 1, 1}, params: u64p(bufs[0], bufs[1], bufs[2], bufs[3])}); err != nil {
				t.Fatal(err)
			}
			get := func(a uint64) []byte {
				b, err := m.Mem.Bytes(a, uint64(n))
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			cmp := func(what string, got, want []byte) {
				if bytes.Equal(got, want) {
					return
				}
				bad := 0
				for i := 0; i < n; i += 2 {
					if got[i] != want[i] || got[i+1] != want[i+1] {
						if bad < 4 {
							k := i / f.w * f.w
							t.Errorf("%s: thread %d byte %d: got %#04x, H100 %#04x (init %x, b %x, c %x)", what, i/f.w, i%f.w,
								uint16(got[i])|uint16(got[i+1])<<8, uint16(want[i])|uint16(want[i+1])<<8,
								part(0)[k:k+f.w], part(1)[k:k+f.w], part(2)[k:k+f.w])
						}
						bad++
					}
				}
				t.Errorf("%s (%s): %d of %d halves differ", what, f.body, bad, n/2)
			}
			cmp("memory", get(bufs[0]), part(4))
			if !f.cont && !f.red {
				cmp("old", get(bufs[3]), part(3))
			}
		})
	}
}

// halfAcrossBlocksPTX: every thread adds 1.0 to one of two f16 halves of
// one word, threads 0-7 of each block 1.0 to each half of a bf16x2 word,
// then every thread increments a 128-bit counter with a compare-and-swap
// loop.
const halfAcrossBlocksPTX = `
.visible .entry k(.param .u64 p)
{
	.reg .pred %p<2>;
	.reg .b16 %rs<3>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	.reg .b128 %q<4>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	and.b32 %r1, %r1, 1;
	mul.wide.u32 %rd2, %r1, 2;
	add.s64 %rd3, %rd1, %rd2;
	mov.b16 %rs1, 0x3c00;
	red.global.add.noftz.f16 [%rd3], %rs1;
	mov.b32 %r2, 0x3f803f80;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 8;
	@%p1 atom.global.add.noftz.bf16x2 %r3, [%rd1+4], %r2;
	mov.b64 %rd2, 0;
	mov.b64 %rd3, 0;
loop:
	add.s64 %rd4, %rd2, 1;
	mov.b128 %q1, {%rd2, %rd3};
	mov.b128 %q2, {%rd4, %rd3};
	atom.global.cas.b128 %q3, [%rd1+16], %q1, %q2;
	mov.b128 {%rd5, %rd6}, %q3;
	setp.ne.s64 %p1, %rd5, %rd2;
	mov.b64 %rd2, %rd5;
	@%p1 bra loop;
	ret;
}
`

// TestHalfAtomicsAcrossBlocks: blocks running on several workers update
// the two halves of one word with f16 atomics, a bf16x2 word and a 128-bit
// counter; no update is lost (1,024 threads: each f16 half gets 512.0, each
// bf16 half 256.0 from 256 threads — every partial sum exact — and the
// counter 1,024), for
// any number of workers (go test -race checks the word and 128-bit paths).
func TestHalfAtomicsAcrossBlocks(t *testing.T) {
	for _, workers := range []int{1, 4} {
		m := testModule(t, halfAcrossBlocksPTX)
		buf := m.buffer(t, 32)
		m.setU32s(t, buf, make([]uint32, 8))
		if _, _, err := m.launchTest(t, run{kernel: "k", grid: [3]uint32{32, 1, 1}, block: [3]uint32{32, 1, 1}, params: u64p(buf), workers: workers}); err != nil {
			t.Fatal(err)
		}
		got := m.u32s(t, buf, 8)
		// f16 512.0 = 0x6000; bf16 256.0 = 0x4380.
		want := []uint32{0x60006000, 0x43804380, 0, 0, 1024, 0, 0, 0}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("workers %d: word %d = %#08x, want %#08x", workers, i, got[i], want[i])
			}
		}
	}
}

// TestVectorAtomicIsOneRequest: a warp's atom.global.add.noftz.v8.f16 is
// one atomic request in the counters, as the H100 runs it as one
// ATOMG.E.ADD.F16x8 (testdata/atomics16/run.log), though the engine
// performs it element by element; and every element reads its operand
// before any result is written (%rs1 is both element 0's result and every
// element's operand: each half gets 0 + 1.0).
func TestVectorAtomicIsOneRequest(t *testing.T) {
	m := testModule(t, `
.visible .entry k(.param .u64 p)
{
	.reg .b16 %rs<9>;
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 16;
	add.s64 %rd3, %rd1, %rd2;
	mov.b16 %rs1, 0x3c00;
	atom.global.add.noftz.v8.f16 {%rs1,%rs2,%rs3,%rs4,%rs5,%rs6,%rs7,%rs8}, [%rd3], {%rs1,%rs1,%rs1,%rs1,%rs1,%rs1,%rs1,%rs1};
	ret;
}
`)
	buf := m.buffer(t, 32*16)
	c, _, err := m.launchTest(t, run{kernel: "k", block: [3]uint32{32, 1, 1}, params: u64p(buf)})
	if err != nil {
		t.Fatal(err)
	}
	if c.AtomicRequests != 1 {
		t.Errorf("AtomicRequests = %d, want 1", c.AtomicRequests)
	}
	for i, w := range m.u32s(t, buf, 32*4) {
		if w != 0x3c003c00 { // 0 + 1.0 in each half
			t.Fatalf("word %d = %#08x, want 0x3c003c00", i, w)
		}
	}
}

// atomics16PTX is clang's PTX of the probe for one form, kept between
// package runs as cmd/warpsim keeps its programs (testenv.CachedBuild: the
// key covers clang, warpsim's headers, the probe and forms.h).
func atomics16PTX(src string, form int) ([]byte, error) {
	define := fmt.Sprintf("-DFORM=%d", form)
	path, err := testenv.CachedCompile(src, []string{"-O2", "sm_90", define, "--ptx"}, func(dir string) (string, error) {
		d, err := cc.NewDriver(os.Stderr)
		if err != nil {
			return "", err
		}
		ptx, err := d.PTX(&cc.Options{Arch: "sm_90", OptLevel: "-O2", Defines: []string{define}}, src)
		if err != nil {
			return "", err
		}
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), ".cu"))
		return out, os.WriteFile(out, ptx, 0o644)
	})
	if err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}
