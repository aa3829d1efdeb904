// SPDX-License-Identifier: GPL-2.0
/*
 * The fake kernel's requests validated as generic netlink does in the 6.1
 * kernel, with the module's own policies (module/hcube_nl_gen.c, generated
 * from the YNL spec, compiled into the fake): validate_attrs() follows
 * lib/nlattr.c's strict validation (unknown and unsupported types, lengths,
 * NLA_F_NESTED, string lengths, ranges; -ERANGE with the policy in the ack).
 * A valid request's attributes are then noted in a struct req.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include "fake.h"

/*
 * The policy of each command, as the module's ops table (module/hcube_nl.c)
 * gives them; the others get genetlink's reject-all policy (6.1,
 * genl_op_fill_in_reject_policy()).
 */
#define OP_POLICY(cmd, p)	[cmd] = { p, ARRAY_SIZE(p) - 1 }
static const struct {
	const struct nla_policy *policy;
	int maxattr;
} op_policy[HCUBE_CMD_MAX + 1] = {
	OP_POLICY(HCUBE_CMD_VERTEX_GET, hcube_vertex_get_policy),
	OP_POLICY(HCUBE_CMD_TOPO_SET, hcube_topo_set_policy),
	OP_POLICY(HCUBE_CMD_FAULT_ADD, hcube_fault_add_policy),
	OP_POLICY(HCUBE_CMD_FAULT_DEL, hcube_fault_del_policy),
	OP_POLICY(HCUBE_CMD_TASK_ADD, hcube_task_add_policy),
	OP_POLICY(HCUBE_CMD_TASK_DEL, hcube_task_del_policy),
	OP_POLICY(HCUBE_CMD_REBALANCE, hcube_rebalance_policy),
	OP_POLICY(HCUBE_CMD_CONFIG_SET, hcube_config_set_policy),
};

static const struct nla_policy reject_all[] = {
	{ .type = NLA_REJECT }, { .type = NLA_REJECT },
};

/* Exact payload lengths (nla_attr_len[]); also the minimum of these types. */
static const uint8_t attr_len[__NLA_TYPE_MAX] = {
	[NLA_U8] = 1, [NLA_U16] = 2, [NLA_U32] = 4, [NLA_U64] = 8, [NLA_MSECS] = 8,
	[NLA_S8] = 1, [NLA_S16] = 2, [NLA_S32] = 4, [NLA_S64] = 8, [NLA_BE16] = 2,
	[NLA_BE32] = 4,
};

static bool validate_attrs(const struct req *r, const uint8_t *p, size_t len,
			   const struct nla_policy *policy, int maxtype);

/* validate_nla() of lib/nlattr.c, with NL_VALIDATE_STRICT. */
static bool validate_attr(const struct req *r, const struct nlattr *a,
			  const struct nla_policy *pt)
{
	const uint8_t *d = (const uint8_t *)a + NLA_HDRLEN;
	size_t len = a->nla_len - NLA_HDRLEN, m;
	bool nested = a->nla_type & NLA_F_NESTED;
	int err = ERANGE;
	uint64_t v = 0, min, max;

	if (attr_len[pt->type] && len != attr_len[pt->type])
		return fail_pol(r, EINVAL, "invalid attribute length", a, pt);
	if (pt->type == NLA_NESTED && !nested)
		return fail_pol(r, EINVAL, "NLA_F_NESTED is missing", a, pt);
	if (pt->type != NLA_NESTED && pt->type != NLA_UNSPEC && nested)
		return fail_pol(r, EINVAL, "NLA_F_NESTED not expected", a, pt);
	switch (pt->type) {
	case NLA_REJECT:
		if (pt->reject_message)
			return fail(r, EINVAL, pt->reject_message, a, false, 0, 0);
		err = EINVAL;
		goto out_err;
	case NLA_FLAG:
		if (len)
			goto out_err;
		break;
	case NLA_NUL_STRING:
		m = pt->len && len > pt->len + 1U ? pt->len + 1U : len;
		if (!m || !memchr(d, '\0', m)) {
			err = EINVAL;
			goto out_err;
		}
		break;
	case NLA_STRING:
		m = len && !d[len - 1] ? len - 1 : len;
		if (pt->len && m > pt->len)
			goto out_err;
		break;
	case NLA_BINARY:
		if (pt->len && len > pt->len)
			goto out_err;
		break;
	case NLA_NESTED:
		if (!len)
			break;
		if (len < NLA_HDRLEN)
			goto out_err;
		if (pt->nested_policy)
			return validate_attrs(r, d, len, pt->nested_policy, pt->len);
		break;
	case NLA_UNSPEC:
		return fail(r, EINVAL, "Unsupported attribute", a, false, 0, 0);
	default:
		if (len < (pt->len ? pt->len : attr_len[pt->type]))
			goto out_err;
	}
	if (pt->validation_type != NLA_VALIDATE_NONE && pt->type >= NLA_U8 &&
	    pt->type <= NLA_U64) {
		memcpy(&v, d, attr_len[pt->type]);	/* little-endian */
		policy_range(pt, &min, &max);
		if (v < min || v > max)
			return fail_pol(r, ERANGE, "integer out of range", a, pt);
	}
	return true;
out_err:
	return fail_pol(r, err, "Attribute failed policy validation", a, pt);
}

/* __nla_validate_parse() with NL_VALIDATE_STRICT. */
static bool validate_attrs(const struct req *r, const uint8_t *p, size_t len,
			   const struct nla_policy *policy, int maxtype)
{
	const struct nlattr *a;
	long rem;

	for_each_attr(a, p, len, rem) {
		uint16_t type = a->nla_type & NLA_TYPE_MASK;

		if (!type || type > maxtype)
			return fail(r, EINVAL, "Unknown attribute type", a, false, 0, 0);
		if (!validate_attr(r, a, &policy[type]))
			return false;
	}
	if (rem > 0)
		return fail(r, EINVAL, "bytes leftover after parsing attributes", NULL,
			    false, 0, 0);
	return true;
}

bool parse_req(struct req *r, const struct nlmsghdr *nlh)
{
	const uint8_t *p = (const uint8_t *)nlh + NLMSG_HDRLEN + GENL_HDRLEN;
	size_t left = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	const struct nla_policy *policy;
	const struct nlattr *a;
	int maxattr;
	long rem;

	memset(r, 0, sizeof(*r));
	r->nlh = nlh;
	r->cmd = ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
	policy = r->cmd <= HCUBE_CMD_MAX ? op_policy[r->cmd].policy : NULL;
	maxattr = policy ? op_policy[r->cmd].maxattr : 1;
	if (!validate_attrs(r, p, left, policy ? policy : reject_all, maxattr))
		return false;
	for_each_attr(a, p, left, rem) {
		uint16_t type = a->nla_type & NLA_TYPE_MASK;

		if (type == HCUBE_A_PID && r->npids < ARRAY_SIZE(r->pids))
			r->pids[r->npids++] = a;
		else if (type == HCUBE_A_GROUP && r->ngroups < ARRAY_SIZE(r->groups))
			r->groups[r->ngroups++] = a;
		else
			r->a[type] = a;
	}
	return true;
}
