"""Runs a command under conditions lit's shell cannot set up.

  run-with.py [--umask OCTAL] [--read-fifo PATH COPY] [--max-file-size N]
              [--max-open-files N] -- COMMAND...

--max-file-size: no file may grow past N bytes (RLIMIT_FSIZE); a write
past it fails with EFBIG instead of killing the command (SIGXFSZ ignored),
as a full disk would fail it.

--max-open-files: at most N open file descriptors (RLIMIT_NOFILE).

--read-fifo: makes the FIFO PATH, reads it while the command runs and saves
what came through in COPY. Exits with the command's status.
"""
import argparse
import os
import resource
import signal
import subprocess
import sys
import threading

p = argparse.ArgumentParser()
p.add_argument("--umask")
p.add_argument("--read-fifo", nargs=2)
p.add_argument("--max-file-size", type=int)
p.add_argument("--max-open-files", type=int)
p.add_argument("command", nargs=argparse.REMAINDER)
a = p.parse_args()
cmd = a.command[1:] if a.command[:1] == ["--"] else a.command

if a.umask is not None:
    os.umask(int(a.umask, 8))

if a.max_file_size is not None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE,
                       (a.max_file_size, resource.RLIM_INFINITY))

if a.max_open_files is not None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (a.max_open_files, hard))

reader = None
if a.read_fifo:
    fifo, copy = a.read_fifo
    os.mkfifo(fifo)

    def read():
        with open(fifo, "rb") as f, open(copy, "wb") as out:
            out.write(f.read())

    reader = threading.Thread(target=read)
    reader.start()

# restore_signals=False: the ignored SIGXFSZ is inherited.
status = subprocess.call(cmd, restore_signals=False)
if reader:
    reader.join(timeout=60)
sys.exit(status)
