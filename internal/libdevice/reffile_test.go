package libdevice

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// refRecord is one function's recording from a real GPU: n cases, each
// argument's and each result's values as raw bits (format: testdata/gen/mathref_host.h).
type refRecord struct {
	name       string
	args, rets string // signature letters
	n          int
	in, out    [][]uint64
}

func letterSize(c byte) int {
	switch c {
	case 'f', 'i', 'u':
		return 4
	case 'd', 'l', 'L':
		return 8
	case 'h':
		return 2
	}
	return 0
}

// readRefFile reads a gzipped WSLDREF1 file.
func readRefFile(path string) ([]*refRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	r := bufio.NewReader(zr)
	var magic [8]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil || string(magic[:]) != "WSLDREF1" {
		return nil, fmt.Errorf("%s: not a WSLDREF1 file", path)
	}
	var count uint32
	if err := binary.Read(r, binary.LittleEndian, &count); err != nil {
		return nil, err
	}
	recs := make([]*refRecord, 0, count)
	for i := 0; i < int(count); i++ {
		rec, err := readRecord(r)
		if err != nil {
			return nil, fmt.Errorf("%s: record %d: %v", path, i, err)
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

func readRecord(r *bufio.Reader) (*refRecord, error) {
	var nameLen uint16
	if err := binary.Read(r, binary.LittleEndian, &nameLen); err != nil {
		return nil, err
	}
	name := make([]byte, nameLen)
	if _, err := io.ReadFull(r, name); err != nil {
		return nil, err
	}
	sig := func() (string, error) {
		n, err := r.ReadByte()
		if err != nil {
			return "", err
		}
		s := make([]byte, n)
		_, err = io.ReadFull(r, s)
		return string(s), err
	}
	args, err := sig()
	if err != nil {
		return nil, err
	}
	rets, err := sig()
	if err != nil {
		return nil, err
	}
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, err
	}
	rec := &refRecord{name: string(name), args: args, rets: rets, n: int(n)}
	read := func(c byte) ([]uint64, error) {
		size := letterSize(c)
		if size == 0 {
			return nil, fmt.Errorf("bad type letter %q", c)
		}
		buf := make([]byte, size*int(n))
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		v := make([]uint64, n)
		for i := range v {
			var x uint64
			for k := size - 1; k >= 0; k-- {
				x = x<<8 | uint64(buf[i*size+k])
			}
			v[i] = x
		}
		return v, nil
	}
	for i := range len(args) {
		v, err := read(args[i])
		if err != nil {
			return nil, err
		}
		rec.in = append(rec.in, v)
	}
	for i := range len(rets) {
		v, err := read(rets[i])
		if err != nil {
			return nil, err
		}
		rec.out = append(rec.out, v)
	}
	return rec, nil
}
