# One line sequence runs over f, generated and g, but the unit's
# DW_AT_ranges name only f and g: generated is code the compiler emitted
# without debug information (GNAT's ada_main__..BIP functions are such),
# and the row in effect at its address is f's last one.
        .text
        .file 1 "/src" "unit.adb"
        .globl f
        .type f,@function
f:
        .loc 1 10 0
        nop
        .loc 1 11 0
        ret
.Lf_end:
        .size f, .Lf_end-f

        .globl generated
        .type generated,@function
generated:
        nop
        nop
        nop
        ret
.Lgenerated_end:
        .size generated, .Lgenerated_end-generated

        .globl g
        .type g,@function
g:
        .loc 1 20 0
        nop
        .loc 1 21 0
        ret
.Lg_end:
        .size g, .Lg_end-g

        .section .debug_abbrev,"",@progbits
        .uleb128 1              # compile unit
        .uleb128 0x11
        .byte 1
        .uleb128 0x03, 0x08     # DW_AT_name, DW_FORM_string
        .uleb128 0x10, 0x17     # DW_AT_stmt_list, DW_FORM_sec_offset
        .uleb128 0x11, 0x01     # DW_AT_low_pc, DW_FORM_addr
        .uleb128 0x55, 0x17     # DW_AT_ranges, DW_FORM_sec_offset
        .byte 0, 0
        .uleb128 2              # subprogram
        .uleb128 0x2e
        .byte 0
        .uleb128 0x03, 0x08     # DW_AT_name, DW_FORM_string
        .uleb128 0x11, 0x01     # DW_AT_low_pc, DW_FORM_addr
        .uleb128 0x12, 0x01     # DW_AT_high_pc, DW_FORM_addr
        .byte 0, 0
        .byte 0

        .section .debug_ranges,"",@progbits
.Lranges:
        .quad f, .Lf_end        # f only (unit-ranges.test widens it)
        .quad g, .Lg_end
        .quad 0, 0

        .section .debug_info,"",@progbits
.Lcu:
        .long .Lcu_end-.Lcu_version
.Lcu_version:
        .short 4
        .long .debug_abbrev
        .byte 8
        .uleb128 1
        .asciz "unit.adb"
        .long .debug_line
        .quad 0
        .long .Lranges
        .uleb128 2
        .asciz "f"
        .quad f, .Lf_end
        .uleb128 2
        .asciz "g"
        .quad g, .Lg_end
        .byte 0
.Lcu_end:
