// Package settings reads the environment variables that tune the
// simulator under programs built by warpsim cc (the runtime co-process
// reads them through here) and under warpsim prof, and validates them: a bad value is an error naming the variable, what it was
// and the values it takes, never silently ignored. An unset or empty
// variable means the default.
package settings

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/warpsim/warpsim/arch"
)

// The variables, in the order they are checked and reported.
const (
	VarArch      = "WARPSIM_ARCH"       // GPU preset: a name warpsim archs lists
	VarArchFile  = "WARPSIM_ARCH_FILE"  // an arch file (--arch-file), instead of WARPSIM_ARCH
	VarArchSet   = "WARPSIM_ARCH_SET"   // --set overrides: KEY=VALUE;KEY=VALUE
	VarMode      = "WARPSIM_MODE"       // functional or timing
	VarWorkers   = "WARPSIM_WORKERS"    // blocks simulated in parallel
	VarStepLimit = "WARPSIM_STEP_LIMIT" // the watchdog: warp instructions per launch
	VarProgress  = "WARPSIM_PROGRESS"   // 0 or 1: the progress bar on a terminal
	VarTimeout   = "WARPSIM_TIMEOUT"    // wall-clock limit per launch: a Go duration or seconds
	VarSampling  = "WARPSIM_SAMPLING"   // 0 or 1: timing mode's sampling of large grids and repeated launches
	VarReplay    = "WARPSIM_REPLAY"     // 0 or 1: a program's repeated launches on unchanged memory replayed
	// CUDA's own: 1 makes every launch synchronous.
	VarLaunchBlocking = "CUDA_LAUNCH_BLOCKING"
	// Set by warpsim prof for the program it runs: where the runtime writes
	// the profile, and 1 for block spans in it (prof --trace).
	VarProfile       = "WARPSIM_PROFILE"
	VarProfileBlocks = "WARPSIM_PROFILE_BLOCKS"
	VarProfileLines  = "WARPSIM_PROFILE_LINES" // 1: per-instruction counts in the profile
)

// MaxWorkers bounds WARPSIM_WORKERS: far more goroutines than any machine
// has cores is a typo, not a setting.
const MaxWorkers = 4096

// Settings are the validated values; the zero value of a field is its
// default.
type Settings struct {
	Arch      *arch.Arch // WARPSIM_ARCH; h100 when unset
	Mode      string     // WARPSIM_MODE: "functional", "timing", or "" (the command's default)
	Workers   int        // WARPSIM_WORKERS; 0: one per CPU
	StepLimit int64      // WARPSIM_STEP_LIMIT; 0: the default watchdog
	// Progress is WARPSIM_PROGRESS: nil when unset (on at a terminal),
	// else whether the progress bar is wanted.
	Progress *bool
	Timeout  time.Duration // WARPSIM_TIMEOUT; 0: no wall-clock limit
	// NoSampling is WARPSIM_SAMPLING=0: timing mode times every block of
	// every launch in detail (no sampling of large grids, no reuse of an
	// identical launch's account).
	NoSampling bool
	// NoReplay is WARPSIM_REPLAY=0: a program's launch that repeats an
	// earlier one on the same device memory is executed again rather
	// than replayed (engine/memo.go).
	NoReplay bool
	// LaunchBlocking is CUDA_LAUNCH_BLOCKING=1.
	LaunchBlocking bool
	// ProfilePath is WARPSIM_PROFILE ("" for none); ProfileBlocks is
	// WARPSIM_PROFILE_BLOCKS=1, ProfileLines WARPSIM_PROFILE_LINES=1.
	ProfilePath   string
	ProfileBlocks bool
	ProfileLines  bool
}

// Error is one bad setting.
type Error struct {
	Var   string // the variable, WARPSIM_WORKERS
	Value string // its value
	Valid string // the values it takes
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s=%q is not valid: %s (unset it for the default)", e.Var, e.Value, e.Valid)
}

// Load reads the settings from the process's environment.
func Load() (Settings, error) { return FromEnv(os.LookupEnv) }

