package timing_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
)

// TestSharedStoreMicrobenchmarks runs nvcc's PTX of testdata/timing/
// stsconf2/stsconf2_mb.cu through the timing model as its main() does and
// compares warp 0's cycles a step with the H200's (the H100's SM; clock64
// in the kernel). A warp's shared accesses reach the SM's pipe in order,
// each one's wavefronts SharedWarpCycles (2) apart, while the pipe takes
// one wavefront a cycle from all warps: one warp's 32-way conflicted
// stores take 63.4 cycles each, four warps' 127.7 for four, and a load
// behind one warp's 32-way store comes 62 cycles later than behind a
// conflict-free one. Before SharedWarpCycles the model gave one warp's
// 8- and 32-way stores 7.5 and 31.5 cycles and the load behind a 32-way
// store 60.4 cycles a step (the H200 15.9, 63.4 and 95.75). Checked within
// 10% on the rows where a warp's conflicts bind (conflict-free rows are
// the loop's own instructions: bare 3.38 on the H200, 1.88 in the model).
func TestSharedStoreMicrobenchmarks(t *testing.T) {
	dir := "../../testdata/timing/stsconf2/h200/"
	rec, err := os.ReadFile(dir + "stsconf2.txt")
	if err != nil {
		t.Fatal(err)
	}
	h200 := map[string]float64{}
	for _, l := range strings.Split(string(rec), "\n") {
		f := strings.Fields(l)
		if len(f) != 4 || f[0] == "mode" {
			continue
		}
		v, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			t.Fatal(err)
		}
		h200[f[0]+" "+f[1]+" "+f[2]] = v
	}
	dev, mod := timingModule(t, dir+"stsconf2_mb.nvcc.ptx")
	modes := map[string]int{"war": 0, "indep": 1, "vol": 2, "lddep": 3, "ldind": 4, "v4": 5}
	c := rowChecker{t: t}
	for _, r := range []struct {
		mode          string
		stride, warps int
	}{
		{"war", 8, 1}, {"war", 32, 1}, {"war", 32, 4},
		{"indep", 32, 1}, {"vol", 32, 1},
		{"lddep", 8, 1}, {"lddep", 32, 1}, {"lddep", 32, 4},
		{"ldind", 32, 1}, {"v4", 2, 1}, {"v4", 8, 1},
	} {
		cfg := fmt.Sprintf("%s %d %d", r.mode, r.stride, r.warps)
		want, ok := h200[cfg]
		if !ok {
			t.Fatalf("%s: not in the recording", cfg)
		}
		k, err := mod.Kernel(fmt.Sprintf("_Z8stsconf2ILi%dEEviPxPj", modes[r.mode]))
		if err != nil {
			t.Fatal(err)
		}
		cyc, _ := dev.Malloc(8)
		out, _ := dev.Malloc(4096)
		lc := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(32 * r.warps), Y: 1, Z: 1}}
		if _, err := dev.Launch(k, lc, params(uint32(r.stride), cyc, out)); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 8)
		if err := dev.Read(cyc, b); err != nil {
			t.Fatal(err)
		}
		n := int64(binary.LittleEndian.Uint64(b))
		c.check(cfg+" cycles a step", float64(n)/(256*8), want, 0.10)
	}
}
