#!/usr/bin/env python3
"""splice.py CLANG.ptx LIBM.ptx OUT.ptx: clang's PTX with its .extern
declarations of __nv_sinf/__nv_cosf/__nv_sqrtf replaced by nvcc's code of
ws_sinf, ws_cosf and ws_sqrtf (libm.cu, nvcc -rdc -ptx; with the constant tables they read),
renamed, .version raised to 8.7 (clang 22 writes 8.0; ptxas wants 8.4
for mma.sync's e4m3 form, which mma_ldmatrix's clang PTX has) and the .loc
lines dropped (at 8.7 ptxas rejects clang's inlined_at locations; they are
debug line information only, no code).
CLANG.ptx - OUT.ptx: the version and the .loc lines alone."""
import re, sys

clang, out = open(sys.argv[1]).read(), sys.argv[3]
if sys.argv[2] != "-":
    body = open(sys.argv[2]).read().split(".address_size 64", 1)[1]
    body = re.sub(r"\bws_(\w+)", r"__nv_\1", body).replace(".visible .func", ".func")
    decl = re.compile(r"\.extern \.func\s+\([^)]*\)\s+__nv_(?:sinf|cosf|sqrtf)\s*\([^)]*\)\s*;")
    done = []

    def rep(m):
        if done:
            return ""
        done.append(1)
        return body

    clang = decl.sub(rep, clang)
clang = re.sub(r"^[ \t]*\.loc\b.*\n", "", clang, flags=re.M)
clang = re.sub(r"^\.version \d+\.\d+", ".version 8.7", clang, count=1, flags=re.M)
open(out, "w").write(clang)
