// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl monitor: print the events of the "events" multicast group, one
 * line each, until SIGINT/SIGTERM (exit 0), --count events, or the module
 * going away (exit 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include "hcubectl.h"

static void monitor_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] monitor [--count N]\n"
	      "\n"
	      "Prints the module's events as they come, one line each (stdout is\n"
	      "flushed after each): faults marked or cleared and CPUs going offline\n"
	      "or online, topology changes, tasks registered, unregistered, exited or\n"
	      "changed by someone else, rebalances, and a new controller of a pebble\n"
	      "cluster. -j prints one JSON object per line, with an \"event\" key:\n"
	      "fault (its \"what\": added, cleared, offline, online), topology, task,\n"
	      "rebalance, controller (\"cluster\", \"old\" and \"new\" vertex ids or\n"
	      "null, \"reason\"). Runs until SIGINT or\n"
	      "SIGTERM (exit status 0) or until the module is unloaded (status 1).\n"
	      "  -c, --count N  exit (status 0) after N events\n", f);
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

struct monitor {
	int family;
	int dim;
	unsigned long count, seen;
	bool unloaded;
};

static void emit_json_begin(struct json *j, const char *event)
{
	json_init(j, stdout, false);	/* one object per line, even with -p */
	json_obj_open(j, NULL);
	json_str(j, "event", event);
}

static void emit_json_end(struct json *j)
{
	json_obj_close(j);
	json_end(j);
}

static void emit_line(struct hc_str *b)
{
	printf("%s\n", b->s ? b->s : "");
	fflush(stdout);
	hc_str_free(b);
}

static const char *name_or_num(const char *name, uint32_t v, char *buf, size_t size)
{
	return hc_name_or_num(name, v, buf, size);
}

/*
 * FAULT_NTF: what happened (HCUBE_A_EVENT), to which CPU (when a CPU
 * changed) and vertex, the vertex's state now, why, and the cube summary.
 */
static void fault_event(struct monitor *m, struct nlattr **tb)
{
	char lb[HC_LABEL_MAX], n1[16], n2[16], n3[16];
	uint32_t cpu, vertex, state, reason, event;
	bool has_cpu = hc_get_u32(tb[HCUBE_A_CPU], &cpu);
	bool has_vertex = hc_get_u32(tb[HCUBE_A_VERTEX_ID], &vertex);
	bool has_state = hc_get_u32(tb[HCUBE_A_STATE], &state);
	bool has_reason = hc_get_u32(tb[HCUBE_A_REASON], &reason);
	bool has_event = hc_get_u32(tb[HCUBE_A_EVENT], &event);
	const char *what = has_event ? name_or_num(hc_fault_event_name(event), event,
						   n3, sizeof(n3)) : NULL;
	struct hc_cube c;

	/* The module adds the cube summary after the fault. */
	hc_cube_parse(&c, tb);
	if (hc_cube_dim(&c) >= 0)
		m->dim = hc_cube_dim(&c);
	if (hc_opts.json) {
		struct json j;

		emit_json_begin(&j, "fault");
		if (what)
			json_str(&j, "what", what);
		else
			json_null(&j, "what");
		if (has_cpu)
			json_uint(&j, "cpu", cpu);
		if (has_vertex) {
			json_uint(&j, "vertex", vertex);
			hc_json_label(&j, m->dim, vertex);
		}
		if (has_state)
			json_str(&j, "state", name_or_num(hc_vstate_name(state), state,
							  n1, sizeof(n1)));
		else
			json_null(&j, "state");
		if (has_reason)
			json_str(&j, "reason", name_or_num(hc_reason_name(reason), reason,
							   n2, sizeof(n2)));
		else
			json_null(&j, "reason");
		if (HC_HAS(&c, HCUBE_A_DIM))
			hc_cube_json(&j, &c);
		emit_json_end(&j);
	} else {
		/* "fault: added cpu 3, vertex 0001 now faulty (admin); <summary>" */
		struct hc_str b = { 0 };
		const char *sep = "";

		hc_str_printf(&b, "fault: %s", what ? what : "?");
		if (has_cpu) {
			hc_str_printf(&b, " cpu %u", cpu);
			sep = ",";
		}
		if (has_vertex) {
			hc_str_printf(&b, "%s vertex %s", sep, hc_label(lb, m->dim, vertex));
			sep = ",";
		}
		if (has_state)
			hc_str_printf(&b, "%s now %s", sep,
				      name_or_num(hc_vstate_name(state), state, n1, sizeof(n1)));
		if (has_reason)
			hc_str_printf(&b, " (%s)", name_or_num(hc_reason_name(reason),
							       reason, n2, sizeof(n2)));
		if (HC_HAS(&c, HCUBE_A_DIM)) {
			hc_str_printf(&b, "; ");
			hc_cube_line(&b, &c);
		}
		emit_line(&b);
	}
}

