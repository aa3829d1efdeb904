/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/cache.h>: what the policies use. */
#ifndef HCUBE_TOOLS_LINUX_CACHE_H
#define HCUBE_TOOLS_LINUX_CACHE_H

#define __ro_after_init

#endif
