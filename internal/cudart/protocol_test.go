package cudart

import (
	"bytes"
	"encoding/binary"
	"io"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
)

func encodeRequest(op uint32, payload []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, op)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.LittleEndian.AppendUint32(b, 0)
	return append(b, payload...)
}

type decodedReply struct {
	code            Error
	out, diag, data string
}

func decodeReplies(t *testing.T, b []byte) []decodedReply {
	t.Helper()
	var rs []decodedReply
	for len(b) > 0 {
		if len(b) < 20 {
			t.Fatalf("truncated reply header: %d bytes", len(b))
		}
		code := binary.LittleEndian.Uint32(b)
		no, nd := binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
		nx := binary.LittleEndian.Uint64(b[12:])
		b = b[20:]
		r := decodedReply{code: Error(code), out: string(b[:no]), diag: string(b[no : no+nd]), data: string(b[no+nd : uint64(no+nd)+nx])}
		b = b[uint64(no+nd)+nx:]
		rs = append(rs, r)
	}
	return rs
}

func serve(t *testing.T, requests ...[]byte) []decodedReply {
	t.Helper()
	s := NewServer(Options{
		NewDevice: newFake,
		Arch:      arch.MustLookup("h100"),
	})
	var out bytes.Buffer
	if err := s.Serve(bytes.NewReader(bytes.Join(requests, nil)), &out); err != nil {
		t.Fatal(err)
	}
	return decodeReplies(t, out.Bytes())
}

func TestProtocol(t *testing.T) {
	rs := serve(t,
		encodeRequest(opHello, putU32s(protocolVersion)),
		encodeRequest(opHello, putU32s(protocolVersion+1)),
		encodeRequest(opMalloc, []byte{1, 2}), // short
		encodeRequest(opMalloc, append(putU64s(64), putU32s(0)...)),
		encodeRequest(99, nil),
		encodeRequest(opExit, nil),
		encodeRequest(opSync, nil), // after exit: not read
	)
	if len(rs) != 6 {
		t.Fatalf("%d replies, want 6 (none after exit)", len(rs))
	}
	if rs[0].code != Success || !strings.HasPrefix(rs[0].data, "NVIDIA H100") {
		t.Errorf("hello: %+v", rs[0])
	}
	if rs[1].code != ErrorInsufficientDriver || !strings.Contains(rs[1].diag, "rebuild it with warpsim cc") {
		t.Errorf("hello from another version: %+v", rs[1])
	}
	if rs[2].code != ErrorInvalidValue || !strings.Contains(rs[2].diag, "malformed request") {
		t.Errorf("short request: %+v", rs[2])
	}
	if rs[3].code != Success || len(rs[3].data) != 8 {
		t.Errorf("malloc: %+v", rs[3])
	}
	if rs[4].code != ErrorNotSupported || !strings.Contains(rs[4].diag, "unknown operation 99") {
		t.Errorf("unknown op: %+v", rs[4])
	}
}

func TestProtocolTruncated(t *testing.T) {
	s := NewServer(Options{
		NewDevice: newFake,
		Arch:      arch.MustLookup("h100"),
	})
	req := encodeRequest(opModule, make([]byte, 100))
	err := s.Serve(bytes.NewReader(req[:50]), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "truncated request") {
		t.Errorf("err = %v, want a truncated request", err)
	}
}
