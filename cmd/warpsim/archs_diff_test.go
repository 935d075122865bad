package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchsDiff: warpsim archs --diff names the keys that differ between a
// preset and an arch file; a bad file is bad input (exit 2) naming its key.
func TestArchsDiff(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "h100-2xl2.yaml")
	os.WriteFile(good, []byte("base: h100\nl2: {size: 100MiB}\nlatency.shared: 30\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"archs", "--diff", "h100", good}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"l2.size", "50MiB", "100MiB", "latency.shared", "(preset)", "30", "name"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "sms") {
		t.Errorf("diff lists a key that does not differ:\n%s", out.String())
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"base": "h100", "l2": {"size": "-5MiB"}}`), 0o644)
	out.Reset()
	errb.Reset()
	if code := run([]string{"archs", "--diff", "h100", bad}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "l2.size: must be a positive size like 50MiB") {
		t.Errorf("bad file: exit %d, %s", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"run", "--arch-file", bad, "../../testdata/timing/launch/lat_sin.json"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "bad.json: l2.size") {
		t.Errorf("run --arch-file bad: exit %d, %s", code, errb.String())
	}
}
