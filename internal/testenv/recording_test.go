package testenv

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRecording(t *testing.T) {
	dir := t.TempDir()
	plain, zipped := filepath.Join(dir, "plain.bin"), filepath.Join(dir, "zipped.bin")
	if err := os.WriteFile(plain, []byte("plain"), 0o644); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte("from gzip"))
	w.Close()
	if err := os.WriteFile(zipped+".gz", z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.bin.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want, err string
	}{
		{plain, "plain", ""},
		{zipped, "from gzip", ""},
		{filepath.Join(dir, "none.bin"), "", "neither it nor"},
		{filepath.Join(dir, "bad.bin"), "", "bad.bin.gz"},
	}
	for _, tc := range tests {
		got, err := ReadRecording(tc.path)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one containing %q", tc.path, err, tc.err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
}
