package cudart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadSettingsArchFile: a program's runtime takes the custom GPU that
// warpsim prof/sanitize pass on (WARPSIM_ARCH_FILE, WARPSIM_ARCH_SET); a
// bad one is cudaErrorNoDevice with the key named.
func TestReadSettingsArchFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "half.yaml")
	os.WriteFile(file, []byte("base: h100\nl2.size: 25MiB\nscheduler: lrr\n"), 0o644)
	env := map[string]string{"WARPSIM_ARCH": "h100", "WARPSIM_ARCH_FILE": file, "WARPSIM_ARCH_SET": "sms=100"}
	s, err := ReadSettings(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if s.Arch.Name != "half" || s.Arch.L2Bytes != 25<<20 || s.Arch.SMs != 100 || s.Arch.Scheduler != "lrr" {
		t.Errorf("arch: %s L2 %d SMs %d scheduler %q", s.Arch.Name, s.Arch.L2Bytes, s.Arch.SMs, s.Arch.Scheduler)
	}
	env["WARPSIM_ARCH_SET"] = "sms=0"
	_, err = ReadSettings(func(k string) string { return env[k] })
	se, ok := err.(*SettingsError)
	if !ok || se.Code != ErrorNoDevice || !strings.Contains(se.Msg, "sms: must be at least 1") {
		t.Errorf("sms=0: %v", err)
	}
}
