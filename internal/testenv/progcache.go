package testenv

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/warpsim/warpsim/cuda/cc"
)

// The programs the tests build with clang (`warpsim cc` in cmd/warpsim,
// cc.Driver in internal/cudart, clang's PTX in internal/engine and the root
// package) are kept between package runs, as Go keeps compiled packages:
// clang was most of cmd/warpsim's CPU time (about 105 of 177 CPU seconds,
// measured on 2026-11-26), and the programs change far less often than the
// simulator they run on. A program is found by a key over what goes into
// it, and nothing else, so that a change elsewhere in the tree (another
// header, the simulator) reuses it:
//
//   - the compiler: clang's path and `--version`, and warpsim's side of
//     `warpsim cc` — every file of the cuda tree outside cuda/include and
//     cuda/shim (the compiler driver cuda/cc, the PTX linker, cuda.go) and
//     cmd/warpsim/cc.go; and the C runtime cuda/shim that every program
//     links, for what a link goes into (CachedBuild; CachedProgram keys the
//     program on the runtime object it links, its objects without it);
//   - the flags, a path inside the module named by its place in the module
//     (so that two checkouts of one tree share their programs);
//   - the sources, any flag that names a file (another source, a
//     --device-ptx file), and every header they can include, followed
//     recursively from them and from cuda_runtime.h (which `warpsim cc`
//     includes in every CUDA source): each #include "…", <…> and
//     #include_next is looked up where clang would look (beside the
//     including file for "…", the -I folders, warpsim's cuda/include, then
//     clang's own system folders: the C and C++ libraries, Debian's CCCL),
//     and every file found under that name is hashed by content, whatever
//     #if around it would choose. A header of cuda/include that no program
//     source can reach (curand_kernel.h for a program without cuRAND) is not
//     in its key; a system header that changes (an upgraded CCCL) is.
//
// An #include whose name is a macro cannot be followed: a program that
// reaches one is keyed on the whole of cuda/include instead (system headers
// reached only through such a macro are covered by clang's version:
// WARPSIM_TEST_CACHE=off, or deleting the cache folder
// os.UserCacheDir()/warpsim-test/programs, builds everything afresh).
// WARPSIM_TEST_CACHE=off builds every program in a temporary folder, as a
// clean CI machine does anyway. Entries unused for a week are removed by
// CleanPrograms.
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

// A keyer computes program keys for one module tree with one compiler.
type keyer struct {
	module  string   // the module's root folder
	clang   string   // the compiler's path
	sysDirs []string // clang's own include folders, in its search order

	toolOnce sync.Once
	toolSum  string
	toolErr  error

	compilerOnce sync.Once
	compilerSum  string
	compilerErr  error

	scanMu  sync.Mutex
	scanned map[string]*scannedFile
	found   map[string][]string // candidates' answers
}

// The keyer of this test binary: the module found above the package's
// folder when the binary starts (a test may change the working directory
// later), clang as cuda/cc finds it.
var (
	defaultKeyerOnce sync.Once
	defaultKeyerVal  *keyer
	defaultKeyerErr  error
)

func defaultKeyer() (*keyer, error) {
	defaultKeyerOnce.Do(func() {
		if startModule == "" {
			defaultKeyerErr = fmt.Errorf("no go.mod at or above the test's folder")
			return
		}
		clang, err := cc.FindClang()
		if err != nil {
			defaultKeyerErr = err
			return
		}
		dirs, err := clangSystemDirs(clang)
		if err != nil {
			defaultKeyerErr = err
			return
		}
		defaultKeyerVal = newKeyer(startModule, clang, dirs)
	})
	return defaultKeyerVal, defaultKeyerErr
}

var startModule = findModuleRoot()

func newKeyer(module, clang string, sysDirs []string) *keyer {
	return &keyer{module: module, clang: clang, sysDirs: sysDirs, scanned: map[string]*scannedFile{}, found: map[string][]string{}}
}

func (k *keyer) cudaTree() string    { return filepath.Join(k.module, "cuda") }
func (k *keyer) cudaInclude() string { return filepath.Join(k.module, "cuda", "include") }
func (k *keyer) cudaShim() string    { return filepath.Join(k.module, "cuda", "shim") }