// FromEnv reads the settings through lookup (os.LookupEnv's signature).
// The error, when not nil, joins one *Error per bad variable, in the order
// of the Var constants; the Settings then hold the defaults for those.
func FromEnv(lookup func(string) (string, bool)) (Settings, error) {
	get := func(name string) string {
		v, _ := lookup(name)
		return strings.TrimSpace(v)
	}
	var s Settings
	var errs []error
	bad := func(name, value, valid string) { errs = append(errs, &Error{Var: name, Value: value, Valid: valid}) }

	s.Arch = arch.MustLookup("h100")
	if v := get(VarArch); v != "" {
		a, err := arch.Lookup(v)
		if err != nil {
			bad(VarArch, v, "a GPU preset: "+strings.Join(arch.Names(), ", ")+", or a compute capability such as sm_90 (`warpsim archs` lists them)")
		} else {
			s.Arch = a
		}
	}
	if file, sets := get(VarArchFile), get(VarArchSet); file != "" || sets != "" {
		a := s.Arch
		var err error
		if file != "" {
			if a, err = arch.LoadFile(file); err != nil {
				bad(VarArchFile, file, "an arch file (YAML or JSON, base: a preset): "+err.Error())
			}
		}
		if err == nil {
			if a, err = arch.Override(a, arch.SplitSets(sets)); err != nil {
				bad(VarArchSet, sets, "KEY=VALUE overrides separated by ';': "+err.Error())
			} else {
				s.Arch = a
			}
		}
	}
	switch v := get(VarMode); v {
	case "", "functional", "timing":
		s.Mode = v
	default:
		bad(VarMode, v, "functional or timing")
	}
	if v := get(VarWorkers); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxWorkers {
			bad(VarWorkers, v, fmt.Sprintf("a whole number of blocks simulated in parallel, 1 to %d", MaxWorkers))
		} else {
			s.Workers = n
		}
	}
	if v := get(VarStepLimit); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			bad(VarStepLimit, v, "a whole number of warp instructions per launch, at least 1 (the watchdog stops a launch after that many)")
		} else {
			s.StepLimit = n
		}
	}
	if p, err := progress(get(VarProgress)); err != nil {
		errs = append(errs, err)
	} else {
		s.Progress = p
	}
	if v := get(VarTimeout); v != "" {
		d, ok := ParseDuration(v)
		if !ok {
			bad(VarTimeout, v, "a wall-clock limit per launch: seconds (30, 1.5) or a Go duration (90s, 10m)")
		} else {
			s.Timeout = d
		}
	}
	switch v := get(VarSampling); v {
	case "", "1":
	case "0":
		s.NoSampling = true
	default:
		bad(VarSampling, v, "0 (time every block of every launch in detail) or 1 (sample large grids and repeated launches)")
	}
	switch v := get(VarReplay); v {
	case "", "1":
	case "0":
		s.NoReplay = true
	default:
		bad(VarReplay, v, "0 (execute every launch) or 1 (replay a launch that repeats an earlier one on the same memory)")
	}
	switch v := get(VarLaunchBlocking); v {
	case "", "0":
	case "1":
		s.LaunchBlocking = true
	default:
		bad(VarLaunchBlocking, v, "0 or 1")
	}
	s.ProfilePath = get(VarProfile)
	s.ProfileBlocks = get(VarProfileBlocks) == "1"
	s.ProfileLines = get(VarProfileLines) == "1"
	return s, errors.Join(errs...)
}

// progress is WARPSIM_PROGRESS's one rule: nil when unset, else whether
// the progress bar is wanted (0 or 1).
func progress(v string) (*bool, error) {
	switch v {
	case "":
		return nil, nil
	case "0", "1":
		on := v == "1"
		return &on, nil
	}
	return nil, &Error{Var: VarProgress, Value: v, Valid: "0 (no progress bar) or 1"}
}

// ProgressWanted reads WARPSIM_PROGRESS through lookup as FromEnv does, for
// the commands that read no other setting here (warpsim run, warpsim
// sweep): whether the progress line is wanted where stderr is a terminal,
// true when unset. A value other than 0 or 1 is an *Error, and the answer
// then the default.
func ProgressWanted(lookup func(string) (string, bool)) (bool, error) {
	v, _ := lookup(VarProgress)
	p, err := progress(strings.TrimSpace(v))
	return p == nil || *p, err
}

// ParseDuration reads a non-negative Go duration ("90s", "10m") or a
// number of seconds ("30", "1.5"), as --timeout and WARPSIM_TIMEOUT take.
func ParseDuration(s string) (time.Duration, bool) {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return d, true
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil && n >= 0 && n < float64(math.MaxInt64)/1e9 {
		return time.Duration(n * float64(time.Second)), true
	}
	return 0, false
}
