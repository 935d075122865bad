package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit statuses, as DESIGN.md's CLI contract fixes them.
const (
	exitOK       = 0
	exitFault    = 1 // a kernel fault: out-of-bounds, misaligned, barrier deadlock, watchdog, trap
	exitBadInput = 2 // usage, launch file, PTX parse or load errors
)

// exitError carries an exit status out of a subcommand. Its message (if
// any) has already been written or is written by run.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// badInput wraps err as a bad-input failure (exit status 2).
func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

// badInputf formats a bad-input failure.
func badInputf(format string, args ...any) error {
	return &exitError{code: exitBadInput, err: fmt.Errorf(format, args...)}
}

// kernelFault wraps err as a kernel fault (exit status 1).
func kernelFault(err error) error { return &exitError{code: exitFault, err: err} }

// subcommands are every subcommand's constructor, each in its own file
// (the help lists them sorted by name). A new subcommand is added here.
var subcommands = []func(stdout, stderr io.Writer) *cobra.Command{
	newRunCmd,       // run.go: run a launch file
	newProfCmd,      // prof.go: profile a program built by warpsim cc
	newCCCmd,        // cc.go: compile a CUDA program
	newCompileCmd,   // compile.go: a .cu file's device code to PTX
	newSanitizeCmd,  // sanitize.go: compute-sanitizer's checks
	newOccupancyCmd, // occupancy.go: the occupancy calculator
	newArchsCmd,     // archs.go: the GPU presets
	newDemoCmd,      // demo.go: the built-in demonstrations
	newReportCmd,    // report.go: a saved profile as an HTML report
	newSweepCmd,     // sweep.go: design-space sweeps into a database
	newRuntimeCmd,   // cc.go: __runtime, the co-process of a program (hidden)
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "warpsim",
		Short:         "Run CUDA kernels and programs on the CPU, faithfully to the SIMT model, and profile them",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.CompletionOptions.DisableDefaultCmd = true
	for _, f := range subcommands {
		root.AddCommand(f(stdout, stderr))
	}
	return root
}

// run is the whole CLI: it parses args, runs the subcommand and returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "warpsim:", ee.err)
		}
		return ee.code
	}
	// cobra's own errors: unknown command, bad flag, wrong argument count.
	fmt.Fprintln(stderr, "warpsim:", err)
	return exitBadInput
}
