package testenv

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/cuda/cc"
)

// TestProgramKeyFollowsInputs checks that the cache key changes with each
// input of a build and with nothing else: a module tree with its own
// cuda/include, C runtime and compiler driver, a system folder, and a
// program that includes a header of each.
func TestProgramKeyFollowsInputs(t *testing.T) {
	clang := NeedClang(t)
	root := t.TempDir()
	write := func(name, s string) string {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Two checkouts of one module, and clang's system folder.
	for _, mod := range []string{"mod", "copy"} {
		write(mod+"/go.mod", "module m\n")
		write(mod+"/cmd/warpsim/cc.go", "package main\n")
		write(mod+"/cuda/cc/cc.go", "package cc\n")
		write(mod+"/cuda/shim/rt.c", "int rt;\n")
		write(mod+"/cuda/include/cuda_runtime.h", "#include \"rt_api.h\"\n")
		write(mod+"/cuda/include/rt_api.h", "// api\n")
		write(mod+"/cuda/include/curand_kernel.h", "// curand\n")
		write(mod+"/cuda/include/used.h", "#include <stdio.h>\n")
		write(mod+"/inc/flagged.h", "// flagged\n")
	}
	write("sys/stdio.h", "#include <bits/io.h>\n")
	write("sys/bits/io.h", "// io\n")
	mod, sys := filepath.Join(root, "mod"), filepath.Join(root, "sys")
	src := write("prog/p.cu", "#include \"a.h\"\n#include <used.h>\n#include <flagged.h>\nint main() {}\n")
	write("prog/a.h", "#include \"sub/b.h\"\n")
	write("prog/sub/b.h", "#include \"../c.h\"\n")
	write("prog/c.h", "// c\n")
	write("prog/unrelated.h", "// not included\n")
	ptx := write("prog/dev.ptx", "// ptx\n")
	keyIn := func(module string, flags ...string) string {
		t.Helper()
		k, err := newKeyer(module, clang, []string{sys}).programKey(src, flags)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	key := func(flags ...string) string { return keyIn(mod, flags...) }
	// The key of the objects: everything but the C runtime.
	compileKey := func(flags ...string) string {
		t.Helper()
		k, err := newKeyer(mod, clang, []string{sys}).compileKey(src, flags)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	if key() == compileKey() {
		t.Error("the key of a program is the key of its objects")
	}
	if key() != key() {
		t.Fatal("the key of one build differs between two calls")
	}
	if key() == key("-rdc=true") {
		t.Error("a flag does not change the key")
	}
	if a, b := keyIn(mod, "-I", filepath.Join(mod, "inc")), keyIn(filepath.Join(root, "copy"), "-I", filepath.Join(root, "copy", "inc")); a != b {
		t.Error("two checkouts of one tree, a -I folder inside each, have different keys")
	}
	inc := []string{"-I", filepath.Join(mod, "inc")}
	for _, c := range []struct {
		what   string
		flags  []string
		change func()
		same   bool
	}{
		{"an unrelated file beside the source", nil, func() { write("prog/unrelated.h", "// changed\n") }, true},
		{"a header of cuda/include the program cannot reach", nil, func() { write("mod/cuda/include/curand_kernel.h", "// changed\n") }, true},
		{"the source", nil, func() {
			write("prog/p.cu", "#include \"a.h\"\n#include <used.h>\n#include <flagged.h>\nint main() { return 1; }\n")
		}, false},
		{"a header two includes down", nil, func() { write("prog/c.h", "// changed\n") }, false},
		{"a file a flag names", []string{"--device-ptx", ptx}, func() { write("prog/dev.ptx", "// changed\n") }, false},
		{"a header in a -I folder", inc, func() { write("mod/inc/flagged.h", "// changed\n") }, false},
		{"a header of cuda/include the source includes", nil, func() { write("mod/cuda/include/used.h", "#include <stdio.h>\n// changed\n") }, false},
		{"a header cuda_runtime.h includes", nil, func() { write("mod/cuda/include/rt_api.h", "// changed\n") }, false},
		{"a system header two includes down", nil, func() { write("sys/bits/io.h", "// changed\n") }, false},
		{"the C runtime (the objects' key stays)", nil, func() { write("mod/cuda/shim/rt.c", "int rt, changed;\n") }, false},
		{"the compiler driver", nil, func() { write("mod/cuda/cc/cc.go", "package cc // changed\n") }, false},
		{"the cc command", nil, func() { write("mod/cmd/warpsim/cc.go", "package main // changed\n") }, false},
		{"an include of a macro: then every header counts", nil, func() { write("prog/c.h", "#include HEADER\n") }, false},
		{"a header it cannot reach, after an include of a macro", nil, func() { write("mod/cuda/include/curand_kernel.h", "// changed again\n") }, false},
	} {
		before, cbefore := key(c.flags...), compileKey(c.flags...)
		c.change()
		if after := key(c.flags...); (after == before) != c.same {
			t.Errorf("%s: key changed %v, want %v", c.what, after != before, !c.same)
		}
		// The objects' key follows every input but the C runtime.
		csame := c.same || strings.HasPrefix(c.what, "the C runtime")
		if after := compileKey(c.flags...); (after == cbefore) != csame {
			t.Errorf("%s: the objects' key changed %v, want %v", c.what, after != cbefore, !csame)
		}
	}
}

// TestProgramKeyHeadersOfTheTree checks, on the repository's own programs,
// that a key holds the headers of cuda/include a program can reach and not
// the others: a program without cuRAND is not rebuilt when curand_kernel.h
// changes, a cuRAND program is, and both when cuda_runtime.h does.
func TestProgramKeyHeadersOfTheTree(t *testing.T) {
	NeedClang(t)
	k, err := defaultKeyer()
	if err != nil {
		t.Fatal(err)
	}
	const curand, runtime = "module/cuda/include/curand_kernel.h", "module/cuda/include/cuda_runtime.h"
	for _, c := range []struct {
		src        string
		wantCurand bool
	}{
		{"../../testdata/programs/vector_add.cu", false},
		{"../../testdata/programs/histogram.cu", false},
		{"../../testdata/curand/curand_api.cu", true},
		{"../../testdata/programs4/curand_states.cu", true},
	} {
		_, files, err := k.programKeyFiles(c.src, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		has := map[string]bool{}
		for _, f := range files {
			has[f] = true
		}
		if !has[runtime] {
			t.Errorf("%s: the key lacks %s", c.src, runtime)
		}
		if has[curand] != c.wantCurand {
			t.Errorf("%s: %s in the key %v, want %v", c.src, curand, has[curand], c.wantCurand)
		}
		if has["module/cuda/include/..."] {
			t.Errorf("%s: keyed on every header (an #include of a macro reached)", c.src)
		}
	}
}

// TestCachedProgramRelinksOnRuntimeChange checks the two parts of a
// cached program: a new C runtime (another digest of the runtime object,
// as a change to cuda/shim makes) links the kept objects again instead of
// compiling them, and the program linked from the objects kept in the
// cache is byte for byte the one linked when they were made (that Build,
// which compiles and links in one temporary folder, makes the same program
// from the same objects is cuda/cc's TestLongPCHOutputIdentical).
func TestCachedProgramRelinksOnRuntimeChange(t *testing.T) {
	NeedClang(t)
	k, err := defaultKeyer()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	d, err := cc.NewDriver(&stderr)
	if err != nil {
		t.Fatal(err)
	}
	d.WarpsimBin = "warpsim"
	d.NoPCH = true // one compile of each pass here: a precompiled header would cost more than it saves
	src := filepath.Join(t.TempDir(), "tiny.cu")
	if err := os.WriteFile(src, []byte("__global__ void k(int *p) { p[threadIdx.x] = 1; }\nint main() { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opt, err := cc.ParseArgs([]string{src})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	compiles := 0
	failed := func(err error) error { return fmt.Errorf("%v\n%s", err, stderr.String()) }
	build := func(rtSum string) []byte {
		t.Helper()
		before := objectFolders(t, root)
		path, err := cachedProgram(root, k, d, opt, src, nil, rtSum, failed)
		if err != nil {
			t.Fatal(err)
		}
		compiles += objectFolders(t, root) - before
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := build("runtime A")
	again := build("runtime A")
	relinked := build("runtime B")
	if compiles != 1 {
		t.Errorf("the objects were compiled %d times for two runtimes, want once", compiles)
	}
	if !bytes.Equal(first, again) {
		t.Error("the cached program differs from the one first built")
	}
	if entries, _ := os.ReadDir(root); len(entries) != 3 {
		t.Errorf("the cache holds %d entries, want 3 (the objects, a program for each runtime)", len(entries))
	}
	if !bytes.Equal(relinked, first) {
		t.Error("the program linked again from the cached objects differs from the one first linked")
	}
}

// objectFolders counts the cache entries that hold a program's objects.
func objectFolders(t *testing.T, root string) int {
	t.Helper()
	n := 0
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(root, e.Name(), objectsMarker)); err == nil {
			n++
		}
	}
	return n
}

// TestCachedBuildFollowsRuntime checks, through the cache the tests use
// for what a whole build makes (CachedBuild: ccOutcome's exit status and
// messages, cachedBuildDir's folders of several steps), that a change to
// any file of the C runtime (cuda/shim: its C sources and its headers)
// builds the entry again, and that CachedCompile's entries (PTX, no link)
// are kept across it. Each run of the package makes a fresh keyer, as a
// new test binary does.
func TestCachedBuildFollowsRuntime(t *testing.T) {
	clang := NeedClang(t)
	root := t.TempDir()
	write := func(name, s string) string {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("mod/go.mod", "module m\n")
	write("mod/cmd/warpsim/cc.go", "package main\n")
	write("mod/cuda/cc/cc.go", "package cc\n")
	write("mod/cuda/shim/warpsim_rt.c", "int rt;\n")
	write("mod/cuda/shim/warpsim_rt_errors.h", "// errors\n")
	write("mod/cuda/include/cuda_runtime.h", "// api\n")
	src := write("prog/p.cu", "int main() {}\n")
	mod, cache := filepath.Join(root, "mod"), filepath.Join(root, "cache")
	builds := map[string]int{}
	// get is one package run's lookup of src's entry for flags (its first
	// word names what is kept, as ccOutcome's and cachedBuildDir's do).
	get := func(withRuntime bool, flags ...string) {
		t.Helper()
		k := newKeyer(mod, clang, []string{filepath.Join(root, "sys")})
		_, err := cachedBuildIn(cache, k, src, flags, withRuntime, func(dir string) (string, error) {
			builds[flags[0]]++
			out := filepath.Join(dir, "p")
			return out, os.WriteFile(out, []byte("built\n"), 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	runAll := func() {
		t.Helper()
		get(true, "--test-outcome", "-arch=sm_90a")
		get(true, "--test-steps", "step", "-dc @/p.o")
		get(false, "--test-compile", "-ptx")
	}
	want := func(when string, outcome, steps, compile int) {
		t.Helper()
		if builds["--test-outcome"] != outcome || builds["--test-steps"] != steps || builds["--test-compile"] != compile {
			t.Errorf("%s: built outcome %d, steps %d, PTX %d times; want %d, %d, %d", when,
				builds["--test-outcome"], builds["--test-steps"], builds["--test-compile"], outcome, steps, compile)
		}
	}
	runAll()
	want("first run", 1, 1, 1)
	runAll()
	want("second run, nothing changed", 1, 1, 1)
	write("mod/cuda/shim/warpsim_rt.c", "int rt, changed;\n")
	runAll()
	want("after a change to the runtime's C source", 2, 2, 1)
	write("mod/cuda/shim/warpsim_rt_errors.h", "// errors, changed\n")
	runAll()
	want("after a change to a header of the runtime", 3, 3, 1)
	write("mod/cuda/shim/warpsim_rt_new.c", "int added;\n")
	runAll()
	want("after a file added to the runtime", 4, 4, 1)
	runAll()
	want("a run after that, nothing changed", 4, 4, 1)
}
