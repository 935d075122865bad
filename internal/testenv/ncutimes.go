package testenv

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// NCUTime is one kernel launch Nsight Compute timed on a GPU: a row of a
// times.tsv that testdata/timing/modern/summarize.py wrote from ncu's raw
// CSV.
type NCUTime struct {
	Workload string  // "triton/<case>/<arch>" or a program's name
	Launch   int     // the launch's index in the workload
	Kernel   string  // as ncu names it
	NS       float64 // gpu__time_duration.sum, the median of the runs
}

// ReadNCUTimes reads a times.tsv (tab-separated: workload, launch, kernel,
// grid, block, ns, runs; lines starting with # are comments).
func ReadNCUTimes(path string) ([]NCUTime, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []NCUTime
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) < 6 {
			return nil, fmt.Errorf("%s:%d: %d columns, want 7", path, n, len(c))
		}
		launch, err1 := strconv.Atoi(c[1])
		ns, err2 := strconv.ParseFloat(c[5], 64)
		if err1 != nil || err2 != nil || ns <= 0 {
			return nil, fmt.Errorf("%s:%d: bad launch or time", path, n)
		}
		rows = append(rows, NCUTime{Workload: c[0], Launch: launch, Kernel: c[2], NS: ns})
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	return rows, sc.Err()
}

// TimeErrors compares simulated times with a GPU's, row by row: it returns
// the mean absolute relative error and the rows past bound, each described.
func TimeErrors(names []string, got, want []float64, bound float64) (mean float64, over []string) {
	for i := range got {
		e := (got[i] - want[i]) / want[i]
		mean += math.Abs(e)
		if math.Abs(e) > bound {
			over = append(over, fmt.Sprintf("%s: %.0f ns, the GPU's %.0f (%+.1f%%)", names[i], got[i], want[i], 100*e))
		}
	}
	return mean / float64(len(got)), over
}
