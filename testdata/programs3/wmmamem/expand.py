import re,sys,collections
# per D kernel: memory instructions between the two clock reads
rows=[]
for p in range(4):
    txt=open(f'mb3.{p}.sass').read()
    for fn in re.split(r'\n\s*Function : ',txt)[1:]:
        name=fn.split('\n',1)[0].strip()
        m=re.match(r'_Z\d+(\w+?)ILi(\d)ELi(\d+)ELi(\d)EE',name)
        if not m: continue
        k,sh,cl,dep=m.group(1),int(m.group(2)),int(m.group(3)),int(m.group(4))
        ins=re.findall(r'/\*[0-9a-f]{4}\*/\s+([^;]*);',fn)
        clk=[i for i,s in enumerate(ins) if 'SR_CLOCKLO' in s]
        body=ins[clk[0]+1:clk[-1]]
        c=collections.Counter()
        for s in body:
            s=re.sub(r'^@!?U?P\w+\s+','',s.strip())
            op=s.split()[0]
            if re.match(r"(LDG|LDS|LD|STG|STS|ST|LDSM|STSM|MOVM|PRMT|F2FP|SHFL)(\.|$)",op):
                op=re.sub(r'\.E(?=\.|$)','',op); op=op.replace('.STRONG.GPU','')
                c[op]+=1
        var=('S' if sh else 'G')+('C' if cl else '')
        rows.append((k,var,'D' if dep else 'I',dict(c)))
for k,var,d,c in sorted(rows):
    if d=='D' or k.startswith('st_'): print(f'{k:24s} {var:2s} {d} {" ".join(f"{o}x{n}" for o,n in sorted(c.items()))}')
