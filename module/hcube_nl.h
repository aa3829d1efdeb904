/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube: the generic netlink family, between its own files.
 *
 * The family is split as ethtool's is, one file per kind of object, over a
 * small framework, and every file depends only on those below it:
 *
 *   hcube_nl.c            the family: registration, pre_doit and post_doit,
 *                         the events (hcube.notify)
 *   hcube_nl_ops_gen.c    the ops table, generated from the spec
 *   hcube_nl_get.c        the doit and dumpit of every GET command
 *   hcube_nl_cube.c       the cube, vertices, faults, topology
 *   hcube_nl_task.c       registered tasks: TASK_ADD, TASK_DEL, TASK_GET
 *   hcube_nl_rebalance.c  REBALANCE, its dump and its event
 *   hcube_nl_stats.c      STATS_GET: the counters
 *   hcube_nl_config.c     CONFIG_GET and CONFIG_SET: the settings
 *   hcube_nl_msg.c        the framework: replies, common attributes
 *   hcube_nl_gen.c        the request policies, generated from the spec
 *
 * A message the family sends (but TASK_ADD's reply) is a struct
 * hcube_nl_msg_ops, in the manner of ethtool's ethnl_request_ops: the
 * generic doit, dumpit and notify take what they need (prepare), size the
 * message, fill it and, for a dump or an event of several messages, walk
 * the objects (next). A new GET command or event is a fill function in its
 * object's file and an entry in hcube_nl_requests[] (hcube_nl_get.c) or
 * hcube_nl_events[] (hcube_nl.c); a new command with its own doit is the
 * spec, Documentation/netlink/hcube-gen.yaml and that doit.
 */
#ifndef HCUBE_NL_H
#define HCUBE_NL_H

#include <net/genetlink.h>
#include "hcube.h"
#include "hcube_errors.h"
#include "hcube_nl_gen.h"

/* What a message is made from. */
struct hcube_nl_data {
	struct pid_namespace *ns;	/* the reader's; NULL (events): the initial one */
	bool admin;			/* the reader has CAP_NET_ADMIN */
	unsigned long pos;		/* the vertex, task id or cluster at hand */
	unsigned long last;		/* a dump: the last object it may give */
	const struct hcube_report *report;	/* REBALANCE, REBALANCE_NTF */
	const struct hcube_ntf *ntf;	/* an event */
};

struct hcube_nl_msg_ops {
	/*
	 * Read the request's @attrs (a dump's: @dump), under hcube.lock.
	 * Optional; a dump without it gives every object.
	 */
	int (*prepare)(struct hcube *hc, struct hcube_nl_data *d,
		       struct nlattr **attrs, struct netlink_ext_ack *extack,
		       bool dump);
	/* Room for the message; NLMSG_GOODSIZE when NULL. */
	size_t (*size)(struct hcube *hc, const struct hcube_nl_data *d);
	int (*fill)(struct sk_buff *skb, struct hcube *hc,
		    const struct hcube_nl_data *d);
	/*
	 * Dumps and events of several messages: move d->pos to the next
	 * object at or after it, false past the last.
	 */
	bool (*next)(struct hcube *hc, struct hcube_nl_data *d);
};

/* A required attribute: the missing type in the ack, and a message. */
#define HCUBE_REQUIRE(info, attr, msg) ({			\
	struct genl_info *__hc_info = (info);			\
	bool __missing = GENL_REQ_ATTR_CHECK(__hc_info, attr);	\
								\
	if (__missing)						\
		NL_SET_ERR_MSG(__hc_info->extack, msg);		\
	__missing;						\
})

/* hcube_nl_msg.c: set by hcube_nl_init() before the family is registered */
extern struct hcube *hcube_nl_hc;
extern const struct genl_family *hcube_nl_family;

int hcube_nl_put_cpulist(struct sk_buff *skb, int type,
			 const struct cpumask *mask);
int hcube_nl_put_task_cpus(struct sk_buff *skb, int type, struct task_struct *p);
int hcube_nl_vertex_id(struct hcube *hc, const struct nlattr *a,
		       struct netlink_ext_ack *extack);
size_t hcube_nl_size(struct hcube *hc, const struct hcube_nl_msg_ops *ops,
		     const struct hcube_nl_data *d);
struct sk_buff *hcube_nl_reply_new(struct genl_info *info, size_t size,
				   void **hdr);
int hcube_nl_reply_send(struct sk_buff *skb, void *hdr, struct genl_info *info);
int hcube_nl_reply(struct hcube *hc, struct genl_info *info,
		   const struct hcube_nl_msg_ops *ops,
		   const struct hcube_nl_data *d);
void hcube_nl_catch_up(struct hcube *hc);

/* The messages of each object's file. */
extern const struct hcube_nl_msg_ops hcube_nl_cube_msg;
extern const struct hcube_nl_msg_ops hcube_nl_vertex_msg;
extern const struct hcube_nl_msg_ops hcube_nl_fault_ntf_msg;
extern const struct hcube_nl_msg_ops hcube_nl_topo_ntf_msg;
extern const struct hcube_nl_msg_ops hcube_nl_controller_ntf_msg;
extern const struct hcube_nl_msg_ops hcube_nl_task_ntf_msg;
extern const struct hcube_nl_msg_ops hcube_nl_report_msg;
extern const struct hcube_nl_msg_ops hcube_nl_stats_msg;
extern const struct hcube_nl_msg_ops hcube_nl_config_msg;

#endif /* HCUBE_NL_H */
