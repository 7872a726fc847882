#!/usr/bin/env python3
"""The layer and cycle audit of verifier/src (make arch-test).

usage: layers.py SRC_DIR [OBJ_DIR]

Derives the module graph from the `#include "..."` lines of SRC_DIR's
folders, one a layer (a module is a file's name without .c/.h; report_impl.h belongs to report,
diag.def and diag_internal.h to diag) and checks it against LAYERS below:
  - every folder is a layer of LAYERS, and a module's files share one;
  - no file includes a header of a module in a higher layer;
  - no cycle among modules (a strongly connected component of more than
    one module), in the include graph and, given OBJ_DIR, in the link
    graph (which object calls a function another defines, from nm -g):
    the include graph alone cannot see check.h's functions, defined in
    several check_*.c;
  - each diagnostic kind's enum name (diag.def) is raised in one .c file
    outside diag.c, except the kinds in ONE_PLACE_EXCEPTIONS (each with
    why).
Each finding prints the offending edge; the last line is
"arch: N passed, N failed".
"""
import collections
import os
import re
import subprocess
import sys

# The layers are the folders of verifier/src, lowest first; a module's
# layer is its folder's, and main.c, in verifier/src itself, is on top.
# A module may include its own layer and any below.  base, evidence and
# capture are the capture binary (libc and libcrypto only): capture sits
# below every folder of the verifier's own, so nothing the capture binary
# links can reach them.
LAYERS = [
    ("base", "memory, text, diagnostics, the repository's paths and writer"),
    ("evidence", "the run format: evidence files, program headers, lesson files, signatures"),
    ("capture", "running lessons and writing runs: the capture binary's commands"),
    ("read", "the page formats: front matter, Markdown, markers, snippets, numbers, expressions"),
    ("model", "the course model: listings, runs judged, banks, facts, places, drift, claims"),
    ("prose", "the page model: a page in its course, its prose"),
    ("check", "the checks"),
    ("report", "the report formats"),
    # what a command does to a file, below the command lines: update.c may
    # not include cli.h (cli_update.c is its command line)
    ("update", "rewriting a page"),
    ("cli", "the verifier's command lines"),
    ("review", "the review command and its HTML"),
    (".", "main"),
]

ALIASES = {"report_impl": "report", "diag_internal": "diag",
           # the course model is one module in three files (course_impl.h)
           "course_impl": "course", "course_files": "course", "course_facts": "course",
           # update is one module in three files (update_impl.h)
           "update_impl": "update", "update_claims": "update", "update_blocks": "update",
           # the bank is one module in two files (bank_impl.h)
           "bank_impl": "bank", "bank_lookup": "bank"}

# Kinds raised in more than one file, and why that is right.
ONE_PLACE_EXCEPTIONS = {
    "D_EVIDENCE_NONE": "a page with no evidence (check_numbers.c) and a lesson program with none "
                       "(check_program.c) are two checks of two files",
    "D_NUMBER_UNTRACED": "a number read alone (check_numbers.c) and one inside a claim or table row "
                         "read whole (check_claims.c): the claim's message names the claim",
    "D_DERIVE_UNANCHORED": "a derivation's literal (check_numbers.c) and a claim's literal (check_claims.c)",
    "D_ANNOTATION_DANGLING": "an annotation no number follows, seen while parsing (page.c) or when its "
                             "segment is read for numbers (prose.c)",
    "D_PLACE_UNKNOWN": "a place the evaluator cannot find (place.c) and a place annotation whose "
                       "unit names none (check_claims.c)",
    "D_REPEAT_VALUES_MISSING": "min() or max() of a place in an expression, met by the evaluator "
                               "(place.c), and a range, bound or one-run annotation (check_claims.c)",
    "D_CLAIM_UNDECIDED": "a claim verify finds undecided (check_claims.c) and one a new capture made "
                         "undecided, named by update (update.c)",
}

