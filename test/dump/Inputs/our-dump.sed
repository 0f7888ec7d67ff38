# Reduces dwarfpack's GSYM dump to the same form as llvm-dump.sed.
/^Functions: /,$!d
/^Functions: /d
s/^\[ *[0-9]+\] @ /F /
/^  LineTable: [0-9]+ rows$/d
/^  InlineInfo:$/d
s/^ +//
