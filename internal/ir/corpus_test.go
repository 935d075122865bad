package ir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestLowerCorpus parses and lowers every PTX file of the repository's
// corpora (the parser's nvcc and clang files and the conformance suite): each
// is PTX a real compiler emitted, so each must parse and lower without error.
func TestLowerCorpus(t *testing.T) {
	var files []string
	for _, glob := range []string{"../../ptx/testdata/clang/*.ptx", "../../ptx/testdata/nvcc/*.ptx", "../../testdata/conformance/*/*.ptx"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files found: the globs no longer match the repository's layout")
	}
	for _, f := range files {
		t.Run(strings.TrimPrefix(f, "../../"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ptx.Parse(filepath.Base(f), src)
			if err != nil {
				t.Fatalf("does not parse: %v", err)
			}
			if _, err := Lower(m, func(name string) bool { return strings.HasPrefix(name, "__nv_") }); err != nil {
				t.Errorf("lower: %v", err)
			}
		})
	}
}