// clangSystemDirs asks clang for its <…> search list in CUDA mode (the
// CUDA wrappers, libstdc++, clang's resource headers, /usr/include …).
func clangSystemDirs(clang string) ([]string, error) {
	cmd := exec.Command(clang, "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-E", "-v", "-o", os.DevNull, os.DevNull)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s -E -v: %v\n%s", clang, err, out)
	}
	var dirs []string
	in := false
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "#include <...> search starts here"):
			in = true
		case strings.HasPrefix(line, "End of search list"):
			in = false
		case in && strings.HasPrefix(line, " "):
			dirs = append(dirs, filepath.Clean(strings.TrimSpace(line)))
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s -E -v listed no include folders:\n%s", clang, out)
	}
	return dirs, nil
}

var clangVersions sync.Map // clang's path → its --version output

func clangVersion(clang string) ([]byte, error) {
	if v, ok := clangVersions.Load(clang); ok {
		return v.([]byte), nil
	}
	out, err := exec.Command(clang, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %v", clang, err)
	}
	clangVersions.Store(clang, out)
	return out, nil
}

// toolKey hashes the compiler and the C runtime every program links.
func (k *keyer) toolKey() (string, error) {
	k.toolOnce.Do(func() {
		ck, err := k.compilerKey()
		if err != nil {
			k.toolErr = err
			return
		}
		h := sha256.New()
		fmt.Fprintf(h, "runtime\x00%s\x00", ck)
		if err := k.hashTree(h, k.cudaShim()); err != nil {
			k.toolErr = err
			return
		}
		k.toolSum = hex.EncodeToString(h.Sum(nil))
	})
	return k.toolSum, k.toolErr
}

// compilerKey hashes the compiler without the C runtime: clang and
// warpsim's side of `warpsim cc` outside cuda/include and cuda/shim. What
// the compile passes make (PTX, objects, the compiler's messages) depends
// on nothing else but the sources and headers.
func (k *keyer) compilerKey() (string, error) {
	k.compilerOnce.Do(func() {
		h := sha256.New()
		fmt.Fprintln(h, "warpsim test program cache v3")
		out, err := clangVersion(k.clang)
		if err != nil {
			k.compilerErr = err
			return
		}
		fmt.Fprintf(h, "%s\x00%s\x00", k.clang, out)
		if err := k.hashCompilerSources(h); err != nil {
			k.compilerErr = err
			return
		}
		k.compilerSum = hex.EncodeToString(h.Sum(nil))
	})
	return k.compilerSum, k.compilerErr
}

// hashCompilerSources hashes warpsim's side of the compiler in a key: the
// cuda tree outside cuda/include and cuda/shim (the compiler driver, the PTX
// linker) and cmd/warpsim/cc.go. A change to any of them changes every test
// program's key, so that CI compiles every program again
// (TestEveryProgramKeyAcknowledged).
func (k *keyer) hashCompilerSources(h io.Writer) error {
	if err := k.hashTree(h, k.cudaTree(), k.cudaInclude(), k.cudaShim()); err != nil {
		return err
	}
	return k.hashFile(h, filepath.Join(k.module, "cmd", "warpsim", "cc.go"))
}

// hashTree hashes every regular file under dir except Go tests and the
// folders skip, by name and content.
func (k *keyer) hashTree(h io.Writer, dir string, skip ...string) error {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains(skip, p) {
			return filepath.SkipDir
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
		if err := k.hashFile(h, n); err != nil {
			return err
		}
	}
	return nil
}

