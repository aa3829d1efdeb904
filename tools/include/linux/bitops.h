/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/bitops.h>: the helpers hcube uses. */
#ifndef HCUBE_TOOLS_LINUX_BITOPS_H
#define HCUBE_TOOLS_LINUX_BITOPS_H

#include <linux/bits.h>

/*
 * Set bits, by the kernel's software fallback (__sw_hweight32): without
 * -mpopcnt, __builtin_popcount() would be a call into libgcc.
 */
static inline unsigned int hweight32(unsigned int w)
{
	w = w - ((w >> 1) & 0x55555555);
	w = (w & 0x33333333) + ((w >> 2) & 0x33333333);
	w = (w + (w >> 4)) & 0x0f0f0f0f;
	return (w * 0x01010101) >> 24;
}

/* Index of the lowest set bit; undefined for 0, as in the kernel. */
static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

/* Index of the highest set bit; undefined for 0, as in the kernel. */
static inline unsigned long __fls(unsigned long word)
{
	return 8 * sizeof(word) - 1 - (unsigned long)__builtin_clzl(word);
}

#endif
