/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/bitops.h>: the helpers hcube uses. */
#ifndef HCUBE_TOOLS_LINUX_BITOPS_H
#define HCUBE_TOOLS_LINUX_BITOPS_H

#include <linux/bits.h>

static inline unsigned int hweight32(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w);
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
