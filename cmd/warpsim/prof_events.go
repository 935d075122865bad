package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/metrics"
)

// profEvent is one of nvprof's events (raw counters) that warpsim counts.
type profEvent struct {
	name  string
	count func(c *metrics.Counters) uint64
}

// profEvents are the nvprof events warpsim has, in nvprof's order of
// listing; each is one of the engine's counters.
var profEvents = []profEvent{
	{"branch", func(c *metrics.Counters) uint64 { return c.Branch }},
	{"divergent_branch", func(c *metrics.Counters) uint64 { return c.DivergentBranch }},
	{"inst_executed", func(c *metrics.Counters) uint64 { return c.InstExecuted }},
	{"thread_inst_executed", func(c *metrics.Counters) uint64 { return c.ThreadInstExecuted }},
	{"gld_request", func(c *metrics.Counters) uint64 { return c.GldRequests }},
	{"gst_request", func(c *metrics.Counters) uint64 { return c.GstRequests }},
	{"shared_load", func(c *metrics.Counters) uint64 { return c.SharedLoadRequests }},
	{"shared_store", func(c *metrics.Counters) uint64 { return c.SharedStoreRequests }},
	{"shared_ld_transactions", func(c *metrics.Counters) uint64 { return c.SharedLoadTransactions }},
	{"shared_st_transactions", func(c *metrics.Counters) uint64 { return c.SharedStoreTransactions }},
	{"shared_ld_bank_conflict", func(c *metrics.Counters) uint64 { return c.SharedLdBankConflict }},
	{"shared_st_bank_conflict", func(c *metrics.Counters) uint64 { return c.SharedStBankConflict }},
	{"warps_launched", func(c *metrics.Counters) uint64 { return c.WarpsLaunched }},
	{"sm_cta_launched", func(c *metrics.Counters) uint64 { return c.BlocksLaunched }},
}

// eventNames lists the supported events, for help and errors.
func eventNames() string {
	var n []string
	for _, e := range profEvents {
		n = append(n, e.name)
	}
	return strings.Join(n, ",")
}

// parseEvents reads --events: a comma-separated list, or all. An unknown
// name is an error naming it and the events there are.
func parseEvents(list string) ([]profEvent, error) {
	if strings.TrimSpace(list) == "all" {
		return profEvents, nil
	}
	var out []profEvent
	var unknown []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		found := false
		for _, e := range profEvents {
			if e.name == name {
				out, found = append(out, e), true
				break
			}
		}
		if !found {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("--events: unknown event %s; warpsim counts %s (or all)", strings.Join(unknown, ", "), eventNames())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--events: no event named; warpsim counts %s (or all)", eventNames())
	}
	return out, nil
}

// eventRow is one kernel's event over its invocations.
type eventRow struct {
	name                 string
	min, max, total, avg uint64
}

type eventKernel struct {
	name        string
	invocations int
	rows        []eventRow
}

// summarizeEvents folds the launches' counters per kernel, in first-launch
// order. A folded record of device-launched grids stands for Calls()
// identical invocations.
func summarizeEvents(p *cudart.Profile, evs []profEvent) []*eventKernel {
	var ks []*eventKernel
	index := map[string]*eventKernel{}
	for i := range p.Launches {
		l := &p.Launches[i]
		k := index[l.Kernel]
		if k == nil {
			k = &eventKernel{name: l.Kernel}
			for _, e := range evs {
				k.rows = append(k.rows, eventRow{name: e.name, min: math.MaxUint64})
			}
			index[l.Kernel] = k
			ks = append(ks, k)
		}
		n := l.Calls()
		k.invocations += n
		for j, e := range evs {
			v := e.count(&l.Counters)
			r := &k.rows[j]
			r.min, r.max = min(r.min, v), max(r.max, v)
			r.total += v * uint64(n)
		}
	}
	for _, k := range ks {
		for j := range k.rows {
			k.rows[j].avg = k.rows[j].total / uint64(k.invocations)
		}
	}
	return ks
}

// writeEventTable prints nvprof's --events table: per kernel, each event's
// minimum, maximum, average and total over its invocations.
func writeEventTable(w io.Writer, tag string, p *cudart.Profile, evs []profEvent, csv bool) error {
	ks := summarizeEvents(p, evs)
	bw := bufio.NewWriter(w)
	if csv {
		fmt.Fprintln(bw, `"Device","Kernel","Invocations","Event Name","Min","Max","Avg","Total"`)
		for _, k := range ks {
			for _, r := range k.rows {
				fmt.Fprintf(bw, "%q,%q,%d,%q,%d,%d,%d,%d\n", p.Device+" (0)", k.name, k.invocations, r.name, r.min, r.max, r.avg, r.total)
			}
		}
		return bw.Flush()
	}
	fmt.Fprintf(bw, "%s Event result:\n", tag)
	fmt.Fprintf(bw, "%s%42s%12s%12s%12s%12s\n", "Invocations", "Event Name", "Min", "Max", "Avg", "Total")
	fmt.Fprintf(bw, "Device %q\n", p.Device+" (0)")
	for _, k := range ks {
		fmt.Fprintf(bw, "    Kernel: %s\n", k.name)
		for _, r := range k.rows {
			fmt.Fprintf(bw, "%11d%42s%12d%12d%12d%12d\n", k.invocations, r.name, r.min, r.max, r.avg, r.total)
		}
	}
	return bw.Flush()
}

// writeProfTrace writes the profile's grids as a Chrome trace. Each grid
// is placed where the runtime's simulated clock put it (its record's
// start, on the streams' timeline), its blocks relative to it. Launches
// that faulted have no timing and are left out.
func writeProfTrace(path string, p *cudart.Profile) error {
	var grids []metrics.TraceGrid
	host := -1
	for i := range p.Launches {
		l := &p.Launches[i]
		t := l.Timing
		if t == nil || t.ClockHz == 0 {
			continue
		}
		moved := *t
		moved.StartCycle = uint64(float64(l.StartNS) * t.ClockHz / 1e9)
		name := l.Kernel
		parent := -1
		if l.FromDevice {
			parent = host
			if l.Calls() > 1 {
				name = fmt.Sprintf("%s [×%d]", l.Kernel, l.Calls())
			}
		} else {
			host = len(grids)
		}
		grids = append(grids, metrics.TraceGrid{Name: name, Grid: l.Grid, Block: l.Block, FromDevice: l.FromDevice, Parent: parent, Timing: &moved})
	}
	if len(grids) == 0 {
		return fmt.Errorf("no kernel ran to completion under the timing model")
	}
	var b bytes.Buffer
	if err := metrics.WriteChromeTrace(&b, p.Device, grids); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
