package warpsim_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

const spinPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry spin()
{
$l:
	bra.uni $l;
}
`

// TestStopBothDrivers: the wall-clock timeout, the watchdog and an
// interrupt stop a kernel that never ends under the functional and the
// timing driver alike, with the report of where the warps were.
func TestStopBothDrivers(t *testing.T) {
	for _, mode := range []warpsim.Mode{warpsim.ModeFunctional, warpsim.ModeTiming} {
		for _, stop := range []string{"timeout", "watchdog", "interrupt"} {
			t.Run(string(mode)+"/"+stop, func(t *testing.T) {
				opt := warpsim.Options{Mode: mode, Workers: 2}
				want := warpsim.FaultTimeout
				switch stop {
				case "timeout":
					// Long enough for the grid's first warps to be placed on a
					// loaded machine (at a load average of 30 on 2 cores 300 ms
					// could pass before the timing driver placed a block).
					opt.Timeout = time.Second
				case "watchdog":
					opt.StepLimit = 1 << 20
					want = warpsim.FaultWatchdog
				case "interrupt":
					want = warpsim.FaultInterrupted
				}
				dev := warpsim.NewDevice(arch.MustLookup("h100"), opt)
				m, err := dev.LoadModule("spin.ptx", []byte(spinPTX))
				if err != nil {
					t.Fatal(err)
				}
				k, _ := m.Kernel("spin")
				if stop == "interrupt" {
					// As late as the timeout above, for the same reason: the
					// timing driver's progress counts no warp instruction
					// before the grid ends, so a second is the sign that
					// the first warps were placed, even at a load of 30.
					go func() {
						for {
							if p, ok := dev.Progress(); ok && p.Elapsed > time.Second && dev.Interrupt("interrupted (test)") {
								return
							}
							time.Sleep(10 * time.Millisecond)
						}
					}()
				}
				start := time.Now()
				_, err = dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 300, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}}, nil)
				var f *warpsim.Fault
				if !errors.As(err, &f) || f.Kind != want {
					t.Fatalf("err %v, want a %v fault", err, want)
				}
				if len(f.Warps) == 0 || f.Warps[0].Instr != "bra.uni $l;" || f.Warps[0].Wait != "running" || f.Blocks != 300 {
					t.Errorf("report: %+v", f)
				}
				if !strings.Contains(f.Error(), "where the unfinished warps were:\n  block (") {
					t.Errorf("report:\n%s", f.Error())
				}
				t.Log(f.Error())
				// The timeout and the interrupt stop it after a second of
				// wall time; the watchdog after 2^20 warp steps, whose time
				// is the driver's speed: under the race detector at a load
				// average of 54 it took 43.6 s (2026-11-28), so it is
				// given more than the 30 s the other two are.
				limit := 30 * time.Second
				if stop == "watchdog" {
					limit = 120 * time.Second
				}
				if d := time.Since(start); d > limit {
					t.Errorf("took %v (limit %v)", d, limit)
				}
			})
		}
	}
}

// shortPTX is a kernel whose blocks end at once.
const shortPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry short()
{
	.reg .b32 %r<3>;
	mov.u32 %r1, %ctaid.x;
	add.u32 %r2, %r1, 1;
	ret;
}
`

// TestStopHugeGrid (issue 16 #18): a grid of 2^31−1 blocks stopped by its
// timeout says how many blocks were done of how many, and where: the warps
// of the blocks in flight (spin), or, when every started block had ended
// (short blocks stop between two), the next block, not block (0,0,0).
func TestStopHugeGrid(t *testing.T) {
	for _, kernel := range []string{"spin", "short"} {
		t.Run(kernel, func(t *testing.T) {
			dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Mode: warpsim.ModeFunctional, Workers: 2, Timeout: 300 * time.Millisecond})
			src := spinPTX
			if kernel == "short" {
				src = shortPTX
			}
			m, err := dev.LoadModule(kernel+".ptx", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			k, _ := m.Kernel(kernel)
			_, err = dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1<<31 - 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}}, nil)
			var f *warpsim.Fault
			if !errors.As(err, &f) || f.Kind != warpsim.FaultTimeout {
				t.Fatalf("err %v, want a timeout", err)
			}
			msg := f.Error()
			t.Log(msg)
			if f.Blocks != 1<<31-1 || !strings.Contains(msg, " of 2147483647 blocks done") {
				t.Errorf("report lacks the block count:\n%s", msg)
			}
			switch kernel {
			case "spin":
				if len(f.Warps) == 0 || f.Warps[0].Instr != "bra.uni $l;" || !strings.Contains(msg, "where the unfinished warps were:\n  block (") {
					t.Errorf("no warps listed:\n%s", msg)
				}
			case "short":
				if f.BlocksDone == 0 || f.Block.X == 0 || !strings.Contains(msg, "(the grid stopped between blocks); the next block was (") {
					t.Errorf("short blocks: %+v\n%s", f, msg)
				}
			}
		})
	}
}
