#!/usr/bin/env python3
"""Drives a headless chromium through the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in NUL on fds 3 and 4), with
no library but Python's own.

    cdp.py CHROMIUM PAGE.html DATA_AT SCREENSHOT.png

Opens the review page, clicks (a real mouse event) the marked item whose
pairs-table row has data-at="DATA_AT", and prints one JSON object: the
evidence pane's text, the highlighted token in the pane, the evidence
reference of the pane's first quoted line and the clicked element's class;
then saves a screenshot of the window.  Exits 1 when anything fails."""
import base64, fcntl, json, os, subprocess, sys, tempfile, time


class Browser:
    def __init__(self, chromium):
        cmd_r, self.cmd_w = os.pipe()
        self.res_r, res_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="review-cdp.")

        # chromium reads commands on fd 3 and answers on fd 4; the pipes are
        # moved above 10 first so that neither lands on the other's number
        def fds():
            a = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(res_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--remote-debugging-pipe",
             "--user-data-dir=" + self.profile, "--window-size=1400,1000", "about:blank"],
            close_fds=False, preexec_fn=fds,  # dup2 clears close-on-exec; Python's other fds keep it
            stdout=subprocess.DEVNULL, stderr=open(os.environ.get("CDP_LOG", os.devnull), "w"))
        os.close(cmd_r)
        os.close(res_w)
        self.next_id = 0
        self.pending = b""

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

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        subprocess.run(["rm", "-rf", self.profile])


def evaluate(b, session, expr):
    r = b.send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session)
    if "exceptionDetails" in r:
        raise RuntimeError("script failed: %s" % r["exceptionDetails"])
    return r["result"].get("value")


def main():
    chromium, page, data_at, shot = sys.argv[1:5]
    b = Browser(chromium)
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": int(os.environ.get("CDP_WIDTH", 1400)), "height": 1000,
                "deviceScaleFactor": float(os.environ.get("CDP_ZOOM", 1)), "mobile": False}, s)
        b.send("Page.navigate", {"url": "file://" + os.path.abspath(page)}, s)
        for _ in range(100):
            if evaluate(b, s, "document.readyState") == "complete":
                break
            time.sleep(0.1)
        # the item whose row is at data_at: scroll it to the middle, then click its centre
        rect = evaluate(b, s, """(function(){
            var row = document.querySelector('tr[data-at="%s"]');
            if (!row) return null;
            var el = document.getElementById('i' + row.getAttribute('data-i'));
            el.scrollIntoView({block: 'center'});
            var r = el.getBoundingClientRect();
            return {x: r.left + r.width / 2, y: r.top + r.height / 2, cls: el.className,
                    js: document.documentElement.classList.contains('js')};
        })()""" % data_at)
        if not rect:
            raise RuntimeError("no item at " + data_at)
        for kind in ("mousePressed", "mouseReleased"):
            b.send("Input.dispatchMouseEvent", {"type": kind, "x": rect["x"], "y": rect["y"],
                                                "button": "left", "clickCount": 1}, s)
        time.sleep(0.2)
        pane = evaluate(b, s, """(function(){
            var p = document.getElementById('pane-body');
            var tok = p.querySelector('strong.tok');
            var where = p.querySelector('.where code');
            var line = p.querySelector('pre.evline');
            return {text: p.innerText, token: tok ? tok.textContent : null,
                    where: where ? where.textContent : null,
                    line: line ? line.textContent : null};
        })()""")
        pane["clicked"] = rect["cls"]
        pane["js"] = rect["js"]
        png = b.send("Page.captureScreenshot", {"format": "png"}, s)["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png))
        print(json.dumps(pane))
    finally:
        b.close()


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # one line for the test's log
        print("cdp.py: %s" % e, file=sys.stderr)
        sys.exit(1)
