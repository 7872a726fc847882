#!/usr/bin/env python3
"""Checks one review page against the ledger explain printed for it.

    check_html.py EXPLAIN.txt PAGE.html ROOT

- every ledger line of explain ("PAGE:L:C: KIND CLAIM <- SOURCE") is one row
  of the review's pairs tables (data-at, data-kind, claim and source cells),
  and no row is left over;
- every row's item is marked exactly once in the rendered page (id iN,
  an in-place mark or a badge), inside the page and not in the tables;
- a reference written path:line:col in the ledger is quoted in its row: the
  reference itself, and the highlighted token is the evidence file's text
  at that line and column (read here from ROOT, not from the review);
- nothing outside the file is loaded or linked: no src= or href= to
  http(s): or //, no <link>, <img>, <iframe>, @import or url(.
Prints what is wrong, one line each, and exits 1; prints "ok N items"."""
import html.parser, re, sys
from collections import Counter


class Rows(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows = {}          # index -> dict
        self.marks = Counter()  # index -> count of marks outside the tables
        self.urls = []
        self.tags = Counter()
        self.stack_table = 0    # how many pairs tables hold the current tag
        self.tables = []
        self.cur = None
        self.cell = None
        self.in_where = self.in_tok = False
        self.in_main = 0
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] += 1
        for k in ("src", "href", "action", "data", "poster"):
            if k in a and a[k] is not None:
                self.urls.append(a[k])
        if tag == "table":
            self.tables.append("pairs" in (a.get("class") or "").split())
            self.stack_table = sum(self.tables)
        if tag == "tr" and a.get("id", "").startswith("r") and "data-at" in a:
            self.cur = {"i": a["data-i"], "at": a["data-at"], "kind": a["data-kind"], "claim": "", "src": "",
                        "where": [], "tok": []}
            self.rows[a["data-i"]] = self.cur
        if tag == "td" and self.cur is not None:
            self.cell = a.get("class")
        if tag == "code" and self.cell == "ev":
            self.in_where = True
            self.cur["where"].append("")
        if tag == "strong" and a.get("class") == "tok" and self.cur is not None:
            self.in_tok = True
            self.cur["tok"].append("")
        cls = (a.get("class") or "").split()
        if self.stack_table == 0 and ("item" in cls or "badge" in cls) and "data-i" in a:
            self.marks[a["data-i"]] += 1

    def handle_endtag(self, tag):
        if tag == "table" and self.tables:
            self.tables.pop()
            self.stack_table = sum(self.tables)
        if tag == "tr":
            self.cur = None
        if tag == "td":
            self.cell = None
        if tag == "code":
            self.in_where = False
        if tag == "strong":
            self.in_tok = False

    def handle_data(self, data):
        if self.cur is None:
            return
        if self.cell == "claim" and "claim_done" not in self.cur:
            self.cur["claim"] += data
        if self.cell == "src":
            self.cur["src"] += data
        if self.in_where:
            self.cur["where"][-1] += data
        if self.in_tok:
            self.cur["tok"][-1] += data


def main():
    explain, page, root = sys.argv[1:4]
    want = Counter()
    refs = []
    line_re = re.compile(r"^(?P<page>[^:]+):(?P<l>\d+):(?P<c>\d+): (?P<kind>\S+)\s+(?P<claim>.*) <- (?P<src>.*)$", re.S)
    pending = None  # a claim that wraps (a GPU name across two lines) goes on on the next line
    for line in open(explain, encoding="utf-8"):
        line = line.rstrip("\n")
        if pending is not None:
            line, pending = pending + "\n" + line, None
        m = line_re.match(line)
        if m:
            want[(m["l"] + ":" + m["c"], m["kind"], m["claim"], m["src"])] += 1
        elif re.match(r"^[^:]+:\d+:\d+: \S+ ", line) and " <- " not in line:
            pending = line
    text = open(page, encoding="utf-8").read()
    p = Rows()
    p.feed(text)
    bad = []
    got = Counter()
    for r in p.rows.values():
        claim = re.sub(r" line \d+:\d+$", "", r["claim"])
        got[(r["at"], r["kind"], claim, r["src"])] += 1
        if p.marks[r["i"]] != 1:
            bad.append("item %s (%s %s at %s) is marked %d times in the page" % (r["i"], r["kind"], claim, r["at"],
                                                                              p.marks[r["i"]]))
        # an ambiguous number quotes its candidate places, a claim the places it
        # reads: each quoted token is the evidence's own text there
        if r["kind"] in ("ambiguous", "claim"):
            if r["kind"] == "ambiguous" and not r["where"]:
                bad.append("row at %s: an ambiguous number quotes no candidate place" % r["at"])
            k = 0
            for where in r["where"]:
                wm = re.match(r"^(evidence/[^: ]+):(\d+):(\d+)$", where)
                if not wm:
                    continue
                tok = r["tok"][k] if k < len(r["tok"]) else ""
                k += 1
                ev_line = open("%s/%s" % (root, wm[1]), encoding="utf-8").read().split("\n")[int(wm[2]) - 1]
                if not tok or not ev_line[int(wm[3]) - 1:].startswith(tok):
                    bad.append("row at %s: %s token %r is not the evidence's text at %s" % (r["at"], r["kind"], tok, where))
                refs.append(where)
        # "path:L:C", "lesson X, path:L:C", "path:L (table row)", "path:L (key: value)"
        m = re.match(r"^(?:lesson \S+, )?(evidence/[^: ]+):(\d+)(?::(\d+))?(?: \((.*)\))?$", r["src"])
        if m and r["kind"] in ("traced", "cited", "fact", "row", "code"):
            path, line = m[1], int(m[2])
            where = r["where"][0] if r["where"] else ""
            if m[3]:
                ok = where == "%s:%s:%s" % (path, line, m[3])
            else:
                ok = re.match(r"^%s:%d(?::\d+|-\d+)?$" % (re.escape(path), line), where) is not None
            if not ok:
                bad.append("row at %s: evidence reference %s is not quoted (found %r)" % (r["at"], r["src"], where))
                continue
            col = re.match(r"^.*:\d+:(\d+)$", where)
            if col:
                ev_line = open("%s/%s" % (root, path), encoding="utf-8").read().split("\n")[line - 1]
                c = int(col[1]) - 1
                if not r["tok"] or not r["tok"][0] or not ev_line[c:].startswith(r["tok"][0]):
                    bad.append("row at %s: highlighted token %r is not the evidence's text at %s (%r)" %
                               (r["at"], r["tok"][:1], where, ev_line[c:c + 12]))
            refs.append(where)
    for k in (want - got):
        bad.append("ledger item missing from the review: %s %s %s <- %s" % k)
    for k in (got - want):
        bad.append("review row not in the ledger: %s %s %s <- %s" % k)
    for u in p.urls:
        if re.match(r"^\s*(https?:|//|[a-z][a-z0-9+.-]*:)", u, re.I):
            bad.append("link or source leaving the file: %s" % u)
    for t in ("link", "img", "iframe", "object", "embed", "base"):
        if p.tags[t]:
            bad.append("the review has a <%s> element" % t)
    for pat in (r"@import", r"url\("):
        if re.search(pat, text):
            bad.append("the review's CSS loads something: %s" % pat)
    for b in bad:
        print("%s: %s" % (page, b))
    if bad:
        sys.exit(1)
    print("ok %s: %d items, %d evidence tokens checked" % (page, sum(want.values()), len(refs)))


main()
