package metrics

import (
	"encoding/json"
	"fmt"
	"io"
)

// TraceGrid is one grid on the simulated timeline, for WriteChromeTrace.
type TraceGrid struct {
	Name       string
	Grid       [3]uint32
	Block      [3]uint32
	FromDevice bool
	Parent     int // index in the list of the grid that launched it; -1 for a host launch
	Timing     *Timing
}

// traceEvent is one event of Chrome's trace-event format (the JSON that
// chrome://tracing and Perfetto open): "X" events are spans with a start
// and a duration in microseconds; "M" events name processes and threads.
type traceEvent struct {
	Name string         `json:"name"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

// WriteChromeTrace writes the grids' timeline as a Chrome trace: a row of
// kernels (host launches and device-launched child grids), and one row per
// SM with the blocks it ran. Times are the simulated clock's, in µs.
func WriteChromeTrace(w io.Writer, device string, grids []TraceGrid) error {
	const pid = 1
	ev := []traceEvent{
		{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]any{"name": device + " (simulated)"}},
		{Name: "thread_name", Ph: "M", Pid: pid, Tid: 0, Args: map[string]any{"name": "kernels"}},
		{Name: "thread_name", Ph: "M", Pid: pid, Tid: 1, Args: map[string]any{"name": "device-launched grids"}},
	}
	sms := map[int]bool{}
	for i, g := range grids {
		t := g.Timing
		if t == nil || t.ClockHz == 0 {
			return fmt.Errorf("grid %d (%s) has no timing: run with --mode timing", i, g.Name)
		}
		us := func(c uint64) float64 { return float64(c) / t.ClockHz * 1e6 }
		tid := 0
		if g.FromDevice {
			tid = 1
		}
		args := map[string]any{"grid": g.Grid, "block": g.Block, "cycles": t.Cycles}
		if g.Parent >= 0 {
			args["parent"] = g.Parent
		}
		if t.Sampled {
			args["sampled"] = true
		}
		ev = append(ev, traceEvent{Name: g.Name, Ph: "X", Ts: us(t.StartCycle), Dur: us(t.Cycles), Pid: pid, Tid: tid, Args: args})
		for _, b := range t.Blocks {
			sms[b.SM] = true
			ev = append(ev, traceEvent{Name: fmt.Sprintf("%s block %d", g.Name, b.Block), Ph: "X",
				Ts: us(t.StartCycle + b.Start), Dur: us(b.End - b.Start), Pid: pid, Tid: 100 + b.SM})
		}
	}
	for sm := range sms {
		ev = append(ev, traceEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: 100 + sm, Args: map[string]any{"name": fmt.Sprintf("SM %d", sm)}})
	}
	return json.NewEncoder(w).Encode(map[string]any{"traceEvents": ev, "displayTimeUnit": "ns"})
}
