package warpsim_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestEveryVariableDocumented: every WARPSIM_* variable named in a string
// of the tree's Go, C and shell sources (the CLI, the runtime, the C
// runtime, the tests) is in docs/environment.md, the one table of them
// (issue 15). A name built from a prefix ("WARPSIM_REQUIRE_" + a tool) is
// looked for as that prefix. testdata/ is left out: its scripts run on the
// GPU's machine.
func TestEveryVariableDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("docs", "environment.md"))
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`"(WARPSIM_[A-Z0-9_]*)"`)
	missing := map[string][]string{}
	seen := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == ".git" || strings.HasPrefix(n, ".") && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".c", ".h", ".sh":
		default:
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range name.FindAllStringSubmatch(string(src), -1) {
			seen++
			if !strings.Contains(string(doc), m[1]) {
				missing[m[1]] = append(missing[m[1]], path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("only %d WARPSIM_* names found in the sources", seen)
	}
	var names []string
	for n := range missing {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Errorf("%s (read in %s) is not in docs/environment.md", n, strings.Join(missing[n], ", "))
	}
}
