#!/usr/bin/env python3
"""The review page in a real browser: headless chromium driven through the
DevTools protocol on a pipe (cdp.py's Browser), Python's own library only.

    browser.py CHROMIUM REVIEW_DIR PAGE.html SHOTS_DIR [REOPENED.html]

PAGE.html is a review of a page with findings (a snippet that drifted, a
number not in the evidence), in REVIEW_DIR.  Checks, printing one
"ok ..." or "FAIL ..." line each:
- a permalink #iN opens with item N selected and its evidence in the pane;
- #LN selects the first item on page line N and marks its block; an
  evidence line's permalink (#PATH:LINE) selects an item quoting it and
  marks the line in the pane;
- j / n step to the next finding, k / p back, in page order; the snippet's
  finding shows its diff with the changed characters marked;
- the approve control of a traced number, clicked with the mouse, shows
  `coursecheck approve PAGE --item ID` with the item's id; a second
  item adds `--item ID2`; clicking again takes it out;
- the search box (reached with '/') marks the items whose row holds the
  text, and Enter selects the first of them;
- nothing is requested from outside REVIEW_DIR (Network events, the
  whole run), and a fetch the page would make is refused by its
  Content-Security-Policy.
- REOPENED.html (a review rendered with a mocked approvals hook, by
  test_review_page): its reopened claim, opened by its permalink, shows
  REOPENED with the approved and the new values.
Saves SHOTS_DIR/first-screen.png, SHOTS_DIR/snippet-diff.png (the snippet's finding selected) and
SHOTS_DIR/reopened-claim.png.
Exits 1 when a check fails."""
import base64, json, os, re, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402


class Recorder(cdp.Browser):
    """cdp.Browser that keeps the events it reads (Network.*) instead of
    dropping them."""

    def __init__(self, chromium):
        super().__init__(chromium)
        self.events = []

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            while b"\0" in self.pending:
                raw, self.pending = self.pending.split(b"\0", 1)
                reply = json.loads(raw)
                if "method" in reply:
                    self.events.append(reply)
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        raise RuntimeError("%s: %s" % (method, reply["error"]))
                    return reply.get("result", {})
            if time.time() > deadline:
                raise RuntimeError("%s: no answer in %d s" % (method, timeout))
            chunk = os.read(self.res_r, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.pending += chunk


passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok browser: %s" % what)
    else:
        failed += 1
        print("FAIL browser: %s%s" % (what, (": " + str(detail)) if detail else ""))


class Page:
    def __init__(self, b, url, width=1400):
        self.b = b
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        b.send("Network.enable", {}, self.s)
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": int(os.environ.get("SHOT_WIDTH", width)), "height": int(os.environ.get("SHOT_HEIGHT", 900)),
                "deviceScaleFactor": 1, "mobile": False}, self.s)
        self.go(url)

    def go(self, url):
        self.b.send("Page.navigate", {"url": url}, self.s)
        time.sleep(0.2)
        for _ in range(100):
            if self.js("document.readyState") == "complete":
                break
            time.sleep(0.1)
        time.sleep(0.2)

    def js(self, expr, wait=False):
        r = self.b.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": wait}, self.s)
        if "exceptionDetails" in r:
            raise RuntimeError("script failed: %s" % r["exceptionDetails"])
        return r["result"].get("value")

    def key(self, k):
        code = {"/": "Slash", "Enter": "Enter"}.get(k, "Key" + k.upper())
        vk = {"/": 191, "Enter": 13}[k] if k in ("/", "Enter") else ord(k.upper())
        text = "\r" if k == "Enter" else k
        self.b.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": k, "code": code, "text": text,
                                               "windowsVirtualKeyCode": vk}, self.s)
        self.b.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": k, "code": code,
                                               "windowsVirtualKeyCode": vk}, self.s)
        time.sleep(0.1)

    def click(self, selector):
        rect = self.js("""(function(){var el=document.querySelector(%s);if(!el)return null;
            el.scrollIntoView({block:'center'});var r=el.getBoundingClientRect();
            return {x:r.left+r.width/2,y:r.top+r.height/2};})()""" % json.dumps(selector))
        if not rect:
            raise RuntimeError("nothing to click at " + selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.b.send("Input.dispatchMouseEvent", {"type": kind, "x": rect["x"], "y": rect["y"],
                                                     "button": "left", "clickCount": 1}, self.s)
        time.sleep(0.15)

    def selected(self):
        return self.js("""(function(){var s=document.querySelectorAll('.main .sel');
            return Array.prototype.map.call(s,function(e){return e.getAttribute('data-i');});})()""")

    def shot(self, path):
        png = self.b.send("Page.captureScreenshot", {"format": "png"}, self.s)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))


