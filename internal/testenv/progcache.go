package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/warpsim/warpsim/cuda/cc"
)

// The programs the tests build with clang (`warpsim cc` in cmd/warpsim,
// cc.Driver in internal/cudart, clang's PTX in internal/engine) are kept
// between package runs, as Go keeps compiled packages: clang was most of
// cmd/warpsim's CPU time (about 105 of 177 CPU seconds, measured on
// 2026-11-26), and the programs change far less often than the simulator
// they run on. A program is found by a key over everything that goes into
// it:
//
//   - the compiler: clang's path and `--version`, every file of the cuda
//     tree (headers, the C runtime, the compiler driver cuda/cc, the PTX
//     linker) and the `warpsim cc` command (cmd/warpsim/cc.go);
//   - the flags;
//   - the source, any flag that names a file (another source, a
//     --device-ptx file), and every file they include with #include "…",
//     followed recursively (relative to the including file, then to -I
//     folders).
//
// Headers in <…> outside the cuda tree (the C and C++ libraries, Debian's
// CCCL) are covered by clang's version only: after upgrading them, set
// WARPSIM_TEST_CACHE=off once, or delete the cache folder
// (os.UserCacheDir()/warpsim-test/programs). WARPSIM_TEST_CACHE=off builds
// every program afresh in a temporary folder, as CI's clean machine does
// anyway. Entries unused for a week are removed by CleanPrograms.
//
// A cached program was linked against the simulator of the run that built
// it: a package whose programs start a simulator sets WARPSIM_BIN in its
// TestMain, so that every program runs this run's test binary instead.

// programCacheRoot is the cache folder, or "" when caching is off.
func programCacheRoot() string {
	if os.Getenv("WARPSIM_TEST_CACHE") == "off" {
		return ""
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "warpsim-test", "programs")
}

// The cuda tree and the cc command, found from the module's root above the
// package's folder when the test binary starts (a test may change the
// working directory later).
var (
	moduleRoot  = findModuleRoot()
	cudaTreeDir = filepath.Join(moduleRoot, "cuda")
	ccCommand   = filepath.Join(moduleRoot, "cmd", "warpsim", "cc.go")
)

// findModuleRoot is the nearest folder at or above the working directory
// that holds go.mod, or "" (then every key fails: no program is cached).
func findModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && st.Mode().IsRegular() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

var (
	toolKeyOnce sync.Once
	toolKeyVal  string
	toolKeyErr  error
)

// toolKey hashes the compiler: clang and warpsim's side of `warpsim cc`.
func toolKey() (string, error) {
	toolKeyOnce.Do(func() {
		if moduleRoot == "" {
			toolKeyErr = fmt.Errorf("no go.mod at or above the test's folder")
			return
		}
		h := sha256.New()
		fmt.Fprintln(h, "warpsim test program cache v1")
		clang, err := cc.FindClang()
		if err != nil {
			toolKeyErr = err
			return
		}
		out, err := exec.Command(clang, "--version").Output()
		if err != nil {
			toolKeyErr = fmt.Errorf("%s --version: %v", clang, err)
			return
		}
		fmt.Fprintf(h, "%s\x00%s\x00", clang, out)
		if err := hashTree(h, cudaTreeDir); err != nil {
			toolKeyErr = err
			return
		}
		if err := hashFile(h, ccCommand); err != nil {
			toolKeyErr = err
			return
		}
		toolKeyVal = hex.EncodeToString(h.Sum(nil))
	})
	return toolKeyVal, toolKeyErr
}

// hashTree hashes every regular file under dir except Go tests, by name
// and content.
func hashTree(h interface{ Write([]byte) (int, error) }, dir string) error {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && !strings.HasSuffix(p, "_test.go") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, n := range names {
		if err := hashFile(h, n); err != nil {
			return err
		}
	}
	return nil
}

func hashFile(h interface{ Write([]byte) (int, error) }, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	name := filepath.Base(path)
	if rel, err := filepath.Rel(cudaTreeDir, path); err == nil && !strings.HasPrefix(rel, "..") {
		name = rel // the cuda tree's files by their place in it
	}
	fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(name), len(b))
	h.Write(b)
	return nil
}

