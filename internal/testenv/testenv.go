// Package testenv is what tests need from the machine they run on: one helper
// per outside tool, so that every test decides the same way whether a missing
// tool is a skip (a developer's machine without it) or a failure (CI, which
// installs it, sets CI=true, and WARPSIM_REQUIRE_<TOOL>=1 asks for the same
// anywhere).
package testenv

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/cuda/cc"
)

// Required reports whether a missing tool must fail the test: under CI, or
// when WARPSIM_REQUIRE_<TOOL> (the tool's name in capitals) is set.
func Required(tool string) bool {
	return os.Getenv("CI") != "" || os.Getenv("WARPSIM_REQUIRE_"+strings.ToUpper(tool)) != ""
}

// Missing ends the test for a tool that is not installed: a failure where the
// tool is required, a skip that says how to install it elsewhere.
func Missing(t testing.TB, tool, install string) {
	t.Helper()
	if Required(tool) {
		t.Fatalf("%s is not installed (%s), and this environment requires it (CI or WARPSIM_REQUIRE_%s)",
			tool, install, strings.ToUpper(tool))
	}
	t.Skipf("%s is not installed (%s); skipping", tool, install)
}

// NeedClang returns the clang that `warpsim cc` uses, or ends the test: a
// lookup that fails for another reason than absence (a bad WARPSIM_CLANG) is
// a failure everywhere.
func NeedClang(t testing.TB) string {
	t.Helper()
	p, err := cc.FindClang()
	switch {
	case errors.Is(err, cc.ErrNoClang):
		Missing(t, "clang", "apt-get install clang-22")
	case err != nil:
		t.Fatal(err)
	}
	return p
}

// Long marks a test that runs a workload at the H100's recorded size for
// minutes. It runs where WARPSIM_LONG=1 is set — CI's long-tests step sets
// it — so that `go test ./...` stays quick on a developer's machine; elsewhere
// it is skipped, saying how to run it.
func Long(t testing.TB) {
	t.Helper()
	if os.Getenv("WARPSIM_LONG") == "" {
		t.Skip("a long test (minutes of simulation): WARPSIM_LONG=1 runs it, as CI does")
	}
}
