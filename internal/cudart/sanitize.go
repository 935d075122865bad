package cudart

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"sync"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/cuda"
	"github.com/warpsim/warpsim/internal/devhook"
	"github.com/warpsim/warpsim/internal/sanitize"
)

// Settings `warpsim sanitize` passes to the runtime, as compute-sanitizer's
// flags: the tool, --leak-check full, --racecheck-report, --print-limit,
// --check-local, --check-global-races, and the file the closing report
// goes to.
const (
	EnvSanitize       = "WARPSIM_SANITIZE"
	EnvSanitizeLeaks  = "WARPSIM_SANITIZE_LEAK_CHECK"
	EnvSanitizeRace   = "WARPSIM_SANITIZE_RACECHECK_REPORT"
	EnvSanitizeLimit  = "WARPSIM_SANITIZE_PRINT_LIMIT"
	EnvSanitizeLocal  = "WARPSIM_SANITIZE_CHECK_LOCAL"
	EnvSanitizeRaces  = "WARPSIM_SANITIZE_GLOBAL_RACES"
	EnvSanitizeUnused = "WARPSIM_SANITIZE_TRACK_UNUSED"
	EnvSanitizeOut    = "WARPSIM_SANITIZE_OUT"
)

// SanitizeResult is what the runtime leaves for `warpsim sanitize` at exit:
// the errors found and the closing text (leaks, summaries).
type SanitizeResult struct {
	Errors int    `json:"errors"`
	Text   string `json:"text"`
}

// Sanitizing runs a program's device under a sanitizer: it watches the
// host's allocations, copies and failed calls, and puts the sanitizer's
// report into the program's output as compute-sanitizer does.
type Sanitizing struct {
	San     *sanitize.Sanitizer
	outPath string
	dev     *sanDevice
}

// SanitizingFromEnv reads the settings; nil when WARPSIM_SANITIZE is unset.
func SanitizingFromEnv(a *arch.Arch) (*Sanitizing, error) {
	name := os.Getenv(EnvSanitize)
	if name == "" {
		return nil, nil
	}
	tool, err := sanitize.ParseTool(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", EnvSanitize, err)
	}
	opt := sanitize.Options{
		Tool:        tool,
		LeakCheck:   os.Getenv(EnvSanitizeLeaks) == "full",
		RaceReport:  os.Getenv(EnvSanitizeRace),
		CheckLocal:  os.Getenv(EnvSanitizeLocal) == "1",
		GlobalRaces: os.Getenv(EnvSanitizeRaces) == "1",
		TrackUnused: os.Getenv(EnvSanitizeUnused) == "1",
		SharedBase:  uint64(a.ReservedSharedPerBlock),
	}
	if v := os.Getenv(EnvSanitizeLimit); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", EnvSanitizeLimit, v)
		}
		opt.PrintLimit = n
		if n == 0 {
			// compute-sanitizer: 0 is no limit (it printed all 200 of 200
			// errors: testdata/hostile/h100.txt, sanitize_limits).
			opt.PrintLimit = math.MaxInt32
		}
	}
	return &Sanitizing{San: sanitize.New(opt), outPath: os.Getenv(EnvSanitizeOut)}, nil
}

// hostAlloc is one cudaMalloc not yet freed.
type hostAlloc struct{ addr, size uint64 }

// sanDevice is the device as the sanitizer sees the host use it. Device
// memory lives in the window the program shares, so the host's writes are
// told by the server (Sanitizing.hostWrote): the copies and fills it runs
// and the program's own copies into device memory (opHostCopy).
type sanDevice struct {
	Device
	s      *Sanitizing
	mu     sync.Mutex  // Free may run on the executor (cudaFreeAsync)
	allocs []hostAlloc // by address
}

// wrap puts a new device under the sanitizer; the device it replaces
// (cudaDeviceReset) has its leaks reported.
func (z *Sanitizing) wrap(d Device) Device {
	if z.dev != nil {
		z.leaks()
	}
	if sd, ok := d.(*simDevice); ok {
		devhook.SetChecker(sd.Device, z.San)
	}
	z.dev = &sanDevice{Device: d, s: z}
	return z.dev
}

func (d *sanDevice) Malloc(size uint64) (uint64, error) {
	addr, err := d.Device.Malloc(size)
	if err == nil {
		d.mu.Lock()
		i := sort.Search(len(d.allocs), func(i int) bool { return d.allocs[i].addr > addr })
		d.allocs = append(d.allocs, hostAlloc{})
		copy(d.allocs[i+1:], d.allocs[i:])
		d.allocs[i] = hostAlloc{addr, size}
		d.mu.Unlock()
		d.s.San.HostAlloc(addr, size)
	}
	return addr, err
}

func (d *sanDevice) Free(addr uint64) error {
	err := d.Device.Free(addr)
	if err == nil {
		d.forget(addr)
		d.s.San.HostFree(addr)
	}
	return err
}

// forget drops the host allocation at addr from the leak list.
func (d *sanDevice) forget(addr uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if i, ok := d.find(addr); ok && d.allocs[i].addr == addr {
		d.allocs = append(d.allocs[:i], d.allocs[i+1:]...)
	}
}

// find returns the host allocation holding addr (d.mu held).
func (d *sanDevice) find(addr uint64) (int, bool) {
	i := sort.Search(len(d.allocs), func(i int) bool { return d.allocs[i].addr+max(d.allocs[i].size, 1) > addr })
	return i, i < len(d.allocs) && addr >= d.allocs[i].addr
}

func (d *sanDevice) wrote(addr, n uint64) {
	d.mu.Lock()
	i, ok := d.find(addr)
	var base uint64
	if ok {
		base = d.allocs[i].addr
	}
	d.mu.Unlock()
	if ok {
		d.s.San.HostWrite(base, addr, n)
	}
}

// hostWrote tells the sanitizer that the host wrote [addr, addr+n) of
// device memory (initcheck).
func (z *Sanitizing) hostWrote(addr, n uint64) {
	if z != nil && z.dev != nil {
		z.dev.wrote(addr, n)
	}
}

// hostMemory is an allocation that is not device memory (pinned host or
// managed memory, cudaMallocHost/cudaHostAlloc/cudaMallocManaged): the
// program writes it through its own pointer, which the sanitizer cannot
// see, so it counts as initialized. Never freed, either is a leak, as for
// cudaMalloc (the H100's --leak-check full reports managed memory,
// testdata/sanitize/probe2/recorded/leak_async.memcheck.stdout, and pinned
// host memory, probe5/recorded/leak_loop.memcheck.stdout).
func (z *Sanitizing) hostMemory(addr, n uint64) {
	if z == nil || z.dev == nil {
		return
	}
	z.dev.wrote(addr, n)
}

// HostWrote tells initcheck that the host side wrote [addr, addr+n): a
// copy or memset the server made, or a copy the program made itself.
// (Writes the program makes through pointers into pinned or managed memory
// are not seen.)
func (d *sanDevice) HostWrote(addr, n uint64) { d.wrote(addr, n) }

func (d *sanDevice) Launch(k Kernel, cfg LaunchConfig, params []byte) (*Launched, error) {
	before := d.s.San.Stops()
	res, err := d.Device.Launch(k, cfg, params)
	d.s.San.EndLaunch()
	var f *Fault
	if errors.As(err, &f) && d.s.San.Stops() > before {
		// The sanitizer stopped the kernel and has said why; the program
		// sees cudaErrorLaunchFailure, as under compute-sanitizer.
		return nil, &Fault{Code: ErrorLaunchFailure}
	}
	return res, err
}

