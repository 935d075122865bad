package warpsim_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// backEnd are the packages below internal/ir that run lowered code: they
// name PTX's types and state spaces through the leaf package ptx/ptxtype,
// never through the parser (docs/architecture.md, "Package map").
var backEnd = []string{
	"internal/engine", "internal/scalar", "internal/libdevice", "internal/tensor", "internal/printf",
	"internal/tmap", "internal/timing", "internal/sanitize", "internal/hostmem", "internal/devhook",
}

// TestBackEndImportsNoParser: no non-test file of a back-end package
// imports package ptx (the parser). The last three (internal/timing's
// constbank.go, quantum.go and scoreboard.go) moved to ptxtype on
// 2026-11-29; there is no list of exceptions.
func TestBackEndImportsNoParser(t *testing.T) {
	const parserPath = "github.com/warpsim/warpsim/ptx"
	fset := token.NewFileSet()
	scanned := 0
	for _, dir := range backEnd {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			path := filepath.ToSlash(filepath.Join(dir, name))
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			scanned++
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == parserPath {
					t.Errorf("%s imports the parser (%s): name the types and spaces through ptx/ptxtype", path, parserPath)
				}
			}
		}
	}
	if scanned < len(backEnd) {
		t.Fatalf("scanned %d files in %d packages: the back end's folders moved", scanned, len(backEnd))
	}
}
