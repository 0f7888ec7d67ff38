## The second unit uses abbreviation code 99, which .debug_abbrev does not
## define; the first unit is fine and must still be converted.
	.text
	.globl	sym_only
	.type	sym_only,@function
sym_only:
	ret
	.size	sym_only, .-sym_only
.Lgood:
	nop
	ret
.Lbad:
	nop
	nop
	ret

	.section	.debug_abbrev,"",@progbits
	.byte	1, 0x11, 1          # 1: DW_TAG_compile_unit, children
	.byte	0x03, 0x08          #   DW_AT_name, DW_FORM_string
	.byte	0, 0
	.byte	2, 0x2e, 0          # 2: DW_TAG_subprogram, no children
	.byte	0x03, 0x08          #   DW_AT_name, DW_FORM_string
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0, 0
	.byte	0

	.section	.debug_info,"",@progbits
.Lcu1:
	.long	.Lcu1_end - .Lcu1_version
.Lcu1_version:
	.short	4
	.long	.debug_abbrev
	.byte	8
	.byte	1
	.asciz	"good.c"
	.byte	2
	.asciz	"good_from_dwarf"
	.quad	.Lgood
	.long	2
	.byte	0
.Lcu1_end:
.Lcu2:
	.long	.Lcu2_end - .Lcu2_version
.Lcu2_version:
	.short	4
	.long	.debug_abbrev
	.byte	8
	.byte	1
	.asciz	"bad.c"
	.byte	99                  # no such abbreviation
	.asciz	"bad_from_dwarf"
	.quad	.Lbad
	.long	3
	.byte	0
.Lcu2_end:
