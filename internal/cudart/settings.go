package cudart

import (
	"errors"
	"strings"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/settings"
)

// Settings are what a program's environment asks of the simulator.
type Settings struct {
	Arch           *arch.Arch
	Workers        int   // WARPSIM_WORKERS; 0: one per core
	StepLimit      int64 // WARPSIM_STEP_LIMIT; 0: the default watchdog
	ProfilePath    string
	ProfileBlocks  bool // WARPSIM_PROFILE_BLOCKS=1: block spans in the profile (prof --trace)
	ProfileLines   bool // WARPSIM_PROFILE_LINES=1: per-instruction counts in the profile
	LaunchBlocking bool // CUDA_LAUNCH_BLOCKING=1
	// Mode is WARPSIM_MODE: timing (the default), whose durations clock
	// the kernels on the streams (timing.go), or functional, where a
	// kernel takes the host time its simulation took.
	Mode warpsim.Mode
	// NoSampling is WARPSIM_SAMPLING=0: every block of every launch timed
	// in detail.
	NoSampling bool
	// NoReplay is WARPSIM_REPLAY=0: every launch executed, none replayed
	// (warpsim.Options.Replay).
	NoReplay bool
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
// `warpsim cc` reads (internal/settings, which warpsim prof checks too). A
// value that is set but not valid is an error naming the variable and what
// it accepts: a bad WARPSIM_ARCH is cudaErrorNoDevice (there is no such GPU
// to run on), any other bad value cudaErrorInvalidValue; the first bad
// variable is reported.
func ReadSettings(getenv func(string) string) (Settings, error) {
	set, err := settings.FromEnv(func(k string) (string, bool) { v := getenv(k); return v, v != "" })
	s := Settings{Arch: set.Arch, Workers: set.Workers, StepLimit: set.StepLimit, ProfilePath: set.ProfilePath,
		ProfileBlocks: set.ProfileBlocks, ProfileLines: set.ProfileLines, LaunchBlocking: set.LaunchBlocking,
		Mode: warpsim.ModeTiming, Timeout: set.Timeout, NoSampling: set.NoSampling, NoReplay: set.NoReplay}
	if set.Mode != "" {
		s.Mode = warpsim.Mode(set.Mode)
	}
	var bad *settings.Error
	if errors.As(err, &bad) {
		code := ErrorInvalidValue
		if strings.HasPrefix(bad.Var, settings.VarArch) {
			code = ErrorNoDevice // no such GPU to run on (WARPSIM_ARCH and its companions)
		}
		return s, &SettingsError{Code: code, Msg: "warpsim: " + bad.Error()}
	}
	return s, nil
}
