package arch

import (
	"strings"
	"testing"
)

// TestArchFileErrors: each bad arch file is refused with an error that
// names the key and says what is wanted.
func TestArchFileErrors(t *testing.T) {
	tests := []struct {
		name, path, text, want string
	}{
		{"negative size", "a.yaml", "base: h100\nl2:\n  size: -5MiB\n", `a.yaml: l2.size: must be a positive size like 50MiB (got "-5MiB")`},
		{"size without number", "a.yaml", "base: h100\nl2.size: big\n", `l2.size: must be a positive size like 50MiB`},
		{"fractional bytes", "a.yaml", "base: h100\nshared.per_sm: 0.5\n", `shared.per_sm: must be a positive size`},
		{"unknown key", "a.yaml", "base: h100\nl2:\n  sise: 1MiB\n", `a.yaml: l2.sise: unknown key (did you mean l2.size?)`},
		{"unknown section", "a.yaml", "base: h100\nl3:\n  size: 1MiB\n", `l3.size: unknown key (did you mean l1.size or l2.size?)`},
		{"no base", "a.yaml", "sms: 4\n", `a.yaml: base: missing`},
		{"unknown base", "a.yaml", "base: h200x\n", `base: unknown arch "h200x"`},
		{"zero SMs", "a.yaml", "base: h100\nsms: 0\n", `sms: must be at least 1`},
		{"negative count", "a.yaml", "base: h100\nsms: -3\n", `sms: must be a whole number`},
		{"bad clock", "a.yaml", "base: h100\nclock: fast\n", `clock: must be a positive clock like 1980MHz`},
		{"bad scheduler", "a.yaml", "base: h100\nscheduler: fifo\n", `scheduler: must be gto (greedy-then-oldest) or lrr`},
		{"carveouts not ascending", "a.yaml", "base: h100\nshared:\n  carveouts: [0, 64, 32]\n", `shared.carveouts: must be ascending (32 after 64)`},
		{"carveout above shared", "a.yaml", "base: h100\nshared:\n  carveouts: [0, 64, 300]\n", `shared.carveouts: 300 KiB is more than shared.per_sm (228KiB)`},
		{"per block above optin", "a.yaml", "base: h100\nshared.per_block: 230KiB\n", `shared.per_block: 230KiB is more than shared.per_block_optin (227KiB)`},
		{"threads need warps", "a.yaml", "base: h100\nlimits:\n  threads_per_sm: 4096\n  warps_per_sm: 64\n", `limits.threads_per_sm: 4096 threads need 128 warps, more than limits.warps_per_sm (64)`},
		{"big block", "a.yaml", "base: h100\nlimits.threads_per_block: 2048\n", `limits.threads_per_block: 2048: warpsim simulates blocks of at most 1024 threads`},
		{"negative latency", "a.yaml", "base: h100\nlatency:\n  shared: -1\n", `latency.shared: must be a whole number`},
		{"bad bandwidth", "a.yaml", "base: h100\nbandwidth.dram: 0\n", `bandwidth.dram: must be a positive bandwidth like 2.1TB/s`},
		{"duplicate key", "a.yaml", "base: h100\nsms: 4\nsms: 5\n", `not valid YAML`},
		{"nested and dotted", "a.yaml", "base: h100\nl2.size: 1MiB\nl2:\n  size: 2MiB\n", `l2.size: given twice`},
		{"list where a number goes", "a.yaml", "base: h100\nsms: [1, 2]\n", `sms: must be a whole number`},
		{"not a map", "a.yaml", "- 1\n- 2\n", `not valid YAML`},
		{"json unknown key", "a.json", `{"base": "a100", "smz": 4}`, `a.json: smz: unknown key (did you mean sms?)`},
		{"json trailing", "a.json", `{"base": "a100"} {}`, `not valid JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ParseFile(tt.path, []byte(tt.text))
			if err == nil {
				t.Fatalf("accepted: %+v", a)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error\n%v\nwant it to contain\n%s", err, tt.want)
			}
		})
	}
}

// TestArchFileValues: units are read as documented, and figures that
// follow from a changed one are derived.
func TestArchFileValues(t *testing.T) {
	a, err := ParseFile("dir/h100-big.yaml", []byte(`
base: hopper
sms: 66
clock: 1.5GHz
l2: {size: 100MiB}
shared:
  per_sm: 100KiB
memory:
  clock: 1309.5MHz
  size: 40GiB
latency.shared: 30
bandwidth:
  l2: 11TB/s
launch:
  kernel: 2.5us
scheduler: lrr
`))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"name", a.Name, "h100-big"},
		{"base", a.Base, "h100"},
		{"sms", a.SMs, 66},
		{"clock", a.ClockKHz, 1500000},
		{"l2", a.L2Bytes, 100 << 20},
		{"shared", a.SharedPerSM, 100 << 10},
		{"optin follows shared", a.SharedPerBlockOptin, 99 << 10},
		{"carveouts follow shared", len(a.SharedCarveoutsKiB), 6},
		{"memory clock", a.MemClockKHz, 1309500},
		{"memory size", a.TotalGlobalMem, uint64(40 << 30)},
		{"latency.shared", a.Timing["latency.shared"], 30.0},
		{"bandwidth.l2", a.Timing["bandwidth.l2"], 11000.0},
		{"launch.kernel", a.Timing["launch.kernel"], 2500.0},
		{"scheduler", a.Scheduler, "lrr"},
		{"preset untouched", MustLookup("h100").SMs, 132},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
		}
	}
	// The same in JSON.
	j, err := ParseFile("x.json", []byte(`{"base": "h100", "sms": 66, "l2": {"size": "100MiB"}, "latency": {"shared": 30}}`))
	if err != nil {
		t.Fatal(err)
	}
	if j.SMs != 66 || j.L2Bytes != 100<<20 || j.Timing["latency.shared"] != 30 {
		t.Errorf("json: %+v", j)
	}
}

// TestMarshalRoundTrip: every preset, written as an arch file and read
// back, differs from itself in nothing.
func TestMarshalRoundTrip(t *testing.T) {
	for _, p := range All() {
		b, err := ParseFile(p.Name+".yaml", Marshal(p))
		if err != nil {
			t.Fatalf("%s:\n%s\n%v", p.Name, Marshal(p), err)
		}
		if d := Diff(p, b); len(d) != 0 {
			t.Errorf("%s: round trip differs: %v", p.Name, d)
		}
	}
}

func TestOverrideAndDiff(t *testing.T) {
	h := MustLookup("h100")
	a, err := Override(h, []string{"l2.size=100MiB", "latency.fma=6", "l2.size=25MiB"})
	if err != nil {
		t.Fatal(err)
	}
	if a.L2Bytes != 25<<20 || a.Name != "h100-custom" || a.Base != "h100" || h.L2Bytes != 52428800 {
		t.Errorf("override: %+v", a)
	}
	got := Diff(h, a)
	want := []Difference{{"name", "h100", "h100-custom"}, {"l2.size", "50MiB", "25MiB"}, {"latency.fma", "", "6"}}
	if len(got) != len(want) {
		t.Fatalf("diff %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("diff[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	for _, bad := range [][]string{{"l2.size"}, {"=5"}, {"base=a100"}, {"l2.size=-1"}} {
		if _, err := Override(h, bad); err == nil {
			t.Errorf("--set %v accepted", bad)
		}
	}
	if _, err := Resolve("h100", "x.yaml", nil); err == nil || !strings.Contains(err.Error(), "give one") {
		t.Errorf("--arch and --arch-file together: %v", err)
	}
}

// FuzzArchFile: no input panics the parser; an accepted file validates,
// and written back out it reads as the same architecture.
func FuzzArchFile(f *testing.F) {
	f.Add("a.yaml", []byte("base: h100\nl2:\n  size: 100MiB\nsms: 66\n"))
	f.Add("a.yaml", []byte("base: k40\nshared: {per_sm: 32KiB, carveouts: [0, 16, 32]}\nlatency.fma: 9\n"))
	f.Add("a.json", []byte(`{"base": "a100", "limits": {"threads_per_sm": 1024}, "bandwidth": {"dram": "1TB/s"}}`))
	f.Add("a.yaml", []byte("base: g80\nclock: 1e3\nmemory.size: 1e9\n"))
	f.Add("a.yaml", []byte("base: h100\nname: ''\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if !strings.HasSuffix(name, ".json") {
			name = "a.yaml"
		}
		a, err := ParseFile(name, data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("accepted but not valid: %v", err)
		}
		b, err := ParseFile("b.yaml", Marshal(a))
		if err != nil {
			t.Fatalf("written back:\n%s\nnot accepted: %v", Marshal(a), err)
		}
		if d := Diff(a, b); len(d) != 0 {
			t.Fatalf("round trip differs: %v\n%s", d, Marshal(a))
		}
	})
}
