# What gfortran writes for character(len=16) (a DW_TAG_string_type of
# DW_AT_byte_size 16) and character(len=:) (DW_AT_string_length, known at
# run time only), in a derived type and as variables of a module
# (DW_TAG_module; gfortran names their symbols __MODULE_MOD_NAME, here
# shortened to the variables' names).
	.data
	.globl	lbl
	.type	lbl, @object
	.size	lbl, 20
lbl:
	.zero	20
	.globl	name
	.type	name, @object
	.size	name, 8
name:
	.zero	8
	.globl	dyn
	.type	dyn, @object
	.size	dyn, 8
dyn:
	.zero	8

	.section	.debug_abbrev,"",@progbits
	.uleb128 1, 0x11, 1          # compile_unit, children
	.uleb128 0x25, 0x08          # producer, string
	.uleb128 0x13, 0x05          # language, data2
	.uleb128 0x03, 0x08          # name, string
	.byte 0, 0
	.uleb128 2, 0x13, 1          # structure_type, children
	.uleb128 0x03, 0x08          # name
	.uleb128 0x0b, 0x0b          # byte_size, data1
	.byte 0, 0
	.uleb128 3, 0x0d, 0          # member
	.uleb128 0x03, 0x08          # name
	.uleb128 0x49, 0x13          # type, ref4
	.uleb128 0x38, 0x0b          # data_member_location, data1
	.byte 0, 0
	.uleb128 4, 0x12, 0          # string_type
	.uleb128 0x0b, 0x0b          # byte_size, data1
	.byte 0, 0
	.uleb128 5, 0x24, 0          # base_type
	.uleb128 0x03, 0x08          # name
	.uleb128 0x3e, 0x0b          # encoding, data1
	.uleb128 0x0b, 0x0b          # byte_size, data1
	.byte 0, 0
	.uleb128 6, 0x12, 0          # string_type
	.uleb128 0x19, 0x18          # string_length, exprloc
	.byte 0, 0
	.uleb128 7, 0x0f, 0          # pointer_type
	.uleb128 0x0b, 0x0b          # byte_size
	.uleb128 0x49, 0x13          # type
	.byte 0, 0
	.uleb128 8, 0x34, 0          # variable
	.uleb128 0x03, 0x08          # name
	.uleb128 0x49, 0x13          # type
	.uleb128 0x3f, 0x19          # external, flag_present
	.uleb128 0x02, 0x18          # location, exprloc
	.byte 0, 0
	.uleb128 9, 0x1e, 1          # module, children
	.uleb128 0x03, 0x08          # name
	.byte 0, 0
	.byte 0

	.section	.debug_info,"",@progbits
.Lcu:
	.long	.Lend - .Lversion
.Lversion:
	.short	4
	.long	.debug_abbrev
	.byte	8
	.uleb128 1
	.asciz	"GNU Fortran 12 (hand-written)"
	.short	0x0e                     # DW_LANG_Fortran90
	.asciz	"strings.f90"
.Llabel:
	.uleb128 2
	.asciz	"label"
	.byte	20
	.uleb128 3
	.asciz	"text"
	.long	.Lstr16 - .Lcu
	.byte	0
	.uleb128 3
	.asciz	"n"
	.long	.Lint - .Lcu
	.byte	16
	.byte	0
.Lstr16:
	.uleb128 4
	.byte	16
.Lstr8:
	.uleb128 4
	.byte	8
.Lint:
	.uleb128 5
	.asciz	"integer(kind=4)"
	.byte	5                        # DW_ATE_signed
	.byte	4
.Ldeferred:
	.uleb128 6
	.byte	9
	.byte	3                        # DW_OP_addr
	.quad	dyn
.Lptr:
	.uleb128 7
	.byte	8
	.long	.Ldeferred - .Lcu
	.uleb128 9
	.asciz	"shapes"
	.uleb128 8
	.asciz	"lbl"
	.long	.Llabel - .Lcu
	.byte	9
	.byte	3
	.quad	lbl
	.uleb128 8
	.asciz	"name"
	.long	.Lstr8 - .Lcu
	.byte	9
	.byte	3
	.quad	name
	.uleb128 8
	.asciz	"dyn"
	.long	.Lptr - .Lcu
	.byte	9
	.byte	3
	.quad	dyn
	.byte	0                        # end of the module
	.byte	0
.Lend:
