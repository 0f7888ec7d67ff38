"""Compares FRAME answers (LLVM style, a blank line after each) of
llvm-symbolizer (first file) and dwarfpack (second). They must be equal,
except for an array's size where llvm-symbolizer 19 reads a DW_FORM_data1
to data8 bound with the top bit set as negative (GCC's `char[201]`: bound
0xc8, 2^64 - 55 bytes; `char[256]`: bound 0xff, 0 bytes) and dwarfpack
gives the array's size. Prints how many answers there are, how many have
variables and how many differ so; fails on any other difference, printing
it."""
import sys

ref = open(sys.argv[1]).read().rstrip("\n").split("\n\n")
ours = open(sys.argv[2]).read().rstrip("\n").split("\n\n")
if len(ref) != len(ours):
    print("%d answers against %d" % (len(ref), len(ours)))
    sys.exit(1)


def wrapped_size_only(r, o):
    rl, ol = r.split("\n"), o.split("\n")
    if len(rl) != len(ol):
        return False
    differ = False
    for a, b in zip(rl, ol):
        if a == b:
            continue
        fa, fb = a.split(" "), b.split(" ")
        if (len(fa) != 3 or len(fb) != 3 or fa[0] != fb[0] or fa[2] != fb[2]
                or not fa[1].isdigit() or not fb[1].isdigit()):
            return False
        # A negative bound makes LLVM's product wrap or shrink.
        if not (int(fa[1]) >= 2**63 or int(fa[1]) < int(fb[1])):
            return False
        differ = True
    return differ


bad = wrapped = with_locals = 0
for r, o in zip(ref, ours):
    with_locals += r != "??"
    if r == o:
        continue
    if wrapped_size_only(r, o):
        wrapped += 1
        continue
    bad += 1
    print("llvm-symbolizer: %r\ndwarfpack:       %r" % (r, o))
print("%d answers, %d with variables: %d differ in an array size "
      "llvm-symbolizer reads a bound of as negative, %d otherwise" %
      (len(ref), with_locals, wrapped, bad))
sys.exit(1 if bad else 0)
