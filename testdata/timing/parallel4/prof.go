//go:build ignore

// A throwaway driver (never committed as code): runs a launch file's
// launches in timing mode (no sampling) on N workers and prints each
// launch's kernel, cycles, wall time and every metric as JSON, optionally
// writing a CPU profile.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/launchfile"
	"github.com/warpsim/warpsim/metrics"
)

func main() {
	lf, err := launchfile.Load(os.Args[1])
	if err != nil {
		panic(err)
	}
	w, _ := strconv.Atoi(os.Args[2])
	if len(os.Args) > 3 {
		f, _ := os.Create(os.Args[3])
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	a := arch.MustLookup(lf.Arch)
	dev := warpsim.NewDevice(a, warpsim.Options{Workers: w, Mode: warpsim.ModeTiming, Timing: warpsim.TimingOptions{NoSampling: true}})
	t0 := time.Now()
	_, err = lf.Execute(dev, launchfile.ExecOptions{AfterLaunch: func(i int, r *warpsim.LaunchResult) {
		for _, g := range r.Grids {
			k := g.Kernel
			all := metrics.Compute(g.Counters, a, metrics.Launch{
				BlockThreads:  int(g.Config.Block.X * g.Config.Block.Y * g.Config.Block.Z),
				RegsPerThread: k.RegsPerThread(),
				StaticShared:  k.StaticSharedBytes(),
				DynamicShared: int(g.Config.SharedBytes),
				Timing:        g.Timing,
			})
			b, _ := json.Marshal(metrics.JSONValues(all))
			fmt.Fprintf(os.Stderr, "%d %s cycles=%d at %v\n", i, k.Name(), g.Timing.Cycles, time.Since(t0))
			fmt.Printf("%d %s %s\n", i, k.Name(), b)
		}
	}})
	if err != nil {
		panic(err)
	}
}
