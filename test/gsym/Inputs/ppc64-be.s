## Big-endian code.
	.text
	.globl	be_func
	.type	be_func,@function
be_func:
	blr
	.size	be_func, .-be_func
