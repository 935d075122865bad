package metrics

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Invocation is the metrics of one kernel launch.
type Invocation struct {
	Kernel  string // as reports show it: the demangled name
	Metrics []Metric
}

// Summary is one kernel's metrics over all its invocations, as nvprof's
// --metrics table shows them.
type Summary struct {
	Kernel      string
	Invocations int
	Rows        []Row
}

// Row is one metric's minimum, maximum and average over a kernel's
// invocations.
type Row struct {
	*Def
	Min, Max, Avg float64
	Available     bool
	Reason        string
}

// Summarize groups invocations by kernel, in the order kernels first ran,
// and aggregates each metric (the metrics of a kernel's first invocation,
// in their order). A metric unavailable in any invocation is unavailable.
func Summarize(invs []Invocation) []Summary {
	var out []Summary
	index := map[string]int{}
	for _, inv := range invs {
		i, ok := index[inv.Kernel]
		if !ok {
			i = len(out)
			index[inv.Kernel] = i
			s := Summary{Kernel: inv.Kernel}
			for _, m := range inv.Metrics {
				s.Rows = append(s.Rows, Row{Def: m.Def, Min: math.Inf(1), Max: math.Inf(-1), Available: true})
			}
			out = append(out, s)
		}
		s := &out[i]
		s.Invocations++
		for r := range s.Rows {
			row := &s.Rows[r]
			m, found := find(inv.Metrics, row.Def)
			if !found || !m.Available {
				row.Available = false
				if found && row.Reason == "" {
					row.Reason = m.Reason
				}
				continue
			}
			row.Min = math.Min(row.Min, m.Value)
			row.Max = math.Max(row.Max, m.Value)
			row.Avg += m.Value
		}
	}
	for i := range out {
		for r := range out[i].Rows {
			row := &out[i].Rows[r]
			if !row.Available {
				row.Min, row.Max, row.Avg = 0, 0, 0
				continue
			}
			row.Avg /= float64(out[i].Invocations)
		}
	}
	return out
}

func find(ms []Metric, d *Def) (Metric, bool) {
	for _, m := range ms {
		if m.Def == d {
			return m, true
		}
	}
	return Metric{}, false
}

// FormatValue prints a metric value as nvprof's tables do: counts as
// integers, percentages as 12.34%, ratios with six decimals, throughputs
// in GB/s.
func FormatValue(k Kind, v float64) string {
	switch k {
	case Percent:
		return strconv.FormatFloat(v, 'f', 2, 64) + "%"
	case Ratio:
		return strconv.FormatFloat(v, 'f', 6, 64)
	case Throughput:
		return strconv.FormatFloat(v/1e9, 'f', 4, 64) + "GB/s"
	}
	return strconv.FormatFloat(math.Trunc(v), 'f', 0, 64)
}

// csvValue is a value as nvprof --csv prints it: full precision.
func csvValue(k Kind, v float64) string {
	switch k {
	case Percent:
		return strconv.FormatFloat(v, 'f', 6, 64) + "%"
	case Ratio:
		return strconv.FormatFloat(v, 'f', 6, 64)
	case Throughput:
		return strconv.FormatFloat(v/1e9, 'f', 6, 64) + "GB/s"
	}
	return strconv.FormatFloat(math.Trunc(v), 'f', 0, 64)
}

// notAvailable is what tables print for a metric warpsim cannot compute.
const notAvailable = "n/a"

