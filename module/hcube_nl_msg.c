// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the framework of the generic netlink family (hcube_nl.h): replies,
 * the attributes several objects put, the vertex id every command checks.
 */
#include "hcube_nl.h"

struct hcube *hcube_nl_hc __ro_after_init;
const struct genl_family *hcube_nl_family __ro_after_init;

/* Attached to errors: the valid vertex ids of a cube of each dimension. */
static const struct nla_policy hcube_vertex_range[HCUBE_MAX_DIM + 1] = {
	NLA_POLICY_MAX(NLA_U32, 0), NLA_POLICY_MAX(NLA_U32, 1),
	NLA_POLICY_MAX(NLA_U32, 3), NLA_POLICY_MAX(NLA_U32, 7),
	NLA_POLICY_MAX(NLA_U32, 15), NLA_POLICY_MAX(NLA_U32, 31),
	NLA_POLICY_MAX(NLA_U32, 63), NLA_POLICY_MAX(NLA_U32, 127),
	NLA_POLICY_MAX(NLA_U32, 255), NLA_POLICY_MAX(NLA_U32, 511),
	NLA_POLICY_MAX(NLA_U32, 1023),
};

/**
 * hcube_nl_put_cpulist() - put a CPU mask as a cpulist string ("0-3,8")
 * @skb: the message
 * @type: the attribute's type
 * @mask: the CPUs
 *
 * Return: 0, or -EMSGSIZE when it does not fit.
 */
int hcube_nl_put_cpulist(struct sk_buff *skb, int type,
			 const struct cpumask *mask)
{
	int len = snprintf(NULL, 0, "%*pbl", cpumask_pr_args(mask));
	struct nlattr *a = nla_reserve(skb, type, len + 1);

	if (!a)
		return -EMSGSIZE;
	scnprintf(nla_data(a), len + 1, "%*pbl", cpumask_pr_args(mask));
	return 0;
}

/**
 * hcube_nl_put_task_cpus() - a task's mask as a cpulist attribute
 * @skb: the message
 * @type: the attribute
 * @p: the task
 *
 * Read as the scheduler writes it (hcube_mask_snap()): one word up to
 * BITS_PER_LONG CPUs, else a copy under its pi_lock.
 * Return: 0, -EMSGSIZE, or -ENOMEM.
 */
int hcube_nl_put_task_cpus(struct sk_buff *skb, int type, struct task_struct *p)
{
	unsigned long word = 0;
	cpumask_var_t mask;
	int err;

	if (nr_cpu_ids <= BITS_PER_LONG) {
		hcube_mask_snap(p, to_cpumask(&word));
		return hcube_nl_put_cpulist(skb, type, to_cpumask(&word));
	}
	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	hcube_mask_snap(p, mask);
	err = hcube_nl_put_cpulist(skb, type, mask);
	free_cpumask_var(mask);
	return err;
}

/**
 * hcube_nl_vertex_id() - a vertex id attribute, checked against the cube
 * @hc: the module, locked
 * @a: a u32 attribute (the policy checked its type and 0..1023)
 * @extack: where a refusal goes, with the current cube's range
 *
 * Return: the vertex, or -ERANGE when the cube has no such vertex.
 */
int hcube_nl_vertex_id(struct hcube *hc, const struct nlattr *a,
		       struct netlink_ext_ack *extack)
{
	u32 v = nla_get_u32(a);

	if (v >= hc->nv) {
		NL_SET_ERR_MSG_ATTR_POL(extack, a, &hcube_vertex_range[hc->dim],
					HCUBE_ERR_VERTEX_RANGE);
		return -ERANGE;
	}
	return v;
}

/**
 * hcube_nl_size() - the room a message of @ops needs
 * @hc: the module
 * @ops: the message
 * @d: what it is made from
 *
 * Return: its size() or, without one, NLMSG_GOODSIZE.
 */
size_t hcube_nl_size(struct hcube *hc, const struct hcube_nl_msg_ops *ops,
		     const struct hcube_nl_data *d)
{
	return ops->size ? ops->size(hc, d) : NLMSG_GOODSIZE;
}

/**
 * hcube_nl_reply_new() - a reply to @info, its header put
 * @info: the request
 * @size: room for the attributes
 * @hdr: set to the header, for hcube_nl_reply_send()
 *
 * Return: the message, or NULL when out of memory.
 */
struct sk_buff *hcube_nl_reply_new(struct genl_info *info, size_t size,
				   void **hdr)
{
	struct sk_buff *skb = genlmsg_new(size, GFP_KERNEL);

	if (!skb)
		return NULL;
	*hdr = genlmsg_put_reply(skb, info, hcube_nl_family, 0,
				 info->genlhdr->cmd);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

/**
 * hcube_nl_reply_send() - end a reply of hcube_nl_reply_new() and send it
 * @skb: the reply, which this consumes
 * @hdr: its header
 * @info: the request
 *
 * Return: 0 or -errno, as genlmsg_reply().
 */
int hcube_nl_reply_send(struct sk_buff *skb, void *hdr, struct genl_info *info)
{
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);
}

/**
 * hcube_nl_reply() - answer @info with one message of @ops
 * @hc: the module, locked
 * @info: the request
 * @ops: the message
 * @d: what it is made from
 *
 * Return: 0 or -errno.
 */
int hcube_nl_reply(struct hcube *hc, struct genl_info *info,
		   const struct hcube_nl_msg_ops *ops,
		   const struct hcube_nl_data *d)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = hcube_nl_reply_new(info, hcube_nl_size(hc, ops, d), &hdr);
	if (!msg)
		return -ENOMEM;
	err = ops->fill(msg, hc, d);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return hcube_nl_reply_send(msg, hdr, info);
}

/**
 * hcube_nl_catch_up() - what must happen before a command changes things
 * @hc: the module, locked
 *
 * A hotplug change the worker has not applied yet, the marks machine checks
 * asked for, then the new tasks that are pending.
 */
void hcube_nl_catch_up(struct hcube *hc)
{
	if (READ_ONCE(hc->hp_pending) && !hc->stopping)
		hcube_hotplug_apply(hc);
	if (!hc->stopping)
		hcube_mce_apply(hc);
	hcube_events_drain(hc);
}
