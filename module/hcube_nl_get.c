// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the doit and dumpit of every GET command of the generic netlink
 * family, from the table of the messages that answer them.
 */
#include <linux/pid_namespace.h>
#include "hcube_nl.h"

/* The GET commands that hcube_nl_get_doit() and _dumpit() answer. */
static const struct hcube_nl_msg_ops *const hcube_nl_requests[HCUBE_CMD_MAX + 1] = {
	[HCUBE_CMD_CUBE_GET] = &hcube_nl_cube_msg,
	[HCUBE_CMD_VERTEX_GET] = &hcube_nl_vertex_msg,
	[HCUBE_CMD_STATS_GET] = &hcube_nl_stats_msg,
	[HCUBE_CMD_CONFIG_GET] = &hcube_nl_config_msg,
};

/* The doit of every GET command; pre_doit took hcube.lock. */
int hcube_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct hcube_nl_msg_ops *ops = hcube_nl_requests[info->genlhdr->cmd];
	struct hcube_nl_data d = {
		.ns = task_active_pid_ns(current),
		.admin = netlink_capable(skb, CAP_NET_ADMIN),
	};
	struct hcube *hc = hcube_nl_hc;
	int err;

	err = ops->prepare ? ops->prepare(hc, &d, info->attrs, info->extack, false) : 0;
	if (err)
		return err;
	return hcube_nl_reply(hc, info, ops, &d);
}

/*
 * The dumpit of every GET command that has a dump: from cb->args[0] on, as
 * far as fits, up to the last object the request asks for.
 */
int hcube_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	u8 cmd = info->op.cmd;
	const struct hcube_nl_msg_ops *ops = hcube_nl_requests[cmd];
	struct hcube_nl_data d = {
		.ns = task_active_pid_ns(current),
		.admin = netlink_capable(cb->skb, CAP_NET_ADMIN),
		.pos = cb->args[0],
		.last = ULONG_MAX,
	};
	struct hcube *hc = hcube_nl_hc;
	int err;

	hcube_lock(hc);
	err = ops->prepare ? ops->prepare(hc, &d, hcube_dumpit_attrs(info), cb->extack, true) : 0;
	while (!err && ops->next(hc, &d)) {
		void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, hcube_nl_family,
					NLM_F_MULTI, cmd);

		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		if (ops->fill(skb, hc, &d)) {
			genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		d.pos++;
	}
	hcube_unlock(hc);
	/* Resume at the object that did not fit, or past the last. */
	cb->args[0] = d.pos;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}
