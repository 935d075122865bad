package warpsim_test

import (
	"os"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

func TestMain(m *testing.M) {
	testenv.TuneGC()
	code := m.Run()
	testenv.CleanPrograms() // TestConformanceClangPTXUpToDate's
	os.Exit(code)
}
