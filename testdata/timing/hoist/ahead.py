import sys,re,gzip
# For each function: the loop (backward branch) whose body has the most LDG; count the LDGs issued
# before the first instruction that reads a register some LDG of the body wrote (and still holds).
def regs(s):
    out=[]
    for m in re.finditer(r'\bR(\d+)(\.64|\.128)?\b',s):
        n=int(m.group(1)); w={'.64':2,'.128':4}.get(m.group(2),1)
        out+= [n+i for i in range(w)]
    return out
def parse(txt):
    for fn in re.split(r'\n\s*Function : ',txt)[1:]:
        name=fn.split('\n',1)[0].strip()
        ins=[(int(a,16),i.strip()) for a,i in re.findall(r'/\*([0-9a-f]{4,})\*/\s+([^;]*);',fn)]
        yield name,ins
def analyse(ins):
    best=None
    for k,(a,i) in enumerate(ins):
        m=re.search(r'BRA (0x[0-9a-f]+)',i)
        if m:
            t=int(m.group(1),16)
            if t<a:
                s=[j for j,(b,_) in enumerate(ins) if b==t][0]
                body=ins[s:k]
                n=sum(1 for _,x in body if re.match(r'(@!?U?P\d+ )?LDG',x))
                if best is None or n>best[0]: best=(n,body)
    if not best or best[0]==0: return None
    n,body=best
    loaded=set(); cnt=0; words=0; maxr=0
    for a,x in body:
        g=re.match(r'(@!?U?P\d+ )?(\S+)\s*(.*)',x); op=g.group(2); rest=g.group(3)
        ops=[o.strip() for o in rest.split(',')]
        if op.startswith('LDG'):
            d=regs(ops[0]); src=[r for o in ops[1:] for r in regs(o)]
            if any(r in loaded for r in src): break
            w={'64':2,'128':4}; ww=2 if '.64' in op else 4 if '.128' in op else 1
            d=[regs(ops[0])[0]+i for i in range(ww)]
            cnt+=1; words+=ww; loaded.update(d); continue
        if op.startswith('ST') : dst=[]; src=[r for o in ops for r in regs(o)]
        else:
            dst=regs(ops[0]) if ops and ops[0] else []; src=[r for o in ops[1:] for r in regs(o)]
        if any(r in loaded for r in src): return cnt,words,n,op
        loaded.difference_update(dst)
    return cnt,words,n,'-'
f=sys.argv[1]; want=sys.argv[2:]
op=gzip.open if f.endswith('.gz') else open
for name,ins in parse(op(f,'rt').read()):
    if want and name not in want: continue
    r=analyse(ins)
    maxr=max([x for _,i in ins for x in regs(i)] or [0])
    if r: print(f"{name:40s} ahead {r[0]:3d} loads {r[1]:3d} words of {r[2]:3d} LDG in loop; first use {r[3]}; maxreg R{maxr}")
