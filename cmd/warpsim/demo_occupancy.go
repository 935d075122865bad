package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/warpsim/warpsim/arch"
)

// demoOccupancyArchs are the GPUs of the occupancy lesson: the first CUDA
// GPU, and one of each generation that changed the SM's budget.
var demoOccupancyArchs = []string{"g80", "k40", "v100", "h100"}

// shortLimits names limiting resources in a few letters: "regs+smem".
func shortLimits(ls []arch.Limit) string {
	s := ""
	for i, l := range ls {
		if i > 0 {
			s += "+"
		}
		switch l {
		case arch.LimitRegisters:
			s += "regs"
		case arch.LimitShared:
			s += "smem"
		default:
			s += l.String()
		}
	}
	return s
}

// demoOccupancy is the occupancy lesson of `warpsim demo`: one kernel's
// occupancy on G80, K40, V100 and H100, and how 16, 32 or 64 registers per
// thread (and 12 KiB of shared memory) change it. Every figure comes from
// the arch presets and the calculator that matches the H100 driver.
func demoOccupancy(w io.Writer) error {
	const block = 256
	type column struct {
		head         string
		regs, shared int
	}
	columns := []column{
		{"16 regs", 16, 0}, {"32 regs", 32, 0}, {"64 regs", 64, 0}, {"32 regs + 12K smem", 32, 12 * 1024},
	}
	fmt.Fprintf(w, "== Occupancy: one kernel, four GPUs ==\n")
	fmt.Fprintf(w, "A kernel launched with %d-thread blocks (%d warps), compiled to use 16, 32 or 64 registers\n", block, block/32)
	fmt.Fprintf(w, "per thread, then with 12 KiB of shared memory per block. Each cell: active blocks per SM,\n")
	fmt.Fprintf(w, "occupancy (active warps / the SM's maximum) and what limits it (warps, regs, smem, blocks).\n\n")

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "GPU\tSM: thr/blk/regs/smem")
	for _, c := range columns {
		fmt.Fprintf(tw, "\t%s", c.head)
	}
	fmt.Fprintln(tw)
	for _, name := range demoOccupancyArchs {
		a, err := arch.Lookup(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s %s\t%d/%d/%dK/%dK", a.Name, a.SMName(), a.MaxThreadsPerSM, a.MaxBlocksPerSM, a.RegsPerSM/1024, a.SharedPerSM/1024)
		for _, c := range columns {
			r := a.Occupancy(arch.OccupancyInput{BlockSize: block, RegsPerThread: c.regs, StaticShared: c.shared})
			if !r.Launchable() {
				fmt.Fprintf(tw, "\tcannot launch")
				continue
			}
			fmt.Fprintf(tw, "\t%d blk %3.0f%% %s", r.BlocksPerSM, 100*r.Occupancy, shortLimits(r.Limits))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	g80 := arch.MustLookup("g80")
	at := func(regs int) arch.OccupancyResult {
		return g80.Occupancy(arch.OccupancyInput{BlockSize: block, RegsPerThread: regs})
	}
	r16, r32 := at(16), at(32)
	fmt.Fprintf(w, `
What it teaches: an SM divides fixed budgets among the blocks it holds. G80 (compute capability
1.0) has %d threads, %d blocks and %d registers per SM. At 16 registers per thread the registers
run out at %d/16 = %d threads: %s of %d threads (%.0f%%), although the thread budget
alone would allow 3. At 32 registers only %d threads fit (%s, %.0f%%); at 64 not even one
256-thread block does (64 × 256 = 16384 registers). From Kepler on an SM has 65536 registers for
2048 threads, exactly 32 per thread, so up to 32 registers cost nothing and 64 halve the
occupancy; the shared memory that limited G80 and K40 grew to 228 KiB per SM on H100.
Try: warpsim occupancy --arch g80 --block 256 --regs 16 --plot occupancy.png
`, g80.MaxThreadsPerSM, g80.MaxBlocksPerSM, g80.RegsPerSM, g80.RegsPerSM, g80.RegsPerSM/16,
		plural(r16.BlocksPerSM, "block"), block, 100*r16.Occupancy, r32.ThreadsPerSM, plural(r32.BlocksPerSM, "block"), 100*r32.Occupancy)
	return nil
}
