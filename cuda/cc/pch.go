package cc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Precompiled headers. `warpsim cc` includes cuda_runtime.h in every CUDA
// source, for the device pass and the host pass, and clang spends about
// half a pass's CPU time on it (24,700 lines once preprocessed: the CUDA
// API, the device functions, the parts of libstdc++ they use) whatever the
// program. A pass can start from a precompiled header instead
// (-include-pch in place of -include cuda_runtime.h); clang makes the same
// PTX and the same object from it (TestPCHOutputIdentical).
//
// A precompiled header is made by the pass's own command line (everything
// that decides the preprocessing and the language: -D, -U, -I, -std, the
// architecture, -O, …) run over an empty source, and is kept beside the
// materialized headers (which are keyed by their content) under a digest
// of clang's path and that command line. It is made the second time a
// pass with that command line runs: a command line seen once (one -D of a
// sweep) costs no more than before, and a program built again is faster.
// A pass that starts from one and fails, or prints anything (a warning),
// is run again as a plain pass, whose outcome and messages are the ones
// the user sees: a precompiled header never changes what warpsim cc says.
// A header clang finds changed since (an upgraded libstdc++) fails the
// pass; the plain pass that follows succeeds, and the stale precompiled
// header is removed, to be made again.

// pchDir is where the precompiled headers live.
func (d *Driver) pchDir() string { return filepath.Join(d.files, "pch") }

// pchKeyArgs is a pass's command line less what names its input and
// output, or nil when the pass cannot start from a precompiled header (it
// does not include cuda_runtime.h the usual way). args end with the source.
func pchKeyArgs(args []string) []string {
	var key []string
	includes := false
	for i := 0; i < len(args)-1; i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "-cuid="), a == "-c", a == "-S":
		case a == "-o":
			i++
		case a == "-Xclang" && i+3 < len(args) && args[i+1] == "-fcuda-include-gpubinary":
			i += 3
		case a == "-include" && i+1 < len(args) && args[i+1] == "cuda_runtime.h":
			includes = true
			key = append(key, a, args[i+1])
			i++
		case a == "-include-pch", a == "-emit-pch":
			return nil
		default:
			key = append(key, a)
		}
	}
	if !includes {
		return nil
	}
	return key
}

// pchOnSecondRun makes a precompiled header the second time its command
// line runs, not the first (a test makes them at once).
var pchOnSecondRun = true

var pchMu sync.Map // a precompiled header's path → *sync.Mutex, so one process makes each once

// runPass runs one clang pass over a CUDA source (args end with the
// source), from a precompiled header of cuda_runtime.h when one is kept
// or this command line ran before.
func (d *Driver) runPass(args []string) error {
	if d.NoPCH {
		return d.run(args)
	}
	key := pchKeyArgs(args)
	if key == nil {
		return d.run(args)
	}
	sum := sha256.Sum256([]byte(d.Clang + "\x00" + strings.Join(key, "\x00")))
	base := filepath.Join(d.pchDir(), hex.EncodeToString(sum[:12]))
	pch := base + ".pch"
	if _, err := os.Stat(pch); err != nil {
		if !d.makePCH(key, base) {
			return d.run(args)
		}
	}
	withPCH := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		if args[i] == "-include" && i+1 < len(args)-1 && args[i+1] == "cuda_runtime.h" {
			withPCH = append(withPCH, "-include-pch", pch)
			i++
			continue
		}
		withPCH = append(withPCH, args[i])
	}
	if d.Verbose {
		fmt.Fprintln(d.Stderr, "#", d.Clang, strings.Join(withPCH, " "))
	}
	cmd := exec.Command(d.Clang, withPCH...)
	cmd.Env = withoutToolkitIncludes(os.Environ())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil && out.Len() == 0 {
		now := time.Now()
		os.Chtimes(pch, now, now) // in use: kept by prunePCH
		return nil
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return fmt.Errorf("running %s: %v", d.Clang, err)
	}
	if d.Verbose {
		fmt.Fprintln(d.Stderr, "# (again without the precompiled header, which said something)")
	}
	plain := d.run(args)
	if err != nil && plain == nil {
		// The source is fine: the precompiled header was not.
		os.Remove(pch)
	}
	return plain
}

// makePCH makes the precompiled header base+".pch" for the pass whose
// command line (less input and output) is key, when that command line
// ran before (base+".seen"); it reports whether the header exists now.
// Any failure leaves the pass plain.
func (d *Driver) makePCH(key []string, base string) bool {
	mu, _ := pchMu.LoadOrStore(base, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	pch := base + ".pch"
	if _, err := os.Stat(pch); err == nil {
		return true
	}
	if err := os.MkdirAll(d.pchDir(), 0o755); err != nil {
		return false
	}
	seen := base + ".seen"
	if _, err := os.Stat(seen); err != nil && pchOnSecondRun {
		os.WriteFile(seen, nil, 0o644)
		return false
	}
	empty := filepath.Join(d.pchDir(), "empty.cu")
	if st, err := os.Stat(empty); err != nil || st.Size() != 0 {
		if os.WriteFile(empty, nil, 0o644) != nil {
			return false
		}
	}
	tmp, err := os.CreateTemp(d.pchDir(), ".pch-*")
	if err != nil {
		return false
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	args := append(append([]string(nil), key...), "-S", "-Xclang", "-emit-pch", "-o", tmp.Name(), empty)
	if d.Verbose {
		fmt.Fprintln(d.Stderr, "#", d.Clang, strings.Join(args, " "))
	}
	cmd := exec.Command(d.Clang, args...)
	cmd.Env = withoutToolkitIncludes(os.Environ())
	if cmd.Run() != nil {
		return false
	}
	d.prunePCH()
	return os.Rename(tmp.Name(), pch) == nil
}

// prunePCH removes precompiled headers (about 5 MB each) and markers
// unused for a week.
func (d *Driver) prunePCH() {
	entries, err := os.ReadDir(d.pchDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.Name() != "empty.cu" && time.Since(info.ModTime()) > 7*24*time.Hour {
			os.Remove(filepath.Join(d.pchDir(), e.Name()))
		}
	}
}
