package sweep

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// TestProgramSweep: a program built by warpsim cc (the reduce lesson)
// swept over its block-size argument and two GPUs runs under warpsim prof
// in each cell; each cell records the program's 4 launches with the block
// size the argument asked for.
func TestProgramSweep(t *testing.T) {
	testenv.NeedClang(t)
	dir := t.TempDir()
	// Built once and kept between runs (testenv.CachedProgram: the key covers
	// the source, what it includes, warpsim cc's own code and the runtime); the program
	// starts this run's warpsim (TestMain sets WARPSIM_BIN).
	src, err := filepath.Abs("../examples/lessons/reduce.cu")
	if err != nil {
		t.Fatal(err)
	}
	built, err := testenv.CachedProgram(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The spec names the program by its base name, in the spec's folder.
	b, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "reduce"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "prog.yaml")
	os.WriteFile(spec, []byte(`
runs:
  - {name: reduce, program: reduce, args: ["${block}", "14"]}
axes:
  arch: [h100, a100]
  set: ["", "sms=66"]
  vars: {block: [128, 512]}
`), 0o644)
	db := filepath.Join(dir, "p.db")
	mustRun(t, sweepCmd(spec, "--db", db, "-j", "2"))
	got := readDB(t, db)
	if len(got) != 8 {
		t.Fatalf("%d cells, want 8", len(got))
	}
	d, _ := Open(db)
	defer d.Close()
	rs, _ := d.Results()
	for _, r := range rs {
		if r.Status != "ok" || len(r.Launches) != 4 {
			t.Errorf("cell %s %v: %s %q, %d launches", r.Cell.Label(), r.Cell.Vars, r.Status, r.Error, len(r.Launches))
			continue
		}
		for _, l := range r.Launches {
			if strconv.Itoa(int(l.Block[0])) != r.Cell.Vars["block"] {
				t.Errorf("cell %v: %s has block %v", r.Cell.Vars, l.Kernel, l.Block)
			}
		}
	}
}
