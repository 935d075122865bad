package cc_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/cuda/cc"
	"github.com/warpsim/warpsim/internal/testenv"
)

// TestLongPCHOutputIdentical checks that a precompiled header changes
// nothing clang makes: the PTX and the objects of programs compiled with
// one and without, byte for byte; the program Build makes against the one
// linked from objects Compile left in a folder that moved since (as the
// tests' program cache links them, internal/testenv); and that a
// precompiled header clang refuses (here a corrupt file) leaves the
// build plain, with the same output, and is removed. (The CPU saved:
// docs/compilers.md.)
func TestLongPCHOutputIdentical(t *testing.T) {
	testenv.Long(t)
	testenv.NeedClang(t)
	defer func(v bool) { *cc.PCHOnSecondRun = v }(*cc.PCHOnSecondRun)
	*cc.PCHOnSecondRun = false
	outputs := func(t *testing.T, d *cc.Driver, opt *cc.Options) (string, map[string][]byte) {
		t.Helper()
		dir := t.TempDir()
		if err := d.Compile(opt, dir); err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if n := e.Name(); strings.HasSuffix(n, ".ptx") || strings.HasSuffix(n, ".o") {
				b, err := os.ReadFile(filepath.Join(dir, n))
				if err != nil {
					t.Fatal(err)
				}
				out[n] = b
			}
		}
		if len(out) == 0 {
			t.Fatal("Compile left no PTX or object")
		}
		return dir, out
	}
	same := func(t *testing.T, what string, a, b map[string][]byte) {
		t.Helper()
		if len(a) != len(b) {
			t.Fatalf("%s: %d files against %d", what, len(a), len(b))
		}
		for n, x := range a {
			if !bytes.Equal(x, b[n]) {
				t.Errorf("%s: %s differs", what, n)
			}
		}
	}
	newDriver := func(t *testing.T, noPCH bool) *cc.Driver {
		t.Helper()
		var stderr bytes.Buffer
		d, err := cc.NewDriver(&stderr)
		if err != nil {
			t.Fatal(err)
		}
		d.NoPCH = noPCH
		d.WarpsimBin = "warpsim"
		t.Cleanup(func() {
			if stderr.Len() > 0 {
				t.Logf("clang said:\n%s", stderr.String())
			}
		})
		return d
	}
	for i, c := range []struct {
		src   string
		flags []string
	}{
		{"vector_add.cu", nil},
		{"templates.cu", []string{"-rdc=true", "-std=c++17", "-DWARPSIM_PCH_TEST=1"}},
	} {
		t.Run(c.src, func(t *testing.T) {
			opt, err := cc.ParseArgs(append(append([]string(nil), c.flags...), filepath.Join("../../testdata/programs", c.src)))
			if err != nil {
				t.Fatal(err)
			}
			withPCH := newDriver(t, false)
			dir, got := outputs(t, withPCH, opt)
			pchs, _ := filepath.Glob(filepath.Join(withPCH.PCHDir(), "*.pch"))
			if len(pchs) == 0 {
				t.Fatal("no precompiled header was made")
			}
			_, want := outputs(t, newDriver(t, true), opt)
			same(t, "with a precompiled header and without", got, want)
			if i > 0 {
				return
			}
			// Build's program against the one linked from the moved folder.
			moved := filepath.Join(t.TempDir(), "objects")
			if err := os.Rename(dir, moved); err != nil {
				t.Fatal(err)
			}
			linked := filepath.Join(t.TempDir(), "linked")
			if err := withPCH.Link(moved, linked); err != nil {
				t.Fatal(err)
			}
			built := *opt
			built.Output = filepath.Join(t.TempDir(), "built")
			if err := withPCH.Build(&built); err != nil {
				t.Fatal(err)
			}
			a, _ := os.ReadFile(linked)
			b, _ := os.ReadFile(built.Output)
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Error("the program linked from a moved folder of objects differs from Build's")
			}
		})
	}
	t.Run("refused", func(t *testing.T) {
		t.Setenv("WARPSIM_CACHE", t.TempDir()) // precompiled headers of its own
		src := "../../testdata/programs/vector_add.cu"
		opt := &cc.Options{OptLevel: "-O3", Arch: "sm_90"}
		d := newDriver(t, false)
		first, err := d.PTX(opt, src)
		if err != nil {
			t.Fatal(err)
		}
		pchs, _ := filepath.Glob(filepath.Join(d.PCHDir(), "*.pch"))
		if len(pchs) != 1 {
			t.Fatalf("%d precompiled headers, want 1 (the device pass's)", len(pchs))
		}
		if err := os.WriteFile(pchs[0], []byte("not a precompiled header\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		d.Stderr = &stderr
		again, err := d.PTX(opt, src)
		if err != nil {
			t.Fatalf("with a corrupt precompiled header: %v\n%s", err, stderr.String())
		}
		if !bytes.Equal(again, first) {
			t.Error("the PTX with a corrupt precompiled header differs from the PTX with a good one")
		}
		if stderr.Len() > 0 {
			t.Errorf("the build said something the plain build does not:\n%s", stderr.String())
		}
		if _, err := os.Stat(pchs[0]); err == nil {
			t.Error("the refused precompiled header is still there")
		}
	})
}
