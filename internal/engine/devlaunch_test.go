package engine

import (
	"sync"
	"testing"
)

// devLaunchPTX launches grids from the device the way nvcc 13 compiles
// kernel<<<…>>> in device code (CDP2): parent's lanes 0..3 each launch
// child<<<lane+1, 32>>>(ctr, lane); child with v == 0 has its thread 0
// launch leaf<<<1, 1>>>(ctr). child adds v per thread, leaf adds 1000.
const devLaunchPTX = `
.extern .func (.param .b64 func_retval0) __cudaCDP2GetParameterBufferV2
(
	.param .b64 p0,
	.param .align 4 .b8 p1[12],
	.param .align 4 .b8 p2[12],
	.param .b32 p3
)
;
.extern .func (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2
(
	.param .b64 p0,
	.param .b64 p1
)
;
.visible .entry leaf(.param .u64 ctr)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [ctr];
	atom.global.add.u32 %r1, [%rd1], 1000;
	ret;
}
.visible .entry child(.param .u64 ctr, .param .u32 v)
{
	.reg .pred %p<3>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [ctr];
	ld.param.u32 %r1, [v];
	atom.global.add.u32 %r2, [%rd1], %r1;
	mov.u32 %r3, %tid.x;
	mov.u32 %r4, %ctaid.x;
	or.b32 %r3, %r3, %r4;
	or.b32 %r3, %r3, %r1;
	setp.ne.u32 %p1, %r3, 0;
	@%p1 bra DONE;
	mov.u64 %rd2, leaf;
	{
	.param .b64 param0;
	st.param.b64 [param0+0], %rd2;
	.param .align 4 .b8 param1[12];
	st.param.b32 [param1+0], 1;
	st.param.b32 [param1+4], 1;
	st.param.b32 [param1+8], 1;
	.param .align 4 .b8 param2[12];
	st.param.b32 [param2+0], 1;
	st.param.b32 [param2+4], 1;
	st.param.b32 [param2+8], 1;
	.param .b32 param3;
	st.param.b32 [param3+0], 0;
	.param .b64 retval0;
	call.uni (retval0), __cudaCDP2GetParameterBufferV2, (param0, param1, param2, param3);
	ld.param.b64 %rd3, [retval0+0];
	}
	st.u64 [%rd3], %rd1;
	{
	.param .b64 param0;
	st.param.b64 [param0+0], %rd3;
	.param .b64 param1;
	st.param.b64 [param1+0], 0;
	.param .b32 retval0;
	call.uni (retval0), __cudaCDP2LaunchDeviceV2, (param0, param1);
	ld.param.b32 %r5, [retval0+0];
	}
DONE:
	ret;
}
.visible .entry parent(.param .u64 ctr)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [ctr];
	mov.u32 %r1, %tid.x;
	setp.ge.u32 %p1, %r1, 4;
	@%p1 bra DONE;
	add.u32 %r2, %r1, 1;
	mov.u64 %rd2, child;
	{
	.param .b64 param0;
	st.param.b64 [param0+0], %rd2;
	.param .align 4 .b8 param1[12];
	st.param.b32 [param1+0], %r2;
	st.param.b32 [param1+4], 1;
	st.param.b32 [param1+8], 1;
	.param .align 4 .b8 param2[12];
	st.param.b32 [param2+0], 32;
	st.param.b32 [param2+4], 1;
	st.param.b32 [param2+8], 1;
	.param .b32 param3;
	st.param.b32 [param3+0], 0;
	.param .b64 retval0;
	call.uni (retval0), __cudaCDP2GetParameterBufferV2, (param0, param1, param2, param3);
	ld.param.b64 %rd3, [retval0+0];
	}
	st.u64 [%rd3], %rd1;
	st.u32 [%rd3+8], %r1;
	{
	.param .b64 param0;
	st.param.b64 [param0+0], %rd3;
	.param .b64 param1;
	st.param.b64 [param1+0], 0;
	.param .b32 retval0;
	call.uni (retval0), __cudaCDP2LaunchDeviceV2, (param0, param1);
	ld.param.b32 %r5, [retval0+0];
	}
DONE:
	ret;
}
`

// TestDeviceLaunchGrids checks that a launch reports every grid it ran,
// in the order they ran, each with its own counters. Expected values are
// hand-derived from devLaunchPTX: child v runs v+1 blocks of one warp;
// children run after their parent grid, a child's own child before the
// next sibling.
func TestDeviceLaunchGrids(t *testing.T) {
	m := testModule(t, devLaunchPTX)
	ctr := m.buffer(t, 4)
	for _, workers := range []int{1, 2} {
		m.setU32s(t, ctr, []uint32{0})
		cfg := &Config{Kernel: m.Prog.FuncByName["parent"], Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1},
			Params: u64p(ctr), StdoutMu: new(sync.Mutex), Workers: workers, SMs: 132, MaxWarpsPerSM: 64, ITS: true}
		res, err := m.Launch(cfg)
		if err != nil {
			t.Fatal(err)
		}
		type grid struct {
			kernel          string
			grid, block     uint32
			parent, depth   int
			blocks, devLnch uint64
		}
		want := []grid{
			{"parent", 1, 32, -1, 0, 1, 4},
			{"child", 1, 32, 0, 1, 1, 1},
			{"leaf", 1, 1, 1, 2, 1, 0},
			{"child", 2, 32, 0, 1, 2, 0},
			{"child", 3, 32, 0, 1, 3, 0},
			{"child", 4, 32, 0, 1, 4, 0},
		}
		if len(res.Grids) != len(want) {
			t.Fatalf("workers %d: %d grids, want %d", workers, len(res.Grids), len(want))
		}
		for i, w := range want {
			g := res.Grids[i]
			got := grid{m.Prog.Funcs[g.Kernel].Name, g.Grid[0], g.Block[0], g.Parent, g.Depth, g.Counters.BlocksLaunched, g.Counters.DeviceLaunches}
			if got != w {
				t.Errorf("workers %d: grid %d = %+v, want %+v", workers, i, got, w)
			}
			if g.Counters.WarpsLaunched != g.Counters.BlocksLaunched {
				t.Errorf("workers %d: grid %d: %d warps for %d one-warp blocks", workers, i, g.Counters.WarpsLaunched, g.Counters.BlocksLaunched)
			}
		}
		total := res.Total()
		if total.DeviceLaunches != 5 || total.BlocksLaunched != 12 {
			t.Errorf("workers %d: total device launches %d, blocks %d; want 5, 12", workers, total.DeviceLaunches, total.BlocksLaunched)
		}
		// 32·(0·1 + 1·2 + 2·3 + 3·4) from the children, 1000 from leaf.
		if got := m.u32s(t, ctr, 1)[0]; got != 1640 {
			t.Errorf("workers %d: counter %d, want 1640", workers, got)
		}
	}
}
