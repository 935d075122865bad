package timing_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/devhook"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// printStorePTX: thread 0 of every block prints its block index, then every
// thread stores its index.
const printStorePTX = `.version 8.0
.target sm_90
.address_size 64
.global .align 1 .b8 $str[8] = {98, 108, 107, 32, 37, 100, 10, 0};
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.visible .entry ps(.param .u64 out)
{
	.local .align 8 .b8 __local_depot0[8];
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd5, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, %ctaid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra STORE;
	mov.u64 %rd6, __local_depot0;
	cvta.local.u64 %rd1, %rd6;
	st.local.u32 [%rd6], %r3;
	mov.u64 %rd3, $str;
	cvta.global.u64 %rd4, %rd3;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd4;
	.param .b64 param1;
	st.param.b64 [param1], %rd1;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	ld.param.b32 %r2, [retval0];
	}
STORE:
	bar.sync 0;
	mov.u32 %r4, %ntid.x;
	mad.lo.u32 %r5, %r3, %r4, %r1;
	mul.wide.u32 %rd7, %r5, 4;
	add.u64 %rd8, %rd5, %rd7;
	st.global.u32 [%rd8], %r5;
	ret;
}
`

// panicChecker is a test-only fault injection: a checker whose Access
// panics at the first global store of block 2's warp 1, as a bug in the
// engine would. The kernel's barrier before the store keeps block 2's
// printf (warp 0) before it, whatever the timing model makes of the printf
// (the format string's address alone waits for memory).
type panicChecker struct{}

func (panicChecker) Access(s *engine.CheckSite, a *engine.CheckAccess) bool {
	if a.Op == engine.CheckStore && s.BlockLinear == 2 && s.Warp == 1 && a.Space[0] != 0 {
		panic("injected: the engine went wrong")
	}
	return true
}
func (panicChecker) Barrier(*engine.CheckSite, int, int) bool     { return true }
func (panicChecker) WarpSync(*engine.CheckSite, *[32]uint32) bool { return true }

// TestPanicBecomesInternalFault: a panic under either driver is recovered
// and the launch fails with an internal-error fault naming the kernel, the
// block (and, under the timing driver, the warp and PTX line), asking for a
// bug report; the output printed before it is not lost, and the device
// goes on running launches.
func TestPanicBecomesInternalFault(t *testing.T) {
	for _, mode := range []warpsim.Mode{warpsim.ModeTiming, warpsim.ModeFunctional} {
		var out bytes.Buffer
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: &out, Mode: mode, Workers: 1})
		mod, err := dev.LoadModule("ps.ptx", []byte(printStorePTX))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("ps")
		if err != nil {
			t.Fatal(err)
		}
		buf, _ := dev.Malloc(4 * 4 * 64)
		cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 4, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}}
		if mode == warpsim.ModeTiming {
			// The timing driver steps warps one instruction at a time.
			engine.SetStepHook(func(block, warp int, in *ir.Inst) {
				if block == 2 && warp == 1 && in != nil && in.Op == ir.OpSt && in.Space == ptxtype.SpaceGlobal {
					panic("injected: the engine went wrong")
				}
			})
		} else {
			// A sanitizer runs the functional driver.
			devhook.SetChecker(dev, panicChecker{})
		}
		_, err = dev.Launch(k, cfg, params(buf))
		engine.SetStepHook(nil)
		var f *warpsim.Fault
		if !errors.As(err, &f) {
			t.Fatalf("%s: err = %v, want a fault", mode, err)
		}
		msg := f.Error()
		for _, want := range []string{"warpsim internal error", "injected: the engine went wrong", "in kernel ps",
			"please report it", "block (2,0,0)"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: fault report lacks %q:\n%s", mode, want, msg)
			}
		}
		if mode == warpsim.ModeTiming {
			// The warp, its first thread and the store's PTX line.
			line := 1 + strings.Count(printStorePTX[:strings.Index(printStorePTX, "st.global.u32")], "\n")
			if !strings.Contains(msg, "warp 1") || f.Thread.X != 32 || f.PTXLine != line || !strings.Contains(f.Instr, "st.global.u32") {
				t.Errorf("timing: fault at thread %v, line %d (%q), want warp 1's thread 32 at line %d's store:\n%s", f.Thread, f.PTXLine, f.Instr, line, msg)
			}
		}
		// Block 2 printed before its store panicked.
		if !strings.Contains(out.String(), "blk 2\n") {
			t.Errorf("%s: output %q lacks block 2's line", mode, out.String())
		}
		// The device is still usable.
		devhook.SetChecker(dev, nil)
		out.Reset()
		if _, err := dev.Launch(k, cfg, params(buf)); err != nil {
			t.Errorf("%s: the launch after the panic: %v", mode, err)
		}
		if got := strings.Count(out.String(), "blk "); got != 4 {
			t.Errorf("%s: the launch after the panic printed %d lines, want 4: %q", mode, got, out.String())
		}
	}
}
