# Reaches the network: TCP and UDP on 127.0.0.1, an abstract and a path unix socket.
# Input: JSON {"tcp": port, "udp": port, "abstract": name, "path": socket path}.
import json
import socket
import sys

args = json.load(sys.stdin)
attempts = {
    "tcp": (socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", args["tcp"])),
    "udp": (socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", args["udp"])),
    "abstract": (socket.AF_UNIX, socket.SOCK_STREAM, "\0" + args["abstract"]),
    "path": (socket.AF_UNIX, socket.SOCK_STREAM, args["path"]),
}
for name, (family, kind, address) in attempts.items():
    try:
        s = socket.socket(family, kind)
        if kind == socket.SOCK_DGRAM:
            s.sendto(b"leak", address)
        else:
            s.connect(address)
            s.sendall(b"leak")
        print("OK", name)
    except Exception as exc:
        print("BLOCKED", name, type(exc).__name__)
