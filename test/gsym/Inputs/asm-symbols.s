## Hand-written assembly without DWARF, like kernel entry code.
	.text
	.globl	entry_asm            # untyped, no size: up to the next symbol
entry_asm:
	nop
	nop
	nop
	.globl	entry_after_frame    # untyped label inside entry_asm
entry_after_frame:
	nop
	nop
	.globl	typed_nosize         # a function symbol without size
	.type	typed_nosize,@function
typed_nosize:
	nop
	ret
	.globl	untyped_at_fn        # untyped label at a function's address
untyped_at_fn:
	.type	sized_fn,@function   # local function with size
sized_fn:
	nop
	nop
	ret
	.size	sized_fn, .-sized_fn
.Llocal_label:                       # assembler-local: not a function
	nop
	.globl	alias_of_sized       # a second function symbol for sized_fn
	.set	alias_of_sized, sized_fn
	.globl	tail_label           # last symbol: up to the end of .text
tail_label:
	nop
	nop
	nop
	nop

	.section	.rodata,"a",@progbits
	.globl	table                # data: not a function
	.type	table,@object
table:
	.long	1
	.size	table, 4
