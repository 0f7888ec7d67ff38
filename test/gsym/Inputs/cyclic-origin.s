## f1's subprogram DIE has DW_AT_abstract_origin -> A, A -> B, B -> A: a
## cycle with no name anywhere. f2's origin points past the end of the unit,
## f3's at the null entry that ends the unit's children (a DIE without an
## abbreviation).
	.text
	.globl	sym_only
	.type	sym_only,@function
sym_only:
	ret
	.size	sym_only, .-sym_only
.Lf1:
	nop
	ret
.Lf2:
	nop
	nop
	ret
.Lf3:
	nop
	ret
.Ltext_end:

	.section	.debug_abbrev,"",@progbits
	.byte	1, 0x11, 1          # 1: DW_TAG_compile_unit, children
	.byte	0x03, 0x08          #   DW_AT_name, DW_FORM_string
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0, 0
	.byte	2, 0x2e, 0          # 2: DW_TAG_subprogram, no children
	.byte	0x31, 0x13          #   DW_AT_abstract_origin, DW_FORM_ref4
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0, 0
	.byte	3, 0x2e, 0          # 3: DW_TAG_subprogram (abstract), no children
	.byte	0x31, 0x13          #   DW_AT_abstract_origin, DW_FORM_ref4
	.byte	0, 0
	.byte	0

	.section	.debug_info,"",@progbits
.Lcu:
	.long	.Lcu_end - .Lcu_version
.Lcu_version:
	.short	4
	.long	.debug_abbrev
	.byte	8
	.byte	1
	.asciz	"cyclic.c"
	.quad	.Lf1
	.long	.Ltext_end - .Lf1
	.byte	2                   # f1
	.long	.Ldie_a - .Lcu
	.quad	.Lf1
	.long	2
.Ldie_a:
	.byte	3
	.long	.Ldie_b - .Lcu
.Ldie_b:
	.byte	3
	.long	.Ldie_a - .Lcu
	.byte	2                   # f2: origin past the end of the unit
	.long	0x7fff
	.quad	.Lf2
	.long	3
	.byte	2                   # f3: origin at the null entry below
	.long	.Lnull - .Lcu
	.quad	.Lf3
	.long	2
.Lnull:
	.byte	0
.Lcu_end:
