## A DWARF 5 unit whose line-table header describes its file entries with
## the (content type, form) pairs chosen by CASE:
##   0  path string, directory index udata, MD5 data16 (as compilers write)
##   1  directory index in form 0x4f, which no DWARF version defines
##   2  timestamp in DW_FORM_block (allowed by DWARF 5, but LLVM reads it as
##      a constant)
##   3  directory path in form 0x4f
##   4  a vendor content type (0x2345) in DW_FORM_data4
##   5  directory index in form 0x1000b (0x0b, data1, once cut to 16 bits)
##   6  directory index in DW_FORM_indirect
	.text
	.globl	f
	.type	f,@function
f:
	nop
	nop
	ret
.Lf_end:
	.size	f, .Lf_end-f

	.section	.debug_abbrev,"",@progbits
	.byte	1, 0x11, 1          # 1: DW_TAG_compile_unit, children
	.byte	0x03, 0x08          #   DW_AT_name, DW_FORM_string
	.byte	0x1b, 0x08          #   DW_AT_comp_dir, DW_FORM_string
	.byte	0x10, 0x17          #   DW_AT_stmt_list, DW_FORM_sec_offset
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0, 0
	.byte	2, 0x2e, 0          # 2: DW_TAG_subprogram, no children
	.byte	0x03, 0x08          #   DW_AT_name, DW_FORM_string
	.byte	0x11, 0x01          #   DW_AT_low_pc, DW_FORM_addr
	.byte	0x12, 0x06          #   DW_AT_high_pc, DW_FORM_data4
	.byte	0, 0
	.byte	0

	.section	.debug_info,"",@progbits
.Lcu:
	.long	.Lcu_end - .Lcu_version
.Lcu_version:
	.short	5
	.byte	1                   # DW_UT_compile
	.byte	8
	.long	.debug_abbrev
	.byte	1
	.asciz	"a.c"
	.asciz	"/build"
	.long	.Lline
	.quad	f
	.long	.Lf_end - f
	.byte	2
	.asciz	"f_from_dwarf"
	.quad	f
	.long	.Lf_end - f
	.byte	0
.Lcu_end:

	.section	.debug_line,"",@progbits
.Lline:
	.long	.Lline_end - .Lline_version
.Lline_version:
	.short	5
	.byte	8, 0                # address size, segment selector size
	.long	.Lheader_end - .Lheader
.Lheader:
	.byte	1, 1, 1, -5, 14, 13 # min_inst, max_ops, is_stmt, base, range, opcode_base
	.byte	0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1
	.byte	1                   # directory entry format
.if CASE == 3
	.uleb128 1, 0x4f            #   DW_LNCT_path, (no such form)
.else
	.uleb128 1, 0x08            #   DW_LNCT_path, DW_FORM_string
.endif
	.uleb128 1                  # directories
	.asciz	"/src"
.if CASE == 0 || CASE == 2 || CASE == 4
	.byte	3                   # file name entry format
.else
	.byte	2
.endif
	.uleb128 1, 0x08            #   DW_LNCT_path, DW_FORM_string
.if CASE == 1
	.uleb128 2, 0x4f            #   DW_LNCT_directory_index, (no such form)
.elseif CASE == 5
	.uleb128 2, 0x1000b
.elseif CASE == 6
	.uleb128 2, 0x16            #   DW_LNCT_directory_index, DW_FORM_indirect
.else
	.uleb128 2, 0x0f            #   DW_LNCT_directory_index, DW_FORM_udata
.endif
.if CASE == 0
	.uleb128 5, 0x1e            #   DW_LNCT_MD5, DW_FORM_data16
.elseif CASE == 2
	.uleb128 3, 0x09            #   DW_LNCT_timestamp, DW_FORM_block
.elseif CASE == 4
	.uleb128 0x2345, 0x06       #   vendor type, DW_FORM_data4
.endif
	.uleb128 1                  # files
	.asciz	"a.c"
.if CASE == 6
	.uleb128 0x0f               #   (indirect) DW_FORM_udata
.endif
	.byte	0                   #   directory 0
.if CASE == 0
	.quad	0x0123456789abcdef, 0x0123456789abcdef
.elseif CASE == 2
	.uleb128 2
	.byte	1, 2
.elseif CASE == 4
	.long	7
.endif
.Lheader_end:
	.byte	0, 9, 2             # DW_LNE_set_address
	.quad	f
	.byte	0x04, 0             # DW_LNS_set_file 0
	.byte	0x05, 3             # DW_LNS_set_column 3
	.byte	0x03, 41            # DW_LNS_advance_line 41: line 42
	.byte	0x01                # DW_LNS_copy
	.byte	0x02, 2             # DW_LNS_advance_pc 2
	.byte	0x03, 1             # DW_LNS_advance_line 1: line 43
	.byte	0x01                # DW_LNS_copy
	.byte	0x02, 1             # DW_LNS_advance_pc 1
	.byte	0, 1, 1             # DW_LNE_end_sequence
.Lline_end:
