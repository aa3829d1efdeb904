/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/threads.h> (64-bit, not BASE_SMALL). */
#ifndef HCUBE_TOOLS_LINUX_THREADS_H
#define HCUBE_TOOLS_LINUX_THREADS_H

#define PID_MAX_LIMIT	(4 * 1024 * 1024)

#endif
