// SPDX-License-Identifier: MIT
/*
 * exit0 - a program without a C library (x86-64): its start is the
 * kernel's exec and nothing else, the floor bench/percall.sh sets a C
 * library's start-up against.
 */
void _start(void)
{
	__asm__ volatile("mov $60, %eax\n\txor %edi, %edi\n\tsyscall");
}
