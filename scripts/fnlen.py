#!/usr/bin/env python3
"""Function lengths of katro's Rust sources (issue 33 item 7's measure).

Usage: python3 scripts/fnlen.py [N]   (from the repository root)

Counts every `fn` under src/ by brace matching, strings, chars and
comments stripped, from the line of `fn` to its closing brace. Functions
inside a file's own `mod tests` block are left out (set apart in the
last field); files that are test modules of their own (tests.rs,
*_tests.rs) are counted. Prints the count, mean and median length and how
many exceed 100 lines, then the N longest (30 by default).
"""
import re,glob,statistics,sys
FN=re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)')
def clean(src):
    out=[];bc=False;raw=None
    for l in src.split('\n'):
        s='';i=0
        if raw:
            j=l.find(raw)
            if j<0: out.append('');continue
            i=j+len(raw);raw=None
        st=False
        while i<len(l):
            c=l[i]
            if bc:
                if l.startswith('*/',i): bc=False;i+=2
                else: i+=1
                continue
            if st:
                if c=='\\': i+=2;continue
                if c=='"': st=False
                i+=1;continue
            if l.startswith('//',i): break
            if l.startswith('/*',i): bc=True;i+=2;continue
            m=re.match(r'r(#*)"',l[i:])
            if m and (i==0 or not(l[i-1].isalnum() or l[i-1]=='_')):
                e='"'+m.group(1);j=l.find(e,i+len(m.group(0)))
                if j<0: raw=e;break
                i=j+len(e);continue
            if c=='"': st=True;i+=1;continue
            m=re.match(r"'(\\.|[^\\'])'",l[i:])
            if c=="'" and m: i+=len(m.group(0));continue
            s+=c;i+=1
        out.append(s)
    return out
res=[]
for f in sorted(glob.glob('src/**/*.rs',recursive=True)):
    src=open(f).read();lines=src.split('\n');cl=clean(src)
    t=[k for k,l in enumerate(lines) if re.match(r'^\s*mod (tests|\w*_tests)\b',l)]
    tl=t[0] if t else 10**9
    d=0;stack=[];pend=None
    for i,l in enumerate(cl):
        m=FN.match(lines[i])
        if m and pend is None: pend=(m.group(5),i)
        for ch in l:
            if ch=='{':
                d+=1
                if pend: stack.append((pend[0],pend[1],d));pend=None
            elif ch=='}':
                if stack and stack[-1][2]==d:
                    n,s,_=stack.pop();res.append((i-s+1,f,n,s+1,i+1,s>tl))
                d-=1
        if pend and l.rstrip().endswith(';') and '{' not in l: pend=None
lib=[r for r in res if not r[5]]
print('fns',len(lib),'mean %.2f'%statistics.mean(r[0] for r in lib),
      'median',statistics.median(r[0] for r in lib),'>100:',sum(r[0]>100 for r in lib))
for r in sorted(lib,reverse=True)[:int(sys.argv[1]) if len(sys.argv)>1 else 30]:
    print(f'{r[0]:5} {r[1]}:{r[3]}-{r[4]} {r[2]}')
