# An out-of-line part of a C++ member function (GCC's "f.cold" pattern): the
# definition DIE has DW_AT_specification and no decl attributes of its own,
# its code is in a section the line table does not cover, and it contains an
# inlined call. The declaration's line stands in for the missing rows, so the
# inlined frame is kept (as llvm-gsymutil does).
        .text
        .file 1 "/src" "a.cpp"
        .globl h
        .type h,@function
h:
        .loc 1 3 0
        nop
        .loc 1 4 0
        ret
.Lh_end:
        .size h, .Lh_end-h

        .section .text.unlikely,"ax",@progbits
        .type f.cold,@function
f.cold:
.Lg_begin:
        nop
        nop
.Lg_end:
        ret
.Lf_end:
        .size f.cold, .Lf_end-f.cold

        .section .debug_abbrev,"",@progbits
        .uleb128 1              # compile unit
        .uleb128 0x11
        .byte 1
        .uleb128 0x03, 0x08     # DW_AT_name, DW_FORM_string
        .uleb128 0x13, 0x05     # DW_AT_language, DW_FORM_data2
        .uleb128 0x10, 0x17     # DW_AT_stmt_list, DW_FORM_sec_offset
        .uleb128 0x11, 0x01     # DW_AT_low_pc, DW_FORM_addr
        .byte 0, 0
        .uleb128 2              # declaration of f
        .uleb128 0x2e
        .byte 0
        .uleb128 0x03, 0x08
        .uleb128 0x3a, 0x0b     # DW_AT_decl_file, DW_FORM_data1
        .uleb128 0x3b, 0x0b     # DW_AT_decl_line, DW_FORM_data1
        .uleb128 0x3c, 0x19     # DW_AT_declaration, DW_FORM_flag_present
        .byte 0, 0
        .uleb128 3              # out-of-line part of f
        .uleb128 0x2e
        .byte 1
        .uleb128 0x47, 0x13     # DW_AT_specification, DW_FORM_ref4
        .uleb128 0x11, 0x01
        .uleb128 0x12, 0x06     # DW_AT_high_pc, DW_FORM_data4
        .byte 0, 0
        .uleb128 4              # abstract instance of g
        .uleb128 0x2e
        .byte 0
        .uleb128 0x03, 0x08
        .uleb128 0x3a, 0x0b
        .uleb128 0x3b, 0x0b
        .uleb128 0x20, 0x0b     # DW_AT_inline, DW_FORM_data1
        .byte 0, 0
        .uleb128 5              # inlined call of g
        .uleb128 0x1d
        .byte 0
        .uleb128 0x31, 0x13     # DW_AT_abstract_origin, DW_FORM_ref4
        .uleb128 0x11, 0x01
        .uleb128 0x12, 0x06
        .uleb128 0x58, 0x0b     # DW_AT_call_file, DW_FORM_data1
        .uleb128 0x59, 0x0b     # DW_AT_call_line, DW_FORM_data1
        .byte 0, 0
        .uleb128 6              # h
        .uleb128 0x2e
        .byte 0
        .uleb128 0x03, 0x08
        .uleb128 0x11, 0x01
        .uleb128 0x12, 0x06
        .byte 0, 0
        .byte 0

        .section .debug_info,"",@progbits
.Lcu:
        .long .Lcu_end - .Lcu - 4
        .short 4
        .long .debug_abbrev
        .byte 8
        .uleb128 1
        .asciz "a.cpp"
        .short 0x4              # DW_LANG_C_plus_plus
        .long .Lline_table_start0
        .quad 0
.Ldecl_f:
        .uleb128 2
        .asciz "f"
        .byte 1, 7
.Ldecl_g:
        .uleb128 4
        .asciz "g"
        .byte 1, 20, 1
        .uleb128 3
        .long .Ldecl_f - .Lcu
        .quad f.cold
        .long .Lf_end - f.cold
        .uleb128 5
        .long .Ldecl_g - .Lcu
        .quad .Lg_begin
        .long .Lg_end - .Lg_begin
        .byte 1, 12
        .byte 0                 # end of f's children
        .uleb128 6
        .asciz "h"
        .quad h
        .long .Lh_end - h
        .byte 0                 # end of the unit's children
.Lcu_end:

        .section .debug_line,"",@progbits
.Lline_table_start0:
