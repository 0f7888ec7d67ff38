#!/usr/bin/env python3
"""usage: stream.py [--lines] ADDRFILE -- COMMAND [ARG...]
Starts COMMAND, then for each line of ADDRFILE writes one line to its stdin and waits
(at most 20 s) for the complete answer (LLVM style: up to the blank line;
with --lines, one line) before sending the next one, keeping stdin open. Fails if an answer does not
arrive while the process is kept open, i.e. if the tool does not flush.
A line "!COMMAND" of ADDRFILE is run by the shell (between two queries)
instead of being sent."""
import os
import select
import subprocess
import sys

args = sys.argv[1:]
end = b"\n\n"
if args[0] == "--lines":
    end = b"\n"
    args = args[1:]
sep = args.index("--")
cmd = args[sep + 1:]
with open(args[0]) as f:
    addrs = [l.strip() for l in f if l.strip()]
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
fd = p.stdout.fileno()
buf = b""
for a in addrs:
    if a.startswith("!"):
        subprocess.run(a[1:], shell=True, check=True)
        continue
    p.stdin.write((a + "\n").encode())
    p.stdin.flush()
    while end not in buf:
        r, _, _ = select.select([fd], [], [], 20)
        if not r:
            print("no answer for " + a + " while stdin is open", flush=True)
            p.kill()
            sys.exit(1)
        chunk = os.read(fd, 65536)
        if not chunk:
            print("EOF before the answer for " + a)
            sys.exit(1)
        buf += chunk
    answer, buf = buf.split(end, 1)
    print("answer for " + a + ":")
    print(answer.decode())
p.stdin.close()
sys.exit(p.wait())
