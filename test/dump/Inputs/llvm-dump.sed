# Reduces llvm-gsymutil's dump to the function part, one fact per line.
/^FunctionInfo @ /,$!d
s/^FunctionInfo @ /F /
/^LineTable:$/d
/^InlineInfo:$/d
s/^ +//
