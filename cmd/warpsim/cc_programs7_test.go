package main

import "testing"

// programs7Dir holds the seventh batch of CUDA 13 programs (the runtime API
// beyond programs5: stream capture and explicit graphs, conditional nodes
// and graph memory, stream-ordered memory pools, symbols, pitched and 3-D
// memory and arrays, texture and surface objects, pointer attributes of
// every kind of memory, managed memory advice with CUDA 13's locations,
// event and device flags, the driver API beside the runtime), written as
// users write them and recorded on an H100 with nvcc 13
// (testdata/programs7/record.sh).
const programs7Dir = "../../testdata/programs7"

// programs7 are the batch's programs that warpsim runs bit for bit, with
// the flags nvcc needed beyond -O3 -arch=sm_90 -std=c++17
// (testdata/programs7/flags.txt); the others are listed, with what differs,
// in the folder's README.
var programs7 = []recordedProgram{
	{name: "driver_api", flags: []string{"-lcuda"}},
	{name: "events_flags"},
	{name: "graph_capture"},
	{name: "graph_conditional"},
	{name: "graph_explicit"},
	{name: "managed_advise"},
	{name: "pitched3d"},
	{name: "symbols"},
	{name: "tex_surf"},
}

// TestCCPrograms7MatchH100 builds every matching program of
// testdata/programs7 unchanged with warpsim cc and compares its stdout,
// stderr and exit status with the H100's, under the functional driver (none
// prints a time), in parallel.
func TestCCPrograms7MatchH100(t *testing.T) {
	checkRecordedBatch(t, programs7Dir, []string{"-O3", "-arch=sm_90", "-std=c++17"}, programs7, false)
}
