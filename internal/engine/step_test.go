package engine

import (
	"testing"
)

// nextPTX has what makes a warp's next instruction hard to see: a
// divergent branch (reconvergence entries to pop), a call (a frame to
// return from), lanes that exit early, a barrier, and a return at the end.
const nextPTX = `
.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %v<3>;
	ld.param.b32 %v1, [x];
	add.u32 %v2, %v1, %v1;
	st.param.b32 [r], %v2;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 40;
	@%p1 bra EVEN;
	mov.u32 %r2, 7;
	bra.uni JOIN;
EVEN:
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0), twice, (param0);
	ld.param.b32 %r2, [retval0+0];
	}
JOIN:
	bar.sync 0;
	setp.gt.u32 %p2, %r1, 50;
	@%p2 exit;
	mul.wide.u32 %rd2, %r1, 4;
	add.u64 %rd3, %rd1, %rd2;
	setp.lt.u32 %p1, %r1, 20;
	@%p1 bra LOW;
	st.global.u32 [%rd3], %r2;
	bra.uni END;
LOW:
	st.global.u32 [%rd3], %r2;
END:
}
`

// nextChecker is a driver that asks Next several times before every Step
// and checks that the asking changed nothing: the same instruction each
// time, the one Step then executes, and no warp finished by it.
type nextChecker struct {
	t                       *testing.T
	steps, finished, popped int
}

func (d *nextChecker) RunGrid(g *GridRun) error {
	s := g.NewSlot()
	s.Start(0)
	var rec StepRecord
	for s.Live() > 0 && s.Fault() == nil {
		progress := false
		for i := 0; i < s.Warps(); i++ {
			live, done := s.Live(), s.Done(i)
			wp := s.w.blk.warps[i]
			depth, frames := len(wp.stack), len(wp.frames)
			in := s.Next(i)
			for k := 0; k < 3; k++ {
				if again := s.Next(i); again != in {
					d.t.Fatalf("warp %d: Next gave %p, then %p", i, in, again)
				}
			}
			if s.Live() != live || s.Done(i) != done || len(wp.stack) != depth || len(wp.frames) != frames {
				d.t.Fatalf("warp %d: Next changed the warp: live %d → %d, done %v → %v, stack %d → %d, frames %d → %d",
					i, live, s.Live(), done, s.Done(i), depth, len(wp.stack), frames, len(wp.frames))
			}
			if depth > 0 && (wp.stack[depth-1].pc == wp.stack[depth-1].rpc || wp.stack[depth-1].mask == 0) {
				d.popped++ // Next looked past finished entries
			}
			if in == nil {
				if !s.Done(i) && !s.WaitingAtBarrier(i) {
					// Every lane at its end: Finish completes it.
					if !s.Finish(i) || !s.Done(i) || s.Live() != live-1 {
						d.t.Fatalf("warp %d: Finish did not finish a warp with nothing left", i)
					}
					d.finished++
					progress = true
				}
				continue
			}
			if !s.Step(i, &rec) || rec.Inst != in {
				d.t.Fatalf("warp %d: Next said %v, Step executed %v", i, in, rec.Inst)
			}
			d.steps++
			progress = true
		}
		if !progress {
			d.t.Fatal("no warp could go on")
		}
	}
	return nil
}

// TestNextIsSideEffectFree: BlockSlot.Next only looks; a warp whose lanes
// have all ended is finished by Finish (or its next Step), and the block
// computes what the functional driver computes.
func TestNextIsSideEffectFree(t *testing.T) {
	m := testModule(t, nextPTX)
	k := m.Prog.FuncByName["k"]
	var want []uint32
	for _, driver := range []Driver{nil, &nextChecker{t: t}} {
		out := m.buffer(t, 4*64)
		m.setU32s(t, out, make([]uint32, 64))
		cfg := &Config{Kernel: k, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{64, 1, 1}, Params: u64p(out),
			SMs: 132, MaxWarpsPerSM: 64, Driver: driver}
		if _, err := m.Launch(cfg); err != nil {
			t.Fatal(err)
		}
		got := m.u32s(t, out, 64)
		if want == nil {
			want = got
			if want[3] != 6 || want[45] != 7 || want[60] != 0 {
				t.Fatalf("functional run: out[3] %d, out[45] %d, out[60] %d; want 6, 7, 0", want[3], want[45], want[60])
			}
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("out[%d] = %d under the stepping driver, %d under the functional one", i, got[i], want[i])
			}
		}
		// The divergent branches leave reconvergence entries that Next
		// must look past without popping them.
		if c := driver.(*nextChecker); c.steps == 0 || c.popped == 0 {
			t.Errorf("%d steps, %d looks past finished entries; want some of each", c.steps, c.popped)
		}
	}
}
