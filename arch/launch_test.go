package arch

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestCheckLaunchRecorded runs CheckLaunch on the launches that
// testdata/programs/error_config.cu and testdata/coop/coop_limits.cu make
// on an H100, with the codes the H100 returned
// (testdata/programs/error_config.h100.txt, testdata/coop/coop_limits.h100.txt).
func TestCheckLaunchRecorded(t *testing.T) {
	a := MustLookup("h100")
	k := KernelLimits{Name: "k", RegsPerThread: 16, ParamBytes: 8, MaxDynamicShared: -1}
	bounded := k
	bounded.MaxNTID = [3]int{128, 1, 1}
	optedIn := k
	optedIn.MaxDynamicShared = 64 * 1024
	one := [3]uint32{1, 1, 1}
	cases := []struct {
		name   string
		k      KernelLimits
		l      LaunchShape
		code   int
		bounds bool
	}{
		{"block 2048", k, LaunchShape{Grid: one, Block: [3]uint32{2048, 1, 1}, ParamBytes: 8}, ErrInvalidValue, false},
		{"block z 128", k, LaunchShape{Grid: one, Block: [3]uint32{1, 1, 128}, ParamBytes: 8}, ErrInvalidValue, false},
		{"grid y 65536", k, LaunchShape{Grid: [3]uint32{1, 65536, 1}, Block: one, ParamBytes: 8}, ErrInvalidValue, false},
		{"grid 0", k, LaunchShape{Grid: [3]uint32{0, 1, 1}, Block: [3]uint32{32, 1, 1}, ParamBytes: 8}, ErrInvalidValue, false},
		{"64 KiB dynamic shared", k, LaunchShape{Grid: one, Block: [3]uint32{32, 1, 1}, DynamicShared: 64 << 10, ParamBytes: 8}, ErrInvalidValue, false},
		{"64 KiB dynamic shared after opting in", optedIn, LaunchShape{Grid: one, Block: [3]uint32{32, 1, 1}, DynamicShared: 64 << 10, ParamBytes: 8}, 0, false},
		{"block 256 over __launch_bounds__(128)", bounded, LaunchShape{Grid: one, Block: [3]uint32{256, 1, 1}, ParamBytes: 8}, ErrInvalidValue, true},
		{"a good launch", k, LaunchShape{Grid: one, Block: [3]uint32{32, 1, 1}, ParamBytes: 8}, 0, false},
		// coop_limits' refusals that do not depend on its kernel's registers:
		{"cooperative block of 2048 threads", k, LaunchShape{Grid: one, Block: [3]uint32{2048, 1, 1}, ParamBytes: 8, Cooperative: true}, ErrInvalidValue, false},
		{"cooperative, more shared memory than an SM has", optedIn, LaunchShape{Grid: one, Block: [3]uint32{32, 1, 1}, DynamicShared: 240000, ParamBytes: 8, Cooperative: true}, ErrCooperativeLaunchTooLarge, false},
		{"wrong parameter size", k, LaunchShape{Grid: one, Block: one, ParamBytes: 4}, ErrInvalidValue, false},
	}
	for _, c := range cases {
		e := a.CheckLaunch(c.k, c.l)
		switch {
		case c.code == 0 && e != nil:
			t.Errorf("%s: refused (%d: %s), want it launched", c.name, e.Code, e.Msg)
		case c.code != 0 && e == nil:
			t.Errorf("%s: launched, want code %d", c.name, c.code)
		case c.code != 0 && (e.Code != c.code || e.KernelBounds != c.bounds || e.Msg == ""):
			t.Errorf("%s: code %d bounds %v (%q), want %d bounds %v", c.name, e.Code, e.KernelBounds, e.Msg, c.code, c.bounds)
		}
	}
}

// TestCheckLaunchRegisters: a block launches exactly up to the
// maxThreadsPerBlock cudaFuncGetAttributes reported for each kernel of the
// H100 occupancy recording (KERNEL lines of
// testdata/h100_occupancy_driver.txt); one warp more is
// cudaErrorLaunchOutOfResources. (heavy64, 80 registers: 768 threads,
// though 800×80 registers would fit the 65536 of a block: registers are
// allocated per warp in units of 256.)
func TestCheckLaunchRegisters(t *testing.T) {
	a := MustLookup("h100")
	f, err := os.Open("testdata/h100_occupancy_driver.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) < 10 || w[0] != "KERNEL" {
			continue
		}
		regs, _ := strconv.Atoi(w[3])
		static, _ := strconv.Atoi(w[5])
		most, _ := strconv.Atoi(w[9])
		k := KernelLimits{Name: w[1], RegsPerThread: regs, StaticShared: static, MaxDynamicShared: -1}
		shape := func(threads int) LaunchShape {
			return LaunchShape{Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{uint32(threads), 1, 1}}
		}
		if e := a.CheckLaunch(k, shape(most)); e != nil {
			t.Errorf("%s (%d registers): block of %d refused: %s", w[1], regs, most, e.Msg)
		}
		if most+32 <= a.MaxThreadsPerBlock {
			if e := a.CheckLaunch(k, shape(most+32)); e == nil || e.Code != ErrLaunchOutOfResources {
				t.Errorf("%s (%d registers): block of %d: %v, want cudaErrorLaunchOutOfResources", w[1], regs, most+32, e)
			}
		}
		n++
	}
	if n < 6 {
		t.Fatalf("read %d KERNEL lines, want 6", n)
	}
}