static void topo_event(struct monitor *m, struct nlattr **tb)
{
	struct hc_cube c;
	char num[16];

	hc_cube_parse(&c, tb);
	if (hc_cube_dim(&c) >= 0)
		m->dim = hc_cube_dim(&c);
	if (hc_opts.json) {
		struct json j;

		emit_json_begin(&j, "topology");
		hc_cube_json(&j, &c);
		if (HC_HAS(&c, HCUBE_A_REASON))
			json_str(&j, "reason", name_or_num(hc_reason_name(c.reason),
							   c.reason, num, sizeof(num)));
		else
			json_null(&j, "reason");
		emit_json_end(&j);
	} else {
		struct hc_str b = { 0 };

		hc_str_printf(&b, "topology: ");
		hc_cube_line(&b, &c);
		if (HC_HAS(&c, HCUBE_A_REASON))
			hc_str_printf(&b, " (%s)", name_or_num(hc_reason_name(c.reason),
							       c.reason, num, sizeof(num)));
		emit_line(&b);
	}
}

static int task_event(struct monitor *m, struct nlattr **tb)
{
	struct hc_task t;
	char num[16];

	if (!tb[HCUBE_A_TASK])
		return -1;
	hc_task_parse(&t, tb[HCUBE_A_TASK]);
	if (hc_opts.json) {
		struct json j;

		emit_json_begin(&j, "task");
		hc_task_json_members(&j, &t, m->dim);
		emit_json_end(&j);
	} else {
		struct hc_str b = { 0 };

		hc_str_printf(&b, "task: ");
		hc_task_text(&b, &t, m->dim);
		if (HC_HAS(&t, HCUBE_T_A_REASON))
			hc_str_printf(&b, " (%s)", name_or_num(hc_reason_name(t.reason),
							       t.reason, num, sizeof(num)));
		emit_line(&b);
	}
	hc_task_free(&t);
	return 0;
}

/*
 * CONTROLLER_NTF: a pebble cluster's controller changed. "controller:
 * cluster 0 (0xx) 000 -> 001 (admin)".
 */
static void controller_event(struct monitor *m, struct nlattr **tb)
{
	char lo[HC_LABEL_MAX], ln[HC_LABEL_MAX], num[16];
	uint32_t cluster = 0, cdim = 0, old = 0, now = 0, reason = 0;
	bool has_cluster = hc_get_u32(tb[HCUBE_A_CLUSTER], &cluster);
	bool has_cdim = hc_get_u32(tb[HCUBE_A_CLUSTER_DIM], &cdim);
	bool has_old = hc_get_u32(tb[HCUBE_A_CONTROLLER_OLD], &old);
	bool has_new = hc_get_u32(tb[HCUBE_A_CONTROLLER_NEW], &now);
	bool has_reason = hc_get_u32(tb[HCUBE_A_REASON], &reason);
	const char *why = has_reason ? name_or_num(hc_reason_name(reason), reason,
						   num, sizeof(num)) : NULL;

	if (hc_opts.json) {
		struct json j;

		emit_json_begin(&j, "controller");
		hc_json_u32(&j, "cluster", has_cluster, cluster);
		hc_json_u32(&j, "cluster_dim", has_cdim, cdim);
		hc_json_u32(&j, "old", has_old, old);
		hc_json_u32(&j, "new", has_new, now);
		if (why)
			json_str(&j, "reason", why);
		else
			json_null(&j, "reason");
		emit_json_end(&j);
	} else {
		struct hc_str b = { 0 };

		if (has_cluster)
			hc_str_printf(&b, "controller: cluster %u", cluster);
		else
			hc_str_printf(&b, "controller: cluster ?");
		hc_str_printf(&b, " %s -> %s", has_old ? hc_label(lo, m->dim, old) : "none",
			      has_new ? hc_label(ln, m->dim, now) : "none");
		if (why)
			hc_str_printf(&b, " (%s)", why);
		emit_line(&b);
	}
}

