"""A minimal LSP client for the tests: framed JSON-RPC over a child's pipes."""
import json
import os
import select
import subprocess
import time


class Client:
    def __init__(self, argv, cwd):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.buf = b""
        self.next_id = 1
        self.pending = []  # notifications read while waiting for a response

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _read(self, timeout):
        """The next message, or None after timeout seconds."""
        end = time.monotonic() + timeout
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                length = None
                for line in head.split(b"\r\n"):
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v)
                if length is not None and len(rest) >= length:
                    self.buf = rest[length:]
                    return json.loads(rest[:length])
            left = end - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk

    def request(self, method, params, timeout=30):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.response(rid, timeout)

    def response(self, rid, timeout=30):
        while True:
            m = self._read(timeout)
            if m is None:
                raise AssertionError("no response to request %r" % rid)
            if "method" in m and "id" not in m:
                self.pending.append(m)
                continue
            if m.get("id") == rid:
                return m

    def notification(self, method, timeout=30):
        for i, m in enumerate(self.pending):
            if m["method"] == method:
                return self.pending.pop(i)
        while True:
            m = self._read(timeout)
            if m is None:
                raise AssertionError("no %s notification" % method)
            if m.get("method") == method:
                return m
            self.pending.append(m)

    def close(self):
        self.proc.stdin.close()
        rc = self.proc.wait(timeout=30)
        err = self.proc.stderr.read().decode()
        return rc, err


HERE = os.path.dirname(os.path.abspath(__file__))
DEMO = os.path.join(HERE, "..", "fixtures", "demo")


def make_course(work):
    """A copy of the demo course in work, its run signed with a key made
    here and listed in its allowed_signers (as the golden runner does)."""
    import shutil
    shutil.copytree(DEMO, work)
    key = os.path.join(os.path.dirname(work), "key")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "lsp-test", "-f", key],
                   stdin=subprocess.DEVNULL, check=True)
    run = os.path.join(work, "evidence", "day01-demo", "run-2026-11-30.txt")
    subprocess.run(["ssh-keygen", "-Y", "sign", "-q", "-f", key, "-n", "coursecheck-evidence", run],
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True)
    pub = open(key + ".pub").read().split()
    with open(os.path.join(work, "evidence", "allowed_signers"), "w") as f:
        f.write('lsp-test namespaces="coursecheck-evidence" %s %s\n' % (pub[0], pub[1]))
    return run


def apply_edits(text, edits):
    """The text after LSP TextEdits (UTF-16 positions; ASCII pages here)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def off(p):
        return starts[p["line"]] + p["character"]
    for e in sorted(edits, key=lambda e: off(e["range"]["start"]), reverse=True):
        text = text[:off(e["range"]["start"])] + e["newText"] + text[off(e["range"]["end"]):]
    return text
