package runtime

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// Settings are what a program's environment asks of the simulator.
type Settings struct {
	Arch           *arch.Arch
	Workers        int   // WARPSIM_WORKERS; 0: one per core
	StepLimit      int64 // WARPSIM_STEP_LIMIT; 0: the default watchdog
	ProfilePath    string
	ProfileBlocks  bool // WARPSIM_PROFILE_BLOCKS=1: block spans in the profile (prof --trace)
	LaunchBlocking bool // CUDA_LAUNCH_BLOCKING=1
	Progress       bool // WARPSIM_PROGRESS, default on (where stderr is a terminal)
	// Mode is WARPSIM_MODE: timing (the default), whose durations clock
	// the kernels on the streams (timing.go), or functional, where a
	// kernel takes the host time its simulation took.
	Mode warpsim.Mode
	// Timeout is WARPSIM_TIMEOUT: the wall-clock limit per launch (0: none).
	Timeout time.Duration
}

// SettingsError is a bad setting: the program's first CUDA call returns
// Code and prints Msg, once; the program keeps running.
type SettingsError struct {
	Code Error
	Msg  string
}

func (e *SettingsError) Error() string { return e.Msg }

// ReadSettings checks the environment variables a program built by
// `warpsim cc` reads. A value that is set but not valid is an error naming
// the variable and what it accepts: a bad WARPSIM_ARCH is
// cudaErrorNoDevice (there is no such GPU to run on), any other bad value
// cudaErrorInvalidValue.
func ReadSettings(getenv func(string) string) (Settings, error) {
	s := Settings{ProfilePath: getenv("WARPSIM_PROFILE"), Progress: true, Mode: warpsim.ModeTiming,
		ProfileBlocks: getenv("WARPSIM_PROFILE_BLOCKS") == "1"}
	name := getenv("WARPSIM_ARCH")
	if name == "" {
		name = "h100"
	}
	a, err := arch.Lookup(name)
	if err != nil || a == nil {
		return s, &SettingsError{Code: ErrorNoDevice, Msg: fmt.Sprintf("warpsim: WARPSIM_ARCH=%q is not a GPU warpsim simulates; valid: %s, or a compute capability such as sm_90 (`warpsim archs` lists them)", name, strings.Join(arch.Names(), ", "))}
	}
	if file, sets := getenv("WARPSIM_ARCH_FILE"), getenv("WARPSIM_ARCH_SET"); file != "" || sets != "" {
		// A custom architecture (--arch-file, --set): warpsim prof and
		// warpsim sweep pass them on.
		if file != "" {
			if a, err = arch.LoadFile(file); err != nil {
				return s, &SettingsError{Code: ErrorNoDevice, Msg: fmt.Sprintf("warpsim: WARPSIM_ARCH_FILE=%q: %v", file, err)}
			}
		}
		if a, err = arch.Override(a, arch.SplitSets(sets)); err != nil {
			return s, &SettingsError{Code: ErrorNoDevice, Msg: fmt.Sprintf("warpsim: WARPSIM_ARCH_SET=%q: %v", sets, err)}
		}
	}
	s.Arch = a
	bad := func(v, val, want string) error {
		return &SettingsError{Code: ErrorInvalidValue, Msg: fmt.Sprintf("warpsim: %s=%q is not valid: %s", v, val, want)}
	}
	if v := getenv("WARPSIM_WORKERS"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return s, bad("WARPSIM_WORKERS", v, "want a whole number of worker threads, 1 or more (unset: one per core)")
		}
		s.Workers = n
	}
	if v := getenv("WARPSIM_STEP_LIMIT"); v != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 1 {
			return s, bad("WARPSIM_STEP_LIMIT", v, "want a whole number of warp instructions per launch, 1 or more (unset: the default watchdog)")
		}
		s.StepLimit = n
	}
	switch v := getenv("CUDA_LAUNCH_BLOCKING"); v {
	case "", "0":
	case "1":
		s.LaunchBlocking = true
	default:
		return s, bad("CUDA_LAUNCH_BLOCKING", v, "want 0 or 1")
	}
	if v := getenv("WARPSIM_MODE"); v != "" {
		m, err := warpsim.ParseMode(strings.TrimSpace(v))
		if err != nil || strings.TrimSpace(v) == "" {
			return s, bad("WARPSIM_MODE", v, "want functional or timing")
		}
		s.Mode = m
	}
	if v := getenv("WARPSIM_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			n, nerr := strconv.ParseFloat(strings.TrimSpace(v), 64)
			d, err = time.Duration(n*float64(time.Second)), nerr
		}
		if err != nil || d < 0 {
			return s, bad("WARPSIM_TIMEOUT", v, "want seconds or a Go duration such as 90s or 10m (unset: no wall-clock limit)")
		}
		s.Timeout = d
	}
	switch v := getenv("WARPSIM_PROGRESS"); v {
	case "", "1":
	case "0":
		s.Progress = false
	default:
		return s, bad("WARPSIM_PROGRESS", v, "want 0 (no progress bar) or 1")
	}
	return s, nil
}