func (k *keyer) hashFile(h io.Writer, path string) error {
	f, err := k.scan(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%s\x00%x\x00", k.label(path), f.sum)
	return nil
}

// label names a file in a key: by its place in the module, by its path
// when it is one of clang's system headers, otherwise by its base name (a
// source a test wrote into a temporary folder).
func (k *keyer) label(path string) string {
	if rel, ok := within(k.module, path); ok {
		return "module/" + rel
	}
	if k.isSystem(path) {
		return filepath.ToSlash(path)
	}
	return filepath.Base(path)
}

// within reports whether path is inside dir, and its slash-separated
// place there.
func within(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// A scannedFile is one file's content hash and its #include directives.
type scannedFile struct {
	size     int64
	modTime  time.Time
	sum      [sha256.Size]byte
	includes []includeDirective
	macro    bool // an #include of a macro's expansion
}

type includeDirective struct {
	name   string
	quoted bool // "…": looked up beside the including file first
}

// parseIncludes returns the #include, #include_next and #import directives
// of a C or C++ file, and whether one of them names a macro instead of
// a "…" or <…> file. Directives inside comments or #if 0 count too.
func parseIncludes(b []byte) (out []includeDirective, macro bool) {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimLeft(line, " \t")
		if len(line) == 0 || line[0] != '#' {
			continue
		}
		line = bytes.TrimLeft(line[1:], " \t")
		var rest []byte
		for _, kw := range []string{"include_next", "include", "import"} {
			if bytes.HasPrefix(line, []byte(kw)) {
				rest = bytes.TrimLeft(line[len(kw):], " \t")
				break
			}
		}
		if len(rest) == 0 {
			continue
		}
		switch rest[0] {
		case '"', '<':
			end := byte('"')
			if rest[0] == '<' {
				end = '>'
			}
			if j := bytes.IndexByte(rest[1:], end); j > 0 {
				out = append(out, includeDirective{name: string(rest[1 : 1+j]), quoted: rest[0] == '"'})
			}
		default:
			if c := rest[0]; c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
				macro = true
			}
		}
	}
	return out, macro
}

