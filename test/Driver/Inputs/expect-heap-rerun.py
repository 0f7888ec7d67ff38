"""Checks a strace of a conversion of a large input in the heap's auto mode.

  expect-heap-rerun.py TRACE

The conversion runs itself again (a second execve) exactly when this
system's transparent huge pages are in madvise mode and free huge pages are
not handed back to a hypervisor (free page reporting at an order no larger
than a huge page's). The rule is computed here from /sys, on its own, as
an oracle for tools/dwarfpack/Heap.cpp and Support/HugePages.h.
"""
import os
import sys


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


mode = read("/sys/kernel/mm/transparent_hugepage/enabled")
order = read("/sys/module/page_reporting/parameters/page_reporting_order")
pmd = read("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
huge = int(pmd) if pmd.isdigit() and int(pmd) else 2 << 20
page = os.sysconf("SC_PAGE_SIZE")
reports = order.isdigit() and int(order) < 40 and (page << int(order)) <= huge
expected = 2 if "[madvise]" in mode and not reports else 1

with open(sys.argv[1]) as f:
    runs = sum(1 for line in f if "execve(" in line and line.rstrip().endswith("= 0"))
if runs != expected:
    sys.exit("expected %d run(s) (THP '%s', page_reporting_order '%s'), "
             "the trace shows %d" % (expected, mode, order, runs))
print("runs: %d as expected" % runs)
