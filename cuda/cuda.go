// Package cuda holds warpsim's CUDA headers (include/), written for clang's
// CUDA mode so no CUDA toolkit is needed, and the C side of the runtime
// (shim/) that `warpsim cc` links into every program. Both are embedded in
// the warpsim executable and written out once per content version.
package cuda

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

//go:embed include/*.h include/nvtx3/*.h include/cooperative_groups/*.h include/cuda/std/functional include/cuda/std/complex include/cuda/std/bit include/cuda/barrier include/cuda/__memcpy_async/*.h include/cuda/pipeline include/cuda/ptx shim/*.c shim/*.h
var files embed.FS

// Files is the embedded tree: include/… and shim/….
func Files() fs.FS { return files }

// Version is a digest of the embedded files (headers and runtime).
func Version() string { return digest(".") }

// digest is a digest of the embedded files under dir.
func digest(dir string) string {
	h := sha256.New()
	var names []string
	fs.WalkDir(files, dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	for _, n := range names {
		b, _ := files.ReadFile(n)
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Materialize writes the embedded tree out (once per content; a later call
// finds it complete) and returns the directory of the headers: the include
// directory is <result>/include, and the runtime's sources are in
// RuntimeDir(<result>). The headers' directory is keyed by the headers
// alone, so that a program compiled against them names the same paths in
// its line table whatever the runtime it is linked with (a change to the
// runtime relinks, it does not recompile: internal/testenv); the runtime's
// sources lie under it, keyed by their own digest too.
func Materialize(dir string) (string, error) {
	root := filepath.Join(dir, digest("include"))
	if err := materialize(root, "include"); err != nil {
		return "", err
	}
	return root, materialize(RuntimeDir(root), "shim")
}

// RuntimeDir is where Materialize put the runtime's sources (the shim
// folder's files) under the headers' directory root.
func RuntimeDir(root string) string { return filepath.Join(root, "shim-"+digest("shim")) }

// materialize writes the embedded folder sub to root/sub, unless root is
// complete already.
func materialize(root, sub string) error {
	stamp := filepath.Join(root, ".complete")
	if _, err := os.Stat(stamp); err == nil {
		return nil
	}
	parent := filepath.Dir(root)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	err = fs.WalkDir(files, sub, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(tmp, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, root); err != nil {
		// Another process won the race; its copy is identical.
		if _, serr := os.Stat(stamp); serr == nil {
			return nil
		}
		return err
	}
	return nil
}

// CacheDir is where warpsim keeps materialized files: $WARPSIM_CACHE, or
// warpsim/ under the user cache directory.
func CacheDir() (string, error) {
	if d := os.Getenv("WARPSIM_CACHE"); d != "" {
		return d, os.MkdirAll(d, 0o755)
	}
	if base, err := os.UserCacheDir(); err == nil {
		d := filepath.Join(base, "warpsim")
		if os.MkdirAll(d, 0o755) == nil {
			return d, nil
		}
	}
	// No usable cache directory (a read-only home): a per-user directory
	// under the temporary directory.
	d := filepath.Join(os.TempDir(), fmt.Sprintf("warpsim-cache-%d", os.Getuid()))
	return d, os.MkdirAll(d, 0o755)
}
