/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/math64.h>: the helpers hcube uses. */
#ifndef HCUBE_TOOLS_LINUX_MATH64_H
#define HCUBE_TOOLS_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#endif
