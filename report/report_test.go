package report

import (
	"bytes"
	"strings"
	"testing"
)

// oneLine is a profile of one launch whose single instruction, on x.cu
// line 7, has counts c.
func oneLine(c Counts, mutate func(p *Profile)) *Profile {
	p := &Profile{Version: Version, Tool: "warpsim", Mode: "functional",
		Arch:    Arch{Name: "h100", FullName: "H100", CC: "9.0", SMs: 132, WarpSize: 32, SubPartitions: 4, MaxWarpsPerSM: 64, MaxBlocksPerSM: 32, DRAMBandwidth: 3.35e12, PeakWarpInstPerSec: 1e12},
		Sources: []Source{{Path: "x.cu", Lines: []string{"1", "2", "3", "4", "5", "6", "a[i*32] = b[i];", "8"}}},
		Launches: []Launch{{Kernel: "k", Func: "k", Grid: [3]uint32{1024, 1, 1}, Block: [3]uint32{256, 1, 1}, Parent: -1,
			Metrics:   map[string]float64{"inst_executed": float64(c.Inst)},
			Occupancy: Occupancy{Theoretical: 100, Achieved: -1, BlocksPerSM: 8, WarpsPerSM: 64, Limiter: "warps"},
			Funcs:     []Func{{Name: "k", Entry: true, Insts: []Inst{{PC: 0, PTXLine: 40, Text: "ld.global.u32 %r1, [%rd1];", File: 0, Line: 7, Counts: c}}}}}},
	}
	if mutate != nil {
		mutate(p)
	}
	return p
}

// TestAdviceRules: each rule fires on the counts that show its problem,
// names the line, and stays quiet on a clean kernel.
func TestAdviceRules(t *testing.T) {
	clean := Counts{Inst: 100, ThreadInst: 3200, GldRequests: 100, GldSectors: 400, GldIdeal: 400}
	cases := []struct {
		name   string
		c      Counts
		mutate func(p *Profile)
		rule   string
	}{
		{"uncoalesced loads", Counts{Inst: 100, ThreadInst: 3200, GldRequests: 100, GldSectors: 3200, GldIdeal: 400}, nil, "uncoalesced-load"},
		{"uncoalesced stores", Counts{Inst: 100, ThreadInst: 3200, GstRequests: 100, GstSectors: 1600, GstIdeal: 400}, nil, "uncoalesced-store"},
		{"bank conflicts", Counts{Inst: 100, ThreadInst: 3200, ShLdRequests: 100, ShLdWavefronts: 3200, ShLdConflicts: 3100}, nil, "bank-conflicts"},
		{"divergence", Counts{Inst: 100, ThreadInst: 3200, Branch: 100, DivergentBranch: 50}, nil, "divergent-branch"},
		{"idle lanes", Counts{Inst: 100, ThreadInst: 800}, nil, "idle-lanes"},
		{"local memory", Counts{Inst: 100, ThreadInst: 3200, LocalLd: 10, LocalSt: 10}, nil, "local-memory"},
		{"low theoretical occupancy", clean, func(p *Profile) { p.Launches[0].Occupancy.Theoretical = 25 }, "low-theoretical-occupancy"},
		{"low achieved occupancy", clean, func(p *Profile) { p.Launches[0].Occupancy.Achieved = 40 }, "low-achieved-occupancy"},
		// 1100 blocks at 8 per SM on 132 SMs: 1.04 waves.
		{"tail", clean, func(p *Profile) { p.Launches[0].Grid[0] = 1100 }, "tail-effect"},
		{"tiny grid", clean, func(p *Profile) { p.Launches[0].Grid[0] = 4 }, "tiny-grid"},
		{"barrier stalls", clean, func(p *Profile) {
			l := &p.Launches[0]
			l.StallNames = []string{"selected", "barrier", "long_scoreboard"}
			l.Stalls = []uint64{100, 500, 100}
			l.Funcs[0].Insts[0].Stalls = []uint64{0, 500, 0}
		}, "barrier-stalls"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := oneLine(c.c, c.mutate)
			ks := groupKernels(p)
			var fired []string
			for _, a := range advise(p, ks[0]) {
				fired = append(fired, a.Rule)
				if a.Rule == c.rule && len(a.Sites) > 0 && a.Sites[0].label != "x.cu:7" {
					t.Errorf("%s names %s, want x.cu:7", a.Rule, a.Sites[0].label)
				}
				if a.Fix == "" {
					t.Errorf("%s has no fix", a.Rule)
				}
			}
			if !strings.Contains(strings.Join(fired, " "), c.rule) {
				t.Errorf("rules fired: %v; want %s", fired, c.rule)
			}
		})
	}
	t.Run("clean", func(t *testing.T) {
		p := oneLine(clean, nil)
		if adv := advise(p, groupKernels(p)[0]); len(adv) != 0 {
			t.Errorf("rules fired on a clean kernel: %+v", adv)
		}
	})
}

