package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim/cuda/cc"
	"github.com/warpsim/warpsim/internal/cudart"
)

const ccHelp = `Compiles whole CUDA programs with clang (no CUDA toolkit needed): each .cu
file's device code to PTX, its host code with that PTX embedded, all linked
with warpsim's CUDA runtime into one executable that runs its kernels on
the simulator.

  warpsim cc reduce.cu -o reduce && ./reduce 512 24

Flags are nvcc's: -o FILE, -O0…-O3, -arch=sm_XX (or -gencode …), -I DIR,
-D NAME[=V], -U NAME, -std=c++17, -rdc=true, -c, -x cu, -lineinfo, -G, -g,
--use_fast_math, -Xcompiler A,B, -Xlinker A,B, -l LIB, -L DIR; -lcudadevrt
and -lcudart are accepted (the runtime is always linked); -W…/-f… go to
the host compiler; -v prints the clang commands. Inputs: .cu, .cpp/.cc/.c
(host code), .o/.a. The program finds the simulator at the path of this
warpsim executable, or at $WARPSIM_BIN; it runs under $WARPSIM_ARCH
(default h100).

--device-ptx FILE.ptx (once per .cu input, in order) runs that PTX — nvcc's,
from nvcc -ptx — in place of clang's device code, so that the nvcc-built
program is the one timed; every kernel clang's code defines must be in it
(docs/compilers.md).`

func newCCCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:                "cc [nvcc flags] FILE.cu… [-o PROG]",
		Short:              "Compile a CUDA program with clang and link it with warpsim's runtime",
		Long:               ccHelp,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			verbose := false
			var rest []string
			for i, a := range args {
				if i > 0 && cc.TakesValue(args[i-1]) {
					rest = append(rest, a) // a value: -Xptxas -v
					continue
				}
				switch a {
				case "-h", "--help":
					return cmd.Help()
				case "-v", "--verbose":
					verbose = true
				default:
					rest = append(rest, a)
				}
			}
			opt, err := cc.ParseArgs(rest)
			if err != nil {
				return badInput(err)
			}
			for _, w := range opt.Warnings {
				fmt.Fprintf(stderr, "warpsim cc: note: %s has no effect here\n", w)
			}
			d, err := cc.NewDriver(stderr)
			if err != nil {
				return badInput(err)
			}
			d.Verbose = verbose
			if exe, err := os.Executable(); err == nil {
				d.WarpsimBin = exe
			}
			return compileErr(d.Build(opt))
		},
	}
}

// compileErr maps a driver error to an exit status; clang has already shown
// its messages, so a failed compilation adds none.
func compileErr(err error) error {
	var ce *cc.CompileError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return &exitError{code: exitBadInput}
	}
	return badInput(err)
}

// newRuntimeCmd is the simulator process a program built by `warpsim cc`
// starts on its first CUDA call (see internal/cudart). It reads requests on fd
// 3 and answers on fd 4.
func newRuntimeCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:    "__runtime",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			in, out := os.NewFile(3, "requests"), os.NewFile(4, "replies")
			if in == nil || out == nil {
				return badInputf("__runtime is started by programs built with warpsim cc")
			}
			// Settings are checked here; a bad one is told to the program at
			// its first CUDA call, which returns an error (cudart.ReadSettings).
			opt := cudart.ProgramOptions()
			if opt.SettingsErr == nil {
				var err error
				if opt.Sanitize, err = cudart.SanitizingFromEnv(opt.Arch); err != nil {
					// Like any bad setting: the program hears of it.
					opt.SettingsErr = &cudart.SettingsError{Code: cudart.ErrorInvalidValue, Msg: "warpsim: not a valid setting: " + err.Error()}
				}
			}
			// WARPSIM_CPUPROFILE=FILE: a Go CPU profile of this process
			// (where a program's kernels run), for `go tool pprof`.
			if path := os.Getenv("WARPSIM_CPUPROFILE"); path != "" {
				if f, err := os.Create(path); err == nil {
					if pprof.StartCPUProfile(f) == nil {
						defer func() { pprof.StopCPUProfile(); f.Close() }()
					}
				}
			}
			// WARPSIM_MEMPROFILE=FILE: a Go heap profile of this process,
			// written every 10 s while it runs (so a runtime that is killed
			// leaves its latest) and at its end, for `go tool pprof`.
			if path := os.Getenv("WARPSIM_MEMPROFILE"); path != "" {
				defer writeHeapProfileEvery(path, 10*time.Second)()
			}
			srv := cudart.NewServer(opt)
			// Ctrl-C reaches the program and this process alike: when the
			// program dies of it, a kernel running now stops and its report
			// says where its warps were; a program whose own handler took
			// the signal goes on, and so does its simulator.
			stop := watchLaunches(stderr, func(reason string) bool {
				srv.InterruptIfProgramGoes(reason, cudart.ProgramSignalGrace)
				return true
			}, srv.Progress)
			err := srv.Serve(in, out)
			stop()
			if errors.Is(err, cudart.ErrInterrupted) {
				return &exitError{code: exitInterrupted}
			}
			if err != nil {
				fmt.Fprintf(stderr, "warpsim runtime: %v\n", err)
				return &exitError{code: exitFault}
			}
			return nil
		},
	}
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// writeHeapProfileEvery writes a Go heap profile of this process to path
// every period and once more when the returned stop is called. Each write
// goes to a temporary file renamed over path, so path always holds a whole
// profile.
func writeHeapProfileEvery(path string, period time.Duration) (stop func()) {
	write := func() {
		runtime.GC() // the profile's in-use figures are as of the last GC
		f, err := os.Create(path + ".tmp")
		if err != nil {
			return
		}
		err = pprof.Lookup("heap").WriteTo(f, 0)
		if f.Close() == nil && err == nil {
			os.Rename(path+".tmp", path)
		}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				write()
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		write()
	}
}
