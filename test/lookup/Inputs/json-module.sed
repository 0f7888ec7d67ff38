# ModuleName names the table in dwarfpack's output, the binary in
# llvm-symbolizer's: blanked. Nothing else is.
s/"ModuleName":"[^"]*"/"ModuleName":""/g
