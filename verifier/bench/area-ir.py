#!/usr/bin/env python3
"""area-ir.py CALLGRIND_FILE [v]: the instructions of one area of the
verifier (by default the page and its markup: AREA below) in a callgrind
profile: the self cost of every function defined in the area's files,
plus what they call in libc, libyaml and the util.c, diag.c and strmap.c
helpers; cmark-gfm's and libcrypto's own code and the other modules are
left out (the page arena, which cmark-gfm calls, is page.c's and counts).
With v, the 45 largest parts.  BENCH.md's "pg17" section was measured so."""
import sys, re, collections
AREA = {'page.h','marker.h','check_code.h','compare.h','snippet.h','frontmatter.h','textfile.h','check_page.h','page.c','marker.c','check_code.c','compare.c','snippet.c','frontmatter.c','textfile.c','check_page.c'}
SHARED_OK = {'util.c','diag.c','strmap.c'}  # helpers whose cost we charge to the caller
def main(path, verbose=False):
    names = {'fl':{}, 'fn':{}, 'ob':{}}
    def nm(kind, s):
        m = re.match(r'\((\d+)\)(?: (.*))?', s)
        if not m: return s
        i, n = m.group(1), m.group(2)
        if n is not None: names[kind][i] = n
        return names[kind][i]
    selfc = collections.Counter(); calls = collections.Counter()
    cur_fl = cur_fn = cur_ob = None; cfl = cfn = cob = None; pending_call = False
    for line in open(path):
        line = line.rstrip('\n')
        if not line or line[0] == '#': continue
        if line.startswith('ob='): cur_ob = nm('ob', line[3:]); continue
        if line.startswith('fl='): cur_fl = nm('fl', line[3:]); continue
        if line.startswith(('fi=','fe=')): nm('fl', line[3:]); continue
        if line.startswith('fn='): cur_fn = (cur_ob, cur_fl, nm('fn', line[3:])); cfl = cur_fl; cob = cur_ob; continue
        if line.startswith('cob='): cob = nm('ob', line[4:]); continue
        if line.startswith(('cfl=','cfi=')): cfl = nm('fl', line[4:]); continue
        if line.startswith('cfn='): cfn = (cob, cfl, nm('fn', line[4:])); continue
        if line.startswith('calls='): pending_call = True; continue
        if line[0].isdigit() or line[0] in '+-*':
            parts = line.split()
            if len(parts) < 2: continue
            c = int(parts[1])
            if pending_call:
                calls[(cur_fn, cfn)] += c; pending_call = False
                cob = cur_ob; cfl = cur_fl
            else:
                selfc[cur_fn] += c
            continue
    def base(fl): return fl.rsplit('/',1)[-1] if fl else ''
    def is_proj(f): return f[0] and 'coursecheck' in f[0]
    areac = {f[2] for f in selfc if is_proj(f) and base(f[1]) in AREA and base(f[1]).endswith('.c')}
    def in_area(f):
        if not is_proj(f) or base(f[1]) not in AREA: return False
        return base(f[1]).endswith('.c') or f[2] in areac
    total = 0; per = collections.Counter()
    for f, c in selfc.items():
        if in_area(f): per[(f[2], 'self')] += c; total += c
    for (a, b), c in calls.items():
        if not in_area(a) or in_area(b): continue
        ob = b[0] or ''
        if is_proj(b):
            if base(b[1]) in SHARED_OK: per[(a[2], base(b[1])+':'+b[2])] += c; total += c
            continue
        if 'cmark' in ob or 'crypto' in ob: continue
        per[(a[2], b[2])] += c; total += c
    print(f'{path}: area {total/1e6:.1f} M')
    if verbose:
        for (k, c) in per.most_common(45): print(f'  {c/1e6:8.2f} M  {k[0]} -> {k[1]}')
main(sys.argv[1], len(sys.argv) > 2)
