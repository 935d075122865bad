package warpsim_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
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

// backEndParserImports are the back end's files that still import the
// parser, each for ptx.Space* and ptx.F16-style names that ptxtype holds
// too. They are the last ones (2026-11-29), in a package this round's
// review could not edit; the test fails when one of them stops importing
// it, so that the list only shrinks.
var backEndParserImports = map[string]bool{
	"internal/timing/constbank.go":  true,
	"internal/timing/quantum.go":    true,
	"internal/timing/scoreboard.go": true,
}

// TestBackEndImportsNoParser: no non-test file of a back-end package
// imports package ptx (the parser) but those listed in
// backEndParserImports, and each of those still does.
func TestBackEndImportsNoParser(t *testing.T) {
	const parserPath = "github.com/warpsim/warpsim/ptx"
	fset := token.NewFileSet()
	var found []string
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
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == parserPath {
					found = append(found, path)
				}
			}
		}
	}
	sort.Strings(found)
	seen := map[string]bool{}
	for _, path := range found {
		seen[path] = true
		if !backEndParserImports[path] {
			t.Errorf("%s imports the parser (%s): name the types and spaces through ptx/ptxtype", path, parserPath)
		}
	}
	for path := range backEndParserImports {
		if !seen[path] {
			t.Errorf("%s no longer imports the parser: take it off backEndParserImports", path)
		}
	}
}
