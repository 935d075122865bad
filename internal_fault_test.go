package warpsim_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/devhook"
	"github.com/warpsim/warpsim/internal/engine"
)

// storeTidPTX: every thread stores its global index.
const storeTidPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry st(.param .u64 out)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	mul.wide.u32 %rd2, %r4, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	ret;
}
`

// storePanicChecker panics at block 3's first global store, as a bug in
// the engine would.
type storePanicChecker struct{}

func (storePanicChecker) Access(s *engine.CheckSite, a *engine.CheckAccess) bool {
	if a.Op == engine.CheckStore && s.BlockLinear == 3 {
		panic("injected: the engine went wrong")
	}
	return true
}
func (storePanicChecker) Barrier(*engine.CheckSite, int, int) bool     { return true }
func (storePanicChecker) WarpSync(*engine.CheckSite, *[32]uint32) bool { return true }

// TestPanicInCooperativeAndClusterLaunches: a panic on a worker of the
// functional driver's cooperative-grid and cluster paths (gridsync.go,
// cluster.go), which recover on their own goroutines, becomes the same
// internal-error fault as under runFunctional and the timing driver
// (internal/timing's TestPanicBecomesInternalFault): the kernel, the block
// that was running, and a request to report it.
func TestPanicInCooperativeAndClusterLaunches(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  warpsim.LaunchConfig
	}{
		{"cooperative", warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 4, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}, Cooperative: true}},
		{"cluster", warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 4, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}, Cluster: warpsim.Dim3{X: 2, Y: 1, Z: 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Mode: warpsim.ModeFunctional, Workers: 1})
			mod, err := dev.LoadModule("st.ptx", []byte(storeTidPTX))
			if err != nil {
				t.Fatal(err)
			}
			k, err := mod.Kernel("st")
			if err != nil {
				t.Fatal(err)
			}
			buf, err := dev.Malloc(4 * 4 * 64)
			if err != nil {
				t.Fatal(err)
			}
			devhook.SetChecker(dev, storePanicChecker{})
			_, err = dev.Launch(k, c.cfg, binary.LittleEndian.AppendUint64(nil, buf))
			var f *warpsim.Fault
			if !errors.As(err, &f) {
				t.Fatalf("err = %v, want a fault", err)
			}
			msg := f.Error()
			for _, want := range []string{"warpsim internal error", "injected: the engine went wrong", "in kernel st",
				"please report it", "block (3,0,0)"} {
				if !strings.Contains(msg, want) {
					t.Errorf("fault report lacks %q:\n%s", want, msg)
				}
			}
		})
	}
}
