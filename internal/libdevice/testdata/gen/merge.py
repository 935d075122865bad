#!/usr/bin/env python3
"""merge.py OUT IN...: concatenates WSLDREF1 files (see mathref_host.h) into one."""
import struct
import sys

count, body = 0, b''
for path in sys.argv[2:]:
    data = open(path, 'rb').read()
    assert data[:8] == b'WSLDREF1', path
    count += struct.unpack('<I', data[8:12])[0]
    body += data[12:]
open(sys.argv[1], 'wb').write(b'WSLDREF1' + struct.pack('<I', count) + body)
