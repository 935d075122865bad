package testenv

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// ReadRecording reads a file recorded on a GPU: path itself, or, where that
// does not exist, path+".gz". Recordings of random data are committed
// gzip-compressed when that saves at least a fifth of their size
// (testdata/compress-recordings.sh); the recording scripts write them plain.
// Neither existing is an error naming both.
func ReadRecording(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		return b, err
	}
	z, zerr := os.ReadFile(path + ".gz")
	if zerr != nil {
		if errors.Is(zerr, os.ErrNotExist) {
			return nil, fmt.Errorf("recording %s: neither it nor %s.gz exists", path, path)
		}
		return nil, zerr
	}
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("recording %s.gz: %v", path, err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("recording %s.gz: %v", path, err)
	}
	return out, nil
}
