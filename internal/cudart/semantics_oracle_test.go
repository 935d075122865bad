package cudart

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSemanticsGoldenAgainstH100 holds testdata/semantics.stdout, which
// TestSemantics rewrites with -update, against what the H100 reported, so
// that a wrong value written into it cannot match for ever: every CUDA
// call's status (code, name and string) is the H100's cudaGetErrorName and
// cudaGetErrorString for that code (testdata/programs5/error_strings.h100.txt),
// and the device's name, compute capability, SM count, warp size and
// opt-in shared memory are its device report
// (arch/testdata/h100_occupancy_driver.txt, DEVICE).
func TestSemanticsGoldenAgainstH100(t *testing.T) {
	root := filepath.Join("..", "..")
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// "  700 cudaErrorIllegalAddress: an illegal memory access was encountered"
	h100 := map[string]string{}
	for _, line := range strings.Split(read(filepath.Join(root, "testdata", "programs5", "error_strings.h100.txt")), "\n") {
		if code, rest, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			h100[code] = rest
		}
	}
	if len(h100) < 100 {
		t.Fatalf("error_strings.h100.txt: %d codes read", len(h100))
	}
	golden := read(filepath.Join("testdata", "semantics.stdout"))
	status := regexp.MustCompile(`-> (\d+) (\w+) "([^"]*)"$`)
	checked := 0
	for _, line := range strings.Split(golden, "\n") {
		m := status.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		checked++
		if got, want := m[2]+": "+m[3], h100[m[1]]; got != want {
			t.Errorf("semantics.stdout: %q: code %s is %q on the H100", line, m[1], want)
		}
	}
	if checked < 50 {
		t.Errorf("semantics.stdout: %d CUDA call statuses checked, want the file's 60-odd", checked)
	}

	var device string
	for _, line := range strings.Split(read(filepath.Join(root, "arch", "testdata", "h100_occupancy_driver.txt")), "\n") {
		if strings.HasPrefix(line, "DEVICE ") {
			device = line
		}
	}
	field := func(key string) string {
		t.Helper()
		m := regexp.MustCompile(` ` + key + `=(\S+( \S+)*?)( \w+=|$)`).FindStringSubmatch(device)
		if m == nil {
			t.Fatalf("the H100's DEVICE row has no %s: %q", key, device)
		}
		return m[1]
	}
	for _, want := range []string{
		"device " + field("name") + " cc " + field("cc") + " sms " + field("sms") + " warp " + field("warpSize") + " ",
		"optin shared " + field("smemPerBlockOptin") + "\n",
	} {
		if !strings.Contains(golden, want) {
			t.Errorf("semantics.stdout lacks the H100's %q", want)
		}
	}
}
