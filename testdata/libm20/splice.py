#!/usr/bin/env python3
"""splice.py CLANG.ptx LIBM.ptx OUT.ptx: clang's PTX with each .extern
declaration of a __nv_X function that LIBM.ptx defines as ws_X (libm.cu,
nvcc -rdc -ptx: libdevice's code as nvcc inlines it) replaced by that code,
renamed (the whole of LIBM.ptx's body, with the constant tables it reads, goes
in place of the first such declaration), .version raised to 8.7 and the .loc
lines dropped (ptxas rejects clang's inlined_at locations at 8.7). As
../programs3/clangcode/splice.py, for any set of functions."""
import re, sys

clang, out = open(sys.argv[1]).read(), sys.argv[3]
body = open(sys.argv[2]).read().split(".address_size 64", 1)[1]
defined = set(re.findall(r"\.func\s*\([^)]*\)\s*ws_(\w+)\s*\(", body))
body = re.sub(r"\bws_(\w+)", r"__nv_\1", body).replace(".visible .func", ".func")
decl = re.compile(r"\.extern \.func\s+\([^)]*\)\s+__nv_(\w+)\s*\([^)]*\)\s*;")
done = []


def rep(m):
    if m.group(1) not in defined:
        return m.group(0)
    if done:
        return ""
    done.append(1)
    return body


clang = decl.sub(rep, clang)
left = decl.findall(clang)
if left:
    sys.exit("splice.py: no code for " + " ".join(left))
clang = re.sub(r"^[ \t]*\.loc\b.*\n", "", clang, flags=re.M)
clang = re.sub(r"^\.version \d+\.\d+", ".version 8.7", clang, count=1, flags=re.M)
open(out, "w").write(clang)
