package testenv

import (
	"os"
	"runtime/debug"
)

// Test binaries that simulate for tens of CPU seconds spend a tenth of it
// collecting garbage at Go's default GOGC of 100: a grid's per-block state
// is short-lived and plentiful. internal/timing's plain tests took 93.0
// CPU seconds at GOGC=100 and 80.5 at 400 (peak resident memory 1.0 and
// 2.2 GB) on 2026-11-27.
const (
	testGCPercent   = 400
	testMemoryLimit = 1536 << 20 // the heap above which the collector works harder again
)

// TuneGC lets a test binary's heap grow to five times its live data before
// collecting (GOGC=400), but never past 1.5 GiB, where the collector goes
// back to working as hard as it must. It leaves a GOGC or GOMEMLIMIT the
// environment sets alone, and the race detector's runs (whose memory is
// already several times a plain run's). Call it from TestMain.
func TuneGC() {
	if raceEnabled || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(testGCPercent)
	debug.SetMemoryLimit(testMemoryLimit)
}
