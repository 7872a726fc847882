#!/usr/bin/env python3
"""Report every run of N or more consecutive words (default 12) that a course
file shares with a reference document.

Usage: reference-overlap.py [--min N] [--seeds DIR] [FILE...]

With no FILE it reads pages/*.md, programs/*/*.md and programs/*/*.cu under
the current directory. The reference documents are DIR/*.txt (default
../shared/reference/seeds, then /work/shared/reference/seeds).

Words are runs of letters and digits, compared case-folded, so punctuation,
Markdown and line breaks do not hide a copied sentence. What a program prints
may match a reference on purpose (output layouts carry over), so two things
are left out, and only these:
  - in pages, the code block after a <!-- transcript --> marker (verbatim
    program output, checked against the evidence by coursecheck);
  - a run whose every word lies inside a string literal that is a printf
    column header or row format (a literal holding a % conversion or made
    only of dashes and spaces), or inside a printf-family call whose format
    holds a % conversion (the line of output and the values that fill it).
Every other shared run is reported as FILE:LINE: N words shared with SEED:LINE,
followed by the run. Exit status: 0 none found, 1 some found, 2 usage error.
"""
import glob
import os
import re
import sys

WORD = re.compile(r"[A-Za-z0-9]+")


def print_calls(text):
    """Spans of printf-family calls whose format holds a % conversion: a
    call that prints a line of output, with the arguments that fill it."""
    spans = []
    for m in re.finditer(r"\b(?:std::)?(?:f|sn)?printf\s*\(", text):
        depth, i, in_str = 1, m.end(), False
        while i < len(text) and depth > 0:
            c = text[i]
            if in_str:
                if c == "\\":
                    i += 1
                elif c == '"':
                    in_str = False
            elif c == '"':
                in_str = True
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        call = text[m.start():i]
        if re.search(r'"[^"\n]*%[-+ #0-9.]*[a-z]', call):
            spans.append((m.start(), i))
    return spans


def words_of(text):
    """(word, line, in_output_format) for every word of text."""
    out = []
    line_starts = [0]
    for m in re.finditer(r"\n", text):
        line_starts.append(m.end())
    fmt_spans = []
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"', text):
        lit = m.group(0)[1:-1]
        if "%" in lit or re.fullmatch(r"[-\s]*", lit):
            fmt_spans.append((m.start(), m.end()))
    fmt_spans.extend(print_calls(text))
    fmt_spans.sort()
    import bisect
    fi = 0
    for m in WORD.finditer(text):
        line = bisect.bisect_right(line_starts, m.start())
        while fi < len(fmt_spans) and fmt_spans[fi][1] <= m.start():
            fi += 1
        in_fmt = fi < len(fmt_spans) and fmt_spans[fi][0] <= m.start() < fmt_spans[fi][1]
        out.append((m.group(0).lower(), line, in_fmt))
    return out


def strip_transcripts(text):
    """Blank out the code block after each transcript marker, keeping lines."""
    lines = text.split("\n")
    i = 0
    pending = False
    while i < len(lines):
        s = lines[i].strip()
        if re.fullmatch(r"<!--\s*transcript(:[^>]*)?\s*-->", s):
            pending = True
        elif pending and s.startswith("```"):
            fence = s[:3]
            lines[i] = ""
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                lines[i] = ""
                i += 1
            if i < len(lines):
                lines[i] = ""
            pending = False
        elif pending and s != "":
            pending = False
        i += 1
    return "\n".join(lines)


def main(argv):
    n = 12
    seeds = None
    files = []
    it = iter(argv)
    for a in it:
        if a == "--min":
            n = int(next(it, "0"))
        elif a == "--seeds":
            seeds = next(it, None)
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            files.append(a)
    if n < 2 or (seeds is not None and not os.path.isdir(seeds)):
        print(__doc__, file=sys.stderr)
        return 2
    if seeds is None:
        for cand in ("../shared/reference/seeds", "/work/shared/reference/seeds"):
            if os.path.isdir(cand):
                seeds = cand
                break
    if seeds is None:
        print("reference-overlap: no seeds folder found", file=sys.stderr)
        return 2
    if not files:
        files = sorted(glob.glob("pages/*.md") + glob.glob("programs/*/*.md")
                       + glob.glob("programs/*/*.cu"))

    index = {}
    for path in sorted(glob.glob(os.path.join(seeds, "*.txt"))):
        with open(path, encoding="utf-8", errors="replace") as f:
            ws = words_of(f.read())
        for k in range(len(ws) - n + 1):
            key = tuple(w for w, _, _ in ws[k:k + n])
            index.setdefault(key, (os.path.basename(path), ws[k][1]))

    found = 0
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if path.endswith(".md"):
            text = strip_transcripts(text)
        ws = words_of(text)
        k = 0
        while k <= len(ws) - n:
            key = tuple(w for w, _, _ in ws[k:k + n])
            hit = index.get(key)
            if hit is None:
                k += 1
                continue
            end = k + n  # extend while the next window still matches
            while end < len(ws) and tuple(w for w, _, _ in ws[end - n + 1:end + 1]) in index:
                end += 1
            run = ws[k:end]
            if not all(f for _, _, f in run):
                found += 1
                print("%s:%d: %d words shared with %s:%d" %
                      (path, run[0][1], len(run), hit[0], hit[1]))
                print("    " + " ".join(w for w, _, _ in run))
            k = end
    if found == 0:
        print("reference-overlap: no run of %d or more words shared with %s"
              % (n, seeds))
        return 0
    print("reference-overlap: %d shared run(s) of %d or more words" % (found, n))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
