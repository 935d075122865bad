package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// everyProgramKeyFile holds the digest of the warpsim files that are in every
// test program's cache key (the compiler's sources and the C runtime), with
// a note for the reader.
var everyProgramKeyFile = filepath.Join("testdata", "every-program-key.txt")

// TestEveryProgramKeyAcknowledged fails when a commit changes a file that is
// in every test program's cache key — the cuda tree outside cuda/include,
// cmd/warpsim/cc.go, cuda/shim — until the commit also writes the new digest
// into testdata/every-program-key.txt. Such a change makes CI compile every
// CUDA program of the tests again (some 400 with clang; the twenty-second
// round's first CI took 1,802 s instead of 1,317 for an edit of cc.go that
// changed no program), so it should be made on purpose, said in the commit
// and the CHANGELOG, and not mixed into unrelated work (CONTRIBUTING.md).
func TestEveryProgramKeyAcknowledged(t *testing.T) {
	if startModule == "" {
		t.Fatal("no go.mod at or above the test's folder")
	}
	k := newKeyer(startModule, "", nil)
	h := sha256.New()
	if err := k.hashCompilerSources(h); err != nil {
		t.Fatal(err)
	}
	if err := k.hashTree(h, k.cudaShim()); err != nil {
		t.Fatal(err)
	}
	got := hex.EncodeToString(h.Sum(nil))
	b, err := os.ReadFile(everyProgramKeyFile)
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			want = line
		}
	}
	if got != want {
		t.Errorf("the files in every test program's cache key changed (digest %s, %s says %s): CI will "+
			"compile every test program again. If that is meant, write the new digest into %s and say so in "+
			"the commit and CHANGELOG.md; if not, undo the change to cuda/ (outside cuda/include) or "+
			"cmd/warpsim/cc.go", got, everyProgramKeyFile, want, everyProgramKeyFile)
	}
}
