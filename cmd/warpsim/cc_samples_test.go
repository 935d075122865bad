package main

import (
	"os"
	"path/filepath"
	"testing"
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
// times and run under the functional driver.
func TestCCSamplesRegressions(t *testing.T) {
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
