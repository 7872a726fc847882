#!/usr/bin/env python3
"""Mutation fuzzing of coursecheck over the course's own files.

Copies pages/, programs/ and evidence/ into a scratch folder, then, ITERATIONS
times: damages one to four files (inserts marker fragments, NUL bytes, CRLF,
invalid UTF-8, huge numbers, deletes or duplicates spans, truncates), runs one
of verify, explain or update --dry-run with the sanitized binary, and stops at
the first run that exits other than 0, 1 or 2 or that a sanitizer complains
about, keeping that tree for a look.  Not part of `make test` (it is random);
run it after changing a parser:

    python3 verifier/tests/fuzz.py build/asan/coursecheck [SEED] [ITERATIONS]
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

JUNK = [b'<!--', b'-->', b'<!-- = 1/0 -->', b'<!-- snippet: x -->', b'```', b'|', b'---\n', b'\r\n',
        b'\x00', b'\xff\xfe', b'1,000,000', b'...\n', b'<!-- table -->\n', b'<!-- ext: -->',
        b'\xe2\x80\x89', b'    ', b'\t', b'// snippet: a\n', b'// end snippet\n', b'stdout: 9999\n',
        b'((((((((((', b'9' * 500]
COMMANDS = [['verify'],
            ['explain', 'pages/day31-scan-1.md', 'pages/day32-scan-2.md'],
            ['update', '--dry-run', 'pages/day31-scan-1.md', 'programs/day31-scan-1/README.md',
             'programs/day31-scan-1/scan.cu', 'pages/day27-memory-model.md']]


def damage(data, rng):
    d = bytearray(data)
    op = rng.randint(0, 3)
    i = rng.randint(0, max(0, len(d) - 1))
    if op == 0:
        d[i:i] = rng.choice(JUNK)
    elif op == 1:
        del d[i:i + rng.randint(1, 200)]
    elif op == 2 and d:
        d[i:i] = d[rng.randint(0, len(d) - 1):][:rng.randint(1, 300)]
    else:
        d = d[:i]
    return bytes(d)


def main():
    binary = os.path.abspath(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    iterations = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    top = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
    rng = random.Random(seed)
    scratch = tempfile.mkdtemp(prefix='fuzz.')
    repo = os.path.join(scratch, 'repo')
    os.makedirs(repo)
    for part in ('pages', 'programs', 'evidence'):
        shutil.copytree(os.path.join(top, part), os.path.join(repo, part))
    base = {}
    for dirpath, _, names in os.walk(repo):
        for name in names:
            path = os.path.join(dirpath, name)
            with open(path, 'rb') as f:
                base[path] = f.read()
    targets = [p for p in base if p.endswith(('.md', '.txt', '.cu'))]
    for it in range(iterations):
        for path, data in base.items():
            with open(path, 'wb') as f:
                f.write(data)
        for _ in range(rng.randint(1, 4)):
            path = rng.choice(targets)
            with open(path, 'rb') as f:
                data = f.read()
            with open(path, 'wb') as f:
                f.write(damage(data, rng))
        cmd = rng.choice(COMMANDS)
        run = subprocess.run([binary] + cmd, cwd=repo, capture_output=True, timeout=120)
        err = run.stderr.decode('utf-8', 'replace')
        if run.returncode not in (0, 1, 2) or 'Sanitizer' in err or 'runtime error' in err:
            print('fuzz: iteration %d, %s: exit %d; the tree is kept in %s' % (it, ' '.join(cmd), run.returncode, repo))
            print(err[-3000:])
            return 1
    shutil.rmtree(scratch)
    print('fuzz: %d iterations, seed %d: no crash, no sanitizer report' % (iterations, seed))
    return 0


if __name__ == '__main__':
    sys.exit(main())
