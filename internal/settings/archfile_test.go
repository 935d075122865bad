package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchFileAndSet: WARPSIM_ARCH_FILE and WARPSIM_ARCH_SET give a custom
// GPU (what warpsim prof --arch-file and --set pass on); a bad file or
// override is an error naming the variable and the key.
func TestArchFileAndSet(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "big.yaml")
	os.WriteFile(file, []byte("base: h100\nl2: {size: 100MiB}\n"), 0o644)
	s, err := FromEnv(env(VarArchFile, file, VarArchSet, "sms=66;latency.fma=6"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Arch.Name != "big" || s.Arch.L2Bytes != 100<<20 || s.Arch.SMs != 66 || s.Arch.Timing["latency.fma"] != 6 {
		t.Errorf("got %s: L2 %d, %d SMs, %v", s.Arch.Name, s.Arch.L2Bytes, s.Arch.SMs, s.Arch.Timing)
	}
	// WARPSIM_ARCH_SET alone overrides WARPSIM_ARCH's preset.
	if s, err := FromEnv(env(VarArch, "a100", VarArchSet, "sms=54")); err != nil || s.Arch.SMs != 54 || s.Arch.Base != "a100" {
		t.Errorf("a100 with sms=54: %+v %v", s.Arch, err)
	}
	os.WriteFile(file, []byte("base: h100\nl2: {size: -1MiB}\n"), 0o644)
	for _, tt := range []struct{ k, v, want string }{
		{VarArchFile, file, "WARPSIM_ARCH_FILE=\"" + file + "\" is not valid: an arch file (YAML or JSON, base: a preset): " + file + ": l2.size: must be a positive size"},
		{VarArchSet, "smz=4", `WARPSIM_ARCH_SET="smz=4" is not valid: KEY=VALUE overrides separated by ';': --set: smz: unknown key (did you mean sms?)`},
	} {
		if _, err := FromEnv(env(tt.k, tt.v)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s=%s: %v\nwant %s", tt.k, tt.v, err, tt.want)
		}
	}
}
