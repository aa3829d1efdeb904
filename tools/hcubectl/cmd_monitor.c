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

struct monitor {
	int family;
	int dim;
	unsigned long count, seen;
	bool unloaded;
};

static void print_reason(const char *fmt, const struct nlattr *a)
{
	print_attr_enum(PRINT_ANY, "reason", fmt, hc_reason_names,
			ARRAY_SIZE(hc_reason_names), a);
}

/*
 * FAULT_NTF: what happened (HCUBE_A_EVENT), to which CPU (when a CPU
 * changed) and vertex, the vertex's state now, why, and the cube summary:
 * "fault: added cpu 3, vertex 0001, now faulty (admin); <summary>".
 */
static int fault_event(struct monitor *mon, struct nlattr **tb)
{
	char lb[HC_LABEL_MAX];
	const char *sep = "";

	if (hc_tb_dim(tb) >= 0)
		mon->dim = hc_tb_dim(tb);
	print_fp("fault: ");
	if (!tb[HCUBE_A_EVENT])
		print_fp("?");
	print_attr_enum(PRINT_ANY, "what", "%s", hc_fault_event_names,
			ARRAY_SIZE(hc_fault_event_names), tb[HCUBE_A_EVENT]);
	if (tb[HCUBE_A_CPU]) {
		print_attr_u32(PRINT_ANY, "cpu", " cpu %u", tb[HCUBE_A_CPU]);
		sep = ",";
	}
	if (tb[HCUBE_A_VERTEX_ID]) {
		uint32_t v = nla_get_u32(tb[HCUBE_A_VERTEX_ID]);

		print_uint(PRINT_JSON, "vertex", NULL, v);
		print_label(mon->dim, v);
		print_fp("%s vertex %s", sep, hc_label(lb, mon->dim, v));
		sep = ",";
	}
	print_fp("%s", tb[HCUBE_A_STATE] ? sep : "");
	print_attr_enum(PRINT_ANY, "state", " now %s", hc_vertex_state_names,
			ARRAY_SIZE(hc_vertex_state_names), tb[HCUBE_A_STATE]);
	print_reason(" (%s)", tb[HCUBE_A_REASON]);
	if (tb[HCUBE_A_CPU_INFO]) {
		open_json_object("cpu_info");
		print_fp(" [");
		print_cpu_info(tb[HCUBE_A_CPU_INFO]);
		print_fp("]");
		close_json_object();
	}
	/* The module adds the cube summary after the fault. */
	if (tb[HCUBE_A_DIM]) {
		print_fp("; ");
		print_cube(tb);
	}
	return 0;
}

static int topo_event(struct monitor *mon, struct nlattr **tb)
{
	if (hc_tb_dim(tb) >= 0)
		mon->dim = hc_tb_dim(tb);
	print_fp("topology: ");
	print_cube(tb);
	print_reason(" (%s)", tb[HCUBE_A_REASON]);
	return 0;
}

/*
 * TASK_NTF: @tb is the task's (HCUBE_A_TASK): "task: pid 777 (sleep) ...
 * (exited)"; a new thread or child of a registered task: "(thread, creator
 * 800)".
 */
static int task_event(struct monitor *mon, struct nlattr **tb)
{
	struct nlattr *reason = tb[HCUBE_A_TASK_REASON], *creator = tb[HCUBE_A_TASK_CREATOR];

	print_fp("task: ");
	print_task(tb, mon->dim, 0);
	if (reason || creator)
		print_fp(" (");
	print_attr_enum(PRINT_FP, NULL, "%s", hc_reason_names, ARRAY_SIZE(hc_reason_names),
			reason);
	if (creator)
		print_fp("%screator %u", reason ? ", " : "", nla_get_u32(creator));
	if (reason || creator)
		print_fp(")");
	return 0;
}

