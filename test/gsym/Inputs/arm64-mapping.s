## AArch64 code with a literal pool: the assembler adds mapping symbols
## ($x before code, $d before data), which are not functions.
	.text
	.globl	a64_func
	.type	a64_func,@function
a64_func:
	ldr	x0, 1f
	ret
1:	.xword	0x1122334455667788
	.size	a64_func, .-a64_func
	.globl	a64_next
	.type	a64_next,@function
a64_next:
	ret
	.size	a64_next, .-a64_next
