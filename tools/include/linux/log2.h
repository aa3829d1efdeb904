/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/log2.h>: the helpers hcube uses. */
#ifndef HCUBE_TOOLS_LINUX_LOG2_H
#define HCUBE_TOOLS_LINUX_LOG2_H

#include <linux/bitops.h>
#include <linux/types.h>

/* floor(log2(n)) of an unsigned n > 0, as the kernel's macro. */
#define ilog2(n)	((int)__fls((unsigned long)(n)))

/* Exactly one bit set: x and y are neighbours when is_power_of_2(x ^ y). */
static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

#endif
