package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/launchfile"
	"github.com/warpsim/warpsim/ptx/origin"
)

// compilersDoc is where the difference between clang's and nvcc's code is
// measured.
const compilersDoc = "docs/compilers.md"

// writeCompilerNote says, after prof's report, which kernels ran clang's
// device code (warpsim cc's): nvcc's code for the same source can take a
// different time on the GPU (docs/compilers.md), so a user comparing with
// an nvcc build is told which program was timed. Nothing is written when
// no kernel came from clang.
func writeCompilerNote(w io.Writer, tag string, p *cudart.Profile) {
	var names []string
	seen := map[string]bool{}
	all := true
	for _, l := range p.Launches {
		if l.Compiler != origin.Clang {
			all = false
			continue
		}
		if !seen[l.Kernel] {
			seen[l.Kernel] = true
			names = append(names, l.Kernel)
		}
	}
	if len(names) == 0 {
		return
	}
	fmt.Fprintf(w, "%s Note: %s\n", tag, clangNote(names, all))
}

// clangNote is the note's text for kernels compiled by clang; all says
// that every kernel was.
func clangNote(names []string, all bool) string {
	which := "all kernels"
	if !all {
		const most = 3
		list := names
		if len(list) > most {
			list = list[:most]
		}
		which = "kernels " + strings.Join(list, ", ")
		if len(names) > most {
			which += fmt.Sprintf(" and %d more", len(names)-most)
		}
	}
	return which + " compiled by clang (warpsim cc's device code); nvcc's code may differ in time " +
		"(warpsim cc --device-ptx links nvcc's PTX instead): see " + compilersDoc
}

// sourceCompiler is the compiler of a launch file's "source" module ("" for
// a PTX module); in timing mode a note on stderr says that the time is
// clang's code's.
func sourceCompiler(stderr io.Writer, lf *launchfile.File, mode warpsim.Mode) string {
	if !lf.FromSource {
		return ""
	}
	o := origin.Of(lf.Module)
	if o.IsClang() && mode == warpsim.ModeTiming && stderr != nil {
		fmt.Fprintf(stderr, "warpsim: note: %s was compiled by clang; nvcc's code may differ in time "+
			"(name nvcc's PTX as \"module\" to time it): see %s\n", lf.ModulePath, compilersDoc)
	}
	return o.String()
}
