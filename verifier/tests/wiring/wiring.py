#!/usr/bin/python3
"""wiring.py COURSECHECK: the CI wiring examples, exercised offline.

- .pre-commit-hooks.yaml: its `files` pattern picks the course's files and
  no others; its `entry` with the picked file names checks what they affect.
- .github/coursecheck-matcher.json: its regexp over real text output finds
  each diagnostic, with file, line, column, severity and code.
- .github/workflows/coursecheck.yml: every `run` step executed in a copy of
  the repository (apt-get is a stand-in: nothing is installed), then the
  SARIF file that the upload step names is there and valid.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema
import yaml

BIN = os.path.abspath(sys.argv[1])
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
passed = failed = 0


def check(what, ok):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {what}")


def course(tmp, name, failing):
    """The demo fixture; failing: its program's snippet changed."""
    root = os.path.join(tmp, name)
    shutil.copytree(os.path.join(TOP, "verifier/tests/fixtures/demo"), root)
    if failing:
        cu = os.path.join(root, "programs/day01-demo/demo.cu")
        text = open(cu, encoding="utf-8").read()
        open(cu, "w", encoding="utf-8").write(text.replace("a[i] + b[i]", "a[i] * b[i]"))
    return root


def shim(tmp):
    """A PATH folder with coursecheck (the binary under test) and a stand-in apt-get."""
    d = os.path.join(tmp, "bin")
    os.makedirs(d)
    os.symlink(BIN, os.path.join(d, "coursecheck"))
    with open(os.path.join(d, "apt-get"), "w") as f:
        f.write('#!/bin/sh\necho "apt-get (stand-in) $*" >> "$APT_LOG"\n')
    os.chmod(os.path.join(d, "apt-get"), 0o755)
    return d


def precommit(tmp, path_dir):
    hooks = yaml.safe_load(open(os.path.join(TOP, ".pre-commit-hooks.yaml")))
    check("one hook, id coursecheck", len(hooks) == 1 and hooks[0]["id"] == "coursecheck")
    h = hooks[0]
    check("the hook does not take file names", h.get("pass_filenames", True) is True)
    files = re.compile(h["files"])
    for p in ["pages/day01-demo.md", "programs/day01-demo/demo.cu", "programs/day01-demo/README.md",
              "evidence/day01-demo/run-2026-11-30.txt"]:
        check(f"the files pattern misses {p}", files.search(p) is not None)
    for p in ["Makefile", "verifier/src/cli.c", "README.md", "pagesx/a.md"]:
        check(f"the files pattern picks {p}", files.search(p) is None)
    env = dict(os.environ, PATH=path_dir + os.pathsep + os.environ["PATH"], NO_COLOR="1")
    for failing, changed, want in [(True, ["programs/day01-demo/demo.cu"], 1),
                                   (False, ["programs/day01-demo/demo.cu"], 0),
                                   (True, ["evidence/day01-demo/run-2026-11-30.txt"], 1),
                                   (False, ["pages/day01-demo.md", "Makefile"], 0)]:
        root = course(tmp, f"pc-{failing}-{len(changed)}-{changed[0].split('/')[0]}", failing)
        picked = [p for p in changed if files.search(p)]
        r = subprocess.run(h["entry"].split() + picked, cwd=root, env=env, capture_output=True, text=True)
        what = f"pre-commit with {picked} on a {'failing' if failing else 'clean'} course"
        check(f"{what} exits {r.returncode}, not {want}", r.returncode == want)
        if failing:
            check(f"{what} does not report the drifted snippet", "[snippet-drift]" in r.stderr)


