package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestHeapProfileEvery: WARPSIM_MEMPROFILE's writer leaves a whole gzipped
// pprof profile at its path while the runtime runs and once more when it
// stops.
func TestHeapProfileEvery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heap.pb.gz")
	stop := writeHeapProfileEvery(path, 20*time.Millisecond)
	var b []byte
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, _ = os.ReadFile(path); len(b) > 0 {
			break
		}
	}
	if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Fatalf("no gzipped profile at %s while running (%d bytes)", path, len(b))
	}
	os.Remove(path)
	stop()
	if b, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Fatalf("no gzipped profile at %s after stop: %v", path, err)
	}
	if _, err := os.Stat(path + ".tmp"); err == nil {
		t.Errorf("%s.tmp left behind", path)
	}
}
