# Two subprograms on the same code, each with its own inlined call, as
# identical code folding or COMDAT copies leave them: `first` inlines `ga`,
# `second` inlines `gb`. DWARFContext answers from the last, `second`, and
# so does the table. With FOLD=0 `second` starts elsewhere (only its
# inlined call still lies on `first`'s code), so a differing answer there is
# not explained by folding.
        .text
        .file 1 "/src" "f.c"
        .globl main
        .type main,@function
main:
        .loc 1 3 0
        nop
.Lf:
        .loc 1 5 0
        nop
        .loc 1 6 0
        nop
.Lf_end:
        .loc 1 9 0
        nop
        ret
.Lmain_end:
        .size main, .Lmain_end-main

        .section .debug_abbrev,"",@progbits
        .uleb128 1              # compile unit
        .uleb128 0x11
        .byte 1
        .uleb128 0x03, 0x08     # DW_AT_name, DW_FORM_string
        .uleb128 0x13, 0x05     # DW_AT_language, DW_FORM_data2
        .uleb128 0x10, 0x17     # DW_AT_stmt_list, DW_FORM_sec_offset
        .uleb128 0x11, 0x01     # DW_AT_low_pc
        .uleb128 0x12, 0x06     # DW_AT_high_pc, DW_FORM_data4
        .byte 0, 0
        .uleb128 2              # subprogram with code and children
        .uleb128 0x2e
        .byte 1
        .uleb128 0x03, 0x08
        .uleb128 0x11, 0x01
        .uleb128 0x12, 0x06
        .byte 0, 0
        .uleb128 3              # abstract instance
        .uleb128 0x2e
        .byte 0
        .uleb128 0x03, 0x08
        .uleb128 0x20, 0x0b     # DW_AT_inline, DW_FORM_data1
        .byte 0, 0
        .uleb128 4              # inlined call
        .uleb128 0x1d
        .byte 0
        .uleb128 0x31, 0x13     # DW_AT_abstract_origin, DW_FORM_ref4
        .uleb128 0x11, 0x01
        .uleb128 0x12, 0x06
        .uleb128 0x58, 0x0b     # DW_AT_call_file, DW_FORM_data1
        .uleb128 0x59, 0x0b     # DW_AT_call_line, DW_FORM_data1
        .byte 0, 0
        .uleb128 5              # subprogram without children
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
        .asciz "f.c"
        .short 0xc              # DW_LANG_C99
        .long .Lline_table_start0
        .quad main
        .long .Lmain_end - main
.Lga:
        .uleb128 3
        .asciz "ga"
        .byte 1
.Lgb:
        .uleb128 3
        .asciz "gb"
        .byte 1
        .uleb128 5
        .asciz "main"
        .quad main
        .long .Lf - main
        .uleb128 5
        .asciz "main_tail"
        .quad .Lf_end
        .long .Lmain_end - .Lf_end
        .uleb128 2
        .asciz "first"
        .quad .Lf
        .long .Lf_end - .Lf
        .uleb128 4
        .long .Lga - .Lcu
        .quad .Lf
        .long 1
        .byte 1, 20
        .byte 0
        .uleb128 2
        .asciz "second"
.if FOLD
        .quad .Lf
        .long .Lf_end - .Lf
.else
        .quad .Lmain_end
        .long 2
.endif
        .uleb128 4
        .long .Lgb - .Lcu
        .quad .Lf
        .long 1
        .byte 1, 30
        .byte 0
        .byte 0
.Lcu_end:

        .section .debug_line,"",@progbits
.Lline_table_start0:
