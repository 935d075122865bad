package timing_test

import (
	"fmt"
	"sync"
	"testing"
)

// A microbenchmark table's plain test runs a subset of its rows, and its
// long twin runs every row; CI's WARPSIM_LONG=1 step runs both in one
// process. simulateRowsShared makes the plain subset's simulation once per
// package run: the rows the plain test picks are always simulated as one
// sequence on a device of their own (the plain test's), and the long test's
// other rows as a second sequence on another device, so each row's result is
// a function of the table's code and recording alone, never of which test
// ran first or of -run. Only the rows' results are kept, never a device.

// rowsRun is one shared simulation of a table's plain rows.
type rowsRun struct {
	once sync.Once
	done bool // false after the once: the simulation failed in the test that made it
	vals any
}

var (
	rowsMu   sync.Mutex
	rowsRuns = map[string]*rowsRun{}
)

// simulateRowsShared returns sim's result for each of rows, in rows' order.
// The rows plain picks are simulated by sim in one call, shared with every
// other test of the package that asks for the same table (key) and the same
// plain rows; the others, if any, in a second call of their own. sim runs a
// sequence of rows on a fresh device and returns one result a row, in order;
// it may stop the test (t.Fatal) when the simulation fails, and must not
// log: what a test reports it reports from the results.
func simulateRowsShared[R, V any](t *testing.T, key string, rows []R, plain func(R) bool, sim func(t *testing.T, rows []R) []V) []V {
	t.Helper()
	var p, rest []R
	for _, r := range rows {
		if plain(r) {
			p = append(p, r)
		} else {
			rest = append(rest, r)
		}
	}
	// The key names the rows themselves: two tests share a run only if they
	// simulate the same sequence.
	k := fmt.Sprintf("%s %+v", key, p)
	rowsMu.Lock()
	run := rowsRuns[k]
	if run == nil {
		run = &rowsRun{}
		rowsRuns[k] = run
	}
	rowsMu.Unlock()
	run.once.Do(func() {
		v := sim(t, p)
		if len(v) != len(p) {
			t.Fatalf("%s: %d results for %d rows", key, len(v), len(p))
		}
		run.vals, run.done = v, true
	})
	if !run.done {
		t.Fatalf("%s: the shared simulation of the plain rows failed in the test that made it", key)
	}
	pv := run.vals.([]V)
	var rv []V
	if len(rest) > 0 {
		if rv = sim(t, rest); len(rv) != len(rest) {
			t.Fatalf("%s: %d results for %d rows", key, len(rv), len(rest))
		}
	}
	out := make([]V, 0, len(rows))
	for _, r := range rows {
		if plain(r) {
			out, pv = append(out, pv[0]), pv[1:]
		} else {
			out, rv = append(out, rv[0]), rv[1:]
		}
	}
	return out
}

// TestSimulateRowsSharedMergesAndShares checks simulateRowsShared's
// plumbing with a stand-in simulation that numbers the rows it ran: the
// plain rows are simulated once for every test asking with the same rows,
// the others on their own run each time, and each result lands on its row.
func TestSimulateRowsSharedMergesAndShares(t *testing.T) {
	calls := map[string]int{}
	sim := func(_ *testing.T, rows []int) []string {
		calls[fmt.Sprint(rows)]++
		var out []string
		for i, r := range rows {
			out = append(out, fmt.Sprintf("%d#%d", r, i))
		}
		return out
	}
	even := func(r int) bool { return r%2 == 0 }
	key := fmt.Sprintf("stand-in %p", t) // this test's own runs
	for _, c := range []struct {
		rows []int
		want string
	}{
		{[]int{0, 2, 4}, "[0#0 2#1 4#2]"},
		{[]int{0, 1, 2, 3, 4}, "[0#0 1#0 2#1 3#1 4#2]"},
		{[]int{0, 1, 2, 3, 4}, "[0#0 1#0 2#1 3#1 4#2]"},
		{[]int{2, 4}, "[2#0 4#1]"}, // other plain rows: a run of their own
	} {
		if got := fmt.Sprint(simulateRowsShared(t, key, c.rows, even, sim)); got != c.want {
			t.Errorf("rows %v: %s, want %s", c.rows, got, c.want)
		}
	}
	want := map[string]int{"[0 2 4]": 1, "[1 3]": 2, "[2 4]": 1}
	if fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Errorf("simulations %v, want %v", calls, want)
	}
}
