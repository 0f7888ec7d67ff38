"""What `dwarfpack dump` gives for a kallsyms text file (default options):
its t/T symbols in address order, aliases and equal addresses in input
order, as `<address> <type> <name>[\t[<module>]]`. An oracle written apart
from the C++ parser. --no-modules: without the module (ksym-blob has none)."""
import sys

rows = []
with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as f:
    for line in f:
        line = line.rstrip("\n")
        module = ""
        if "\t" in line:
            line, module = line.split("\t", 1)
        fields = line.split(" ", 2)
        if len(fields) < 3 or fields[1] not in ("t", "T"):
            continue
        if "--no-modules" in sys.argv[2:]:
            module = ""
        rows.append((int(fields[0], 16), fields[1], fields[2], module.strip()))
rows.sort(key=lambda r: r[0])  # stable: input order within an address
out = sys.stdout
for addr, kind, name, module in rows:
    out.write("%016x %s %s%s\n" % (addr, kind, name, "\t" + module if module else ""))
