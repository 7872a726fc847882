#!/usr/bin/env python3
"""Drives `coursecheck lsp` as an editor would, on a copy of the demo
course, and checks each answer exactly: initialize, didOpen (no finding),
didChange with a wrong number (one diagnostic at its range, the evidence's
nearest values as related information), hover, definition (number,
snippet, transcript), the code action that replaces the number (applied:
the diagnostic goes away), binding a number to its place, completion of
place names, the rename of a snippet in page and program, and hostile
messages (huge Content-Length, bad JSON, unknown methods) answered or
dropped with the server still answering.  Prints the latency of each
check (change sent to diagnostics received): measured, not timed.

usage: lsp-test.py COURSECHECK
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Client, apply_edits, make_course  # noqa: E402

failures = []


def check(what, got, want):
    if got != want:
        failures.append(what)
        print("FAIL: %s\n  got:  %r\n  want: %r" % (what, got, want))


def pos(line, character):
    return {"line": line, "character": character}


def rng(l0, c0, l1, c1):
    return {"start": pos(l0, c0), "end": pos(l1, c1)}


def main():
    binary = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="lsp-test.")
    root = os.path.join(tmp, "course")
    make_course(root)
    root = os.path.realpath(root)
    page = os.path.join(root, "pages", "day01-demo.md")
    uri = "file://" + page
    ev_uri = "file://" + os.path.join(root, "evidence", "day01-demo", "run-2026-11-30.txt")
    prog_uri = "file://" + os.path.join(root, "programs", "day01-demo", "demo.cu")
    text = open(page).read()
    c = Client([binary, "lsp"], root)

    # a request before initialize
    r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos(0, 0)})
    check("request before initialize", r.get("error", {}).get("code"), -32002)

    r = c.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
    caps = r["result"]["capabilities"]
    check("capabilities", caps, {
        "positionEncoding": "utf-16",
        "textDocumentSync": {"openClose": True, "change": 1, "save": {"includeText": False}},
        "hoverProvider": True, "definitionProvider": True,
        "codeActionProvider": {"codeActionKinds": ["quickfix", "refactor.rewrite"]},
        "completionProvider": {"triggerCharacters": ["[", "|"]}, "renameProvider": True})
    c.notify("initialized", {})

    c.notify("textDocument/didOpen",
             {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
    d = c.notification("textDocument/publishDiagnostics")["params"]
    check("didOpen: the demo page is clean", d, {"uri": uri, "diagnostics": []})

    # hover and definition on 1.8 ms (line 47 of the page, column 24)
    h = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos(46, 25)})["result"]
    check("hover on 1.8 ms", h, {
        "contents": {"kind": "markdown", "value":
                     "**traced** `1.8 ms`: evidence/day01-demo/run-2026-11-30.txt:23:39\n\n"
                     "1.8 ms = 1.798 rounded to 2 significant digits\n\n"
                     "evidence/day01-demo/run-2026-11-30.txt:23:39 (row \"1024 add, racy\", column \"time ms\")\n\n"
                     "```text\n   1024  add, racy           2920     1.798\n```"},
        "range": rng(46, 23, 46, 29)})
    r = c.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": pos(46, 25)})["result"]
    check("definition of 1.8 ms", r, {"uri": ev_uri, "range": rng(22, 38, 22, 43)})
    r = c.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": pos(17, 5)})["result"]
    check("definition of the snippet", r, {"uri": prog_uri, "range": rng(12, 0, 18, 0)})
    r = c.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": pos(39, 5)})["result"]
    check("definition of the transcript", r, {"uri": ev_uri, "range": rng(19, 0, 25, 0)})
    r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos(10, 3)})["result"]
    check("hover on plain prose", r, None)

    # a wrong number: 1.8 ms becomes 1.81 ms (one the nearest values name)
    wrong = text.replace("it takes 1.8 ms", "it takes 1.81 ms")
    t0 = time.monotonic()
    c.notify("textDocument/didChange",
             {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": wrong}]})
    d = c.notification("textDocument/publishDiagnostics")["params"]["diagnostics"]
    latency = [time.monotonic() - t0]

    def near(line, c0, c1, what):
        return {"location": {"uri": ev_uri, "range": rng(line, c0, line, c1)}, "message": what}
    want = {
        "range": rng(46, 23, 46, 30), "severity": 1, "code": "number-untraced", "source": "coursecheck",
        "message": "1.81 ms is not in the evidence\nhint: quote the number the evidence holds, or annotate it: "
                   "<!-- = EXPR --> when derived, <!-- cite: LESSON --> when from another lesson, "
                   "<!-- ext: REASON --> when from outside",
        "relatedInformation": [near(22, 38, 43, "the nearest evidence value: 1.798")]}
    check("didChange: the wrong number's diagnostic", d, [want])

    acts = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": rng(46, 24, 46, 24),
                                                 "context": {"diagnostics": d}})["result"]
    titles = [a["title"] for a in acts]
    check("code actions on 1.81 ms", titles, ["Replace 1.81 with the evidence's 1.798"])
    check("the replacement's edit", acts and acts[0]["edit"], {"changes": {uri: [
        {"range": rng(46, 23, 46, 27), "newText": "1.798"}]}})
    fixed = apply_edits(wrong, acts[0]["edit"]["changes"][uri])
    check("the page after the replacement", fixed, text.replace("it takes 1.8 ms", "it takes 1.798 ms"))
    t0 = time.monotonic()
    c.notify("textDocument/didChange",
             {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": fixed}]})
    d = c.notification("textDocument/publishDiagnostics")["params"]["diagnostics"]
    latency.append(time.monotonic() - t0)
    check("the diagnostic goes away", d, [])

    # bind 70,320 to its place
    acts = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": rng(44, 22, 44, 22),
                                                 "context": {"diagnostics": []}})["result"]
    check("bind 70,320", [a["title"] for a in acts],
          ["Bind 70,320 to [64 add, racy | mismatches] (at:)",
           "Quote evidence/day01-demo/run-2026-11-30.txt lines 24-24 as a transcript block"])
    check("the bind's edit", acts[0]["edit"]["changes"][uri],
          [{"range": rng(44, 27, 44, 27), "newText": " <!-- at: [64 add, racy | mismatches] -->"}])
    check("the transcript's edit", acts[1]["edit"]["changes"][uri],
          [{"range": rng(49, 0, 49, 0), "newText":
            "\n<!-- transcript -->\n```text\n     64  add, racy          70320     0.412\n```\n"}])
    bound = apply_edits(fixed, acts[0]["edit"]["changes"][uri] + acts[1]["edit"]["changes"][uri])
    c.notify("textDocument/didChange",
             {"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": bound}]})
    d = c.notification("textDocument/publishDiagnostics")["params"]["diagnostics"]
    check("bound and quoted: still clean", d, [])

    # completion inside an annotation's brackets
    typing = bound.replace("1,024 threads it", "1,024 <!-- at: [1024 add, racy | thr --> threads it")
    c.notify("textDocument/didChange",
             {"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": typing}]})
    c.notification("textDocument/publishDiagnostics")
    items = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": pos(46, 16)})["result"]
    check("completion: the places of the evidence", [i["label"] for i in items],
          ["256 add, plain | threads", "256 add, plain | mismatches", "256 add, plain | time ms",
           "1024 add, racy | threads", "1024 add, racy | mismatches", "1024 add, racy | time ms",
           "64 add, racy | threads", "64 add, racy | mismatches", "64 add, racy | time ms", "all | threads"])
    check("completion: an item", items[3], {
        "label": "1024 add, racy | threads", "kind": 12, "detail": "1024 (evidence/day01-demo/run-2026-11-30.txt:23)",
        "filterText": "1024 add, racy | threads",
        "textEdit": {"range": rng(46, 16, 46, 16), "newText": "1024 add, racy | threads]"}})
    r = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": pos(46, 3)})["result"]
    check("completion outside an annotation", r, [])

    # rename the snippet 'add' in page and program
    r = c.request("textDocument/rename", {"textDocument": {"uri": uri}, "position": pos(13, 15),
                                           "newName": "vector_add"})["result"]
    check("rename the snippet", r, {"changes": {
        uri: [{"range": rng(13, 14, 13, 17), "newText": "vector_add"}],
        prog_uri: [{"range": rng(11, 12, 11, 15), "newText": "vector_add"}]}})
    r = c.request("textDocument/rename", {"textDocument": {"uri": uri}, "position": pos(13, 15),
                                           "newName": "two words"})
    check("rename to a bad name", r.get("error"),
          {"code": -32803, "message": "a snippet name has no blanks, '#', '<' or '>'"})

    # hostile messages: each answered or dropped, the server still answers
    c.send_raw(b"Content-Length: 99999999\r\n\r\n" + b"x" * 99999999)
    r = c.response(None)
    check("a body over the limit", r["error"]["code"], -32600)
    c.send_raw(b"Content-Length: 5\r\n\r\n{bad}")
    r = c.response(None)
    check("bad JSON", r["error"]["code"], -32700)
    c.send_raw(b"Content-Type: x\r\n\r\n")
    r = c.response(None)
    check("no Content-Length", r["error"]["code"], -32600)
    c.send_raw(b"X-Long: " + b"a" * 5000 + b"\r\nContent-Length: 2\r\n\r\n{}")
    r = c.response(None)
    check("a long header line is dropped, the message read", r["error"],
          {"code": -32600, "message": "a message needs a method"})
    c.send_raw(b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}")
    r = c.response(None)
    check("two Content-Lengths", r["error"]["code"], -32600)
    for body, code in ((b'{"id":{},"method":"x"}', -32600), (b'{"id":7,"method":5}', -32600),
                       (b'{"a":1,"a":2}', -32700), (b"[" * 100000 + b"]" * 100000, -32700)):
        c.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        r = c.response(7 if b'"id":7' in body else None)
        check("hostile body %r" % body[:24], r["error"]["code"], code)
    r = c.request("workspace/frobnicate", {})
    check("unknown request", r["error"]["code"], -32601)
    c.notify("workspace/frobnicated", {})
    c.notify("textDocument/didChange", {"textDocument": 7})
    r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": "here"})
    check("a bad position", r["result"], None)
    r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos(44, 22)})
    check("still answering", (r["result"] or {}).get("range"), rng(44, 21, 44, 27))

    r = c.request("shutdown", None)
    check("shutdown", r, {"jsonrpc": "2.0", "id": r["id"], "result": None})
    c.notify("exit", None)
    rc, err = c.close()
    check("exit status", rc, 0)
    check("standard error", err, "")
    # UTF-16 positions after characters of 2 and 4 bytes, CRLF line ends,
    # a place written in a table with its bar escaped
    c = Client([binary, "lsp"], root)
    c.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
    u2 = "file://" + os.path.join(root, "pages", "day09-wide.md")
    wide = text.replace("\n", "\r\n").replace("The racy kernel gets", "The racy (\u00e9t\u00e9 \U0001F600) kernel gets")
    wide = wide.replace("| 1024 | add, racy | 2,920 |", "| 1024 | add, racy | 2,920 |\r\n| 64 | add, racy | 70,320 |")
    c.notify("textDocument/didOpen", {"textDocument": {"uri": u2, "languageId": "markdown", "version": 1,
                                                       "text": wide.replace("1,024 threads it takes 1.8 ms",
                                                                            "1,024 threads it takes 1.9 ms")}})
    d = c.notification("textDocument/publishDiagnostics")["params"]["diagnostics"]
    check("a wide page's diagnostic range", [(x["code"], x["range"]) for x in d],
          [("number-untraced", rng(46, 23, 46, 29))])
    h = c.request("textDocument/hover", {"textDocument": {"uri": u2}, "position": pos(44, 31)})["result"]
    check("hover past 2- and 4-byte characters", h and h["range"], rng(44, 30, 44, 36))
    acts = c.request("textDocument/codeAction", {"textDocument": {"uri": u2}, "range": rng(55, 23, 55, 23),
                                                 "context": {"diagnostics": []}})["result"]
    check("a place in a table row", [a["edit"]["changes"][u2] for a in acts[:1]],
          [[{"range": rng(55, 25, 55, 25), "newText": " <!-- at: [64 add, racy \\| mismatches] -->"}]])
    c.notify("exit", None)
    rc, err = c.close()
    check("exit without shutdown", (rc, err), (1, ""))

    # a Content-Length past any body: answered, then the body is skipped
    # (nothing held) until the input ends
    c = Client([binary, "lsp"], root)
    c.send_raw(b"Content-Length: 999999999999\r\n\r\n")
    r = c.response(None)
    check("huge Content-Length", r["error"]["code"], -32600)
    c.send_raw(b"x" * 1000000)
    rc, err = c.close()
    check("end of input inside a skipped body", (rc, err), (0, ""))
    print("lsp: diagnostics %s after a change (ASan build here; see BENCH.md for the release build)" %
          ", ".join("%.1f ms" % (t * 1000) for t in latency))
    shutil.rmtree(tmp)
    if failures:
        print("lsp-test: %d failed" % len(failures))
        return 1
    print("lsp-test: all answers as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
