// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl top: the events of the "events" group, on a socket of their own.
 * Each one makes top fetch the state again (cmd_top.c) and is described in
 * one line for the frame ("last event ..."); a rebalance's report is kept
 * for the frame's "last rebalance" line. nlctrl's notification that the
 * family went away means the module was unloaded. Joining the group needs
 * CAP_NET_ADMIN: without it there are no events, and t->no_events says why.
 */
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include "top.h"

#define TOP_DRAIN_MAX	1024	/* events read before the next refresh, at most */

/* "fault: added cpu 3, vertex 0001, now faulty" */
static void describe_fault(struct hc_str *s, struct nlattr **tb, int dim)
{
	char lb[HC_LABEL_MAX], num[16];

	hc_str_printf(s, "fault: %s", TOP_ENUM(tb[HCUBE_A_EVENT], hc_fault_event_names, num));
	if (tb[HCUBE_A_CPU])
		hc_str_printf(s, " cpu %u", top_u32(tb, HCUBE_A_CPU));
	if (tb[HCUBE_A_VERTEX_ID])
		hc_str_printf(s, "%s vertex %s", tb[HCUBE_A_CPU] ? "," : "",
			      hc_label(lb, dim, top_u32(tb, HCUBE_A_VERTEX_ID)));
	if (tb[HCUBE_A_STATE])
		hc_str_printf(s, ", now %s",
			      TOP_ENUM(tb[HCUBE_A_STATE], hc_vertex_state_names, num));
}

/* "task: pid 777 (sleep) exited, vertex 1111" */
static void describe_task(struct hc_str *s, struct nlattr **tb, int dim)
{
	char lb[HC_LABEL_MAX], num[16];
	struct nlattr *task[HC_TB_SIZE];

	if (!tb[HCUBE_A_TASK] || hc_parse_nested(task, &hc_set_task, tb[HCUBE_A_TASK])) {
		hc_str_printf(s, "task: ?");
		return;
	}
	hc_str_printf(s, "task: pid %u", top_u32(task, HCUBE_A_TASK_PID));
	if (task[HCUBE_A_TASK_COMM]) {
		char *comm = hc_attr_str(task[HCUBE_A_TASK_COMM]);

		hc_str_printf(s, " (%s)", comm);
		free(comm);
	}
	if (task[HCUBE_A_TASK_REASON])
		hc_str_printf(s, " %s", TOP_ENUM(task[HCUBE_A_TASK_REASON], hc_reason_names, num));
	if (task[HCUBE_A_TASK_VERTEX])
		hc_str_printf(s, ", vertex %s",
			      hc_label(lb, dim, top_u32(task, HCUBE_A_TASK_VERTEX)));
}

/* The event in one line, for the frame; a rebalance's report kept too. */
static void describe(struct top *t, const struct hc_msg *m)
{
	struct nlattr **tb = m->tb;
	int dim = hc_tb_dim(t->cube.tb);
	char lb[HC_LABEL_MAX], num[16];
	struct hc_str s = { 0 };

	switch (m->cmd) {
	case HCUBE_CMD_FAULT_NTF:
		describe_fault(&s, tb, dim);
		break;
	case HCUBE_CMD_TOPO_NTF:
		hc_str_printf(&s, "topology: rebuilt");
		break;
	case HCUBE_CMD_TASK_NTF:
		describe_task(&s, tb, dim);
		break;
	case HCUBE_CMD_REBALANCE_NTF:
		hc_str_printf(&s, "rebalance%s: %s, moved %u",
			      tb[HCUBE_A_REPORT_DRY_RUN] ? " (dry run)" : "",
			      TOP_ENUM(tb[HCUBE_A_REPORT_POLICY], hc_policy_names, num),
			      top_u32(tb, HCUBE_A_REPORT_MOVED));
		if (tb[HCUBE_A_REPORT_POLICY]) {
			hc_attrs_free(&t->report);
			t->has_report = !hc_attrs_copy(&t->report, &hc_set_report, m->attrs,
						       m->len);
			t->report_at = time(NULL);
		}
		break;
	case HCUBE_CMD_CONTROLLER_NTF:
		hc_str_printf(&s, "controller: cluster %u %s -> ", top_u32(tb, HCUBE_A_CLUSTER),
			      tb[HCUBE_A_CONTROLLER_OLD] ?
			      hc_label(lb, dim, top_u32(tb, HCUBE_A_CONTROLLER_OLD)) : "none");
		hc_str_printf(&s, "%s", tb[HCUBE_A_CONTROLLER_NEW] ?
			      hc_label(lb, dim, top_u32(tb, HCUBE_A_CONTROLLER_NEW)) : "none");
		break;
	default:
		hc_str_printf(&s, "event %u (a newer module)", m->cmd);
		break;
	}
	if (m->cmd != HCUBE_CMD_TASK_NTF && m->cmd <= HCUBE_CMD_MAX && tb[HCUBE_A_REASON] &&
	    m->cmd != HCUBE_CMD_REBALANCE_NTF)
		hc_str_printf(&s, " (%s)", TOP_ENUM(tb[HCUBE_A_REASON], hc_reason_names, num));
	free(t->event);
	t->event = s.s;
	t->event_at = time(NULL);
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[HC_TB_SIZE];
	struct top *t = arg;
	struct hc_msg m;
	int ret = hc_msg_from(msg, t->c->family, &m, tb);

	if (ret > 0) {
		if (hc_family_deleted(msg, t->c->family))
			t->unloaded = true;
		return t->unloaded ? NL_STOP : NL_SKIP;
	}
	t->nevents++;
	t->pending = true;
	if (ret < 0) {
		free(t->event);
		t->event = top_strf("%s", "a malformed event");
		t->event_at = time(NULL);
		return NL_SKIP;
	}
	describe(t, &m);
	return NL_OK;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

void top_events_open(struct top *t)
{
	struct nl_sock *sk;
	int grp, ctrl, err;

	hc_sock(t->c);	/* the family, or "not loaded" */
	sk = nl_socket_alloc();
	if (!sk)
		hc_fatal("out of memory");
	err = genl_connect(sk);
	if (err < 0) {
		snprintf(t->no_events, sizeof(t->no_events), "cannot open a socket: %s",
			 nl_geterror(err));
		goto fail;
	}
	grp = genl_ctrl_resolve_grp(sk, HCUBE_FAMILY_NAME, HCUBE_MCGRP_EVENTS);
	if (grp < 0) {
		snprintf(t->no_events, sizeof(t->no_events), "no group \"%s\": %s",
			 HCUBE_MCGRP_EVENTS, nl_geterror(grp));
		goto fail;
	}
	ctrl = genl_ctrl_resolve_grp(sk, "nlctrl", "notify");
	err = nl_socket_add_membership(sk, grp);
	if (err == -NLE_PERM) {
		snprintf(t->no_events, sizeof(t->no_events),
			 "joining the group \"%s\" needs CAP_NET_ADMIN", HCUBE_MCGRP_EVENTS);
		goto fail;
	}
	if (err < 0) {
		snprintf(t->no_events, sizeof(t->no_events), "cannot join the group \"%s\": %s",
			 HCUBE_MCGRP_EVENTS, nl_geterror(err));
		goto fail;
	}
	if (ctrl >= 0)
		nl_socket_add_membership(sk, ctrl);	/* to see an rmmod */
	nl_socket_enable_msg_peek(sk);	/* reports of big cubes are large */
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	if (nl_socket_set_nonblocking(sk) < 0)
		hc_fatal("top: cannot make the socket non-blocking");
	t->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!t->cb)
		hc_fatal("out of memory");
	nl_cb_set(t->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_set(t->cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, t);
	t->ev = sk;
	return;
fail:
	nl_socket_free(sk);
}

void top_events_read(struct top *t)
{
	int i;

	for (i = 0; i < TOP_DRAIN_MAX && !t->unloaded; i++) {
		struct pollfd p = { .fd = nl_socket_get_fd(t->ev), .events = POLLIN };
		int err;

		if (poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN))
			break;
		err = nl_recvmsgs(t->ev, t->cb);
		if (err == -NLE_NOMEM) {	/* ENOBUFS: the socket overran */
			t->lost = true;
			t->pending = true;
		} else if (err < 0) {
			hc_fatal("top: events: %s", nl_geterror(err));
		}
	}
}

void top_events_close(struct top *t)
{
	if (!t->ev)
		return;
	nl_cb_put(t->cb);
	nl_socket_free(t->ev);
	t->ev = NULL;
}
