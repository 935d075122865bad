package ir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// FuzzLower checks that lowering never panics on anything the parser
// accepts (even partially).
func FuzzLower(f *testing.F) {
	for _, glob := range []string{"../../ptx/testdata/*/*.ptx", "../../testdata/conformance/*/*.ptx", "../../testdata/triton/*/*.ptx", "../../testdata/ptx/scopes/cases/*.ptx"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil && len(src) < 1<<16 {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, _ := ptx.Parse("fuzz.ptx", src)
		if m == nil {
			return
		}
		Lower(m, func(string) bool { return true })
	})
}
