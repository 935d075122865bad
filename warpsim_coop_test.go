package warpsim_test

import (
	"encoding/binary"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// TestCooperativeNvccPTX runs nvcc's own PTX of testdata/coop/grid_sync.cu
// (recorded on the H100 by testdata/coop/record.sh) as cooperative launches:
// nvcc's grid.sync() spins on an atomic counter in the grid workspace that
// %envreg1/%envreg2 point to, so it needs the workspace and blocks that take
// turns. The sums must be what the H100 printed for the same kernels, for
// any worker count and in both modes.
func TestCooperativeNvccPTX(t *testing.T) {
	src, err := os.ReadFile("testdata/coop/grid_sync.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile("testdata/coop/grid_sync.h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`phase sum (\d+) .* checksum (\d+), 0 mismatches`).FindSubmatch(rec)
	if m == nil {
		t.Fatal("grid_sync.h100.txt has no phase sum line")
	}
	wantSum, _ := strconv.ParseInt(string(m[1]), 10, 64)
	wantCheck, _ := strconv.ParseInt(string(m[2]), 10, 64)
	const n, blocks, threads, sweeps = 10007, 48, 128, 6
	for _, mode := range []warpsim.Mode{warpsim.ModeFunctional, warpsim.ModeTiming} {
		for _, workers := range []int{1, 4} {
			t.Run(string(mode)+"/workers="+strconv.Itoa(workers), func(t *testing.T) {
				dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}, Workers: workers, Mode: mode})
				mod, err := dev.LoadModule("grid_sync.nvcc.ptx", src)
				if err != nil {
					t.Fatal(err)
				}
				k, err := mod.Kernel("_Z6phasesPiS_PxS0_ii")
				if err != nil {
					t.Fatal(err)
				}
				alloc := func(size uint64) uint64 {
					p, err := dev.Malloc(size)
					if err != nil {
						t.Fatal(err)
					}
					return p
				}
				a, b, part, total := alloc(4*n), alloc(4*n), alloc(8*blocks), alloc(8)
				params := make([]byte, 40)
				for i, p := range []uint64{a, b, part, total} {
					binary.LittleEndian.PutUint64(params[8*i:], p)
				}
				binary.LittleEndian.PutUint32(params[32:], n)
				binary.LittleEndian.PutUint32(params[36:], sweeps)
				cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1},
					SharedBytes: threads * 8, Cooperative: true}
				if _, err := dev.Launch(k, cfg, params); err != nil {
					t.Fatal(err)
				}
				buf := make([]byte, 8)
				if err := dev.Read(total, buf); err != nil {
					t.Fatal(err)
				}
				if got := int64(binary.LittleEndian.Uint64(buf)); got != wantSum {
					t.Errorf("phase sum %d, the H100's %d", got, wantSum)
				}
				ga, gb := make([]byte, 4*n), make([]byte, 4*n)
				if err := dev.Read(a, ga); err != nil {
					t.Fatal(err)
				}
				if err := dev.Read(b, gb); err != nil {
					t.Fatal(err)
				}
				var check int64
				for i := 0; i < n; i++ {
					check += 3*int64(int32(binary.LittleEndian.Uint32(ga[4*i:]))) + int64(int32(binary.LittleEndian.Uint32(gb[4*i:])))
				}
				if check != wantCheck {
					t.Errorf("checksum after %d sweeps %d, the H100's %d", sweeps, check, wantCheck)
				}
			})
		}
	}
}

// TestCooperativeLimit: a cooperative grid larger than the occupancy
// calculator's blocks per SM times the SM count is refused before it runs,
// and without the flag the same grid runs.
func TestCooperativeLimit(t *testing.T) {
	src, err := os.ReadFile("testdata/coop/grid_sync.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}})
	mod, err := dev.LoadModule("grid_sync.nvcc.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("_Z5validPi")
	if err != nil {
		t.Fatal(err)
	}
	out, err := dev.Malloc(4)
	if err != nil {
		t.Fatal(err)
	}
	params := binary.LittleEndian.AppendUint64(nil, out)
	block := warpsim.Dim3{X: 1024, Y: 1, Z: 1}
	per, most := dev.CooperativeLimit(k, block, 0)
	if per != 2 || most != 2*132 {
		t.Errorf("cooperative limit %d per SM, %d in all; want 2 and 264 (1024 threads, 2048 per SM, 132 SMs)", per, most)
	}
	for _, c := range []struct {
		grid uint32
		coop bool
		ok   bool
	}{{uint32(most), true, true}, {uint32(most) + 1, true, false}, {uint32(most) + 1, false, true}} {
		_, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: c.grid, Y: 1, Z: 1}, Block: block, Cooperative: c.coop}, params)
		var ce *warpsim.ConfigError
		if c.ok && err != nil || !c.ok && !errors.As(err, &ce) {
			t.Errorf("grid %d cooperative %v: %v", c.grid, c.coop, err)
		}
	}
}

