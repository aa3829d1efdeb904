/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/types.h>, so that the hcube
 * core compiles unchanged outside the kernel. It extends the uapi header of
 * the same name with the kernel-internal short type names.
 */
#ifndef HCUBE_TOOLS_LINUX_TYPES_H
#define HCUBE_TOOLS_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#endif