var quotedInclude = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*"([^"]+)"`)

// programKey is the cache key of src built with flags.
func programKey(src string, flags []string) (string, error) {
	tk, err := toolKey()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", tk)
	var includeDirs []string
	queue := []string{src}
	for i, f := range flags {
		fmt.Fprintf(h, "flag\x00%s\x00", f)
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			queue = append(queue, f) // another source, a PTX file: hashed below
		}
		switch {
		case f == "-I" && i+1 < len(flags):
			includeDirs = append(includeDirs, flags[i+1])
		case strings.HasPrefix(f, "-I") && len(f) > 2:
			includeDirs = append(includeDirs, f[2:])
		}
	}
	// The sources and what they include, breadth first, each file once.
	seen := map[string]bool{}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		b, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "file\x00%s\x00%d\x00", filepath.Base(p), len(b))
		h.Write(b)
		for _, m := range quotedInclude.FindAllSubmatch(b, -1) {
			name := string(m[1])
			for _, dir := range append([]string{filepath.Dir(p)}, includeDirs...) {
				q := filepath.Clean(filepath.Join(dir, name))
				if st, err := os.Stat(q); err == nil && st.Mode().IsRegular() {
					queue = append(queue, q)
					break
				}
			}
			// Not found beside it: one of the cuda tree's headers (in the
			// tool key) or a system header (clang's version).
			fmt.Fprintf(h, "include\x00%s\x00", name)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// CachedBuild returns the program built from src with flags: from the
// cache, or built by build into a fresh folder and then published there.
// build must make one file in the folder it is given, named as src's base less a .cu
// suffix, and return its path. Two test runs at once may both build
// it; the first to publish wins. Callers build each program once per run
// (a sync.Once per source and flags) and call CleanPrograms when the run
// ends.
func CachedBuild(src string, flags []string, build func(dir string) (string, error)) (string, error) {
	root := programCacheRoot()
	if root == "" {
		return uncachedBuild(build)
	}
	key, err := programKey(src, flags)
	if err != nil {
		return "", fmt.Errorf("program cache key of %s: %v", src, err)
	}
	dir := filepath.Join(root, key)
	name := strings.TrimSuffix(filepath.Base(src), ".cu")
	path := filepath.Join(dir, name)
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		now := time.Now()
		os.Chtimes(dir, now, now) // kept by the pruning below
		return path, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return uncachedBuild(build)
	}
	tmp, err := os.MkdirTemp(root, ".build-")
	if err != nil {
		return uncachedBuild(build)
	}
	built, err := build(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if filepath.Base(built) != name {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("built %s, want %s", built, name)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another run published it first (or the cache is read-only):
		// use theirs when it is complete, ours otherwise.
		if st, serr := os.Stat(path); serr == nil && st.Mode().IsRegular() {
			os.RemoveAll(tmp)
			return path, nil
		}
		trackTemp(tmp)
		return built, nil
	}
	return path, nil
}

var (
	tempMu   sync.Mutex
	tempDirs []string
)

func trackTemp(dir string) {
	tempMu.Lock()
	tempDirs = append(tempDirs, dir)
	tempMu.Unlock()
}

// uncachedBuild builds into a temporary folder CleanPrograms removes.
func uncachedBuild(build func(dir string) (string, error)) (string, error) {
	dir, err := os.MkdirTemp("", "warpsim-cc-test-")
	if err != nil {
		return "", err
	}
	trackTemp(dir)
	return build(dir)
}

// CleanPrograms removes this run's temporary folders and the cache entries
// nobody used for a week; TestMain calls it after the tests.
func CleanPrograms() {
	tempMu.Lock()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	tempDirs = nil
	tempMu.Unlock()
	root := programCacheRoot()
	if root == "" {
		return
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		old := time.Since(info.ModTime())
		if old > 7*24*time.Hour || strings.HasPrefix(e.Name(), ".build-") && old > time.Hour {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}
