package arch

import "testing"

// FuzzOccupancy checks that no input panics and that every answer keeps the
// calculator's invariants on every preset.
func FuzzOccupancy(f *testing.F) {
	f.Add(256, 32, 0, 0, 0)
	f.Add(1024, 255, 49152, 200000, 51)
	f.Add(-1, -1, -1, -1, -1)
	f.Add(1<<62, 1<<40, 1<<62, 1<<62, 1<<20)
	f.Fuzz(func(t *testing.T, block, regs, static, dynamic, carveout int) {
		for _, a := range All() {
			in := OccupancyInput{BlockSize: block, RegsPerThread: regs, StaticShared: static, DynamicShared: dynamic}
			if carveout >= 0 {
				in.Carveout = CarveoutPercent(carveout % 200)
			}
			r := a.Occupancy(in)
			if !r.Launchable() {
				if r.Reason == "" {
					t.Fatalf("%s %+v: no blocks and no reason", a.Name, in)
				}
				continue
			}
			if r.Reason != "" || len(r.Limits) == 0 {
				t.Fatalf("%s %+v: launchable with reason %q, limits %v", a.Name, in, r.Reason, r.Limits)
			}
			if r.BlocksPerSM > min(r.BlockLimitWarps, r.BlockLimitRegs, r.BlockLimitShared, r.BlockLimitBlocks) ||
				r.WarpsPerSM > a.MaxWarpsPerSM || r.ThreadsPerSM > a.MaxThreadsPerSM || r.Occupancy > 1 ||
				r.BlocksPerSM*r.SharedPerBlock > a.SharedPerSM {
				t.Fatalf("%s %+v: impossible answer %+v", a.Name, in, r)
			}
		}
	})
}
