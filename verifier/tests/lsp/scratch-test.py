#!/usr/bin/env python3
"""A page written from scratch with plain numbers, annotated by the
language server's code actions alone, passes `verify --as published`.

The page states numbers and a comparison with no annotation.  The
server (`coursecheck lsp --as=published`) reports what a published page
may not carry; for the first diagnostic each time, the test asks for the
code actions at its range and applies the preferred one (an editor's
"apply the fix"), until none is left.  Each step's action is checked
exactly, then the page is written and verify must pass it.

usage: scratch-test.py COURSECHECK
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Client, apply_edits, make_course  # noqa: E402

PAGE = """---
lesson: day01-demo
day: 1
title: "Adding two vectors, racing"
status: published
program: programs/day01-demo/demo.cu
evidence: evidence/day01-demo/run-2026-11-30.txt
---

# Adding two vectors, racing

At 64 threads the racy kernel gets 70,320 sums wrong, more than the 2,920 it gets
wrong at 1,024 threads. It takes 0.412 ms there.
"""

# (the diagnostic answered, the action applied), in order
STEPS = [
    ("number-ambiguous", "Bind 70,320 to [64 add, racy | mismatches] (at:)"),
    ("number-volatile", "Bind 0.412 ms to [64 add, racy | time ms] (one-run:)"),
    ("claim-unannotated",
     "Insert a claim for this sentence: <!-- claim: [64 add, racy | mismatches] > [1024 add, racy | mismatches] -->"),
]

WRITTEN = """At 64 threads the racy kernel gets 70,320 <!-- at: [64 add, racy | mismatches] --> sums wrong, more than the 2,920 it gets
wrong at 1,024 threads. <!-- claim: [64 add, racy | mismatches] > [1024 add, racy | mismatches] --> It takes 0.412 ms <!-- one-run: [64 add, racy | time ms] --> there.
"""


def main():
    binary = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="lsp-scratch.")
    root = os.path.join(tmp, "course")
    make_course(root)
    root = os.path.realpath(root)
    path = os.path.join(root, "pages", "day02-racing.md")
    uri = "file://" + path
    c = Client([binary, "lsp", "--as=published"], root)
    c.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
    c.notify("initialized", {})
    text = PAGE
    c.notify("textDocument/didOpen",
             {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
    failed = False
    for step, (code, title) in enumerate(STEPS + [(None, None)]):
        # the reviewer's sign-off (approval-*) is no author's to give: it
        # stays until a reviewer approves, below
        diags = [d for d in c.notification("textDocument/publishDiagnostics")["params"]["diagnostics"]
                 if not d["code"].startswith("approval")]
        first = diags[0]["code"] if diags else None
        if first != code:
            print("FAIL: step %d: first diagnostic %r, expected %r (%r)" % (step + 1, first, code, diags))
            failed = True
            break
        if code is None:
            break
        acts = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": diags[0]["range"],
                                                     "context": {"diagnostics": [diags[0]]}})["result"]
        chosen = [a for a in acts if a.get("isPreferred")][:1] or acts[:1]
        if not chosen or chosen[0]["title"] != title:
            print("FAIL: step %d: preferred action %r, expected %r" %
                  (step + 1, chosen and chosen[0]["title"], title))
            failed = True
            break
        text = apply_edits(text, chosen[0]["edit"]["changes"][uri])
        c.notify("textDocument/didChange",
                 {"textDocument": {"uri": uri, "version": step + 2}, "contentChanges": [{"text": text}]})
    c.request("shutdown", None)
    c.notify("exit", None)
    c.close()
    body = text.split("# Adding two vectors, racing\n\n", 1)[-1]
    if not failed and body != WRITTEN:
        print("FAIL: the page the actions wrote:\n%s" % body)
        failed = True
    with open(path, "w") as f:
        f.write(text)
    # a reviewer (a key listed for coursecheck-review) signs the page off
    key = os.path.join(tmp, "reviewer")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "reviewer", "-f", key],
                   check=True, stdin=subprocess.DEVNULL)
    with open(key + ".pub") as f, open(os.path.join(root, "evidence", "allowed_signers"), "a") as signers:
        signers.write('reviewer namespaces="coursecheck-review" %s\n' % " ".join(f.read().split()[:2]))
    a = subprocess.run([binary, "approve", "pages/day02-racing.md", "--all", "--key=" + key, "--principal=reviewer"],
                       cwd=root, capture_output=True, text=True)
    if a.returncode != 0:
        print("FAIL: approve exits %d:\n%s" % (a.returncode, a.stderr))
        failed = True
    v = subprocess.run([binary, "verify", "--as", "published", "pages/day02-racing.md"], cwd=root,
                       capture_output=True, text=True)
    if v.returncode != 0:
        print("FAIL: verify --as published exits %d:\n%s" % (v.returncode, v.stderr))
        failed = True
    shutil.rmtree(tmp)
    print("scratch-test: %s" % ("FAILED" if failed else
                                "a page annotated by code actions alone, then approved by a reviewer, passes verify --as published"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
