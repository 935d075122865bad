//go:build ignore

// A throwaway driver for profiling (never built into warpsim): runs a
// launch file's launches in timing mode (no sampling) on N workers, REPEAT
// times over on one device and module, and writes a CPU profile of the passes after
// the first and the heap's allocations made after the first pass
// (PREFIX.cpu, PREFIX.mem: compare with -diff_base PREFIX.mem0), so that
// what one launch of a warm device costs is apart from the first one's.
//
//	go run profile.go FILE WORKERS REPEAT PREFIX
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/launchfile"
)

func main() {
	runtime.MemProfileRate = 4096
	lf, err := launchfile.Load(os.Args[1])
	if err != nil {
		panic(err)
	}
	w, _ := strconv.Atoi(os.Args[2])
	rep, _ := strconv.Atoi(os.Args[3])
	prefix := os.Args[4]
	a := arch.MustLookup(lf.Arch)
	dev := warpsim.NewDevice(a, warpsim.Options{Workers: w, Mode: warpsim.ModeTiming, Timing: warpsim.TimingOptions{NoSampling: true}})
	var ms0, ms1 runtime.MemStats
	n := len(lf.Launches)
	for r := 1; r < rep; r++ {
		lf.Launches = append(lf.Launches, lf.Launches[:n]...)
	}
	t0 := time.Now()
	_, err = lf.Execute(dev, launchfile.ExecOptions{Discard: true, AfterLaunch: func(i int, res *warpsim.LaunchResult) {
		for _, g := range res.Grids {
			fmt.Fprintf(os.Stderr, "%d %s cycles=%d at %v\n", i, g.Kernel.Name(), g.Timing.Cycles, time.Since(t0))
		}
		if i == n-1 && rep > 1 {
			// The first pass is done: profile the others.
			runtime.GC()
			f, _ := os.Create(prefix + ".mem0")
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
			c, _ := os.Create(prefix + ".cpu")
			pprof.StartCPUProfile(c)
			runtime.ReadMemStats(&ms0)
		}
	}})
	if err != nil {
		panic(err)
	}
	if rep > 1 {
		pprof.StopCPUProfile()
		runtime.ReadMemStats(&ms1)
		runtime.GC()
		f, _ := os.Create(prefix + ".mem")
		pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
		fmt.Fprintf(os.Stderr, "after the first pass: %d allocations, %d bytes a pass\n",
			(ms1.Mallocs-ms0.Mallocs)/uint64(rep-1), (ms1.TotalAlloc-ms0.TotalAlloc)/uint64(rep-1))
	}
}
