#!/usr/bin/env python3
"""How long `coursecheck lsp` takes from a change to its diagnostics.

usage: lsp-latency.py COURSECHECK ROOT PAGE [N]

Opens PAGE (a path under the course ROOT) in the server, then sends N
(default 30) full-text changes, each altering one digit of the page's
first traced number and back, and times each didChange until its
publishDiagnostics arrives (the client's wall clock: framing, the check,
the JSON).  Prints the median, the 90th percentile and the maximum, and the
server's CPU time a check (/proc: what the load of the machine does not
change).
A measurement, not a test: it never fails on time.
"""
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lsp"))
from lspclient import Client  # noqa: E402


def main():
    binary, root, page = os.path.abspath(sys.argv[1]), os.path.realpath(sys.argv[2]), sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    path = os.path.join(root, page)
    uri = "file://" + path
    text = open(path).read()
    body = text.split("\n---\n", 1)[-1]
    m = re.search(r"\b\d+\.\d+\b", body)  # a number with a decimal point: traced
    at = len(text) - len(body) + m.end() - 1
    wrong = text[:at] + ("1" if text[at] != "1" else "2") + text[at + 1:]
    c = Client([binary, "lsp"], root)
    c.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
    c.notify("initialized", {})
    t0 = time.monotonic()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1,
                                                       "text": text}})
    c.notification("textDocument/publishDiagnostics", 120)
    opened = time.monotonic() - t0
    def cpu():  # the server's user + system time, in ms (/proc/PID/stat, clock ticks)
        f = open("/proc/%d/stat" % c.proc.pid).read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")
    cpu0 = cpu()
    times, counts = [], set()
    for i in range(n):
        t = wrong if i % 2 == 0 else text
        t0 = time.monotonic()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 2},
                                            "contentChanges": [{"text": t}]})
        d = c.notification("textDocument/publishDiagnostics", 120)
        times.append((time.monotonic() - t0) * 1000)
        counts.add(len(d["params"]["diagnostics"]))
    cpu_per = (cpu() - cpu0) / n
    c.request("shutdown", None)
    c.notify("exit", None)
    c.close()
    times.sort()
    print("%s: open %.1f ms; change to diagnostics over %d changes: median %.1f ms, p90 %.1f ms, max %.1f ms "
          "(diagnostics per check: %s); the server's CPU time %.1f ms a check" %
          (page, opened * 1000, n, statistics.median(times), times[int(0.9 * (n - 1))], times[-1], sorted(counts),
           cpu_per))


if __name__ == "__main__":
    main()
