package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// samplesDir holds small programs for what NVIDIA's cuda-samples needed
// fixed, each with an H100's output (testdata/samples/record.sh).
const samplesDir = "../../testdata/samples"

// TestCCSamplesRegressions builds each program with warpsim cc and compares
// stdout, stderr and the exit status with the H100's; the programs run in
// parallel. cub_lookback runs as cuda-samples' programs do, under the
// timing driver (the programs' default), with four simulator workers so
// that blocks poll tiles of blocks that run at the same time (its bug
// needed that), whatever the machine's core count; the others print no
// times and run under the functional driver. cub_lookback (CUB's scans:
// 12 CPU seconds of clang) is TestLongCCSamplesRegressions'.
func TestCCSamplesRegressions(t *testing.T) {
	checkCCSamplesRegressions(t, false)
}

// TestLongCCSamplesRegressions is TestCCSamplesRegressions' cub_lookback.
func TestLongCCSamplesRegressions(t *testing.T) {
	testenv.Long(t)
	checkCCSamplesRegressions(t, true)
}

// checkCCSamplesRegressions runs the programs of the long test or of the
// plain one.
func checkCCSamplesRegressions(t *testing.T, long bool) {
	needClang(t)
	abs, err := filepath.Abs(samplesDir)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		cccl    bool // needs Thrust, CUB or libcu++
		workers string
	}{
		{"math_outparams", false, ""},
		{"stream_attributes", false, ""},
		{"libcu_atomic", true, ""},
		{"cub_lookback", true, "4"},
	}
	for _, c := range cases {
		if (c.name == "cub_lookback") != long {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.cccl {
				if _, err := os.Stat("/usr/include/thrust/version.h"); err != nil {
					t.Fatal("Thrust, CUB and libcu++ are needed: apt-get install libthrust-dev libcub-dev libcu++-dev")
				}
			}
			env := []string{"WARPSIM_MODE=functional"}
			if c.workers != "" {
				env = []string{"WARPSIM_WORKERS=" + c.workers}
			}
			prog := buildCU(t, filepath.Join(abs, c.name+".cu"))
			checkAgainstEnv(t, prog, filepath.Join(abs, c.name), env)
		})
	}
}
