package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/warpsim/warpsim/arch"
)

// loadArchArg reads an argument of warpsim archs --diff: a preset name or
// an arch file (a name ending in .yaml, .yml or .json, or an existing file).
func loadArchArg(s string) (*arch.Arch, error) {
	low := strings.ToLower(s)
	if strings.HasSuffix(low, ".yaml") || strings.HasSuffix(low, ".yml") || strings.HasSuffix(low, ".json") {
		return arch.LoadFile(s)
	}
	if a, err := arch.Lookup(s); err == nil {
		return a, nil
	} else if st, serr := os.Stat(s); serr == nil && !st.IsDir() {
		return arch.LoadFile(s)
	} else {
		return nil, err
	}
}

// writeArchDiff prints the keys whose values differ between two GPUs.
func writeArchDiff(w io.Writer, aName, bName string) error {
	a, err := loadArchArg(aName)
	if err != nil {
		return badInput(err)
	}
	b, err := loadArchArg(bName)
	if err != nil {
		return badInput(err)
	}
	diffs := arch.Diff(a, b)
	if len(diffs) == 0 {
		_, err := fmt.Fprintf(w, "%s and %s do not differ\n", aName, bName)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "KEY\t%s\t%s\n", aName, bName)
	show := func(v string) string {
		if v == "" {
			return "(preset)"
		}
		return v
	}
	for _, d := range diffs {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Key, show(d.A), show(d.B))
	}
	return tw.Flush()
}

// writeArchKeys prints every key an arch file or --set takes.
func writeArchKeys(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tH100\tMEANING")
	h := arch.MustLookup("h100")
	for _, f := range arch.Fields() {
		v := f.Get(h)
		if v == "" {
			v = "(measured)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Key, v, f.Help)
	}
	return tw.Flush()
}