// gridCountPTX is warpsim's own grid.sync() as clang emits it from
// cooperative_groups.h (a call of the extern __warpsim_grid_sync): thread 0
// of every block but block skip adds one to *counter, the grid
// synchronizes, and every thread stores the count it then sees; with spin
// set, block 0's threads spin forever after the barrier instead.
const gridCountPTX = `
.version 8.0
.target sm_90
.address_size 64
.extern .func __warpsim_grid_sync
()
;
.visible .entry count(.param .u64 counter, .param .u64 out, .param .u32 skip, .param .u32 spin)
{
	.reg .pred %p<5>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [counter];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r9, [skip];
	ld.param.u32 %r10, [spin];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	setp.eq.u32 %p3, %r2, %r9;
	@%p3 bra DONE;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra SYNC;
	atom.global.add.u32 %r3, [%rd1], 1;
SYNC:
	call.uni __warpsim_grid_sync, ();
	ld.global.u32 %r4, [%rd1];
	mov.u32 %r5, %ntid.x;
	mad.lo.s32 %r6, %r2, %r5, %r1;
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.u32 [%rd4], %r4;
	setp.ne.u32 %p4, %r10, 0;
	setp.eq.u32 %p2, %r2, 0;
	and.pred %p4, %p4, %p2;
SPIN:
	@%p4 bra SPIN;
DONE:
	ret;
}
`

// TestGridSync runs the engine's grid barrier directly: results for 1 and
// 3 workers in both modes, a grid some of whose blocks exit before the
// barrier (a deadlock that lists the waiting warps), an ordinary launch
// (a trap, as nvcc's code traps on an H100), and the watchdog stopping a
// cooperative grid.
func TestGridSync(t *testing.T) {
	const blocks, threads = 20, 96
	type result struct {
		kind  warpsim.FaultKind // 0: no fault
		text  []string          // in the fault's report
		count uint32            // what every thread saw (no fault)
	}
	cases := []struct {
		name       string
		coop       bool
		skip, spin uint32
		limit      int64
		want       result
	}{
		{"all arrive", true, 1 << 31, 0, 0, result{count: blocks}},
		{"block 7 exits", true, 7, 0, 0, result{kind: warpsim.FaultBarrierDeadlock, text: []string{
			"grid.sync() can never complete: 19 of 20 blocks arrived, the others have exited",
			"waiting at grid.sync() (19 of 20 blocks arrived)", "block (0,0,0) threads (0,0,0)-(31,0,0)"}}},
		{"not cooperative", false, 1 << 31, 0, 0, result{kind: warpsim.FaultTrap, text: []string{
			"grid_group::sync() in a launch that is not cooperative"}}},
		{"watchdog", true, 1 << 31, 1, 1 << 20, result{kind: warpsim.FaultWatchdog, text: []string{"@%p4 bra SPIN; — running"}}},
	}
	for _, c := range cases {
		for _, mode := range []warpsim.Mode{warpsim.ModeFunctional, warpsim.ModeTiming} {
			for _, workers := range []int{1, 3} {
				t.Run(c.name+"/"+string(mode)+"/workers="+strconv.Itoa(workers), func(t *testing.T) {
					dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}, Workers: workers, Mode: mode, StepLimit: c.limit})
					mod, err := dev.LoadModule("count.ptx", []byte(gridCountPTX))
					if err != nil {
						t.Fatal(err)
					}
					k, err := mod.Kernel("count")
					if err != nil {
						t.Fatal(err)
					}
					counter, _ := dev.Malloc(4)
					out, _ := dev.Malloc(4 * blocks * threads)
					params := binary.LittleEndian.AppendUint64(nil, counter)
					params = binary.LittleEndian.AppendUint64(params, out)
					params = binary.LittleEndian.AppendUint32(params, c.skip)
					params = binary.LittleEndian.AppendUint32(params, c.spin)
					_, err = dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1}, Cooperative: c.coop}, params)
					var f *warpsim.Fault
					if c.want.kind == 0 {
						if err != nil {
							t.Fatal(err)
						}
						buf := make([]byte, 4*blocks*threads)
						if err := dev.Read(out, buf); err != nil {
							t.Fatal(err)
						}
						for i := 0; i < blocks*threads; i++ {
							if got := binary.LittleEndian.Uint32(buf[4*i:]); got != c.want.count {
								t.Fatalf("thread %d saw %d blocks arrived, want %d", i, got, c.want.count)
							}
						}
						return
					}
					if !errors.As(err, &f) || f.Kind != c.want.kind {
						t.Fatalf("got %v, want a %v fault", err, c.want.kind)
					}
					for _, s := range c.want.text {
						if !strings.Contains(f.Error(), s) {
							t.Errorf("report lacks %q:\n%s", s, f.Error())
						}
					}
				})
			}
		}
	}
}

