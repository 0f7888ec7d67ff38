# Blanks the JSON fields GSYM cannot carry (see styles.test).
s/"Column":[0-9]+/"Column":0/g
s/"StartFileName":"[^"]*"/"StartFileName":""/g
s/"StartLine":[0-9]+/"StartLine":0/g
s/"ModuleName":"[^"]*"/"ModuleName":""/g
