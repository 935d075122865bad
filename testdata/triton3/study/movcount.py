#!/usr/bin/env python3
"""SASS instructions that write a register with a copy or a constant (issue 19, fifteenth round).

    movcount.py sass_sm80.tar.xz > sass_movs.txt

Reads the study half's SASS (h100/sass/sass_sm80.tar.xz: sm80.ptx through ptxas -arch=sm_90) and prints, per
kernel, the SASS instructions executed nowhere but to move a value or a constant into a register: MOV, UMOV,
IMAD.MOV(.U32), HFMA2.MMA (ptxas's constant into a register on the FMA pipe), CS2R (a pair of zeros),
and all SASS instructions. TestFoldedMovsAgainstSASS (internal/ir) holds the movs warpsim keeps to these."""
import re, sys, tarfile

SM = re.compile(r'/\*[0-9a-f]{4,6}\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)')
MOVES = ('MOV', 'UMOV', 'IMAD.MOV', 'IMAD.MOV.U32', 'HFMA2.MMA', 'CS2R')

def main():
    rows = []
    with tarfile.open(sys.argv[1]) as t:
        for m in t.getmembers():
            if not m.name.endswith('_sm80.sass'):
                continue
            n = mv = 0
            for line in t.extractfile(m).read().decode().splitlines():
                g = SM.search(line)
                if not g:
                    continue
                n += 1
                if g.group(2) in MOVES:
                    mv += 1
            rows.append((m.name.split('/')[-1].replace('_sm80.sass', ''), mv, n))
    print("# kernel\tsass_moves\tsass_all (sm80.ptx, ptxas -arch=sm_90; movcount.py)")
    for k, mv, n in sorted(rows):
        print("%s\t%d\t%d" % (k, mv, n))

if __name__ == "__main__":
    main()
