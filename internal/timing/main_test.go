package timing_test

import (
	"os"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// The package's heavy tests run two at a time (-parallel, GOMAXPROCS): the
// TestLong* tests (WARPSIM_LONG=1) call t.Parallel after testenv.Long, and
// the plain tests of about a CPU second or more call it first ("the heavy
// plain tests overlap"). Go runs every other top-level test first, one at a
// time, then these, so that a test of one-block launches, which keeps one
// core busy (TestLongAtomicAggregationMicrobenchmarks, the pipe and wmma
// tables, TestRowGPUMicrobenchmarks' one-SM rows), runs beside another
// instead of leaving the second core idle once the other packages of
// `go test ./...` are done (docs/testing.md, nineteenth round). No result
// depends on it: a simulation's cycles do not depend on what else the host
// runs, and the simulations tests share (simulateShared, simulateRowsShared,
// sharedReduce) are made once under a sync.Once. Tests that count the
// process's allocations or goroutines (TestTimingHotLoopAllocs,
// TestParallelCrewEndsWithGrid) and the cheap ones stay sequential.
func TestMain(m *testing.M) {
	testenv.TuneGC()
	os.Exit(m.Run())
}
