package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// runRecordedProbe builds testdata/tma's probe with `warpsim cc` and runs
// every case of its cases file (the probe reads its case from the file and
// writes its output where told), comparing each output with the GPU's
// recording in testdata/tma/out byte for byte; mask, when given, may copy
// into the recording the bytes a case's recordings disagree on. It fails
// when fewer than want cases ran.
func runRecordedProbe(t *testing.T, probe, casesFile string, want int, mask func(fields []string, got, rec []byte) []byte) {
	t.Helper()
	runRecordedProbeEvery(t, 1, probe, casesFile, want, mask)
}

// runRecordedProbeEvery is runRecordedProbe over every k-th case of the
// file (the first, the k+1-th, …): each case is a run of the program with
// its own simulator process, so the plain tests take a part of a long
// cases file and their TestLong* twin all of it. It fails when fewer than
// ceil(want/k) cases ran.
func runRecordedProbeEvery(t *testing.T, k int, probe, casesFile string, want int, mask func(fields []string, got, rec []byte) []byte) {
	t.Helper()
	runRecordedProbeFrom(t, k, 0, probe, casesFile, want, mask)
}

// runRecordedProbeFrom is runRecordedProbeEvery over the cases whose index
// is off modulo k.
func runRecordedProbeFrom(t *testing.T, k, off int, probe, casesFile string, want int, mask func(fields []string, got, rec []byte) []byte) {
	t.Helper()
	dir := "../../testdata/tma"
	prog := buildCU(t, filepath.Join(dir, probe))
	cases, err := os.ReadFile(filepath.Join(dir, casesFile))
	if err != nil {
		t.Fatal(err)
	}
	n, i := 0, -1
	for _, line := range strings.Split(string(cases), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if i++; i%k != off {
			continue
		}
		name := f[0]
		c := probeCaseOnce(prog, filepath.Join(dir, casesFile), name)
		if c.err != nil {
			t.Errorf("%s: %v\n%s%s", name, c.err, c.stdout, c.stderr)
			continue
		}
		got := c.got
		rec, err := os.ReadFile(filepath.Join(dir, "out", name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		if mask != nil {
			rec = mask(f, got, rec)
		}
		if !bytes.Equal(got, rec) {
			k := 0
			for k < len(got) && k < len(rec) && got[k] == rec[k] {
				k++
			}
			t.Errorf("%s: the output differs from the GPU's (%d bytes, GPU %d; first at %d)", name, len(got), len(rec), k)
		}
		n++
	}
	if n < (want-off+k-1)/k {
		t.Errorf("ran %d cases, want every %d-th from the %d-th of the %d of %s", n, k, off+1, want, casesFile)
	}
}

// probeCase is one run of a probe program on one case of its cases file:
// the output file it wrote, its stdout and stderr, and how it ended.
type probeCase struct {
	once           sync.Once
	got            []byte
	stdout, stderr string
	err            error
}

// probeCases keeps each case's run for the package run: a plain test and
// its TestLong* twin (TestTMAProbeCC's every eighth case of the 115, the
// im2col probe's every fourth, the interleaved probe's three, whose
// measured loads spin 4,000,000 cycles), which CI's WARPSIM_LONG=1 step
// runs in one process, run each case's simulator process once.
var probeCases sync.Map // prog, cases file and case name → *probeCase

// probeCaseOnce runs prog (a cached build: its path names what went into
// it) on case name of casesFile once per package run.
func probeCaseOnce(prog, casesFile, name string) *probeCase {
	v, _ := probeCases.LoadOrStore(prog+"\x00"+casesFile+"\x00"+name, &probeCase{})
	c := v.(*probeCase)
	c.once.Do(func() {
		tmp, err := os.MkdirTemp("", "warpsim-probe-")
		if err != nil {
			c.err = err
			return
		}
		defer os.RemoveAll(tmp)
		out := filepath.Join(tmp, name+".bin")
		if c.stdout, c.stderr, c.err = runProgramErr(prog, casesFile, name, out); c.err != nil {
			return
		}
		c.got, c.err = os.ReadFile(out)
	})
	return c
}

// TestTMAProbeCC builds testdata/tma/tma_probe.cu with `warpsim cc` (the
// runtime's cuTensorMapEncodeTiled, __grid_constant__ CUtensorMap
// parameters, TMA loads, multicast, stores, reductions) and runs every case
// of cases.txt as the H100 ran it: each output file must equal the H100's
// byte for byte, the encode verdicts and CUDA errors included. The plain
// run takes every eighth case; TestLongTMAProbeCC all 115 (the engine's
// TMA tests run every case from PTX).
func TestTMAProbeCC(t *testing.T) {
	t.Parallel()
	needClang(t)
	runRecordedProbeEvery(t, 8, "tma_probe.cu", "cases.txt", 115, tmaProbeMask)
}

// TestLongTMAProbeCC is TestTMAProbeCC over every case.
func TestLongTMAProbeCC(t *testing.T) {
	testenv.Long(t)
	needClang(t)
	runRecordedProbeEvery(t, 1, "tma_probe.cu", "cases.txt", 115, tmaProbeMask)
}

// TestTMAInterleaveProbeCC: the interleaved-layout cases (il_cases.txt),
// the runtime's cuTensorMapEncodeTiled included, built by warpsim cc: every
// sixteenth case from the eleventh: a load, a store and an encode error
// (the engine's TestTMAInterleaveMatchesH100 runs every fourth from the
// first from PTX, so the plain run covers 15 of the 47; a measured load
// spins 4,000,000 clock64 cycles); TestLongTMAInterleaveProbeCC all 47, as
// TestLongTMAInterleaveMatchesH100.
func TestTMAInterleaveProbeCC(t *testing.T) {
	t.Parallel()
	needClang(t)
	runRecordedProbeFrom(t, 16, 10, "tma_probe.cu", "il_cases.txt", 47, nil)
}

// TestLongTMAInterleaveProbeCC is TestTMAInterleaveProbeCC over every case.
func TestLongTMAInterleaveProbeCC(t *testing.T) {
	testenv.Long(t)
	needClang(t)
	runRecordedProbe(t, "tma_probe.cu", "il_cases.txt", 47, nil)
}

// tmaProbeMask copies into the recording the phase-completed word when
// dimension 0 has an element stride: the H100 and an H200 disagreed
// (internal/tmap.TxBytes).
func tmaProbeMask(f []string, got, rec []byte) []byte {
	if f[18] != "1" && (f[1] == "L" || f[1] == "M") && len(got) >= 12 && len(rec) >= 12 {
		rec = append([]byte{}, rec...)
		copy(rec[8:12], got[8:12])
	}
	return rec
}

// TestTMAProbeSanitized: under every sanitizer tool the probe's loads
// (multicast to the other cluster block included), stores and reductions
// are clean, and still give the H100's bytes.
func TestTMAProbeSanitized(t *testing.T) {
	needClang(t)
	dir := "../../testdata/tma"
	prog := buildCU(t, filepath.Join(dir, "tma_probe.cu"))
	programsCallThisBinary(t)
	tmp := t.TempDir()
	for _, name := range []string{"mc_f32", "sw128_edge", "st_sw128", "r_add_f32"} {
		for _, tool := range []string{"memcheck", "racecheck", "initcheck", "synccheck"} {
			out := filepath.Join(tmp, name+"_"+tool+".bin")
			var stdout, stderr bytes.Buffer
			code := run([]string{"sanitize", "--tool", tool, prog, filepath.Join(dir, "cases.txt"), name, out}, &stdout, &stderr)
			summary := "ERROR SUMMARY: 0 errors"
			if tool == "racecheck" {
				summary = "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
			}
			if code != 0 || !strings.Contains(stdout.String(), summary) {
				t.Errorf("%s %s: exit %d, want 0 and %q:\n%s%s", name, tool, code, summary, stdout.String(), stderr.String())
				continue
			}
			got, _ := os.ReadFile(out)
			want, _ := os.ReadFile(filepath.Join(dir, "out", name+".bin"))
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s: the output differs from the H100's", name, tool)
			}
		}
	}
}

// TestTMACCCLWrappers builds testdata/tma/tma_cccl.cu, the programming
// guide's TMA pattern written with libcu++'s cuda::device::experimental
// wrappers from warpsim's <cuda/barrier>, with the encoder reached through
// cudaGetDriverEntryPoint as the guide does (an unknown name: null and
// cudaDriverEntryPointSymbolNotFound): a tile loaded with
// cp_async_bulk_tensor_2d_global_to_shared on a cuda::barrier counting its
// bytes, updated, and stored back. The program's host code checks every
// element of the matrix; the expected figures are derived by hand in the
// source (tile corner (64,16): element 16*256+65 = 4161 gains 1000*0 + 1).
func TestTMACCCLWrappers(t *testing.T) {
	needClang(t)
	prog := buildCU(t, "../../testdata/tma/tma_cccl.cu")
	stdout, stderr, err := runProgramErr(prog)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	want := "entry point: cudaSuccess 0 set; unknown: cudaSuccess 1 null\nencode: 0\nsync: cudaSuccess\nmismatches: 0\nh[4161] = 4162\n"
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
}