/* REBALANCE_NTF: the report's attributes are the message's own. */
static int rebalance_event(struct monitor *m, struct nlattr *attrs, int len)
{
	struct hc_report r;

	if (hc_report_parse(&r, attrs, len) < 0) {
		hc_report_free(&r);
		return -1;
	}
	if (hc_opts.json) {
		struct json j;

		emit_json_begin(&j, "rebalance");
		hc_report_json(&j, &r, m->dim);
		emit_json_end(&j);
	} else {
		struct hc_str b = { 0 };

		hc_report_line(&b, &r, m->dim);
		emit_line(&b);
	}
	hc_report_free(&r);
	return 0;
}

static void unknown_event(uint8_t cmd)
{
	if (hc_opts.json) {
		struct json j;

		emit_json_begin(&j, "unknown");
		json_uint(&j, "cmd", cmd);
		emit_json_end(&j);
	} else {
		struct hc_str b = { 0 };

		hc_str_printf(&b, "unknown event: command %u", cmd);
		emit_line(&b);
	}
}

/* nlctrl's notification that a family went away: is it ours? */
static void ctrl_event(struct monitor *m, struct genlmsghdr *gh, struct nlmsghdr *nlh)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	uint16_t id;

	if (gh->cmd != CTRL_CMD_DELFAMILY)
		return;
	hc_parse(tb, CTRL_ATTR_MAX, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0));
	(void)nlh;
	if (tb[CTRL_ATTR_FAMILY_ID] && nla_len(tb[CTRL_ATTR_FAMILY_ID]) >= 2) {
		memcpy(&id, nla_data(tb[CTRL_ATTR_FAMILY_ID]), sizeof(id));
		if (id == m->family)
			m->unloaded = true;
	}
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct monitor *m = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[HCUBE_A_MAX + 1], *attrs;
	struct genlmsghdr *gh;
	int bad = 0, len;

	if (!genlmsg_valid_hdr(nlh, 0))
		return NL_SKIP;
	gh = nlmsg_data(nlh);
	if (nlh->nlmsg_type == GENL_ID_CTRL) {
		ctrl_event(m, gh, nlh);
		return m->unloaded ? NL_STOP : NL_SKIP;
	}
	if (nlh->nlmsg_type != m->family)
		return NL_SKIP;
	attrs = genlmsg_attrdata(gh, 0);
	len = genlmsg_attrlen(gh, 0);
	hc_parse(tb, HCUBE_A_MAX, attrs, len);
	switch (gh->cmd) {
	case HCUBE_CMD_FAULT_NTF:
		fault_event(m, tb);
		break;
	case HCUBE_CMD_TOPO_NTF:
		topo_event(m, tb);
		break;
	case HCUBE_CMD_TASK_NTF:
		bad = task_event(m, tb);
		break;
	case HCUBE_CMD_REBALANCE_NTF:
		bad = rebalance_event(m, attrs, len);
		break;
	case HCUBE_CMD_CONTROLLER_NTF:
		controller_event(m, tb);
		break;
	default:
		unknown_event(gh->cmd);
		break;
	}
	if (bad) {
		fprintf(stderr, "hcubectl: monitor: malformed event (command %u)\n",
			gh->cmd);
		return NL_SKIP;
	}
	m->seen++;
	return m->count && m->seen >= m->count ? NL_STOP : NL_OK;
}

