package warpsim_test

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// sanitizePTX has hand-written PTX twins of two of the programs
// testdata/sanitize/record.sh ran under compute-sanitizer on the H100:
// writeAll is oob_global.cu's kernel, gather is uninit.cu's.
const sanitizePTX = `
.version 8.0
.target sm_90
.address_size 64
.visible .entry writeAll(.param .u64 pa, .param .u32 pn)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [pa];
	ld.param.u32 %r1, [pn];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.gt.s32 %p1, %r5, %r1;
	@%p1 bra DONE;
	mul.wide.s32 %rd2, %r5, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
DONE:
	ret;
}
.visible .entry gather(.param .u64 pin, .param .u64 pout)
{
	.reg .pred %p<3>;
	.reg .b32 %r<3>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [pin];
	ld.param.u64 %rd2, [pout];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 32;
	setp.eq.u32 %p2, %r1, 40;
	or.pred %p1, %p1, %p2;
	@!%p1 bra DONE;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r2, [%rd4];
	add.s64 %rd5, %rd2, %rd3;
	st.global.u32 [%rd5], %r2;
DONE:
	ret;
}
`

// recordedBlocks reads a compute-sanitizer recording
// (testdata/sanitize/recorded) into its report blocks, with what differs
// between a GPU and warpsim masked: addresses, host frames, and the
// "at KERNEL+0xOFF in FILE:LINE" of SASS rather than PTX.
func recordedBlocks(t *testing.T, name string) (blocks [][]string, summary string) {
	t.Helper()
	b, err := os.ReadFile("testdata/sanitize/recorded/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var cur []string
	for _, line := range strings.Split(string(b), "\n") {
		line, ok := strings.CutPrefix(line, "========= ")
		switch {
		case !ok || line == "COMPUTE-SANITIZER":
		case strings.Contains(line, "SUMMARY:"):
			summary = line
		case line == "":
			if len(cur) > 0 {
				blocks = append(blocks, cur)
			}
			cur = nil
		default:
			cur = append(cur, maskSanitizerLine(line))
		}
	}
	return blocks, summary
}

var (
	sanAddr  = regexp.MustCompile(`0x[0-9a-f]+`)
	sanWhere = regexp.MustCompile(`\bat .+?\+0x[0-9a-f]+ in [^\s:]+:\d+`)
)

// maskSanitizerLine hides a report line's addresses and code location.
func maskSanitizerLine(l string) string {
	l = sanWhere.ReplaceAllString(l, "at WHERE")
	return sanAddr.ReplaceAllString(l, "ADDR")
}

// kernelBlocks are a recording's blocks that a kernel caused (not the
// failed API call that follows a stopped kernel), cut at the host
// backtrace, which warpsim has no counterpart for.
func kernelBlocks(blocks [][]string) [][]string {
	var out [][]string
	for _, b := range blocks {
		if strings.HasPrefix(b[0], "Program hit ") {
			continue
		}
		if i := slices.IndexFunc(b, func(l string) bool { return strings.Contains(l, "Saved host backtrace") }); i >= 0 {
			b = b[:i]
		}
		out = append(out, b)
	}
	return out
}

func maskedFindings(fs []warpsim.SanitizerFinding) [][]string {
	var out [][]string
	for _, f := range fs {
		b := []string{maskSanitizerLine(f.Message)}
		for _, d := range f.Details {
			b = append(b, maskSanitizerLine(d))
		}
		out = append(out, b)
	}
	return out
}

// TestDeviceSanitizeMatchesRecordings runs the public sanitizer entry point
// (Device.Sanitize) on PTX twins of recorded programs and compares each
// finding, line by line with addresses masked, and the summary with
// compute-sanitizer's on the H100.
func TestDeviceSanitizeMatchesRecordings(t *testing.T) {
	a := arch.MustLookup("h100")
	kernelsPTX, err := os.ReadFile("testdata/sanitize/launch/kernels.ptx")
	if err != nil {
		t.Fatal(err)
	}
	u64 := func(vs ...uint64) []byte {
		var p []byte
		for _, v := range vs {
			p = binary.LittleEndian.AppendUint64(p, v)
		}
		return p
	}
	tests := []struct {
		recording, tool string
		// run allocates, launches and returns the launch's error.
		run      func(t *testing.T, dev *warpsim.Device) error
		wantStop bool // the kernel is stopped (memcheck): a FaultSanitizer
	}{
		{"oob_global.memcheck.stdout", "memcheck", func(t *testing.T, dev *warpsim.Device) error {
			// cudaMalloc(&a, 256 ints); writeAll<<<3, 128>>>(a, 256).
			k := loadKernel(t, dev, "oob.ptx", sanitizePTX, "writeAll")
			p, _ := dev.Malloc(256 * 4)
			_, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 3, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 128, Y: 1, Z: 1}},
				binary.LittleEndian.AppendUint32(u64(p), 256))
			return err
		}, true},
		{"uninit.initcheck.stdout", "initcheck", func(t *testing.T, dev *warpsim.Device) error {
			// Two buffers of 64 ints; the host copies 32 into the first.
			k := loadKernel(t, dev, "uninit.ptx", sanitizePTX, "gather")
			in, _ := dev.Malloc(64 * 4)
			out, _ := dev.Malloc(64 * 4)
			if err := dev.Write(in, make([]byte, 32*4)); err != nil {
				t.Fatal(err)
			}
			_, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}}, u64(in, out))
			return err
		}, false},
		{"race_raw.racecheck.stdout", "racecheck", func(t *testing.T, dev *warpsim.Device) error {
			// race_raw.cu's shiftLeft<<<1, 64>>>: kernels.ptx's race is
			// the same shared-memory pattern.
			k := loadKernel(t, dev, "kernels.ptx", string(kernelsPTX), "race")
			out, _ := dev.Malloc(64 * 4)
			_, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}}, u64(out))
			return err
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.recording, func(t *testing.T) {
			blocks, summary := recordedBlocks(t, tc.recording)
			want := kernelBlocks(blocks)
			if len(want) == 0 || summary == "" {
				t.Fatalf("%s: no findings or no summary recorded", tc.recording)
			}
			dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard})
			san, err := dev.Sanitize(warpsim.SanitizeOptions{Tool: tc.tool})
			if err != nil {
				t.Fatal(err)
			}
			lerr := tc.run(t, dev)
			var f *warpsim.Fault
			switch stopped := errors.As(lerr, &f) && f.Kind == warpsim.FaultSanitizer; {
			case stopped != tc.wantStop:
				t.Errorf("launch error %v, want a sanitizer stop: %v", lerr, tc.wantStop)
			case stopped && f.Kind.CUDAError() != 719:
				// The recording's program saw cudaErrorLaunchFailure.
				t.Errorf("a stopped kernel gives CUDA error %d, want 719", f.Kind.CUDAError())
			case !stopped && lerr != nil:
				t.Errorf("launch: %v", lerr)
			}
			if got := maskedFindings(san.Findings()); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("findings\n%q\nwant (recorded)\n%q", got, want)
			}
			// The recorded summary counts the failed API call after a
			// stopped kernel too; the device has no API calls.
			wantErrors := len(want)
			if tc.tool == "racecheck" {
				wantErrors = 0
				for _, b := range want {
					if strings.HasPrefix(b[0], "Error:") {
						wantErrors++
					}
				}
			} else if !strings.Contains(summary, "ERROR SUMMARY: "+strconv.Itoa(len(blocks))+" error") {
				t.Fatalf("recorded summary %q does not count its %d blocks", summary, len(blocks))
			}
			if san.Errors() != wantErrors {
				t.Errorf("Errors() = %d, want %d", san.Errors(), wantErrors)
			}
			if tc.tool == "racecheck" && !strings.HasSuffix(san.Report(), "========= "+summary+"\n") {
				t.Errorf("report\n%s\nwant the recorded summary %q", san.Report(), summary)
			}
		})
	}
}

