"""Compares DATA answers (LLVM style, a blank line after each) of
llvm-symbolizer (first file) and dwarfpack (second): names and ranges must
be equal; a declaration must be too, except where llvm-symbolizer prints
??:? (it reads no DW_FORM_implicit_const file) and dwarfpack names one.
Prints the records that differ otherwise and fails."""
import sys

ref = open(sys.argv[1]).read().split("\n\n")
ours = open(sys.argv[2]).read().split("\n\n")
bad = 0
if len(ref) != len(ours):
    print("%d answers against %d" % (len(ref), len(ours)))
    sys.exit(1)
for r, o in zip(ref, ours):
    rl, ol = r.split("\n"), o.split("\n")
    same = rl == ol or (len(rl) == len(ol) == 3 and rl[:2] == ol[:2] and
                        rl[2] == "??:?" and ol[2].rsplit(":", 1)[-1].isdigit())
    if not same:
        bad += 1
        print("llvm-symbolizer: %r\ndwarfpack:       %r" % (r, o))
sys.exit(1 if bad else 0)
