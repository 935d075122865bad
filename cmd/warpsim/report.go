package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/launchfile"
	"github.com/warpsim/warpsim/report"
)

func newReportCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "report PROFILE.json OUT.html",
		Short: "Render a saved profile (prof/run --export) as a self-contained HTML report",
		Long: `report reads a profile JSON written by ` + "`warpsim prof --export`" + ` or ` + "`warpsim run --export`" + `
and writes one HTML file that opens offline: per kernel a summary, guided
advice naming the source lines that cause each problem, the warp-state,
memory-workload, occupancy and roofline charts, the .cu and PTX source side
by side with each line's counts, and sortable hot spots; and the timeline of
launches. docs/report.md describes every part.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			fh, err := os.Open(args[0])
			if err != nil {
				return badInput(err)
			}
			defer fh.Close()
			p, err := report.Read(fh)
			if err != nil {
				return badInputf("%s: %v", args[0], err)
			}
			return writeReport(p, "", args[1])
		},
	}
}

// writeReport writes the profile JSON to export and the HTML report to
// html (either may be empty).
func writeReport(p *report.Profile, export, html string) error {
	if export != "" {
		var b bytes.Buffer
		if err := report.Write(&b, p); err != nil {
			return err
		}
		if err := os.WriteFile(export, b.Bytes(), 0o644); err != nil {
			return badInputf("--export: %v", err)
		}
	}
	if html != "" {
		var b bytes.Buffer
		if err := report.Render(&b, p); err != nil {
			return err
		}
		if err := os.WriteFile(html, b.Bytes(), 0o644); err != nil {
			return badInputf("report: %v", err)
		}
	}
	return nil
}

// reportCommand is the command line a report names.
func reportCommand(args ...string) string {
	s := "warpsim"
	for _, a := range args {
		s += " " + a
	}
	return s
}

// writeRunReport builds the profile of a launch file's run and writes
// run's --export and --report files.
func writeRunReport(f *runFlags, path string, a *arch.Arch, mode string, out *launchfile.Outcome) error {
	b := report.NewBuilder(a, mode, report.Options{Title: filepath.Base(path), Command: reportCommand("run", path)})
	for _, res := range out.Launches {
		b.Add(res)
	}
	return writeReport(b.Profile(), f.export, f.report)
}

// profProfile builds the profile of a program prof ran from its runtime's
// records.
func profProfile(p *cudart.Profile, a *arch.Arch, mode string, args []string) *report.Profile {
	b := report.NewBuilder(a, mode, report.Options{Title: filepath.Base(args[0]), Command: reportCommand(append([]string{"prof"}, args...)...)})
	host := -1
	for _, r := range p.Launches {
		parent := -1
		if r.FromDevice {
			parent = host
		}
		in := report.LaunchInput{Kernel: r.Kernel, Func: r.Mangled, Grid: r.Grid, Block: r.Block, Regs: r.Regs, StaticSh: r.StaticSh,
			DynamicSh: int(r.Shared), FromDevice: r.FromDevice, Parent: parent, Counters: r.Counters, Timing: r.Timing, Lines: r.Lines,
			Fault: r.Fault, StartNS: float64(r.StartNS), DurationNS: float64(r.NS) / float64(r.Calls())}
		if !r.FromDevice {
			host = len(b.Profile().Launches)
		}
		b.AddLaunch(in)
	}
	return b.Profile()
}
