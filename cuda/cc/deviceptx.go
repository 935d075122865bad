package cc

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// --device-ptx: the device code of a CUDA input comes from a PTX file
// instead of clang — nvcc's, recorded with `nvcc -ptx` (-rdc=true for
// relocatable device code) by a user with a CUDA toolkit — so that the
// program warpsim times is the nvcc-built one (clang's and nvcc's code for
// one kernel can differ in time: docs/compilers.md). clang still compiles
// the device side, for its host-side launch stubs and to list the kernels
// the host code names; each of them must be in the PTX given.

var entryRE = regexp.MustCompile(`(?m)^[ \t]*(?:\.visible[ \t]+|\.weak[ \t]+)?\.entry[ \t]+([A-Za-z_$%][\w$%]*)`)

// entries lists the kernels a PTX module defines, in order.
func entries(ptx []byte) []string {
	var names []string
	for _, m := range entryRE.FindAllSubmatch(ptx, -1) {
		names = append(names, string(m[1]))
	}
	return names
}

// checkDevicePTX checks that o's --device-ptx files pair one to one with
// its CUDA inputs.
func checkDevicePTX(o *Options) error {
	if len(o.DevicePTX) == 0 {
		return nil
	}
	n := 0
	for _, in := range o.Inputs {
		if k, err := inputKind(in, o.ForceCU); err == nil && k == kindCUDA {
			n++
		}
	}
	if n != len(o.DevicePTX) {
		return fmt.Errorf("--device-ptx given %d time(s) for %d CUDA input(s): give one PTX file per .cu input, in the same order", len(o.DevicePTX), n)
	}
	return nil
}

// useDevicePTX puts the PTX file given for src (the file'th CUDA input) at
// ptx, in place of clang's, after checking that it defines every kernel
// clang's does.
func useDevicePTX(o *Options, file int, src, ptx string) error {
	if file >= len(o.DevicePTX) {
		return nil
	}
	given := o.DevicePTX[file]
	theirs, err := os.ReadFile(given)
	if err != nil {
		return fmt.Errorf("--device-ptx: %v", err)
	}
	ours, err := os.ReadFile(ptx)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, e := range entries(theirs) {
		have[e] = true
	}
	var missing []string
	for _, e := range entries(ours) {
		if !have[e] {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("--device-ptx %s lacks kernel(s) %s, defined in %s (is the PTX from this source, made by nvcc -ptx%s?)",
			given, strings.Join(missing, ", "), src, rdcHint(o))
	}
	return os.WriteFile(ptx, theirs, 0o644)
}

func rdcHint(o *Options) string {
	if o.RDC {
		return " -rdc=true"
	}
	return ""
}