/* CONTROLLER_NTF: "controller: cluster 0 000 -> 001 (admin)". */
static int controller_event(struct monitor *mon, struct nlattr **tb)
{
	char lb[HC_LABEL_MAX];
	int i;

	print_fp("controller: cluster ");
	if (!tb[HCUBE_A_CLUSTER])
		print_fp("?");
	print_attr_u32(PRINT_ANY, "cluster", "%u", tb[HCUBE_A_CLUSTER]);
	print_attr_u32(PRINT_JSON, "cluster_dim", NULL, tb[HCUBE_A_CLUSTER_DIM]);
	for (i = 0; i < 2; i++) {
		struct nlattr *a = tb[i ? HCUBE_A_CONTROLLER_NEW : HCUBE_A_CONTROLLER_OLD];

		print_attr_u32(PRINT_JSON, i ? "new" : "old", NULL, a);
		print_fp(i ? " -> %s" : " %s",
			 a ? hc_label(lb, mon->dim, nla_get_u32(a)) : "none");
	}
	print_reason(" (%s)", tb[HCUBE_A_REASON]);
	print_attr_u32(PRINT_JSON, "generation", NULL, tb[HCUBE_A_GENERATION]);
	return 0;
}

/* The events: their name in JSON, and how to print them. */
static const struct {
	uint8_t cmd;
	const char *name;
	int (*print)(struct monitor *mon, struct nlattr **tb);
} events[] = {
	{ HCUBE_CMD_FAULT_NTF, "fault", fault_event },
	{ HCUBE_CMD_TOPO_NTF, "topology", topo_event },
	{ HCUBE_CMD_TASK_NTF, "task", task_event },
	{ HCUBE_CMD_REBALANCE_NTF, "rebalance", NULL },
	{ HCUBE_CMD_CONTROLLER_NTF, "controller", controller_event },
};

/* What must be there before anything is printed: -1 if it is not. */
static int check_event(const struct hc_msg *m, struct nlattr **task)
{
	if (m->cmd == HCUBE_CMD_TASK_NTF)
		return m->tb[HCUBE_A_TASK] ? hc_parse_nested(task, &hc_set_task,
							      m->tb[HCUBE_A_TASK]) : -1;
	if (m->cmd == HCUBE_CMD_REBALANCE_NTF)
		return hc_report_check(m);
	return 0;
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[HC_TB_SIZE], *task[HC_TB_SIZE];
	struct monitor *mon = arg;
	struct hc_msg m;
	size_t i;
	int ret = hc_msg_from(msg, mon->family, &m, tb);

	if (ret > 0 && nlmsg_hdr(msg)->nlmsg_type == GENL_ID_CTRL) {
		if (hc_family_deleted(msg, mon->family))
			mon->unloaded = true;
		return mon->unloaded ? NL_STOP : NL_SKIP;
	}
	if (ret > 0)
		return NL_SKIP;
	if (ret < 0 || check_event(&m, task) < 0) {
		fprintf(stderr, "hcubectl: monitor: malformed event (command %u)\n", m.cmd);
		return NL_SKIP;
	}
	for (i = 0; i < ARRAY_SIZE(events) && events[i].cmd != m.cmd; i++)
		;
	print_begin(true);	/* one object per line, even with -p */
	open_json_object(NULL);
	if (i == ARRAY_SIZE(events)) {
		print_string(PRINT_JSON, "event", NULL, "unknown");
		print_uint(PRINT_ANY, "cmd", "unknown event: command %u", m.cmd);
	} else {
		print_string(PRINT_JSON, "event", NULL, events[i].name);
		if (m.cmd == HCUBE_CMD_TASK_NTF)
			memcpy(tb, task, sizeof(task));
		if (events[i].print)
			events[i].print(mon, tb);
		else
			print_report(&m, mon->dim, true);
	}
	close_json_object();
	print_fp("\n");
	print_end();
	mon->seen++;
	return mon->count && mon->seen >= mon->count ? NL_STOP : NL_OK;
}