// TestReadRejects: a profile of another version or with dangling
// references is refused with a message naming the problem.
func TestReadRejects(t *testing.T) {
	cases := []struct{ name, json, want string }{
		{"version", `{"version": 2, "tool": "warpsim", "mode": "functional", "arch": {}, "launches": []}`, "version 2"},
		{"unknown key", `{"version": 1, "bogus": 1}`, "bogus"},
		{"file", `{"version": 1, "mode": "functional", "arch": {}, "launches": [{"kernel": "k", "func": "k", "parent": -1, "metrics": {}, "occupancy": {}, "funcs": [{"name": "k", "insts": [{"pc": 0, "ptx_line": 1, "text": "ret;", "file": 3}]}]}]}`, "file 3 out of range"},
		{"stalls", `{"version": 1, "mode": "timing", "arch": {}, "launches": [{"kernel": "k", "func": "k", "parent": -1, "metrics": {}, "occupancy": {}, "stalls": [1, 2]}]}`, "2 stall counts for 0 stall names"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.json))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// TestRoundTrip: Write then Read gives the profile back, and rendering it
// escapes source text.
func TestRoundTrip(t *testing.T) {
	p := oneLine(Counts{Inst: 3, ThreadInst: 96}, func(p *Profile) { p.Sources[0].Lines[6] = `if (a < b && c > "d") </script>` })
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	q, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if q.Launches[0].Funcs[0].Insts[0].Inst != 3 || q.Sources[0].Lines[6] != p.Sources[0].Lines[6] {
		t.Fatalf("round trip lost data: %+v", q.Launches[0].Funcs[0].Insts[0])
	}
	var h bytes.Buffer
	if err := Render(&h, q); err != nil {
		t.Fatal(err)
	}
	page := h.String()
	if strings.Count(page, "</script>") != 1 || !strings.Contains(page, "if (a &lt; b &amp;&amp; c &gt; &#34;d&#34;) &lt;/script&gt;") {
		t.Errorf("source text not escaped")
	}
	for _, banned := range []string{"http://", "https://", "<link", "src="} {
		if i := strings.Index(page, banned); i >= 0 && !strings.Contains(page[max(i-40, 0):i+40], "www.w3.org/2000/svg") {
			t.Errorf("the page refers outside itself: %q", page[max(i-40, 0):min(i+60, len(page))])
		}
	}
}

// TestPCStalls: per-instruction stall samples land on their instruction
// and line.
func TestPCStalls(t *testing.T) {
	p := oneLine(Counts{Inst: 10, ThreadInst: 320}, nil)
	l := &p.Launches[0]
	l.StallNames = []string{"selected", "long_scoreboard"}
	l.Stalls = []uint64{10, 90}
	AttachPCStalls(l, []PCStalls{{Func: "k", PC: 0, Stalls: []uint64{1, 90}}, {Func: "nope", PC: 3, Stalls: []uint64{5, 5}}})
	if got := l.Funcs[0].Insts[0].Stalls; len(got) != 2 || got[1] != 90 {
		t.Fatalf("stalls on pc 0: %v", got)
	}
	k := groupKernels(p)[0]
	if k.lines[0].stalls != 91 {
		t.Errorf("line 7's stall samples: %d, want 91", k.lines[0].stalls)
	}
}

// TestRenderEmpty: a profile without launches still renders a page.
func TestRenderEmpty(t *testing.T) {
	var h bytes.Buffer
	if err := Render(&h, &Profile{Version: Version, Mode: "timing"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h.String(), "NaN") || strings.Contains(h.String(), "Inf") {
		t.Errorf("an empty profile's page has NaN or Inf in it")
	}
}