func loadKernel(t *testing.T, dev *warpsim.Device, file, src, name string) *warpsim.Kernel {
	t.Helper()
	m, err := dev.LoadModule(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k, err := m.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestDeviceSanitizeOptions checks the entry point's refusals and Close.
func TestDeviceSanitizeOptions(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard})
	for _, opt := range []warpsim.SanitizeOptions{{Tool: "leakcheck"}, {Tool: "racecheck", RaceReport: "some"}} {
		if _, err := dev.Sanitize(opt); err == nil || !strings.Contains(err.Error(), "sanitize:") {
			t.Errorf("Sanitize(%+v) = %v, want an error", opt, err)
		}
	}
	san, err := dev.Sanitize(warpsim.SanitizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if san.Tool() != "memcheck" {
		t.Errorf("the zero options run %s, want memcheck", san.Tool())
	}
	if _, err := dev.Sanitize(warpsim.SanitizeOptions{}); err == nil {
		t.Error("a second sanitizer on one device was accepted")
	}
	k := loadKernel(t, dev, "oob.ptx", sanitizePTX, "writeAll")
	p, _ := dev.Malloc(4)
	params := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint64(nil, p), 1)
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 2, Y: 1, Z: 1}}
	var f *warpsim.Fault
	if _, err := dev.Launch(k, cfg, params); !errors.As(err, &f) || f.Kind != warpsim.FaultSanitizer {
		t.Fatalf("under memcheck: %v, want a sanitizer stop", err)
	}
	san.Close()
	// Without the sanitizer the engine's own bounds check faults.
	if _, err := dev.Launch(k, cfg, params); !errors.As(err, &f) || f.Kind != warpsim.FaultOutOfBounds {
		t.Fatalf("after Close: %v, want an out-of-bounds fault", err)
	}
	if n := len(san.Findings()); n != 1 || san.Errors() != 1 {
		t.Errorf("after Close: %d findings, %d errors; want the one from before", n, san.Errors())
	}
	if _, err := dev.Sanitize(warpsim.SanitizeOptions{Tool: "synccheck"}); err != nil {
		t.Errorf("a new sanitizer after Close: %v", err)
	}
}
