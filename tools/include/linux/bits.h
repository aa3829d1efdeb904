/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/bits.h>: the helpers hcube uses. */
#ifndef HCUBE_TOOLS_LINUX_BITS_H
#define HCUBE_TOOLS_LINUX_BITS_H

#define BIT(nr)	(1UL << (nr))

#endif
