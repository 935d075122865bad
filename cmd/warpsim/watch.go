package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/internal/settings"
)

// exitInterrupted is the status after Ctrl-C (SIGINT) stopped a kernel, as
// a shell reports a process that SIGINT ended.
const exitInterrupted = 130

// exitTerminated is the status after SIGTERM stopped a kernel (128+15), as
// a shell reports a process that SIGTERM ended; terminated says SIGTERM
// came.
const exitTerminated = 143

var terminated atomic.Bool

// progressAfter is how long a launch runs before the progress line shows.
const progressAfter = 2 * time.Second

// watchLaunches handles SIGINT while kernels run — it stops the launch
// running now (interrupt), which then fails with a report of where its
// warps were — and, when WARPSIM_PROGRESS wants it (progressWanted) and
// stderr is a terminal, draws a progress line for launches longer than
// progressAfter. With no launch running, SIGINT ends the process at once
// with status 130. stop undoes both. A bad WARPSIM_PROGRESS was refused
// before by the command that reads it (run, sweep) or is the program's to
// hear of (cc's runtime: opt.SettingsErr, as every setting's); the line
// then takes its default, as the runtime's other settings do.
func watchLaunches(stderr io.Writer, interrupt func(reason string) bool, progress func() (warpsim.LaunchProgress, bool)) (stop func()) {
	showProgress, _ := progressWanted()
	sigs := make(chan os.Signal, 1)
	// A signal the process was started ignoring stays ignored (a program
	// run in the background ignores SIGINT, and its simulator must too).
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		if !signal.Ignored(s) {
			signal.Notify(sigs, s)
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				if sig == syscall.SIGTERM {
					// SIGTERM: stop the kernel with a report of where its
					// warps were, as Ctrl-C does, then exit 143.
					terminated.Store(true)
					if !interrupt("terminated (SIGTERM)") {
						fmt.Fprintln(stderr, "warpsim: terminated")
						os.Exit(exitTerminated)
					}
					continue
				}
				if !interrupt("interrupted (SIGINT)") {
					fmt.Fprintln(stderr, "warpsim: interrupted")
					os.Exit(exitInterrupted)
				}
			}
		}
	}()
	if hook := launchRunningHook; hook != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			announceRunning(progress, hook, done)
		}()
	}
	if f, ok := stderr.(*os.File); ok && showProgress && isTerminal(f) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			drawProgress(f, progress, done)
		}()
	}
	return func() {
		signal.Stop(sigs)
		close(done)
		wg.Wait()
	}
}

// launchRunningHook, when not nil, is called once for each launch as soon
// as its warps have counted instructions: a signal sent after it finds the
// launch running with warps inside the kernel. Only the tests set it
// (TestMain, where the test binary stands in for warpsim), so that they
// interrupt a launch on that event rather than after a guessed sleep,
// which a loaded machine outlasts.
var launchRunningHook func(kernel string)

// announceRunning polls progress until done is closed, calling hook once
// for each launch whose warp instruction count has become positive.
func announceRunning(progress func() (warpsim.LaunchProgress, bool), hook func(kernel string), done <-chan struct{}) {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	var last warpsim.LaunchProgress
	announced := false
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			p, ok := progress()
			if !ok {
				announced = false
				continue
			}
			if p.Kernel != last.Kernel || p.WarpInstructions < last.WarpInstructions {
				announced = false // another launch
			}
			last = p
			if !announced && p.WarpInstructions > 0 {
				announced = true
				hook(p.Kernel)
			}
		}
	}
}

// drawProgress redraws one status line of the launch running now, on a
// terminal, until done is closed; the line is erased when the launch ends.
func drawProgress(w io.Writer, progress func() (warpsim.LaunchProgress, bool), done <-chan struct{}) {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	shown := false
	var lastSteps int64
	var lastAt time.Time
	rate := 0.0
	for {
		select {
		case <-done:
			if shown {
				fmt.Fprint(w, "\r\033[K")
			}
			return
		case now := <-tick.C:
			p, ok := progress()
			if !ok || p.Elapsed < progressAfter {
				if shown {
					fmt.Fprint(w, "\r\033[K")
					shown = false
				}
				lastSteps, lastAt = 0, time.Time{}
				continue
			}
			if !lastAt.IsZero() && p.WarpInstructions >= lastSteps {
				if dt := now.Sub(lastAt).Seconds(); dt > 0 {
					r := float64(p.WarpInstructions-lastSteps) / dt
					if rate == 0 {
						rate = r
					} else {
						rate = 0.7*rate + 0.3*r
					}
				}
			}
			lastSteps, lastAt = p.WarpInstructions, now
			fmt.Fprintf(w, "\r\033[Kwarpsim: %s", progressText(p, rate))
			shown = true
		}
	}
}

// progressText is the progress line's text.
func progressText(p warpsim.LaunchProgress, rate float64) string {
	name := p.Kernel
	if len(name) > 40 {
		name = name[:37] + "..."
	}
	if p.FromDevice {
		name += " (device-launched grid)"
	}
	return fmt.Sprintf("%s: %d/%d blocks, %s warp-inst/s, %s (Ctrl-C stops it and shows where its warps are)",
		name, p.BlocksDone, p.Blocks, siRate(rate), p.Elapsed.Truncate(time.Second))
}

func siRate(r float64) string {
	switch {
	case r >= 1e9:
		return fmt.Sprintf("%.2f G", r/1e9)
	case r >= 1e6:
		return fmt.Sprintf("%.1f M", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1f k", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

// launchTimeout is --timeout, or WARPSIM_TIMEOUT when the flag is not
// given, read as the runtime reads WARPSIM_TIMEOUT (settings.ParseDuration:
// one rule for both).
func launchTimeout(flag string) (time.Duration, error) {
	name, s := "--timeout", flag
	if s == "" {
		name, s = settings.VarTimeout, os.Getenv(settings.VarTimeout)
	}
	if s == "" {
		return 0, nil
	}
	d, ok := settings.ParseDuration(s)
	if !ok {
		return 0, fmt.Errorf("%s: %q is not a duration (want seconds or a Go duration such as 90s or 10m)", name, s)
	}
	return d, nil
}

// progressWanted is WARPSIM_PROGRESS read as the runtime reads it
// (settings.ProgressWanted: unset or 1 on, 0 off, anything else refused
// with the runtime's message).
func progressWanted() (bool, error) { return settings.ProgressWanted(os.LookupEnv) }

func progressOf(kernel string, done, total int, elapsed time.Duration) warpsim.LaunchProgress {
	return warpsim.LaunchProgress{Kernel: kernel, BlocksDone: done, Blocks: total, Elapsed: elapsed}
}
