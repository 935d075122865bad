package ir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestLowerCorpus lowers every valid PTX file of the repository's corpora
// (the parser's nvcc and clang files and the conformance suite):
// lowering must succeed or fail only with "not supported yet" errors.
func TestLowerCorpus(t *testing.T) {
	var files []string
	for _, glob := range []string{"../../ptx/testdata/clang/*.ptx", "../../ptx/testdata/nvcc/*.ptx", "../../testdata/conformance/*/*.ptx"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	for _, f := range files {
		t.Run(strings.TrimPrefix(f, "../../"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ptx.Parse(filepath.Base(f), src)
			if err != nil {
				t.Skipf("does not parse: %v", err)
			}
			_, err = Lower(m, func(name string) bool { return strings.HasPrefix(name, "__nv_") })
			if err == nil {
				return
			}
			for _, e := range err.(ptx.ErrorList) {
				if !strings.Contains(e.Msg, "not supported yet") {
					t.Errorf("%v", e)
				} else {
					t.Logf("%v", e)
				}
			}
		})
	}
}