// leaks reports the current device's live host allocations.
func (z *Sanitizing) leaks() {
	var l []sanitize.Leak
	z.dev.mu.Lock()
	for _, a := range z.dev.allocs {
		l = append(l, sanitize.Leak{Addr: a.addr, Size: a.size})
	}
	z.dev.mu.Unlock()
	z.San.Leaks(l)
}

// reply adds to a reply what the sanitizer has to say: the failed call
// (memcheck's "Program hit …") and any report text.
func (z *Sanitizing) reply(op uint32, rep *reply) {
	name, ok := apiNames[op]
	if rep.api != "" {
		name, ok = rep.api, true
	}
	if ok && rep.code != Success {
		n, text := errorWords(rep.code)
		z.San.APIError(name, int(rep.code), n, text)
	}
	rep.out = append(rep.out, z.San.Take()...)
}

// stickyError reports a runtime call the program's runtime refused on its
// own with the context's sticky error (opStickyError's payload: the code,
// then the call's name): compute-sanitizer reports each such call as it
// does a failed one ("Program hit cudaErrorLaunchFailure ... on CUDA API
// call to cudaMemcpy", testdata/hostile/h100.txt, stencil_before).
func (z *Sanitizing) stickyError(p *payloadReader) {
	code := Error(p.u32())
	name := string(p.rest())
	if p.err != nil || name == "" {
		return
	}
	n, text := errorWords(code)
	z.San.APIError(name, int(code), n, text)
}

// finish runs at the program's exit: leaks, then the closing summary,
// written where `warpsim sanitize` reads them.
func (z *Sanitizing) finish() {
	if z.dev != nil {
		z.leaks()
	}
	text := string(z.San.Take()) + z.San.Summary()
	res := SanitizeResult{Errors: z.San.Errors(), Text: text}
	if z.outPath == "" {
		os.Stdout.WriteString(text)
		return
	}
	b, _ := json.Marshal(res)
	if err := os.WriteFile(z.outPath, b, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "warpsim: writing the sanitizer's report: %v\n", err)
	}
}

// apiNames names the CUDA call behind each request, for "on CUDA API call
// to …". One request serves several calls (opSync: cudaDeviceSynchronize,
// cudaStreamSynchronize, cudaEventSynchronize); the commonest is named.
var apiNames = map[uint32]string{
	opMalloc: "cudaMalloc", opFree: "cudaFree", opHostCopy: "cudaMemcpy", opCopy: "cudaMemcpy",
	opMemset: "cudaMemset", opLaunch: "cudaLaunchKernel", opSync: "cudaDeviceSynchronize",
	opStreamSync: "cudaStreamSynchronize", opEventSync: "cudaEventSynchronize",
	opGlobal: "cudaGetSymbolAddress", opOccupancy: "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
	opEventRecord: "cudaEventRecord", opReset: "cudaDeviceReset", opFuncAttr: "cudaFuncGetAttributes",
	opStreamCreate: "cudaStreamCreate", opStreamWait: "cudaStreamWaitEvent", opMemInfo: "cudaMemGetInfo",
	opLimit: "cudaDeviceSetLimit",
}

var (
	errWordsOnce sync.Once
	errWords     map[Error][2]string
)

// errorWords is cudaGetErrorName and cudaGetErrorString of code, from the
// shim's table.
func errorWords(code Error) (string, string) {
	errWordsOnce.Do(func() {
		errWords = map[Error][2]string{}
		f, err := cuda.Files().Open("shim/warpsim_rt_errors.h")
		if err != nil {
			return
		}
		defer f.(fs.File).Close()
		re := regexp.MustCompile(`^E\((\d+), (\w+), "(.*)"\)`)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				n, _ := strconv.Atoi(m[1])
				errWords[Error(n)] = [2]string{m[2], m[3]}
			}
		}
	})
	if w, ok := errWords[code]; ok {
		return w[0], w[1]
	}
	return fmt.Sprintf("cudaError%d", code), "unknown error"
}