// WriteTable writes summaries in the layout of nvprof --metrics:
//
//	==warpsim== Metric result:
//	Invocations                               Metric Name                        Metric Description         Min         Max         Avg
//	Device "NVIDIA H100 80GB HBM3 (0)"
//	    Kernel: mathKernel1
//	          1                         branch_efficiency                         Branch Efficiency     100.00%     100.00%     100.00%
//
// followed by a note for each reason metrics were unavailable.
func WriteTable(w io.Writer, device string, sums []Summary) error {
	// Columns keep nvprof's widths and widen to keep at least one space
	// before every right-aligned cell, however long a name or value is.
	widths := [6]int{len("Invocations"), 42, 42, 12, 12, 12}
	fit := func(col int, cell string) {
		if n := len(cell) + 1; col > 0 && n > widths[col] {
			widths[col] = n
		} else if col == 0 && len(cell) > widths[0] {
			widths[0] = len(cell)
		}
	}
	reasons := map[string][]string{}
	var reasonOrder []string
	for _, s := range sums {
		for _, r := range s.Rows {
			lo, hi, avg := notAvailable, notAvailable, notAvailable
			if r.Available {
				lo, hi, avg = FormatValue(r.Kind, r.Min), FormatValue(r.Kind, r.Max), FormatValue(r.Kind, r.Avg)
			}
			for col, cell := range []string{strconv.Itoa(s.Invocations), r.Name, r.Description, lo, hi, avg} {
				fit(col, cell)
			}
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "==warpsim== Metric result:")
	fmt.Fprintf(bw, "%*s%*s%*s%*s%*s%*s\n", widths[0], "Invocations", widths[1], "Metric Name", widths[2], "Metric Description",
		widths[3], "Min", widths[4], "Max", widths[5], "Avg")
	fmt.Fprintf(bw, "Device %q\n", device+" (0)")
	for _, s := range sums {
		fmt.Fprintf(bw, "    Kernel: %s\n", s.Kernel)
		for _, r := range s.Rows {
			lo, hi, avg := notAvailable, notAvailable, notAvailable
			if r.Available {
				lo, hi, avg = FormatValue(r.Kind, r.Min), FormatValue(r.Kind, r.Max), FormatValue(r.Kind, r.Avg)
			} else {
				if _, ok := reasons[r.Reason]; !ok {
					reasonOrder = append(reasonOrder, r.Reason)
				}
				if !contains(reasons[r.Reason], r.Name) {
					reasons[r.Reason] = append(reasons[r.Reason], r.Name)
				}
			}
			fmt.Fprintf(bw, "%*d%*s%*s%*s%*s%*s\n", widths[0], s.Invocations, widths[1], r.Name, widths[2], r.Description,
				widths[3], lo, widths[4], hi, widths[5], avg)
		}
	}
	for _, reason := range reasonOrder {
		fmt.Fprintf(bw, "n/a: %s: %s\n", strings.Join(reasons[reason], ", "), reason)
	}
	return bw.Flush()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// WriteCSV writes summaries as nvprof --csv --metrics does: a header row,
// then one row per kernel and metric, strings quoted.
func WriteCSV(w io.Writer, device string, sums []Summary) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, `"Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"`)
	for _, s := range sums {
		for _, r := range s.Rows {
			lo, hi, avg := notAvailable, notAvailable, notAvailable
			if r.Available {
				lo, hi, avg = csvValue(r.Kind, r.Min), csvValue(r.Kind, r.Max), csvValue(r.Kind, r.Avg)
			}
			fmt.Fprintf(bw, "%s,%s,%d,%s,%s,%s,%s,%s\n", csvQuote(device+" (0)"), csvQuote(s.Kernel), s.Invocations,
				csvQuote(r.Name), csvQuote(r.Description), lo, hi, avg)
		}
	}
	return bw.Flush()
}

func csvQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// JSONValues maps each metric's nvprof name to its value, or to nil (JSON
// null) when it is unavailable; Unavailable gives the reasons.
func JSONValues(ms []Metric) map[string]any {
	out := make(map[string]any, len(ms))
	for _, m := range ms {
		if !m.Available {
			out[m.Name] = nil
			continue
		}
		switch m.Kind {
		case Count, Cycles, Bytes, Nanoseconds:
			out[m.Name] = uint64(m.Value)
		default:
			out[m.Name] = m.Value
		}
	}
	return out
}

// Unavailable maps the name of each unavailable metric of ms to the reason,
// or returns nil when all are available.
func Unavailable(ms []Metric) map[string]string {
	var out map[string]string
	for _, m := range ms {
		if !m.Available {
			if out == nil {
				out = map[string]string{}
			}
			out[m.Name] = m.Reason
		}
	}
	return out
}
