// Package profile turns the engine's raw event counts into the metrics that
// nvprof and Nsight Compute report, under nvprof's names with the ncu names
// as aliases, and formats them as tables, JSON and CSV.
package profile

import "github.com/warpsim/warpsim/internal/engine"

// Counters are the raw counts of one launch, owned by the engine that fills
// them (see engine.Counters for each field's metric).
type Counters = engine.Counters

// FuncLines are one function's per-instruction counts over a grid, with
// each instruction's PTX line, .loc source line and text (engine.FuncLines).
type FuncLines = engine.FuncLines

// InstCounts are one instruction's counts (engine.InstCounts).
type InstCounts = engine.InstCounts
