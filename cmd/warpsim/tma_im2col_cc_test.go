package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// TestTMAIm2colProbeCC builds testdata/tma/im2col_probe.cu with `warpsim cc`
// (the runtime's cuTensorMapEncodeIm2col, im2col loads and prefetches
// through a __grid_constant__ CUtensorMap) and runs every case of
// im2col_cases.txt as the GPU ran it: each output file must equal the
// recording byte for byte, the encode verdicts and CUDA errors included.
// The plain run takes every fourth case; TestLongTMAIm2colProbeCC all 83.
func TestTMAIm2colProbeCC(t *testing.T) {
	t.Parallel()
	needClang(t)
	runRecordedProbeEvery(t, 4, "im2col_probe.cu", "im2col_cases.txt", 83, nil)
}

// TestLongTMAIm2colProbeCC is TestTMAIm2colProbeCC over every case.
func TestLongTMAIm2colProbeCC(t *testing.T) {
	testenv.Long(t)
	needClang(t)
	runRecordedProbeEvery(t, 1, "im2col_probe.cu", "im2col_cases.txt", 83, nil)
}

// TestTMAIm2colProbeSanitized: under memcheck and initcheck im2col loads
// (padding, offsets, a swizzle, a prefetch) are clean and still give the
// GPU's bytes, and a filter base outside the pixel box is reported as the
// illegal instruction the GPU stopped with.
func TestTMAIm2colProbeSanitized(t *testing.T) {
	needClang(t)
	dir := "../../testdata/tma"
	prog := buildCU(t, filepath.Join(dir, "im2col_probe.cu"))
	programsCallThisBinary(t)
	tmp := t.TempDir()
	for _, name := range []string{"i4_corner", "i4_sw128", "i5_asym", "i4_prefetch", "i4_base_out"} {
		for _, tool := range []string{"memcheck", "initcheck"} {
			out := filepath.Join(tmp, name+"_"+tool+".bin")
			var stdout, stderr bytes.Buffer
			code := run([]string{"sanitize", "--tool", tool, prog, filepath.Join(dir, "im2col_cases.txt"), name, out}, &stdout, &stderr)
			got, _ := os.ReadFile(out)
			want, _ := os.ReadFile(filepath.Join(dir, "out", name+".bin"))
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s: the output differs from the GPU's (exit %d)\n%s%s", name, tool, code, stdout.String(), stderr.String())
			}
			if name == "i4_base_out" {
				if !strings.Contains(stdout.String()+stderr.String(), "outside the pixel box") {
					t.Errorf("%s %s: no report of the filter base outside the pixel box:\n%s%s", name, tool, stdout.String(), stderr.String())
				}
				continue
			}
			if code != 0 || !strings.Contains(stdout.String(), "ERROR SUMMARY: 0 errors") {
				t.Errorf("%s %s: exit %d, want 0 and no errors:\n%s%s", name, tool, code, stdout.String(), stderr.String())
			}
		}
	}
}