def main():
    chromium, folder, page, shots = sys.argv[1:5]
    reopened = sys.argv[5] if len(sys.argv) > 5 else None
    folder = os.path.realpath(folder)
    url = "file://" + os.path.join(folder, page)
    os.makedirs(shots, exist_ok=True)
    b = Recorder(chromium)
    try:
        p = Page(b, url)
        check(p.js("document.documentElement.classList.contains('js')"), "the page's script runs")
        # the first screen: the verdict and the page, the run facts and legend folded
        first = p.js("""(function(){var r=document.getElementById('page').getBoundingClientRect();
            return {top:r.top,runs:document.getElementById('runs').open,legend:document.getElementById('legend').open};})()""")
        check(first["top"] < 500 and not first["runs"] and not first["legend"],
              "the page starts %dpx down, the run facts and the legend folded" % first["top"], first)
        p.shot(os.path.join(shots, "first-screen.png"))
        items = p.js("""Array.prototype.map.call(document.querySelectorAll('.main tr[data-i]'),function(r){
            return {i:r.getAttribute('data-i'),at:r.getAttribute('data-at'),kind:r.getAttribute('data-kind'),
                    id:r.getAttribute('data-id'),claim:r.cells[1].querySelector('a').textContent,
                    ev:(r.querySelector('a.ln')||{}).getAttribute?r.querySelector('a.ln').getAttribute('href'):null,
                    approve:!!r.querySelector('button.approve'),
                    marked:!!document.getElementById('i'+r.getAttribute('data-i'))};})""")
        traced = [it for it in items if it["kind"] == "traced" and it["approve"] and it["marked"]]
        check(len(traced) >= 2, "the page has traced numbers with an approve control", len(traced))
        ids = [it["id"] for it in items]
        # a sign-off item carries the sign-off's id (8 hex digits, what approve
        # takes); any other item the page's own, KIND-LINE-COL[-N]
        check(len(set(ids)) == len(ids) and
              all(re.match(r"^[0-9a-f]{8}$", it["id"]) if it["approve"] else re.match(r"^[a-z]+-\d+-\d+(-\d+)?$", it["id"])
                  for it in items),
              "every item has a unique id: the sign-off's (8 hex) or KIND-LINE-COL[-N]",
              [x for x in ids if ids.count(x) > 1][:3] or ids[:5])

        # 1. a permalink to an item opens it selected
        t = max(traced, key=lambda it: len(it["claim"]))  # a number a search finds few of
        p.go(url + "#i" + t["i"])
        pane = p.js("document.getElementById('pane-body').innerText")
        check(p.selected() == [t["i"]] and t["claim"] in pane and ("page line " + t["at"]) in pane,
              "#i%s opens item %s (%s) selected, its evidence in the pane" % (t["i"], t["i"], t["claim"]),
              (p.selected(), pane[:200]))
        inview = p.js("""(function(){var r=document.getElementById('i%s').getBoundingClientRect();
            return r.top>=0&&r.bottom<=innerHeight;})()""" % t["i"])
        check(inview, "#i%s scrolls its item into view" % t["i"])

        # 2. a permalink to a page line, and to an evidence line
        line = t["at"].split(":")[0]
        first_on_line = [it for it in items if it["at"].split(":")[0] == line and it["marked"]][0]
        p.go(url + "#L" + line)
        blk = p.js("""(function(){var b=document.querySelector('.blk.lsel');return b?b.getAttribute('data-lines'):null;})()""")
        lo, hi = (blk or "0-0").split("-")
        check(p.selected() == [first_on_line["i"]] and int(lo) <= int(line) <= int(hi),
              "#L%s selects the first item of page line %s and marks its block (lines %s)" % (line, line, blk),
              p.selected())
        ev = [it for it in items if it["ev"] and it["ev"].startswith("#evidence/")][0]
        p.go(url + ev["ev"])
        lsel = p.js("""(function(){var a=document.querySelector('#pane-body a.ln.lsel');return a?a.getAttribute('href'):null;})()""")
        sel = p.selected()
        check(len(sel) == 1 and lsel == ev["ev"] and p.js("!!document.querySelector('#r%s a.ln[href=\"%s\"]')" % (sel[0], ev["ev"])),
              "%s selects an item quoting that evidence line, the line marked in the pane" % ev["ev"], (sel, lsel))

        # 3. next and previous finding from the keyboard
        findings = p.js("""Array.prototype.map.call(document.querySelectorAll('.main .finding[data-i]'),
            function(e){return e.getAttribute('data-i');})""")
        check(len(findings) >= 2, "the page has findings to step through", findings)
        p.go(url)
        p.js("document.activeElement&&document.activeElement.blur()")
        seen = []
        for k in ("j", "j", "n"):
            p.key(k)
            seen.append((p.selected() or [None])[0])
        want = [findings[0], findings[1], findings[2 % len(findings)]]
        check(seen == want, "j, j, n step to findings %s" % ", ".join(want), seen)
        p.key("k")
        p.key("p")
        check((p.selected() or [None])[0] == findings[0], "k, p step back to the first finding", p.selected())
        # the snippet's finding shows its diff
        snip = None
        for _ in range(len(findings)):
            if p.js("!!document.querySelector('#pane-body pre.diff del') && !!document.querySelector('#pane-body pre.diff ins')"):
                snip = p.selected()[0]
                break
            p.key("j")
        diff = p.js("""(function(){var d=document.querySelector('#pane-body pre.diff');if(!d)return null;
            return {del:Array.prototype.map.call(d.querySelectorAll('del'),function(e){return e.textContent;}),
                    ins:Array.prototype.map.call(d.querySelectorAll('ins'),function(e){return e.textContent;}),
                    text:d.textContent};})()""")
        check(snip is not None and diff and diff["del"] == ["+"] and diff["ins"] == ["-"] and "c[i] = a[i]" in diff["text"],
              "the drifted snippet's finding shows its diff, '+' struck and '-' marked", diff)
        p.shot(os.path.join(shots, "snippet-diff.png"))

        # 4. approve two numbers from the page, then take one back
        a, c = traced[0], traced[1]
        p.go(url + "#i" + a["i"])
        p.click("#pane-body button.approve")
        cmd = p.js("document.getElementById('approve-cmd').textContent")
        page_rel = p.js("document.getElementById('approve-cmd').getAttribute('data-page')")
        check(cmd == "coursecheck approve %s --item %s" % (page_rel, a["id"]) and
              not p.js("document.getElementById('approve-box').hidden"),
              "approve on %s shows: %s" % (a["claim"], cmd), cmd)
        p.go(url + "#i" + c["i"])  # the same page: the choice stays
        p.click("#pane-body button.approve")
        cmd2 = p.js("document.getElementById('approve-cmd').textContent")
        check(cmd2 == "coursecheck approve %s --item %s --item %s" % (page_rel, a["id"], c["id"]),
              "a second approve adds its item: %s" % cmd2, cmd2)
        p.click(".main .item[data-i='%s']" % a["i"])
        p.click("#pane-body button.approve")
        cmd3 = p.js("document.getElementById('approve-cmd').textContent")
        check(cmd3 == "coursecheck approve %s --item %s" % (page_rel, c["id"]), "clicking the first again takes it out",
              cmd3)

        # 5. search
        p.go(url)
        p.js("document.activeElement&&document.activeElement.blur()")
        p.key("/")
        focused = p.js("document.activeElement&&document.activeElement.id")
        word = t["claim"]
        b.send("Input.insertText", {"text": word}, p.s)
        time.sleep(0.2)
        hits = p.js("""Array.prototype.map.call(document.querySelectorAll('.main .hit[data-i]'),
            function(e){return e.getAttribute('data-i');})""")
        rows_ok = p.js("""(function(w){return Array.prototype.every.call(document.querySelectorAll('.main .hit[data-i]'),
            function(e){var r=document.getElementById('r'+e.getAttribute('data-i'));
            return (r.textContent+' '+e.textContent).toLowerCase().indexOf(w.toLowerCase())>=0;});})(%s)""" % json.dumps(word))
        p.key("Enter")
        check(focused == "search" and t["i"] in hits and rows_ok and p.selected() and p.selected()[0] in hits,
              "'/' then %r marks %d items holding it, Enter selects the first" % (word, len(hits)),
              (focused, hits, p.selected()))

        # 6. nothing leaves the folder: the requests of everything above,
        # then a fetch the page would make (refused before it is sent)
        urls = [e["params"]["request"]["url"] for e in b.events if e.get("method") == "Network.requestWillBeSent"]
        csp = p.js("""new Promise(function(ok){var v=false;
            document.addEventListener('securitypolicyviolation',function(){v=true;});
            fetch('https://example.com/x.js').then(function(){ok('loaded');},function(){setTimeout(function(){ok(v?'refused by CSP':'failed');},50);});})""",
                   wait=True)
        check(csp == "refused by CSP", "a fetch the page makes is refused by its Content-Security-Policy", csp)
        outside = [u for u in urls if not (u.startswith("file://" + folder + "/") or u.startswith("data:")
                                           or u == "about:blank")]
        check(len(urls) > 0 and not outside, "%d requests, none outside the review folder" % len(urls), outside[:5])

        # 7. a reopened claim (the approvals hook's state, mocked)
        if reopened:
            p.go("file://" + os.path.join(folder, reopened))
            i = p.js("(function(){var m=document.querySelector('.main .item.appr-reopened');return m?m.getAttribute('data-i'):null;})()")
            if i is None:
                check(False, "the reopened page marks a reopened item")
            else:
                p.go("file://" + os.path.join(folder, reopened) + "#i" + i)
                got = p.js("""(function(){var a=document.querySelector('#pane-body .appr-reopened');if(!a)return null;
                    return {text:a.innerText,del:(a.querySelector('del')||{}).textContent,ins:(a.querySelector('ins')||{}).textContent,
                            again:!!document.querySelector('#pane-body button.approve')};})()""")
                check(got and "REOPENED" in got["text"] and got["del"] and got["ins"] and got["again"],
                      "#i%s opens the reopened claim: REOPENED, %s -> %s, approve again" %
                      (i, got and got["del"], got and got["ins"]), got)
                p.shot(os.path.join(shots, "reopened-claim.png"))
    finally:
        b.close()
    print("browser: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
