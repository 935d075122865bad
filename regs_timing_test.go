package warpsim_test

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// bigRegsPTX is a kernel whose PTX keeps 300 loaded values live at once,
// bounded to blocks of 128 threads (.maxntid, __launch_bounds__(128)):
// ptxas caps such a kernel at the 255 registers a thread may have and
// spills the rest, so the H100 holds two of its blocks an SM.
func bigRegsPTX() string {
	var b strings.Builder
	b.WriteString(".version 8.0\n.target sm_90\n.address_size 64\n\n")
	b.WriteString(".visible .entry big(.param .u64 p) .maxntid 128, 1, 1\n{\n\t.reg .b32 %r<304>;\n\t.reg .b64 %rd<4>;\n")
	b.WriteString("\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd1, %rd1;\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "\tld.global.u32 %%r%d, [%%rd1+%d];\n", i, 4*i)
	}
	b.WriteString("\tmov.u32 %r300, 0;\n")
	for i := 299; i >= 0; i-- {
		fmt.Fprintf(&b, "\tadd.u32 %%r300, %%r300, %%r%d;\n", i)
	}
	// Each thread stores its sum to its own word after the 300 it read
	// (one word for all would be a race between blocks on other SMs).
	b.WriteString("\tmov.u32 %r301, %ctaid.x;\n\tmov.u32 %r302, %tid.x;\n\tmad.lo.u32 %r303, %r301, 128, %r302;\n")
	b.WriteString("\tmul.wide.u32 %rd2, %r303, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n")
	b.WriteString("\tst.global.u32 [%rd3+1200], %r300;\n\tret;\n}\n")
	return b.String()
}

// TestTimingCountsCappedRegisters: the timing model's block scheduler
// places blocks by the registers the launch check and the occupancy
// metrics count (Kernel.RegsPerThread: the PTX estimate capped by the
// GPU's 255 and the kernel's launch bounds), not by the bare estimate —
// with the bare estimate (over 300 here) it held one block of 128 threads
// an SM where the occupancy calculator, like the H100, allows two.
func TestTimingCountsCappedRegisters(t *testing.T) {
	a := arch.MustLookup("h100")
	dev := warpsim.NewDevice(a, warpsim.Options{Stdout: discard{}, Mode: warpsim.ModeTiming, Timing: warpsim.TimingOptions{NoSampling: true}})
	mod, err := dev.LoadModule("big.ptx", []byte(bigRegsPTX()))
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("big")
	if err != nil {
		t.Fatal(err)
	}
	if r := k.RegsPerThread(); r != a.RegsPerThread {
		t.Fatalf("RegsPerThread %d, want the GPU's cap %d", r, a.RegsPerThread)
	}
	occ := a.Occupancy(arch.OccupancyInput{BlockSize: 128, RegsPerThread: k.RegsPerThread()})
	if occ.BlocksPerSM != 2 {
		t.Fatalf("occupancy calculator: %d blocks an SM at %d registers, want 2", occ.BlocksPerSM, k.RegsPerThread())
	}
	buf, err := dev.Malloc(4*300 + 4*128*8*uint64(a.SMs))
	if err != nil {
		t.Fatal(err)
	}
	res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: uint32(8 * a.SMs), Y: 1, Z: 1}, Block: warpsim.Dim3{X: 128, Y: 1, Z: 1}},
		binary.LittleEndian.AppendUint64(nil, buf))
	if err != nil {
		t.Fatal(err)
	}
	c := res.Grids[0].Timing
	if c == nil || c.ActiveSMCycles == 0 {
		t.Fatal("no active SM cycles")
	}
	warps := float64(c.WarpCycles) / float64(c.ActiveSMCycles)
	t.Logf("%.2f warps resident an SM on the mean (one block is 4)", warps)
	if warps <= 4.5 {
		t.Errorf("%.2f warps resident an SM on the mean: the block scheduler held one block of 4 warps, the occupancy calculator allows 2", warps)
	}
}
