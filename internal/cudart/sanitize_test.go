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
	// Pinned host memory is not device memory: no leak.
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
	for _, w := range []string{"========= Leaked 24 bytes at 0x", "========= LEAK SUMMARY: 1024 bytes leaked in 2 allocations\n", "========= ERROR SUMMARY: 3 errors\n"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("closing report lacks %q:\n%s", w, res.Text)
		}
	}
	if res.Errors != 3 {
		t.Errorf("errors = %d, want 3", res.Errors)
	}
}
