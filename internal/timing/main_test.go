package timing_test

import (
	"os"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// The TestLong* tests (WARPSIM_LONG=1) call t.Parallel after testenv.Long:
// they run after every plain test, two at a time (-parallel, GOMAXPROCS),
// so that a long test of one-block launches, which keeps one core busy
// (TestLongAtomicAggregationMicrobenchmarks, the pipe and wmma tables),
// runs beside another instead of leaving CI's second core idle at the end
// of the package. No result depends on it: a simulation's cycles do not
// depend on what else the host runs, and the simulations they share
// (simulateShared, sharedReduce) are made once under a sync.Once.
func TestMain(m *testing.M) {
	testenv.TuneGC()
	os.Exit(m.Run())
}
