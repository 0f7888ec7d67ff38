# lit configuration for dwarfpack. Tests build their inputs in RUN lines
# (yaml2obj, llvm-mc, clang, gcc, split-file) and check with FileCheck.
import os
import shutil
import subprocess
import tempfile

import lit.formats

config.name = "dwarfpack"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".s", ".c", ".yaml", ".ll"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dwarfpack_obj_root, "test")

# Our binary first, then LLVM 19's tools (FileCheck, not, split-file,
# yaml2obj, llvm-mc, clang, llvm-gsymutil, llvm-symbolizer, ...).
path = os.pathsep.join(
    [config.dwarfpack_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])]
)
config.environment["PATH"] = path
config.environment["LC_ALL"] = "C"
# Tables converted from binaries are not cached between runs (the tests
# give several binaries one build-id); a test of the cache names its own.
config.environment["DWARFPACK_CACHE_DIR"] = ""

# The workplace's shared data (../shared beside the checkout, as in CI), or
# DWARFPACK_SHARED_DIR. Tests that read it say REQUIRES: shared-data.
shared_dir = os.environ.get("DWARFPACK_SHARED_DIR", config.shared_dir)
config.substitutions.append(("%shared", shared_dir))
if os.path.exists(os.path.join(shared_dir, "data", "breakpad", "sqlite-gcc.sym")):
    config.available_features.add("shared-data")
config.substitutions.append(("%python", "python3"))
config.substitutions.append(("%llvm_tools_dir", config.llvm_tools_dir))
config.substitutions.append(
    ("%dwarfpack_path", os.path.join(config.dwarfpack_tools_dir, "dwarfpack")))
config.substitutions.append(("%S_inputs", os.path.join(config.test_source_root, "Inputs")))

# debuginfod tests need elfutils' server (Debian: debuginfod) and a dwarfpack
# built with its client (libdebuginfod-dev): `lookup --help` says when not.
try:
    _help = subprocess.run(
        [os.path.join(config.dwarfpack_tools_dir, "dwarfpack"), "lookup",
         "--help"], capture_output=True, text=True).stdout
except OSError:
    _help = ""
if shutil.which("debuginfod") and "--debuginfod" in _help and \
        "NOT AVAILABLE" not in _help:
    config.available_features.add("debuginfod")
# The script that runs a command against a debuginfod server made for it.
config.substitutions.append(
    ("%with_debuginfod", "python3 " + os.path.join(
        config.test_source_root, "debuginfo", "Inputs", "with-debuginfod.py")))

# This machine's running kernel, for live runs of the /sys readers (a
# container may hide /sys).
try:
    with open("/sys/kernel/notes", "rb") as f:
        if f.read(12):
            config.available_features.add("sys-kernel-notes")
except OSError:
    pass

# ... and its /proc/kallsyms, when the addresses are shown (as to root).
try:
    with open("/proc/kallsyms") as f:
        if int(f.readline().split(" ", 1)[0], 16):
            config.available_features.add("proc-kallsyms")
except (OSError, ValueError, IndexError):
    pass

# strace, where it may trace (a container can forbid ptrace): tests that
# check which programs a command runs say REQUIRES: strace.
try:
    if subprocess.run(["strace", "-qq", "-o", os.devnull, "true"],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                      timeout=30).returncode == 0:
        config.available_features.add("strace")
except (OSError, subprocess.SubprocessError):
    pass

# perf, where it may sample (a container or perf_event_paranoid can forbid
# perf_event_open): tests that record a real profile say REQUIRES:
# perf-record.
try:
    with tempfile.TemporaryDirectory() as tmp:
        if subprocess.run(["perf", "record", "-q", "-o",
                           os.path.join(tmp, "perf.data"), "--", "true"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=60).returncode == 0:
            config.available_features.add("perf-record")
except (OSError, subprocess.SubprocessError):
    pass

# clang's sanitizer runtimes (Debian: libclang-rt-19-dev), where a program
# built with them runs here (ThreadSanitizer needs an address space layout
# it can use): tests that run one say REQUIRES: asan-runtime or
# tsan-runtime.
for _san in ("address", "thread"):
    try:
        with tempfile.TemporaryDirectory() as tmp:
            _src, _exe = os.path.join(tmp, "t.c"), os.path.join(tmp, "t")
            with open(_src, "w") as f:
                f.write("int main(void) { return 0; }\n")
            if subprocess.run([os.path.join(config.llvm_tools_dir, "clang"),
                               "-fsanitize=" + _san, _src, "-o", _exe],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL,
                              timeout=120).returncode == 0 and \
                    subprocess.run([_exe], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL,
                                   timeout=60).returncode == 0:
                config.available_features.add(_san[0] + "san-runtime")
    except (OSError, subprocess.SubprocessError):
        pass

# The dynamic loader, to start a program through it (%ldso %dwarfpack_exe;
# REQUIRES: ldso).
for ldso in ("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"):
    if os.path.exists(ldso):
        config.substitutions.append(("%ldso", ldso))
        config.substitutions.append(
            ("%dwarfpack_exe", os.path.join(config.dwarfpack_tools_dir, "dwarfpack")))
        config.available_features.add("ldso")
        break

# Optional oracles: tests that need them say REQUIRES: <name>.
for tool, feature in [
    ("gcc", "gcc"),
    ("gdb", "gdb"),
    ("pahole", "pahole"),
    ("eu-addr2line", "elfutils"),
    ("dwz", "dwz"),
    ("objdump", "objdump"),
]:
    if shutil.which(tool, path=path):
        config.available_features.add(feature)