# Exported names a module may use besides MODULE_ (a module's own short
# name for what it is about).
PREFIXES = {
    "align": ("alignment_",),
    "capture_lesson": ("lesson_",),
    "capture_proc": ("proc_",),
    "capture_auto": ("auto_",),
    "capture_repeats": ("repeats_",),
    "capture_sched": ("capture_",),
    "capture_slurm": ("slurm_",),
    "capture_text": ("transcript_", "volatility_"),
    "capture_gpu": ("gpu_", "machine_", "pidset_"),
    "capture_sign": ("capture_",),
    "sshsig": ("sshkey_",),
    "check_claims": ("claims_", "check_"),
    "check_code": ("check_",),
    "check_first": ("check_",),
    "check_facts": ("check_",),
    "check_page": ("check_",),
    "check_runs": ("transcript_source_",),
    "compare": ("lines_",),
    "facts": ("fact_",),
    "report_json": ("report_",),
    "report_junit": ("report_",),
    "report_sarif": ("report_",),
    "review": ("cli_review",),
    "cli_whystale": ("cli_why_stale",),
    "cli_approve": ("cli_approvals",),
    "review_html": ("review_",),
    "review_page": ("review_",),
    "textfile": ("utf8_",),
    "util": ("buf_", "str_", "x"),
    "main": ("main",),
    "capture_main": ("main",),
}

# Exported names outside their module's prefixes, and why.
NAME_EXCEPTIONS = {
    "evidence_compose": "capture_write.h's writer of the evidence format, named for what it makes",
    "evidence_compose_runs": "as evidence_compose",
    "evidence_write_new": "as evidence_compose: the one writer of a new evidence file",
    "header_add": "capture_write.h: a header line of the evidence being composed",
    "host_compiler": "capture_gpu.h: the machine's facts (nvcc's host compiler)",
    "node_name": "capture_gpu.h: the machine's facts (the host name)",
}

passed = failed = 0


def check(ok, what, lines=()):
    global passed, failed
    if ok:
        passed += 1
        print("ok", what)
    else:
        failed += 1
        print("FAIL", what)
        for line in lines:
            print("   ", line)


def module_of(name):
    stem = re.sub(r"\.(c|h|def)$", "", name)
    return ALIASES.get(stem, stem)