// scan reads a file. Headers of cuda/include and clang's system folders,
// which no test writes, are read once per run (again if their size or time
// changed); any other file (a source, perhaps written by the test a moment
// ago) every time.
func (k *keyer) scan(path string) (*scannedFile, error) {
	keep := k.isSystem(path)
	if _, ok := within(k.cudaInclude(), path); ok {
		keep = true
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if keep {
		k.scanMu.Lock()
		f, ok := k.scanned[path]
		k.scanMu.Unlock()
		if ok && f.size == st.Size() && f.modTime.Equal(st.ModTime()) {
			return f, nil
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &scannedFile{size: st.Size(), modTime: st.ModTime(), sum: sha256.Sum256(b)}
	f.includes, f.macro = parseIncludes(b)
	if keep {
		k.scanMu.Lock()
		k.scanned[path] = f
		k.scanMu.Unlock()
	}
	return f, nil
}

// isSystem reports whether path is under one of clang's system folders.
func (k *keyer) isSystem(path string) bool {
	for _, d := range k.sysDirs {
		if _, ok := within(d, path); ok {
			return true
		}
	}
	return false
}

// candidates are the files an #include of d in the file at from can open:
// every existing file of that name along clang's search (beside from for
// "…", the -I folders, warpsim's headers, clang's system folders). All of
// them, not only the first: #include_next and #if choose among them in
// ways a key need not follow.
func (k *keyer) candidates(from string, d includeDirective, includeDirs []string) []string {
	var dirs []string
	if d.quoted {
		dirs = append(dirs, filepath.Dir(from))
	}
	memo := strings.Join(append(dirs, d.name, strings.Join(includeDirs, "\x00")), "\x01")
	k.scanMu.Lock()
	out, ok := k.found[memo]
	k.scanMu.Unlock()
	if ok {
		return out
	}
	defer func() {
		k.scanMu.Lock()
		k.found[memo] = out
		k.scanMu.Unlock()
	}()
	dirs = append(dirs, includeDirs...)
	dirs = append(dirs, k.cudaInclude())
	dirs = append(dirs, k.sysDirs...)
	for _, dir := range dirs {
		p := filepath.Clean(filepath.Join(dir, d.name))
		if filepath.IsAbs(d.name) {
			p = filepath.Clean(d.name)
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

// programKey is the cache key of src built with flags.
func (k *keyer) programKey(src string, flags []string) (string, error) {
	key, _, err := k.programKeyFiles(src, flags, true)
	return key, err
}

// compileKey is the cache key of what the compile passes make of src
// with flags: programKey without the C runtime.
func (k *keyer) compileKey(src string, flags []string) (string, error) {
	key, _, err := k.programKeyFiles(src, flags, false)
	return key, err
}

// programKeyFiles is programKey (withRuntime) or compileKey, and the files
// hashed in it, by label.
func (k *keyer) programKeyFiles(src string, flags []string, withRuntime bool) (string, []string, error) {
	tool := k.compilerKey
	if withRuntime {
		tool = k.toolKey
	}
	tk, err := tool()
	if err != nil {
		return "", nil, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", tk)
	var includeDirs []string
	queue := []string{src}
	for i, f := range flags {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			// Another source, a PTX file: named as a source is, and
			// hashed below.
			abs, err := filepath.Abs(f)
			if err != nil {
				return "", nil, err
			}
			fmt.Fprintf(h, "flag file\x00%s\x00", k.label(abs))
			queue = append(queue, f)
		} else {
			fmt.Fprintf(h, "flag\x00%s\x00", k.flagLabel(f))
		}
		switch {
		case (f == "-I" || f == "-isystem") && i+1 < len(flags):
			includeDirs = append(includeDirs, flags[i+1])
		case strings.HasPrefix(f, "-I") && len(f) > 2:
			includeDirs = append(includeDirs, f[2:])
		}
	}
	// warpsim cc includes cuda_runtime.h in every CUDA source.
	queue = append(queue, filepath.Join(k.cudaInclude(), "cuda_runtime.h"))
	// The sources and what they can include, breadth first, each file once.
	seen := map[string]bool{}
	macro := false
	var files []string
	for len(queue) > 0 {
		p := filepath.Clean(queue[0])
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		f, err := k.scan(p)
		if err != nil {
			return "", nil, err
		}
		fmt.Fprintf(h, "file\x00%s\x00%x\x00", k.label(p), f.sum)
		files = append(files, k.label(p))
		macro = macro || f.macro
		for _, d := range f.includes {
			queue = append(queue, k.candidates(p, d, includeDirs)...)
		}
	}
	if macro {
		// A name this scan cannot follow: every header warpsim has.
		fmt.Fprintf(h, "every header\x00")
		if err := k.hashTree(h, k.cudaInclude()); err != nil {
			return "", nil, err
		}
		files = append(files, "module/cuda/include/...")
	}
	return hex.EncodeToString(h.Sum(nil))[:24], files, nil
}

// flagLabel is a flag as the key holds it: a path inside the module (alone
// or after -I) by its place there.
func (k *keyer) flagLabel(f string) string {
	prefix, p := "", f
	if strings.HasPrefix(f, "-I") && len(f) > 2 {
		prefix, p = "-I", f[2:]
	}
	if filepath.IsAbs(p) {
		if rel, ok := within(k.module, filepath.Clean(p)); ok {
			return prefix + "module/" + rel
		}
	}
	return f
}

// CachedBuild returns the program built from src with flags: from the
// cache, or built by build into a fresh folder and then published there.
// build must make one file in the folder it is given, named as src's base less a .cu
// suffix, and return its path. Two test runs at once may both build
// it; the first to publish wins. Callers build each program once per run
// (a sync.Once per source and flags) and call CleanPrograms when the run
// ends. The key holds the C runtime: for what links it (a program, a
// folder of several builds, what `warpsim cc` says of a whole build);
// CachedProgram keeps a program's objects apart from its link.
func CachedBuild(src string, flags []string, build func(dir string) (string, error)) (string, error) {
	return cachedBuild(src, flags, true, build)
}

// CachedCompile is CachedBuild for what the compile passes make and no
// link goes into (PTX, a compiler's messages about a source): its key
// leaves the C runtime (cuda/shim) out, so a change there keeps it.
func CachedCompile(src string, flags []string, build func(dir string) (string, error)) (string, error) {
	return cachedBuild(src, flags, false, build)
}

func cachedBuild(src string, flags []string, withRuntime bool, build func(dir string) (string, error)) (string, error) {
	root := programCacheRoot()
	if root == "" {
		return uncachedBuild(build)
	}
	k, err := defaultKeyer()
	if err != nil {
		return "", fmt.Errorf("program cache key of %s: %v", src, err)
	}
	return cachedBuildIn(root, k, src, flags, withRuntime, build)
}

// cachedBuildIn is cachedBuild's cache: the entry of src built with flags
// under root, keyed by k (with the C runtime when withRuntime).
func cachedBuildIn(root string, k *keyer, src string, flags []string, withRuntime bool, build func(dir string) (string, error)) (string, error) {
	key, _, err := k.programKeyFiles(src, flags, withRuntime)
	if err != nil {
		return "", fmt.Errorf("program cache key of %s: %v", src, err)
	}
	return cachedEntry(root, key, strings.TrimSuffix(filepath.Base(src), ".cu"), build)
}

// cachedEntry returns root/key/name: from the cache, or made by build in
// a fresh folder that is then published as root/key.
func cachedEntry(root, key, name string, build func(dir string) (string, error)) (string, error) {
	dir := filepath.Join(root, key)
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

// CachedProgram returns the program `warpsim cc` builds from src with
// flags (nvcc's, as the command takes them, before src), kept in two
// parts: the objects the compile passes make (cc.Driver.Compile), under
// a key without the C runtime, and the program linked from them
// (cc.Driver.Link), under the objects' key and the digest of the runtime
// object it was linked with. A change to cuda/shim then costs a link of
// each program, not a build. The runtime is compiled with the simulator
// "warpsim" (its default); the package's TestMain sets WARPSIM_BIN to the
// simulator the programs start.
func CachedProgram(src string, flags []string) (string, error) {
	name := strings.TrimSuffix(filepath.Base(src), ".cu")
	var stderr bytes.Buffer
	d, err := cc.NewDriver(&stderr)
	if err != nil {
		return "", err
	}
	d.WarpsimBin = "warpsim"
	opt, err := cc.ParseArgs(append(append(append([]string(nil), flags...), src), "-o", name))
	if err != nil {
		return "", fmt.Errorf("warpsim cc %s %s: %v", strings.Join(flags, " "), src, err)
	}
	if opt.CompileOnly || opt.DeviceLink || opt.DeviceOnly != "" {
		return "", fmt.Errorf("CachedProgram builds whole programs; %v makes none", flags)
	}
	for _, in := range opt.Inputs {
		if strings.HasSuffix(in, ".o") || strings.HasSuffix(in, ".a") {
			return "", fmt.Errorf("CachedProgram keys on sources: the input %s is an object (use CachedBuild)", in)
		}
	}
	failed := func(err error) error {
		return fmt.Errorf("warpsim cc %s %s: %v\n%s", strings.Join(flags, " "), src, err, stderr.String())
	}
	root := programCacheRoot()
	if root == "" {
		return uncachedBuild(func(dir string) (string, error) {
			opt.Output = filepath.Join(dir, name)
			if err := d.Build(opt); err != nil {
				return "", failed(err)
			}
			return opt.Output, nil
		})
	}
	k, err := defaultKeyer()
	if err != nil {
		return "", fmt.Errorf("program cache key of %s: %v", src, err)
	}
	rt, err := d.RuntimeObject()
	if err != nil {
		return "", failed(err)
	}
	rtSum, err := fileDigest(rt)
	if err != nil {
		return "", err
	}
	return cachedProgram(root, k, d, opt, src, flags, rtSum, failed)
}

// cachedProgram is CachedProgram's cache: the objects of src built with
// flags (opt) under root, and the program linked from them by d under a
// key that adds rtSum, the digest of d's runtime object.
func cachedProgram(root string, k *keyer, d *cc.Driver, opt *cc.Options, src string, flags []string, rtSum string, failed func(error) error) (string, error) {
	objKey, err := k.compileKey(src, append([]string{"--test-objects"}, flags...))
	if err != nil {
		return "", fmt.Errorf("program cache key of %s: %v", src, err)
	}
	name := strings.TrimSuffix(filepath.Base(src), ".cu")
	now := time.Now()
	os.Chtimes(filepath.Join(root, objKey), now, now) // kept by CleanPrograms while its programs are used
	progKey := sha256.Sum256([]byte(objKey + "\x00linked with\x00" + rtSum))
	return cachedEntry(root, hex.EncodeToString(progKey[:])[:24], name, func(progDir string) (string, error) {
		plan, err := cachedEntry(root, objKey, objectsMarker, func(objDir string) (string, error) {
			if err := d.Compile(opt, objDir); err != nil {
				return "", failed(err)
			}
			marker := filepath.Join(objDir, objectsMarker)
			return marker, os.WriteFile(marker, []byte("objects of "+src+"\n"), 0o644)
		})
		if err != nil {
			return "", err
		}
		out := filepath.Join(progDir, name)
		if err := d.Link(filepath.Dir(plan), out); err != nil {
			return "", failed(err)
		}
		return out, nil
	})
}

// objectsMarker names the file that completes a folder of objects.
const objectsMarker = "objects"

var fileDigests sync.Map // a runtime object's path → its sha256, hex

// fileDigest is the digest of the file at path, read once per run (the
// runtime object, which is never rewritten under its name).
func fileDigest(path string) (string, error) {
	if s, ok := fileDigests.Load(path); ok {
		return s.(string), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	s := hex.EncodeToString(sum[:])
	fileDigests.Store(path, s)
	return s, nil
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
