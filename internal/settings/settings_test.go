package settings

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func env(kv ...string) func(string) (string, bool) {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestDefaults(t *testing.T) {
	s, err := FromEnv(env())
	if err != nil {
		t.Fatal(err)
	}
	if s.Arch.Name != "h100" || s.Mode != "" || s.Workers != 0 || s.StepLimit != 0 || s.Progress != nil || s.NoSampling {
		t.Errorf("defaults: %+v", s)
	}
	// Empty values are unset.
	if _, err := FromEnv(env(VarWorkers, "", VarStepLimit, " ")); err != nil {
		t.Errorf("empty values: %v", err)
	}
}

func TestValid(t *testing.T) {
	s, err := FromEnv(env(VarArch, "a100", VarMode, "functional", VarWorkers, "3", VarStepLimit, "1000", VarProgress, "0", VarTimeout, "1.5"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Arch.Name != "a100" || s.Mode != "functional" || s.Workers != 3 || s.StepLimit != 1000 || s.Progress == nil || *s.Progress ||
		s.Timeout != 1500*time.Millisecond {
		t.Errorf("got %+v", s)
	}
	for v, want := range map[string]bool{"0": true, "1": false} {
		if s, err := FromEnv(env(VarSampling, v)); err != nil || s.NoSampling != want {
			t.Errorf("%s=%s: NoSampling %v (%v), want %v", VarSampling, v, s.NoSampling, err, want)
		}
	}
	for v, want := range map[string]bool{"0": true, "1": false, "": false} {
		if s, err := FromEnv(env(VarReplay, v)); err != nil || s.NoReplay != want {
			t.Errorf("%s=%s: NoReplay %v (%v), want %v", VarReplay, v, s.NoReplay, err, want)
		}
	}
	if s, err := FromEnv(env(VarTimeout, "10m")); err != nil || s.Timeout != 10*time.Minute {
		t.Errorf("10m: %v %v", s.Timeout, err)
	}
}

// TestBad: every bad value is reported, each naming its variable, the
// value and what is valid; the others still take effect.
func TestBad(t *testing.T) {
	tests := []struct {
		name, key, value, want string
	}{
		{"step limit not a number", VarStepLimit, "abc", `WARPSIM_STEP_LIMIT="abc" is not valid: a whole number of warp instructions per launch, at least 1`},
		{"step limit zero", VarStepLimit, "0", `WARPSIM_STEP_LIMIT="0" is not valid`},
		{"negative workers", VarWorkers, "-3", `WARPSIM_WORKERS="-3" is not valid: a whole number of blocks simulated in parallel, 1 to 4096`},
		{"too many workers", VarWorkers, "100000", `WARPSIM_WORKERS="100000"`},
		{"unknown arch", VarArch, "bogus", `WARPSIM_ARCH="bogus" is not valid: a GPU preset: g80, gt200`},
		{"mode", VarMode, "fast", `WARPSIM_MODE="fast" is not valid: functional or timing`},
		{"progress", VarProgress, "yes", `WARPSIM_PROGRESS="yes" is not valid: 0 (no progress bar) or 1`},
		{"sampling", VarSampling, "off", `WARPSIM_SAMPLING="off" is not valid: 0 (time every block of every launch in detail) or 1`},
		{"replay", VarReplay, "no", `WARPSIM_REPLAY="no" is not valid: 0 (execute every launch) or 1`},
		{"timeout", VarTimeout, "soon", `WARPSIM_TIMEOUT="soon" is not valid: a wall-clock limit per launch: seconds (30, 1.5) or a Go duration (90s, 10m)`},
		{"negative timeout", VarTimeout, "-5s", `WARPSIM_TIMEOUT="-5s" is not valid`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := FromEnv(env(tt.key, tt.value, VarWorkers+"_UNRELATED", "x"))
			var e *Error
			if !errors.As(err, &e) || e.Var != tt.key {
				t.Fatalf("got %v, want an *Error for %s", err, tt.key)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
			if s.Arch == nil {
				t.Error("no arch: the defaults must stand in for bad values")
			}
		})
	}
	_, err := FromEnv(env(VarArch, "bogus", VarWorkers, "-3", VarStepLimit, "abc"))
	if err == nil || strings.Count(err.Error(), "is not valid") != 3 {
		t.Errorf("three bad settings, got: %v", err)
	}
}

// TestProgressWanted: the commands' reading of WARPSIM_PROGRESS agrees
// with FromEnv's, value for value (one rule, progress).
func TestProgressWanted(t *testing.T) {
	cases := []struct {
		value   string
		set, on bool
		refused bool
	}{
		{set: false, on: true},
		{value: "", set: true, on: true},
		{value: "0", set: true, on: false},
		{value: " 0 ", set: true, on: false},
		{value: "1", set: true, on: true},
		{value: "2", set: true, on: true, refused: true},
		{value: "yes", set: true, on: true, refused: true},
	}
	for _, c := range cases {
		lookup := env()
		if c.set {
			lookup = env(VarProgress, c.value)
		}
		on, err := ProgressWanted(lookup)
		var bad *Error
		if on != c.on || (err != nil) != c.refused || c.refused && (!errors.As(err, &bad) || bad.Var != VarProgress) {
			t.Errorf("WARPSIM_PROGRESS=%q (set %v): %v, %v; want %v, refused %v", c.value, c.set, on, err, c.on, c.refused)
		}
		s, ferr := FromEnv(lookup)
		if (ferr != nil) != c.refused || !c.refused && (s.Progress == nil || *s.Progress) != on {
			t.Errorf("WARPSIM_PROGRESS=%q: FromEnv gives %v, %v where ProgressWanted gives %v, %v", c.value, s.Progress, ferr, on, err)
		}
	}
}
