package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProgramKeyFollowsInputs checks that the cache key changes with each
// input of a build and with nothing else.
func TestProgramKeyFollowsInputs(t *testing.T) {
	NeedClang(t)
	dir := t.TempDir()
	write := func(name, s string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	src := write("p.cu", "#include \"a.h\"\n#include <cstdio>\nint main() {}\n")
	write("a.h", "#include \"sub/b.h\"\n")
	write("sub/b.h", "#include \"../c.h\"\n")
	write("c.h", "// c\n")
	write("unrelated.h", "// not included\n")
	ptx := write("dev.ptx", "// ptx\n")
	key := func(flags ...string) string {
		t.Helper()
		k, err := programKey(src, flags)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	if key() != key() {
		t.Fatal("the key of one build differs between two calls")
	}
	if key() == key("-rdc=true") {
		t.Error("a flag does not change the key")
	}
	for _, c := range []struct {
		what   string
		flags  []string
		change func()
		same   bool
	}{
		{"an unrelated file", nil, func() { write("unrelated.h", "// changed\n") }, true},
		{"the source", nil, func() { write("p.cu", "#include \"a.h\"\n#include <cstdio>\nint main() { return 1; }\n") }, false},
		{"a header two includes down", nil, func() { write("c.h", "// changed\n") }, false},
		{"a file a flag names", []string{"--device-ptx", ptx}, func() { write("dev.ptx", "// changed\n") }, false},
	} {
		before := key(c.flags...)
		c.change()
		if after := key(c.flags...); (after == before) != c.same {
			t.Errorf("%s: key changed %v, want %v", c.what, after != before, !c.same)
		}
	}
}
