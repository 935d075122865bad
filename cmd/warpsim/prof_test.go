package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/metrics"
)

func TestNvTime(t *testing.T) {
	cases := []struct {
		ns   int64
		want string
	}{
		{0, "0ns"},
		{880, "880ns"},
		{1000, "1.0000us"},
		{2592, "2.5920us"},
		{17568, "17.568us"},
		{249630, "249.63us"},
		{1234500, "1.2345ms"},
		{17493200, "17.493ms"},
		{3456000000, "3.4560s"},
	}
	for _, c := range cases {
		if got := nvTime(c.ns); got != c.want {
			t.Errorf("nvTime(%d) = %q, want %q", c.ns, got, c.want)
		}
	}
}

// profFixture is a profile with known times: two launches of k1, one of k2.
var profFixture = &cudart.Profile{
	Arch: "h100", Device: "NVIDIA H100 80GB HBM3",
	Launches: []cudart.Record{
		{Kernel: "k1(float*)", Grid: [3]uint32{4, 1, 1}, Block: [3]uint32{128, 1, 1}, Regs: 16, StartNS: 0, NS: 1000},
		{Kernel: "k2", Grid: [3]uint32{1, 2, 1}, Block: [3]uint32{32, 2, 1}, Regs: 8, StaticSh: 2048, StartNS: 1000, NS: 6000},
		{Kernel: "k1(float*)", Grid: [3]uint32{4, 1, 1}, Block: [3]uint32{128, 1, 1}, Regs: 16, StartNS: 7000, NS: 3000},
	},
}

func TestProfTimeSummary(t *testing.T) {
	var b bytes.Buffer
	if err := writeProfReport(&b, "==1==", profFixture, arch.MustLookup("h100"), nil, nil, profFlags{}); err != nil {
		t.Fatal(err)
	}
	want := `==1== Profiling result:
            Type  Time(%)       Time     Calls        Avg        Min        Max  Name
 GPU activities:   60.00%   6.0000us         1   6.0000us   6.0000us   6.0000us  k2
                   40.00%   4.0000us         2   2.0000us   1.0000us   3.0000us  k1(float*)
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestProfCSVAndTrace(t *testing.T) {
	var b bytes.Buffer
	writeProfReport(&b, "==1==", profFixture, arch.MustLookup("h100"), nil, nil, profFlags{csv: true})
	if !strings.Contains(b.String(), "\"GPU activities\",40.000000,4000,2,2000,1000,3000,\"k1(float*)\"\n") {
		t.Errorf("CSV summary:\n%s", b.String())
	}
	b.Reset()
	writeProfReport(&b, "==1==", profFixture, arch.MustLookup("h100"), nil, nil, profFlags{gpuTrace: true})
	for _, want := range []string{
		"1.0000us 6.0000us (1 2 1) (32 2 1) 8 2.0000KB 0B k2",
		"7.0000us 3.0000us (4 1 1) (128 1 1) 16 0B 0B k1(float*)",
	} {
		if !strings.Contains(squeeze(b.String()), want) {
			t.Errorf("trace lacks %q:\n%s", want, b.String())
		}
	}
}

func TestProfMetrics(t *testing.T) {
	defs, err := metrics.ParseList("branch_efficiency,theoretical_occupancy")
	if err != nil {
		t.Fatal(err)
	}
	p := *profFixture
	p.Launches = append([]cudart.Record(nil), p.Launches...)
	p.Launches[0].Counters = metrics.Counters{Branch: 4, DivergentBranch: 1}
	p.Launches[2].Counters = metrics.Counters{Branch: 4, DivergentBranch: 3}
	var b bytes.Buffer
	if err := writeProfReport(&b, "==1==", &p, arch.MustLookup("h100"), defs, nil, profFlags{}); err != nil {
		t.Fatal(err)
	}
	// k1: branch efficiency 75% and 25% (min 25, max 75, avg 50); 128
	// threads of 16 registers: 16 blocks × 4 warps = 64 warps, 100%.
	out := squeeze(b.String())
	for _, want := range []string{
		"Kernel: k1(float*) 2 branch_efficiency Branch Efficiency 25.00% 75.00% 50.00% 2 theoretical_occupancy Theoretical Occupancy 100.00% 100.00% 100.00%",
		"Kernel: k2 1 branch_efficiency Branch Efficiency 100.00% 100.00% 100.00%",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metric table lacks %q:\n%s", want, out)
		}
	}
}

// squeeze collapses runs of white space, for checks of values, not columns.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestProfDeviceCalls: with grids launched from device code the summary
// splits calls into host and device columns, as nvprof does for dynamic
// parallelism. child: 3 device launches, 6 µs of 11 µs; parent: 1 host
// launch, 5 µs.
func TestProfDeviceCalls(t *testing.T) {
	p := &cudart.Profile{Arch: "h100", Device: "NVIDIA H100 80GB HBM3", Launches: []cudart.Record{
		{Kernel: "parent", NS: 5000},
		{Kernel: "child", NS: 1000, FromDevice: true},
		{Kernel: "child", NS: 2000, FromDevice: true},
		{Kernel: "child", NS: 3000, FromDevice: true},
	}}
	cases := []struct {
		csv  bool
		want string
	}{
		{false, `==1== Profiling result:
            Type  Time(%)       Time  Calls (host)  Calls (device)        Avg        Min        Max  Name
 GPU activities:   54.55%   6.0000us             0               3   2.0000us   1.0000us   3.0000us  child
                   45.45%   5.0000us             1               0   5.0000us   5.0000us   5.0000us  parent
`},
		{true, `==1== Profiling result:
"Type","Time(%)","Time","Calls (host)","Calls (device)","Avg","Min","Max","Name"
,%,ns,,,ns,ns,ns,
"GPU activities",54.545455,6000,0,3,2000,1000,3000,"child"
"GPU activities",45.454545,5000,1,0,5000,5000,5000,"parent"
`},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := writeProfReport(&b, "==1==", p, arch.MustLookup("h100"), nil, nil, profFlags{csv: c.csv}); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("csv %v:\ngot:\n%s\nwant:\n%s", c.csv, b.String(), c.want)
		}
	}
}

// TestProfUnsupported: nvprof options warpsim lacks are refused before the
// program runs, with exit status 2 and a message that names them.
func TestProfUnsupported(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"prof", "--events", "branch,bogus_event", "./none"}, []string{"unknown event bogus_event", "divergent_branch,inst_executed"}},
		{[]string{"prof", "--mode", "cycles", "./none"}, []string{`--mode "cycles"`, "timing or functional"}},
		{[]string{"prof", "--mode", "functional", "--trace", "t.json", "./none"}, []string{"--trace needs the timing model"}},
		{[]string{"prof", "--mode", "functional", "--no-sampling", "./none"}, []string{"--no-sampling needs the timing model"}},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != exitBadInput {
			t.Errorf("%v: exit %d, want %d", c.args, code, exitBadInput)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%v: stderr lacks %q:\n%s", c.args, w, stderr.String())
			}
		}
		if strings.Contains(stderr.String(), "profiling process") {
			t.Errorf("%v: the program was started:\n%s", c.args, stderr.String())
		}
	}
}