/* Events carry sequence number 0: accept them all. */
static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int monitor(struct hc_ctx *c, int argc, char **argv)
{
	struct monitor mon = { .dim = -1 };
	const char *count = hc_opt(c, 'c');
	static const int sigs[] = { SIGINT, SIGTERM };
	sigset_t waitmask;
	struct nl_sock *sk;
	struct nl_cb *cb;
	uint32_t n;
	int grp, ctrl_grp, ret;

	(void)argc;
	(void)argv;
	if (count && (!hc_parse_u32(count, &n) || !n))
		hc_usage(c, "--count: '%s' is not a positive integer", count);
	mon.count = count ? n : 0;

	/* Signals only interrupt the wait: no event is cut in half. */
	hc_signals_catch(sigs, ARRAY_SIZE(sigs), &waitmask);

	/* The dimension for labels, before any event can queue up. */
	ret = hc_cube_dim(c, &mon.dim);
	if (ret)
		return ret;
	sk = hc_sock(c);
	mon.family = c->family;
	/* Resolve both groups before joining one: replies and events mix. */
	grp = genl_ctrl_resolve_grp(sk, HCUBE_FAMILY_NAME, HCUBE_MCGRP_EVENTS);
	if (grp < 0)
		hc_fatal("monitor: no multicast group \"%s\": %s", HCUBE_MCGRP_EVENTS,
			 nl_geterror(grp));
	ctrl_grp = genl_ctrl_resolve_grp(sk, "nlctrl", "notify");
	ret = nl_socket_add_membership(sk, grp);
	if (ret < 0)
		hc_fatal("monitor: cannot join \"%s\": %s", HCUBE_MCGRP_EVENTS, nl_geterror(ret));
	if (ctrl_grp >= 0)
		nl_socket_add_membership(sk, ctrl_grp);	/* to see an rmmod */
	if (nl_socket_set_nonblocking(sk) < 0)
		hc_fatal("monitor: cannot make the socket non-blocking");

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		hc_fatal("out of memory");
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, &mon);

	ret = 0;
	while (!hc_stop_signal && !mon.unloaded && (!mon.count || mon.seen < mon.count)) {
		struct pollfd pfd = { .fd = nl_socket_get_fd(sk), .events = POLLIN };
		int err;

		if (ppoll(&pfd, 1, NULL, &waitmask) < 0) {
			if (errno == EINTR)
				continue;
			hc_fatal("monitor: poll: %s", strerror(errno));
		}
		err = nl_recvmsgs(sk, cb);
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
	if (mon.unloaded) {
		fprintf(stderr, "hcubectl: monitor: the hcube module was unloaded\n");
		ret = HC_EXIT_ERROR;
	}
	fflush(stdout);
	nl_cb_put(cb);
	return ret;
}

static const struct hc_opt monitor_opts[] = {
	{ "count", 'c', "N", "exit (status 0) after N events" },
	{ 0 },
};

const struct hc_cmd hc_cmd_monitor = {
	.name = "monitor",
	.args = "[--count N]",
	.summary = "print the module's events as they come",
	.help =
	"Prints the module's events as they come, one line each (stdout is\n"
	"flushed after each): faults marked or cleared and CPUs going offline\n"
	"or online, topology changes, tasks registered, unregistered, exited or\n"
	"changed by someone else, new threads and children of registered jobs\n"
	"registered (fork, thread) or refused over max_tasks (refused), with the\n"
	"pid of their creator, rebalances, and a new controller of a pebble\n"
	"cluster. -j prints one JSON object per line, with an \"event\" key:\n"
	"fault (its \"what\": added, cleared, offline, online; its \"reason\":\n"
	"admin, hotplug, or mce for a machine check; \"cpu_info\" for a CPU:\n"
	"the keys of show -j's \"cpu_info\"), topology, task\n"
	"(\"reason\", and \"creator\" when there is one), rebalance, controller\n"
	"(\"cluster\", \"old\" and \"new\" vertex ids or null, \"reason\"). Runs\n"
	"until SIGINT or SIGTERM (exit status 0) or until the module is unloaded\n"
	"(status 1).\n",
	.opts = monitor_opts,
	.handler = monitor,
};
