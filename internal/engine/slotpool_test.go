package engine

import (
	"fmt"
	"runtime"
	"testing"
)

// residentDriver steps a grid as a timing driver does: up to resident
// blocks at once, each in its own slot (GridRun.NewSlot), a slot taking the
// next block when its block ends.
type residentDriver struct{ resident int }

func (d residentDriver) RunGrid(g *GridRun) error {
	next := 0
	var slots []*BlockSlot
	for next < g.l.nblocks && len(slots) < d.resident {
		s := g.NewSlot()
		s.Start(next)
		next++
		slots = append(slots, s)
	}
	var rec StepRecord
	for live := true; live; {
		live = false
		for _, s := range slots {
			if s.Live() == 0 {
				if next == g.l.nblocks {
					continue
				}
				s.Start(next)
				next++
			}
			live = true
			for i := 0; i < s.Warps(); i++ {
				if s.Fault() != nil {
					return fmt.Errorf("fault: %v", s.Fault())
				}
				if s.Done(i) || s.WaitingAtBarrier(i) {
					continue
				}
				if s.Next(i) == nil {
					s.Finish(i)
					continue
				}
				s.Step(i, &rec)
			}
		}
	}
	return nil
}

// slotPoolPTX has a kernel with 4000 register slots (1 MiB of register file
// a warp) and one with a handful; each writes its global thread index.
const slotPoolPTX = `
.visible .entry big(.param .u64 out)
{
	.reg .b32 %r<4000>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r3999, %r2, %r3, %r1;
	mul.wide.u32 %rd2, %r3999, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3999;
	ret;
}
.visible .entry small(.param .u64 out)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	ret;
}`

// TestSlotPoolBounded: a program that alternates a kernel of many
// registers on a few resident blocks with a small kernel on many blocks
// (NVIDIA's segmentationTreeThrust: CUB's merge sort between its own
// kernels) keeps a bounded heap between grids. Before keepSlots, the
// small grids left the slots they created on top of the module's pool, the
// next large grid gave those 1 MiB register files, and the pool's held
// memory grew with every round to a large register file in every slot
// (here 16 MiB, 40 slots of 4 warps; 17 GB in that sample).
func TestSlotPoolBounded(t *testing.T) {
	defer func(b int64) { slotPoolBytes = b }(slotPoolBytes)
	slotPoolBytes = 8 << 20
	m := testModule(t, slotPoolPTX)
	const threads, bigBlocks, smallBlocks = 128, 4, 40
	out := m.buffer(t, 4*threads*smallBlocks)
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for round := 0; round < 12; round++ {
		for _, r := range []struct {
			kernel string
			blocks int
		}{{"big", bigBlocks}, {"small", smallBlocks}} {
			m.setU32s(t, out, make([]uint32, threads*smallBlocks))
			cfg := &Config{Kernel: m.Prog.FuncByName[r.kernel], Grid: [3]uint32{uint32(r.blocks), 1, 1},
				Block: [3]uint32{threads, 1, 1}, Params: u64p(out), SMs: 132, MaxWarpsPerSM: 64,
				Driver: residentDriver{resident: r.blocks}}
			if _, err := m.Launch(cfg); err != nil {
				t.Fatalf("round %d, %s: %v", round, r.kernel, err)
			}
			got := m.u32s(t, out, threads*smallBlocks)
			for i, v := range got {
				want := uint32(i)
				if i >= threads*r.blocks {
					want = 0
				}
				if v != want {
					t.Fatalf("round %d, %s: out[%d] = %d, want %d", round, r.kernel, i, v, want)
				}
			}
		}
	}
	grew := int64(heap()) - int64(before)
	const bound = 12 << 20 // the pool's 8 MiB, the slots of one small grid, the test's own
	if grew > bound {
		t.Errorf("the heap grew by %.1f MiB over 12 rounds, want at most %.1f MiB (pooled slots hold %.1f MiB)",
			float64(grew)/(1<<20), float64(bound)/(1<<20), float64(m.pooledBytes())/(1<<20))
	}
	if p := m.pooledBytes(); p > slotPoolBytes {
		t.Errorf("pooled slots hold %d bytes, more than slotPoolBytes %d", p, slotPoolBytes)
	}
	t.Logf("heap grew by %.1f MiB, pooled slots hold %.1f MiB", float64(grew)/(1<<20), float64(m.pooledBytes())/(1<<20))
}
