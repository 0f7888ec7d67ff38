"""Compares DATA answers (LLVM style, a blank line after each) of
llvm-symbolizer (first file) and dwarfpack (second): names and ranges must
be equal; a declaration must be too, except where llvm-symbolizer finds
none (it reads no DW_FORM_implicit_const file, no data1 bound above 127,
no variable of a .dwo) and prints ??:? or the symbol's STT_FILE with line
0, and dwarfpack names one with a line. Prints the records that differ
otherwise and fails; with --count, prints how many are equal and how many
differ so."""
import sys

args = [a for a in sys.argv[1:] if a != "--count"]
ref = open(args[0]).read().rstrip("\n").split("\n\n")
ours = open(args[1]).read().rstrip("\n").split("\n\n")
bad = equal = declared = 0
if len(ref) != len(ours):
    print("%d answers against %d" % (len(ref), len(ours)))
    sys.exit(1)
for r, o in zip(ref, ours):
    rl, ol = r.split("\n"), o.split("\n")
    line = ol[2].rsplit(":", 1)[-1] if len(ol) == 3 else ""
    found = (len(rl) == len(ol) == 3 and rl[:2] == ol[:2] and
             (rl[2] == "??:?" or rl[2].endswith(":0")) and
             line.isdigit() and line != "0")
    equal += rl == ol
    declared += found
    if rl != ol and not found:
        bad += 1
        print("llvm-symbolizer: %r\ndwarfpack:       %r" % (r, o))
if "--count" in sys.argv:
    print("%d answers: %d equal, %d with a declaration llvm-symbolizer "
          "does not find, %d otherwise" % (len(ref), equal, declared, bad))
sys.exit(1 if bad else 0)
