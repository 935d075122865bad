package cudart

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/sanitize"
)

// TestSanitizeHostSide: under memcheck the runtime reports failed calls as
// compute-sanitizer does, leaks at cudaDeviceReset and at exit, and leaves
// the closing summary for `warpsim sanitize`.
func TestSanitizeHostSide(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.json")
	z := &Sanitizing{San: sanitize.New(sanitize.Options{Tool: sanitize.Memcheck, LeakCheck: true}), outPath: out}
	s := NewServer(Options{
		NewDevice: newFake,
		Arch:      arch.MustLookup("h100"),
		Sanitize:  z,
	})
	call := func(op uint32, payload []byte) reply {
		rep := s.handle(request{op: op, payload: payload})
		z.reply(op, &rep)
		return rep
	}
	malloc := func(n uint64) reply { return call(opMalloc, append(putU64s(n), putU32s(uint32(kindDevice))...)) }
	free := func(a uint64) reply { return call(opFree, append(putU64s(a), putU32s(0, 0)...)) }
	if rep := call(opHello, putU32s(protocolVersion)); rep.code != Success {
		t.Fatalf("hello: %d %s", rep.code, rep.diag)
	}
	rep := malloc(1000)
	a := binary.LittleEndian.Uint64(rep.data)
	rep = free(a + 16)
	want := "========= Program hit cudaErrorInvalidValue (error 1) due to \"invalid argument\" on CUDA API call to cudaFree.\n"
	if rep.code != ErrorInvalidValue || string(rep.out) != want+"========= \n" {
		t.Errorf("bad free: code %d, out %q", rep.code, rep.out)
	}
	rep = call(opReset, nil)
	if !strings.Contains(string(rep.out), "========= Leaked 1,000 bytes at 0x") {
		t.Errorf("cudaDeviceReset did not report the leak: %q", rep.out)
	}
	malloc(24)
	// Pinned host memory never freed is a leak too (the H100:
	// testdata/sanitize/probe5/recorded/leak_loop.memcheck.stdout).
	call(opMalloc, append(putU64s(4096), putU32s(uint32(kindHost))...))
	rep = malloc(8)
	b := binary.LittleEndian.Uint64(rep.data)
	free(b)
	z.finish()
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res SanitizeResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"========= Leaked 24 bytes at 0x", "========= Leaked 4,096 bytes at 0x", "========= LEAK SUMMARY: 5120 bytes leaked in 3 allocations\n", "========= ERROR SUMMARY: 4 errors\n"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("closing report lacks %q:\n%s", w, res.Text)
		}
	}
	if res.Errors != 4 {
		t.Errorf("errors = %d, want 4", res.Errors)
	}
}

// TestSanitizeCopyAfterFreeAsync: an allocation cudaFreeAsync freed is gone
// for every later call, before its stream reaches the free: a
// cudaMemcpyAsync from it fails with cudaErrorInvalidValue, reported on
// cudaMemcpyAsync (the H100: testdata/sanitize/probe5,
// copy_after_freeasync), and so does a cudaMemset of it.
func TestSanitizeCopyAfterFreeAsync(t *testing.T) {
	z := &Sanitizing{San: sanitize.New(sanitize.Options{Tool: sanitize.Memcheck})}
	s := NewServer(Options{NewDevice: newFake, Arch: arch.MustLookup("h100"), Sanitize: z})
	call := func(op uint32, payload []byte) reply {
		rep := s.handle(request{op: op, payload: payload})
		z.reply(op, &rep)
		return rep
	}
	if rep := call(opHello, putU32s(protocolVersion)); rep.code != Success {
		t.Fatalf("hello: %d %s", rep.code, rep.diag)
	}
	a := binary.LittleEndian.Uint64(call(opMalloc, append(putU64s(256), putU32s(uint32(kindDevice))...)).data)
	b := binary.LittleEndian.Uint64(call(opMalloc, append(putU64s(256), putU32s(uint32(kindDevice))...)).data)
	hostCopy := func(addr uint64, flags uint32) reply {
		return call(opHostCopy, append(putU32s(0, flags), putU64s(addr, 256)...))
	}
	if rep := hostCopy(a, uint32(deviceToHost)|hostCopyAsync); rep.code != Success {
		t.Fatalf("copy before the free: code %d %s", rep.code, rep.diag)
	}
	if rep := call(opFree, append(putU64s(a), putU32s(0, 1)...)); rep.code != Success {
		t.Fatalf("cudaFreeAsync: code %d", rep.code)
	}
	tests := []struct {
		name string
		rep  reply
		api  string
	}{
		{"cudaMemcpyAsync", hostCopy(a+16, uint32(deviceToHost)|hostCopyAsync), "cudaMemcpyAsync"},
		{"cudaMemcpy", hostCopy(a, uint32(deviceToHost)), "cudaMemcpy"},
		{"device to device", call(opCopy, append(putU32s(0, 1), putU64s(b, a, 256)...)), "cudaMemcpyAsync"},
		{"cudaMemset", call(opMemset, append(putU32s(0, 0), putU64s(a, 0, 256)...)), "cudaMemset"},
	}
	for _, tc := range tests {
		want := "========= Program hit cudaErrorInvalidValue (error 1) due to \"invalid argument\" on CUDA API call to " + tc.api + ".\n========= \n"
		if tc.rep.code != ErrorInvalidValue || string(tc.rep.out) != want {
			t.Errorf("%s: code %d, report %q; want cudaErrorInvalidValue, %q", tc.name, tc.rep.code, tc.rep.out, want)
		}
	}
	if rep := hostCopy(b, uint32(deviceToHost)|hostCopyAsync); rep.code != Success {
		t.Errorf("a copy from the other allocation: code %d %s", rep.code, rep.diag)
	}
}