def sccs(graph):
    """Tarjan's algorithm, iterative; components of more than one node."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    obj = sys.argv[2] if len(sys.argv) > 2 else None
    layer, folder_of = {}, {}
    for i, (folder, _) in enumerate(LAYERS):
        d = os.path.join(src, folder)
        if not os.path.isdir(d):
            continue
        for f in os.listdir(d):
            if re.search(r"\.(c|h|def)$", f):
                folder_of[f] = d
                layer[module_of(f)] = i
    folders = sorted(e for e in os.listdir(src) if os.path.isdir(os.path.join(src, e)))
    strange = [e for e in folders if e not in [l[0] for l in LAYERS]]
    check(not strange, "every folder is a layer",
          ["%s/ is in no layer of LAYERS (tests/arch/layers.py)" % e for e in strange])
    files = sorted(f for f in folder_of if re.search(r"\.(c|h)$", f))
    modules = sorted({module_of(f) for f in files})
    split = collections.defaultdict(set)
    for f in folder_of:
        split[module_of(f)].add(folder_of[f])
    apart = ["%s has files in %s" % (m, ", ".join(sorted(d))) for m, d in sorted(split.items()) if len(d) > 1]
    check(not apart, "a module's files share one folder", apart)


    inc = collections.defaultdict(set)
    edges = collections.defaultdict(list)  # (from, to) -> "file:line includes header"
    for f in files:
        with open(os.path.join(folder_of[f], f), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                mo = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not mo:
                    continue
                a, b = module_of(f), module_of(os.path.basename(mo.group(1)))
                if a != b:
                    inc[a].add(b)
                    edges[(a, b)].append("%s:%d includes %s" % (f, n, mo.group(1)))
    upward = []
    for (a, b), where in sorted(edges.items()):
        if a in layer and b in layer and layer[b] > layer[a]:
            upward += ["%s (%s, layer %s, includes %s of layer %s)" % (w, a, LAYERS[layer[a]][0], b,
                                                                      LAYERS[layer[b]][0]) for w in where]
    check(not upward, "no upward include", upward)

    lines = []
    for comp in sccs(inc):
        lines.append("include cycle among: " + " ".join(comp))
        for a in comp:
            for b in sorted(inc[a]):
                if b in comp:
                    lines += ["  " + w for w in edges[(a, b)]]
    check(not lines, "no include cycle", lines)

    if obj:
        defs, funcs, uses = {}, {}, collections.defaultdict(set)
        for f in sorted(os.listdir(obj)):
            if not f.endswith(".o"):
                continue
            m = module_of(f[:-2])
            out = subprocess.run(["nm", "-g", os.path.join(obj, f)], capture_output=True, text=True,
                                 check=True).stdout
            for l in out.splitlines():
                p = l.split()
                if len(p) == 2 and p[0] == "U":
                    uses[m].add(p[1])
                elif len(p) == 3 and p[1] in "TDBRCV":
                    defs[p[2]] = m
                    if p[1] == "T" and not p[2].startswith("__"):
                        funcs[p[2]] = m
        link = collections.defaultdict(set)
        why = collections.defaultdict(set)
        for m, syms in uses.items():
            for s in syms:
                if s in defs and defs[s] != m:
                    link[m].add(defs[s])
                    why[(m, defs[s])].add(s)
        lines = []
        for comp in sccs(link):
            lines.append("call cycle among: " + " ".join(comp))
            for a in comp:
                for b in sorted(link[a]):
                    if b in comp:
                        lines.append("  %s -> %s (%s)" % (a, b, ", ".join(sorted(why[(a, b)]))))
        check(not lines, "no call cycle (nm -g of %s)" % obj, lines)
        upcalls = []
        for (a, b), syms in sorted(why.items()):
            if a in layer and b in layer and layer[b] > layer[a]:
                upcalls.append("%s (layer %s) calls %s of %s (layer %s)" % (a, LAYERS[layer[a]][0],
                               ", ".join(sorted(syms)), b, LAYERS[layer[b]][0]))
        check(not upcalls, "no upward call", upcalls)
        off = []
        for sym, m in sorted(funcs.items()):
            accepted = (m + "_",) + PREFIXES.get(m, ())
            if not sym.startswith(accepted) and sym not in NAME_EXCEPTIONS and sym != m:
                off.append("%s (module %s) is named outside its prefixes %s" % (sym, m, ", ".join(accepted)))
        check(not off, "every exported function carries its module's prefix", off)
        unused = ["%s is an exception but no module exports it" % n for n in NAME_EXCEPTIONS if n not in funcs]
        check(not unused, "every name exception is still needed", unused)

    with open(os.path.join(folder_of["diag.def"], "diag.def"), encoding="utf-8") as fh:
        kinds = re.findall(r"^DIAG\((D_[A-Z0-9_]+)", fh.read(), re.M)
    raised = collections.defaultdict(set)
    for f in files:
        if not f.endswith(".c") or f == "diag.c":
            continue
        with open(os.path.join(folder_of[f], f), encoding="utf-8") as fh:
            text = fh.read()
        for k in set(re.findall(r"\bD_[A-Z0-9_]+\b", text)):
            raised[k].add(f)
    many = ["%s is raised in %s" % (k, ", ".join(sorted(raised[k]))) for k in kinds
            if len(raised[k]) > 1 and k not in ONE_PLACE_EXCEPTIONS]
    check(not many, "each diagnostic kind raised in one file", many)
    never = ["%s is raised nowhere" % k for k in kinds if not raised[k]]
    check(not never, "each diagnostic kind raised somewhere", never)
    stale = ["%s is an exception but is raised in %d file(s)" % (k, len(raised[k]))
             for k in ONE_PLACE_EXCEPTIONS if len(raised[k]) <= 1]
    check(not stale, "every exception is still needed", stale)

    print("arch: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


main()
