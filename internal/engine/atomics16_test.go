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
func TestAtomics16MatchH100(t *testing.T) {
	testenv.NeedClang(t)
	d, err := cc.NewDriver(os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	src, err := filepath.Abs(filepath.Join(atomics16Dir, "probe.cu"))
	if err != nil {
		t.Fatal(err)
	}
	const threads, block = 512, 256
	for _, f := range atomics16Forms(t) {
		t.Run(fmt.Sprintf("form%02d", f.n), func(t *testing.T) {
			rec, err := testenv.ReadRecording(filepath.Join(atomics16Dir, "out", fmt.Sprintf("form_%02d.bin", f.n)))
			if err != nil {
				t.Fatal(err)
			}
			n := threads * f.w
			if len(rec) != 5*n {
				t.Fatalf("recording: %d bytes, want %d", len(rec), 5*n)
			}
			ptxText, err := d.PTX(&cc.Options{Arch: "sm_90", OptLevel: "-O2", Defines: []string{fmt.Sprintf("-DFORM=%d", f.n)}}, src)
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
