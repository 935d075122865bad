package cc

import (
	"fmt"
	"os"
)

// MaxSourceBytes bounds a source file handed to the compiler: far beyond
// any real translation unit.
const MaxSourceBytes = 256 << 20

// CheckSource refuses a source that is not a regular file of at most
// MaxSourceBytes: /dev/zero, a pipe or any endless stream as a .cu file
// grew the compiler's memory without bound.
func CheckSource(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s); a source must be a file", path, kindOf(fi.Mode()))
	}
	if fi.Size() > MaxSourceBytes {
		return fmt.Errorf("%s is %d bytes, more than the %d a source may have", path, fi.Size(), MaxSourceBytes)
	}
	return nil
}

func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}
