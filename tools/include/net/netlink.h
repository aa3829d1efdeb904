/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <net/netlink.h>: the attribute
 * policies, so that the policies generated for the module
 * (module/hcube_nl_gen.c) compile unchanged in hcubectl's fake kernel,
 * which validates requests with them. The types, the layout of struct
 * nla_policy and the NLA_POLICY_*() initializers are the 6.1 kernel's,
 * for the kinds of policy the generator writes.
 */
#ifndef HCUBE_TOOLS_NET_NETLINK_H
#define HCUBE_TOOLS_NET_NETLINK_H

#include <linux/types.h>
#include <linux/netlink.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

enum {
	NLA_UNSPEC,
	NLA_U8,
	NLA_U16,
	NLA_U32,
	NLA_U64,
	NLA_STRING,
	NLA_FLAG,
	NLA_MSECS,
	NLA_NESTED,
	NLA_NESTED_ARRAY,
	NLA_NUL_STRING,
	NLA_BINARY,
	NLA_S8,
	NLA_S16,
	NLA_S32,
	NLA_S64,
	NLA_BITFIELD32,
	NLA_REJECT,
	NLA_BE16,
	NLA_BE32,
	__NLA_TYPE_MAX,
};

enum nla_policy_validation {
	NLA_VALIDATE_NONE,
	NLA_VALIDATE_RANGE,
	NLA_VALIDATE_RANGE_WARN_TOO_LONG,
	NLA_VALIDATE_MIN,
	NLA_VALIDATE_MAX,
	NLA_VALIDATE_MASK,
	NLA_VALIDATE_RANGE_PTR,
	NLA_VALIDATE_FUNCTION,
};

struct netlink_range_validation {
	u64 min, max;
};

struct nla_policy {
	u8 type;
	u8 validation_type;
	u16 len;
	union {
		u16 strict_start_type;
		const char *reject_message;
		const struct nla_policy *nested_policy;
		struct netlink_range_validation *range;
		struct {
			s16 min, max;
		};
	};
};

#define NLA_POLICY_NESTED(policy) \
	{ .type = NLA_NESTED, .nested_policy = policy, .len = ARRAY_SIZE(policy) - 1 }
#define NLA_POLICY_RANGE(tp, _min, _max) \
	{ .type = (tp), .validation_type = NLA_VALIDATE_RANGE, .min = (_min), .max = (_max) }
#define NLA_POLICY_FULL_RANGE(tp, _range) \
	{ .type = (tp), .validation_type = NLA_VALIDATE_RANGE_PTR, .range = (_range) }
#define NLA_POLICY_MIN(tp, _min) \
	{ .type = (tp), .validation_type = NLA_VALIDATE_MIN, .min = (_min) }
#define NLA_POLICY_MAX(tp, _max) \
	{ .type = (tp), .validation_type = NLA_VALIDATE_MAX, .max = (_max) }

#endif