/* Events carry sequence number 0: accept them all. */
static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int cube_reply(uint8_t cmd, struct nlattr *attrs, int len, void *arg)
{
	struct nlattr *tb[HCUBE_A_MAX + 1];
	struct hc_cube c;

	(void)cmd;
	hc_parse(tb, HCUBE_A_MAX, attrs, len);
	hc_cube_parse(&c, tb);
	*(int *)arg = hc_cube_dim(&c);
	return 0;
}

int cmd_monitor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct monitor m = { .dim = -1 };
	struct sigaction sa = { 0 };
	sigset_t block, waitmask;
	bool first = true;
	struct nl_cb *cb;
	struct hc_nl nl;
	uint32_t count;
	int c, grp, ctrl_grp, ret;

	while ((c = hc_getopt(argc, argv, "monitor", "c:", opts, monitor_usage,
			      &first)) != -1) {
		if (c == 'c') {
			if (!hc_parse_u32(optarg, &count) || !count)
				hc_usage_error("monitor", "--count: '%s' is not a positive integer",
					       optarg);
			m.count = count;
		}
	}
	if (optind < argc)
		hc_usage_error("monitor", "unexpected argument '%s'", argv[optind]);

	/* Signals only interrupt the wait: no event is cut in half. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &waitmask);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	hc_nl_open(&nl);
	m.family = nl.family;
	/* The dimension for labels, before any event can queue up. */
	ret = hc_simple_get(&nl, HCUBE_CMD_CUBE_GET, false, "monitor", cube_reply,
			    &m.dim);
	if (ret) {
		hc_nl_close(&nl);
		return ret;
	}
	/* Resolve both groups before joining one: replies and events mix. */
	grp = genl_ctrl_resolve_grp(nl.sk, HCUBE_FAMILY_NAME, HCUBE_MCGRP_EVENTS);
	if (grp < 0)
		hc_fatal("monitor: no multicast group \"%s\": %s", HCUBE_MCGRP_EVENTS,
			 nl_geterror(grp));
	ctrl_grp = genl_ctrl_resolve_grp(nl.sk, "nlctrl", "notify");
	ret = nl_socket_add_membership(nl.sk, grp);
	if (ret < 0)
		hc_fatal("monitor: cannot join \"%s\": %s", HCUBE_MCGRP_EVENTS,
			 nl_geterror(ret));
	if (ctrl_grp >= 0)
		nl_socket_add_membership(nl.sk, ctrl_grp);	/* to see an rmmod */
	if (nl_socket_set_nonblocking(nl.sk) < 0)
		hc_fatal("monitor: cannot make the socket non-blocking");

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		hc_fatal("out of memory");
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, &m);

	ret = 0;
	while (!stop_signal && !m.unloaded && (!m.count || m.seen < m.count)) {
		struct pollfd pfd = { .fd = nl_socket_get_fd(nl.sk), .events = POLLIN };
		int err;

		if (ppoll(&pfd, 1, NULL, &waitmask) < 0) {
			if (errno == EINTR)
				continue;
			hc_fatal("monitor: poll: %s", strerror(errno));
		}
		err = nl_recvmsgs(nl.sk, cb);
		if (err == -NLE_NOMEM) {	/* ENOBUFS: the socket overran */
			fprintf(stderr, "hcubectl: monitor: events lost (receive buffer overrun)\n");
			continue;
		}
		if (err < 0 && err != -NLE_AGAIN) {
			ret = HC_EXIT_ERROR;
			fprintf(stderr, "hcubectl: monitor: %s\n", nl_geterror(err));
			break;
		}
	}
	if (m.unloaded) {
		fprintf(stderr, "hcubectl: monitor: the hcube module was unloaded\n");
		ret = HC_EXIT_ERROR;
	}
	fflush(stdout);
	nl_cb_put(cb);
	hc_nl_close(&nl);
	return ret;
}
