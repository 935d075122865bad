package devhook_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/devhook"
	"github.com/warpsim/warpsim/internal/engine"
)

// stopAll stops a kernel at its first memory access.
type stopAll struct{ accesses int }

func (s *stopAll) Access(*engine.CheckSite, *engine.CheckAccess) bool { s.accesses++; return false }
func (s *stopAll) Barrier(*engine.CheckSite, int, int) bool           { return true }
func (s *stopAll) WarpSync(*engine.CheckSite, *[32]uint32) bool       { return true }

const storePTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [p];
	st.global.u32 [%rd1], 1;
	ret;
}
`

// TestSetChecker: a checker set through devhook sees the device's launches
// and can stop them; nil removes it; anything but a *warpsim.Device panics.
func TestSetChecker(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard})
	m, err := dev.LoadModule("k.ptx", []byte(storePTX))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := m.Kernel("k")
	p, _ := dev.Malloc(4)
	params := []byte{byte(p), byte(p >> 8), byte(p >> 16), byte(p >> 24), byte(p >> 32), byte(p >> 40), byte(p >> 48), byte(p >> 56)}
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 1, Y: 1, Z: 1}}

	c := &stopAll{}
	devhook.SetChecker(dev, c)
	_, err = dev.Launch(k, cfg, params)
	var f *warpsim.Fault
	if !errors.As(err, &f) || f.Kind != warpsim.FaultSanitizer || c.accesses != 1 {
		t.Fatalf("under the checker: err %v, %d accesses; want a FaultSanitizer after 1", err, c.accesses)
	}
	devhook.SetChecker(dev, nil)
	if _, err := dev.Launch(k, cfg, params); err != nil || c.accesses != 1 {
		t.Fatalf("after removing it: err %v, %d accesses", err, c.accesses)
	}

	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "not a *warpsim.Device") {
			t.Errorf("SetChecker on a string: recovered %v, want a panic naming the type", r)
		}
	}()
	devhook.SetChecker("device", c)
}
