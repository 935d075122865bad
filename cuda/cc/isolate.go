package cc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A CUDA toolkit's headers must never be compiled in place of warpsim's:
// they are written for nvcc and the real driver. Besides -nocudainc (clang
// then adds no CUDA installation's include directory) and warpsim's
// directory coming before the system's, the include directories a user
// names (-I /usr/local/cuda/include, as many Makefiles do) and the
// compiler's include-path variables (CPATH …) are searched before it, so
// those that hold a toolkit's runtime headers are left out.

// isToolkitInclude reports whether dir holds a CUDA toolkit's runtime
// headers.
func isToolkitInclude(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "cuda_runtime_api.h"))
	return err == nil
}

// includes is o.Includes without toolkit include directories; each one
// left out is noted once on stderr.
func (d *Driver) includes(o *Options) []string {
	var out []string
	for _, i := range o.Includes {
		if isToolkitInclude(i) && filepath.Clean(i) != filepath.Clean(d.IncludeDir()) {
			if d.noted == nil {
				d.noted = map[string]bool{}
			}
			if !d.noted[i] {
				d.noted[i] = true
				fmt.Fprintf(d.Stderr, "warpsim cc: note: -I %s is a CUDA toolkit's include directory; warpsim's own CUDA headers are used instead\n", i)
			}
			continue
		}
		out = append(out, i)
	}
	return out
}

// includePathVars are the variables clang reads include directories from.
var includePathVars = []string{"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"}

// withoutToolkitIncludes returns env with toolkit include directories
// removed from the include-path variables.
func withoutToolkitIncludes(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, val, _ := strings.Cut(kv, "=")
		isVar := false
		for _, v := range includePathVars {
			if name == v {
				isVar = true
			}
		}
		if !isVar {
			out = append(out, kv)
			continue
		}
		var keep []string
		for _, dir := range filepath.SplitList(val) {
			if dir == "" || !isToolkitInclude(dir) {
				keep = append(keep, dir)
			}
		}
		out = append(out, name+"="+strings.Join(keep, string(os.PathListSeparator)))
	}
	return out
}
