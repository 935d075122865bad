//go:build ignore

// mksfu converts what sfutables2.cu wrote (the directory given as the first
// argument) into ../../sfudata: rsqrt.bin.gz as recorded, and lg2.bin.gz and
// sin.bin.gz in the escaped-delta form sfu.go reads (see deltaTable there):
// the hardware results rebuilt from the recording's deltas, then re-encoded
// against references Go computes (any faithful math.Log/math.Sin gives the
// same references: entries whose reference is near an f32 midpoint are
// stored whole).
//
//	go run mksfu.go /path/to/recording
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
)

func main() {
	dir := os.Args[1]
	out := filepath.Join("..", "..", "sfudata")
	rsqrt := read(dir, "rsqrt.bin")
	if len(rsqrt) != 1<<24 {
		log.Fatal("rsqrt.bin: wrong size")
	}
	write(filepath.Join(out, "rsqrt.bin.gz"), rsqrt)

	// lg2.bin holds ten tables; sfu.go needs e = 0 (index 4) and e = -1 (index 3).
	lg2 := read(dir, "lg2.bin")
	lg2exc := escapes(read(dir, "lg2exc.bin"))
	var lg2raw []uint32
	for _, t := range []int{4, 3} {
		e := []int{-126, -64, -2, -1, 0, 1, 2, 3, 64, 127}[t]
		for i := 0; i < 1<<23; i++ {
			g := t<<23 | i
			if r, ok := lg2exc[g]; ok {
				lg2raw = append(lg2raw, r)
				continue
			}
			x := math.Ldexp(1+float64(i)*0x1p-23, e)
			lg2raw = append(lg2raw, uint32(int32(lg2Ref(x))+int32(int8(lg2[g]))))
		}
	}
	write(filepath.Join(out, "lg2.bin.gz"), encode(lg2raw, func(i int) float64 {
		return lg2Ref64(math.Ldexp(1+float64(i&(1<<23-1))*0x1p-23, -(i >> 23)))
	}))

	sin := read(dir, "sin.bin")
	sinexc := escapes(read(dir, "sinexc.bin"))
	var sinraw []uint32
	for u := 0; u < 1<<23; u++ {
		if r, ok := sinexc[u]; ok {
			sinraw = append(sinraw, r)
			continue
		}
		sinraw = append(sinraw, uint32(int32(math.Float32bits(float32(sinRef64(u))))+int32(int8(sin[u]))))
	}
	write(filepath.Join(out, "sin.bin.gz"), encode(sinraw, sinRef64))
}

func lg2Ref64(x float64) float64 { return math.Log(x) / math.Ln2 }
func lg2Ref(x float64) uint32    { return math.Float32bits(float32(lg2Ref64(x))) }
func sinRef64(u int) float64     { return math.Sin(math.Pi / 2 * (float64(u) * 0x1p-23)) }

// fragile reports whether v is so near a midpoint between floats that a
// reference with a few ulps of float64 error could round it either way.
func fragile(v float64) bool {
	a := math.Abs(v)
	f := float32(a)
	mid := (float64(f) + float64(math.Nextafter32(f, float32(math.Inf(1))))) / 2
	if a < float64(f) {
		mid = (float64(f) + float64(math.Nextafter32(f, 0))) / 2
	}
	return math.Abs(a-mid) <= a*0x1p-40
}

// encode writes n, the number of escapes, int8 deltas (-128: escaped) and the
// escapes as (index, raw) pairs, little-endian.
func encode(raw []uint32, ref func(i int) float64) []byte {
	d := make([]byte, len(raw))
	var exc []uint32
	for i, r := range raw {
		v := ref(i)
		delta := int64(int32(r)) - int64(int32(math.Float32bits(float32(v))))
		if fragile(v) || delta < -127 || delta > 127 {
			d[i] = 0x80
			exc = append(exc, uint32(i), r)
			continue
		}
		d[i] = byte(int8(delta))
	}
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, [2]uint32{uint32(len(raw)), uint32(len(exc) / 2)})
	b.Write(d)
	binary.Write(&b, binary.LittleEndian, exc)
	fmt.Printf("%d entries, %d escaped\n", len(raw), len(exc)/2)
	return b.Bytes()
}

func escapes(b []byte) map[int]uint32 {
	m := map[int]uint32{}
	for i := 0; i+8 <= len(b); i += 8 {
		m[int(binary.LittleEndian.Uint32(b[i:]))] = binary.LittleEndian.Uint32(b[i+4:])
	}
	return m
}

func read(dir, name string) []byte {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		log.Fatal(err)
	}
	return b
}

func write(path string, data []byte) {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Println(path, b.Len(), "bytes")
}
