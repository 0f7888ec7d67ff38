## A DIE whose DW_FORM_block4 length (with BAD) runs far past the end of
## .debug_info, followed by a DW_FORM_udata value: LLVM 19 would step over
## the block unchecked and decode the ULEB128 outside the section.
	.text
	.globl	f
	.type	f,@function
f:
	ret
.Lf_end:
	.size f, .Lf_end-f
	.section	.debug_abbrev,"",@progbits
	.byte	1, 0x11, 1          # 1: DW_TAG_compile_unit, children
	.byte	0x03, 0x08          #   DW_AT_name, DW_FORM_string
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0, 0
	.byte	2, 0x2e, 0          # 2: DW_TAG_subprogram, no children
	.byte	0x03, 0x08          #   DW_AT_name, DW_FORM_string
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0x2a, 0x04          #   DW_AT_return_addr, DW_FORM_block4
	.byte	0x3b, 0x0f          #   DW_AT_decl_line, DW_FORM_udata
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
	.asciz	"b.c"
	.quad	f
	.long	1
	.byte	2
	.asciz	"f"
	.quad	f
	.long	1
.if BAD
	.long	0x40000000          # block length: 1 GiB, far past the section
.else
	.long	1
	.byte	0x9c                # DW_OP_call_frame_cfa
.endif
	.byte	5                   # decl_line, read as ULEB128 after the block
	.byte	0
.Lcu_end:
