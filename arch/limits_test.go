package arch

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestOccupancyAtTheLimits compares the calculator with what
// cudaOccupancyMaxActiveBlocksPerMultiprocessor answered on an H100 at and
// beyond the per-block limits (testdata/limits/h100_occupancy_limits.txt,
// made by record.sh there): blocks over 1024 threads and shared memory
// over the 227 KiB a block may opt in to get 0 blocks per SM with
// cudaSuccess, not an error. The calculator assumes the kernel opted in to
// the most dynamic shared memory (cudaFuncAttributeMaxDynamicSharedMemorySize),
// so it is compared with the runs after the opt-in, and with the runs
// before it only where a block needs no opt-in (48 KiB or less). The two
// kernels use few registers (ptxas: under 32), which never bind at these
// block sizes: the warp slots do first, so 16 per thread stands in.
func TestOccupancyAtTheLimits(t *testing.T) {
	fh, err := os.Open("testdata/limits/h100_occupancy_limits.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	h100 := MustLookup("h100")
	line := regexp.MustCompile(`^OCC (\w+) bs=(\d+) dyn=(\d+) err=(\w+) blocks=(-?\d+)$`)
	optedIn, checked := false, 0
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		text := sc.Text()
		if strings.HasPrefix(text, "OPTIN ") {
			if !strings.Contains(text, "shared8k=cudaSuccess dynonly=cudaSuccess") {
				t.Fatalf("the opt-in failed: %s", text)
			}
			optedIn = true
			continue
		}
		m := line.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		if m[4] != "cudaSuccess" {
			t.Fatalf("%s: the recording has an error", text)
		}
		static := 0
		if m[1] == "shared8k" {
			static = 8192
		}
		bs, _ := strconv.Atoi(m[2])
		dyn, _ := strconv.Atoi(m[3])
		want, _ := strconv.Atoi(m[5])
		if !optedIn && static+dyn > h100.SharedPerBlock {
			continue // needs the opt-in the calculator assumes
		}
		r := h100.Occupancy(OccupancyInput{BlockSize: bs, RegsPerThread: 16, StaticShared: static, DynamicShared: dyn})
		if r.BlocksPerSM != want {
			t.Errorf("%s: calculator %d blocks per SM (%s)", text, r.BlocksPerSM, r.Reason)
		}
		if want == 0 && r.Reason == "" {
			t.Errorf("%s: 0 blocks without a reason", text)
		}
		checked++
	}
	if checked < 140 {
		t.Errorf("checked %d recorded answers, expected at least 140", checked)
	}
}
