ptype struct node
ptype node_t
ptype union value
ptype enum color
ptype struct fl
ptype callback_t
ptype knr_t
ptype cstr
whatis arr
ptype arr
whatis cube
whatis flp
ptype rp
whatis f
whatis d
whatis ld
whatis cf
whatis cd
whatis bb
whatis i128
whatis u128
whatis sc
whatis uc
whatis ch
whatis sh
whatis ull
ptype gnode
ptype gval
whatis gc
whatis vp
whatis cb
whatis knr
whatis name
whatis op
ptype fp
whatis nodes
print sizeof(struct node)
print sizeof(union value)
print sizeof(gnode)
