"""fake-agent.py - an ssh-agent that answers one sign request wrongly, for
agent.sh: approve must refuse each answer and write nothing.

    python3 fake-agent.py SOCKET MODE

MODE: 'type' answers message 99; 'random' answers a well-formed Ed25519
signature blob of random bytes (a signature, but not the key's);
'short' closes the connection without an answer; 'huge' announces an
answer of 4 GiB.  The socket is removed when the one connection ends,
or after 60 s without one (a test that never connects does not hang).
"""
import os
import socket
import struct
import sys


def string(b):
    return struct.pack(">I", len(b)) + b


def answer(mode):
    if mode == "type":
        return bytes([99])
    if mode == "random":
        blob = string(b"ssh-ed25519") + string(os.urandom(64))
        return bytes([14]) + string(blob)
    return None


def main():
    path, mode = sys.argv[1], sys.argv[2]
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    srv.settimeout(60)
    try:
        conn, _ = srv.accept()
    except socket.timeout:
        srv.close()
        os.unlink(path)
        sys.exit(3)
    conn.settimeout(60)
    try:
        head = conn.recv(4, socket.MSG_WAITALL)
        (n,) = struct.unpack(">I", head)
        conn.recv(n, socket.MSG_WAITALL)
        if mode == "huge":
            conn.sendall(struct.pack(">I", 0xFFFFFFFF))
        elif mode != "short":
            body = answer(mode)
            conn.sendall(struct.pack(">I", len(body)) + body)
    finally:
        conn.close()
        srv.close()
        os.unlink(path)


main()