// gridLoopPTX synchronizes its grid 2·n times: in round r thread 0 of every
// block adds one to *counter, the grid synchronizes, every thread checks
// that it sees (r+1)·blocks, and the grid synchronizes again.
const gridLoopPTX = `
.version 8.0
.target sm_90
.address_size 64
.extern .func __warpsim_grid_sync
()
;
.visible .entry loop(.param .u64 counter, .param .u64 bad, .param .u32 n)
{
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [counter];
	ld.param.u64 %rd2, [bad];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %nctaid.x;
	mov.u32 %r4, 0;
	setp.eq.u32 %p1, %r2, 0;
LOOP:
	setp.ge.u32 %p2, %r4, %r1;
	@%p2 bra DONE;
	@%p1 atom.global.add.u32 %r5, [%rd1], 1;
	call.uni __warpsim_grid_sync, ();
	ld.volatile.global.u32 %r6, [%rd1];
	add.u32 %r4, %r4, 1;
	mul.lo.u32 %r7, %r4, %r3;
	setp.ne.u32 %p3, %r6, %r7;
	@%p3 atom.global.add.u32 %r8, [%rd2], 1;
	call.uni __warpsim_grid_sync, ();
	bra.uni LOOP;
DONE:
	ret;
}
`

// TestGridSyncLoop: many grid barriers in a row over a grid of one block
// per SM and more, in both modes (the timing driver once took warps that a
// barrier released on SMs it had already passed in a quantum for a
// deadlock).
func TestGridSyncLoop(t *testing.T) {
	for _, blocks := range []uint32{7, 131, 264} {
		for _, mode := range []warpsim.Mode{warpsim.ModeFunctional, warpsim.ModeTiming} {
			t.Run(strconv.Itoa(int(blocks))+"/"+string(mode), func(t *testing.T) {
				dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}, Workers: 3, Mode: mode})
				mod, err := dev.LoadModule("loop.ptx", []byte(gridLoopPTX))
				if err != nil {
					t.Fatal(err)
				}
				k, err := mod.Kernel("loop")
				if err != nil {
					t.Fatal(err)
				}
				counter, _ := dev.Malloc(4)
				bad, _ := dev.Malloc(4)
				const rounds = 6
				params := binary.LittleEndian.AppendUint64(nil, counter)
				params = binary.LittleEndian.AppendUint64(params, bad)
				params = binary.LittleEndian.AppendUint32(params, rounds)
				cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}, Cooperative: true}
				if _, err := dev.Launch(k, cfg, params); err != nil {
					t.Fatal(err)
				}
				buf := make([]byte, 4)
				dev.Read(counter, buf)
				if got := binary.LittleEndian.Uint32(buf); got != rounds*blocks {
					t.Errorf("counter %d, want %d", got, rounds*blocks)
				}
				dev.Read(bad, buf)
				if got := binary.LittleEndian.Uint32(buf); got != 0 {
					t.Errorf("%d threads saw a count other than their round's", got)
				}
			})
		}
	}
}
