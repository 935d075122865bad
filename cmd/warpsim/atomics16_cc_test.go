package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// TestCCAtomics16MatchesH100 builds testdata/atomics16/probe.cu with
// warpsim cc for a few of its forms (bf16 global add, bf16x2 add through a
// generic pointer to shared memory, the v4.bf16x2 vector add, cas.b128 on
// global and shared memory) and compares the file the program writes —
// inputs made by its host code, old values and memory after — with the
// H100's byte for byte (testdata/atomics16/run.sh). Each form is a program
// of its own (clang builds it in seconds): the plain run takes two (the
// scalar bf16 add on global memory, cas.b128 on shared memory),
// TestLongCCAtomics16MatchesH100 all five; the engine's
// TestAtomics16MatchH100 runs every recorded form from PTX.
func TestCCAtomics16MatchesH100(t *testing.T) {
	checkCCAtomics16(t, []int{2, 31})
}

// TestLongCCAtomics16MatchesH100 is TestCCAtomics16MatchesH100 over the
// five forms.
func TestLongCCAtomics16MatchesH100(t *testing.T) {
	testenv.Long(t)
	checkCCAtomics16(t, []int{2, 14, 24, 29, 31})
}

func checkCCAtomics16(t *testing.T, forms []int) {
	needClang(t)
	for _, form := range forms {
		t.Run(fmt.Sprintf("form%02d", form), func(t *testing.T) {
			t.Parallel()
			prog := buildCU(t, "../../testdata/atomics16/probe.cu", "-arch=sm_90", fmt.Sprintf("-DFORM=%d", form))
			dir := t.TempDir()
			if _, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"}, dir); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			name := fmt.Sprintf("form_%02d.bin", form)
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			want, err := testenv.ReadRecording(filepath.Join("../../testdata/atomics16/out", name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				n := 0
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						n++
					}
				}
				t.Errorf("%s: %d bytes, H100 %d; %d bytes differ", name, len(got), len(want), n)
			}
		})
	}
}

// TestCCHalfAtomicAdd: atomicAdd on __half, __nv_bfloat16, __half2 and
// __nv_bfloat162 (warpsim's cuda_fp16.h and cuda_bf16.h) from 256 threads
// adding 1.0: 256.0 in every half (f16 0x5c00, bf16 0x4380), exact whatever
// the order (testdata/atomics16/halfadd.cu).
func TestCCHalfAtomicAdd(t *testing.T) {
	needClang(t)
	prog := buildCU(t, "../../testdata/atomics16/halfadd.cu", "-arch=sm_90")
	out, _ := runProgram(t, prog)
	if want := "5c00 4380 5c00 5c00 4380 4380"; strings.TrimSpace(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
