## Offsets past the end of their sections: DW_AT_stmt_list beyond
## .debug_line, a DW_FORM_strp name beyond .debug_str, and a unit whose
## length runs past the end of .debug_info. g has an inlined call whose
## DW_AT_call_file names a file the (missing) line table does not have.
	.text
	.globl	sym_only
	.type	sym_only,@function
sym_only:
	ret
	.size	sym_only, .-sym_only
.Lf:
	nop
	ret
.Lg:
	nop
	nop
	ret

	.section	.debug_str,"MS",@progbits,1
	.asciz	"g_from_dwarf"

	.section	.debug_abbrev,"",@progbits
	.byte	1, 0x11, 1          # 1: DW_TAG_compile_unit, children
	.byte	0x03, 0x08          #   DW_AT_name, DW_FORM_string
	.byte	0x10, 0x17          #   DW_AT_stmt_list, DW_FORM_sec_offset
	.byte	0, 0
	.byte	2, 0x2e, 0          # 2: DW_TAG_subprogram, no children
	.byte	0x03, 0x0e          #   DW_AT_name, DW_FORM_strp
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0, 0
	.byte	3, 0x2e, 1          # 3: DW_TAG_subprogram, children
	.byte	0x03, 0x0e          #   DW_AT_name, DW_FORM_strp
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0, 0
	.byte	4, 0x1d, 0          # 4: DW_TAG_inlined_subroutine, no children
	.byte	0x03, 0x08          #   DW_AT_name, DW_FORM_string
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0x58, 0x0b          #   DW_AT_call_file, DW_FORM_data1
	.byte	0x59, 0x0b          #   DW_AT_call_line, DW_FORM_data1
	.byte	0, 0
	.byte	0

	.section	.debug_line,"",@progbits
	.byte	0

	.section	.debug_info,"",@progbits
.Lcu1:
	.long	.Lcu1_end - .Lcu1_version
.Lcu1_version:
	.short	4
	.long	.debug_abbrev
	.byte	8
	.byte	1
	.asciz	"past.c"
	.long	0x10000             # stmt_list past the end of .debug_line
	.byte	2
	.long	0x20000             # name past the end of .debug_str
	.quad	.Lf
	.long	2
	.byte	3
	.long	0                   # "g_from_dwarf"
	.quad	.Lg
	.long	3
	.byte	4                   # inlined call with a bad DW_AT_call_file
	.asciz	"inlined_fn"
	.quad	.Lg
	.long	1
	.byte	9
	.byte	42
	.byte	0
	.byte	0
.Lcu1_end:
	.long	0x1000              # a unit longer than what is left
	.short	4