def precommit_itself(tmp, path_dir):
    """pre-commit itself runs the README's local form and this repository's hook."""
    exe = shutil.which("pre-commit")
    if not exe:
        print("wiring: pre-commit not installed: the hook was not run by pre-commit")
        skipped = os.environ.get("SKIPPED_FILE")
        if skipped:
            with open(skipped, "a") as f:
                f.write("pre-commit hook not run by pre-commit: pre-commit not installed\n")
        return
    text = open(os.path.join(TOP, ".pre-commit-hooks.yaml")).read()
    m = re.search(r"^# --- local form ---\n(.*?)^# --- end ---$", text, re.S | re.M)
    check("the local form is marked in .pre-commit-hooks.yaml", m is not None)
    if not m:
        return
    local = "".join(line[2:] + "\n" for line in m.group(1).splitlines())
    env = dict(os.environ, PATH=path_dir + os.pathsep + os.environ["PATH"], NO_COLOR="1",
               PRE_COMMIT_HOME=os.path.join(tmp, "pre-commit-home"), GIT_AUTHOR_NAME="t",
               GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    for failing, want in [(True, 1), (False, 0)]:
        root = course(tmp, f"pci-{failing}", failing)
        open(os.path.join(root, ".pre-commit-config.yaml"), "w").write(local)
        subprocess.run(["git", "init", "-q"], cwd=root, env=env, check=True)
        subprocess.run(["git", "add", "-A"], cwd=root, env=env, check=True)
        r = subprocess.run([exe, "run", "--files", "programs/day01-demo/demo.cu", "pages/day01-demo.md"],
                           cwd=root, env=env, capture_output=True, text=True)
        what = f"pre-commit run (local form) on a {'failing' if failing else 'clean'} course"
        check(f"{what} exits {r.returncode}, not {want}: {(r.stdout + r.stderr)[-400:]}", r.returncode == want)
        if failing:
            check(f"{what} does not show the drifted snippet", "[snippet-drift]" in r.stdout + r.stderr)
        # this repository's hook as pre-commit reads it (try-repo: the
        # working tree of this repository, uncommitted changes included)
        r = subprocess.run([exe, "try-repo", TOP, "coursecheck", "--files", "programs/day01-demo/demo.cu"],
                           cwd=root, env=env, capture_output=True, text=True)
        what = f"pre-commit try-repo on a {'failing' if failing else 'clean'} course"
        check(f"{what} exits {r.returncode}, not {want}: {(r.stdout + r.stderr)[-400:]}", r.returncode == want)


def matcher(tmp):
    m = json.load(open(os.path.join(TOP, ".github/coursecheck-matcher.json")))
    pat = m["problemMatcher"][0]["pattern"][0]
    rx = re.compile(pat["regexp"])
    root = course(tmp, "matcher", True)
    r = subprocess.run([BIN, "verify", "--format=text"], cwd=root, capture_output=True, text=True,
                       env=dict(os.environ, NO_COLOR="1"))
    lines = r.stderr.splitlines()
    hits = [rx.match(line) for line in lines]
    hits = [h for h in hits if h]
    heads = [line for line in lines if re.search(r": (error|warning): .*\[[a-z0-9-]+\]$", line)]
    check(f"the matcher finds {len(hits)} diagnostics, not {len(heads)}", len(hits) == len(heads) and hits)
    if hits:
        h = hits[0]
        got = (h.group(pat["file"]), h.group(pat["line"]), h.group(pat["severity"]), h.group(pat["code"]))
        check(f"the matcher reads {got}", got == ("pages/day01-demo.md", "7", "error", "evidence-stale"))
        check("the matcher reads no column", h.group(pat["column"]) is not None)
    check("the matcher takes a note for a diagnostic",
          not any(rx.match(line) for line in lines if ": note: " in line))
    check("the matcher takes the summary for a diagnostic", not any(rx.match(line) for line in lines if line.startswith("coursecheck verify:")))


def workflow(tmp, path_dir):
    wf = yaml.safe_load(open(os.path.join(TOP, ".github/workflows/coursecheck.yml")))
    steps = wf["jobs"]["verify"]["steps"]
    uses = [s["uses"].split("@")[0] for s in steps if "uses" in s]
    check(f"the workflow uses {uses}", uses == ["actions/checkout", "github/codeql-action/upload-sarif"])
    up = [s for s in steps if "upload-sarif" in s.get("uses", "")][0]
    cond = up.get("if", "")
    check(f"the SARIF upload runs on a private repository without code scanning: if: {cond!r}",
          "always()" in cond and "github.event.repository.private" in cond and "vars.COURSECHECK_CODE_SCANNING" in cond)
    check("the workflow may not upload security events", wf["permissions"].get("security-events") == "write")
    # the checkout: the repository's tracked files, and what is built already
    repo = os.path.join(tmp, "checkout")
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=TOP,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for n in filter(None, names):
        src = os.path.join(TOP, n)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(repo, n)) or repo, exist_ok=True)
            shutil.copy2(src, os.path.join(repo, n))
    if os.path.isdir(os.path.join(TOP, "build")):
        shutil.copytree(os.path.join(TOP, "build"), os.path.join(repo, "build"), symlinks=True,
                        ignore=shutil.ignore_patterns("asan", "programs", "capobj"))
    apt_log = os.path.join(tmp, "apt.log")
    env = dict(os.environ, PATH=path_dir + os.pathsep + os.environ["PATH"], GITHUB_ACTIONS="true", APT_LOG=apt_log)
    env.pop("NO_COLOR", None)
    out = ""
    for s in steps:
        if "run" not in s:
            continue
        r = subprocess.run(["bash", "-e", "-c", s["run"]], cwd=repo, env=env, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL)
        out += r.stdout
        check(f"step '{s['name']}' exits {r.returncode}: {r.stderr[-300:]}", r.returncode == 0)
    check("the install step does not call apt-get", os.path.exists(apt_log))
    check("the matcher step does not register the matcher",
          "::add-matcher::.github/coursecheck-matcher.json" in out and
          os.path.exists(os.path.join(repo, ".github/coursecheck-matcher.json")))
    check("make verify under Actions annotates a clean course", "::error" not in out)
    sarif_file = [s for s in steps if "upload-sarif" in s.get("uses", "")][0]["with"]["sarif_file"]
    path = os.path.join(repo, sarif_file)
    check(f"{sarif_file} was not written", os.path.exists(path))
    if os.path.exists(path):
        schema = json.load(open(os.path.join(TOP, "verifier/schema/sarif-schema-2.1.0.json")))
        errs = list(jsonschema.Draft7Validator(schema).iter_errors(json.load(open(path))))
        check(f"{sarif_file} is not valid SARIF 2.1.0: {errs[:1]}", not errs)


with tempfile.TemporaryDirectory() as tmp:
    d = shim(tmp)
    precommit(tmp, d)
    precommit_itself(tmp, d)
    matcher(tmp)
    workflow(tmp, d)
print(f"wiring: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
