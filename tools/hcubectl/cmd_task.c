// SPDX-License-Identifier: GPL-2.0
/* hcubectl task add|del|list: register, unregister and list tasks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

/* Every HCUBE_A_TASK nest of a message, copied. */
static int tasks_reply(const struct hc_msg *m, void *arg)
{
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, m->attrs, m->len, rem)
		if (nla_type(a) == HCUBE_A_TASK && hc_attrs_add(arg, &hc_set_task, a))
			return -1;
	return 0;
}

static uint32_t parse_pid(const struct hc_ctx *c, const char *s)
{
	uint32_t pid;

	if (!hc_parse_u32(s, &pid))
		hc_usage(c, "'%s' is not a pid", s);
	if (!pid)
		hc_usage(c, "pid 0 is not a process");
	return pid;
}

/* A task the kernel could not register: a line on stderr, status 1. */
static int refused(const struct hc_attrs *t, size_t k)
{
	int32_t e = nla_get_s32(t->tb[HCUBE_T_A_ERROR]);
	const char *err = strerror(e < 0 && e != INT32_MIN ? -e : EPROTO);

	fflush(stdout);
	if (t->tb[HCUBE_T_A_PID])
		fprintf(stderr, "hcubectl: task add: pid %u: %s\n",
			nla_get_u32(t->tb[HCUBE_T_A_PID]), err);
	else
		fprintf(stderr, "hcubectl: task add: task %zu: %s\n", k + 1, err);
	return HC_EXIT_ERROR;
}

static int task_add(struct hc_ctx *c, int argc, char **argv)
{
	const char *vertex = hc_opt(c, 'v'), *why;
	struct hc_attrs_list tasks = { 0 };
	uint32_t v = 0;
	struct hc_req r;
	int i, dim, ret;
	size_t k;

	if (vertex && !hc_parse_vertex(vertex, &v, &why))
		hc_usage(c, "--vertex: '%s' %s", vertex, why);
	if (!argc)
		hc_usage(c, "missing PID");
	for (i = 0; i < argc; i++)
		parse_pid(c, argv[i]);

	ret = hc_cube_dim(c, &dim);
	if (ret)
		return ret;
	hc_req_init(&r, c->cmd->nlcmd, false, (size_t)argc * 8 + 64, c->what);
	for (i = 0; i < argc; i++)
		hc_req_u32(&r, HCUBE_A_PID, parse_pid(c, argv[i]), "pid %s", argv[i]);
	if (hc_opt(c, 't'))
		hc_req_flag(&r, HCUBE_A_THREADS, "--threads");
	if (vertex)
		hc_req_u32(&r, HCUBE_A_VERTEX_ID, v, "vertex %s", vertex);
	ret = hc_req_send(c, &r, tasks_reply, &tasks, NULL);
	hc_req_free(&r);
	if (ret)
		goto out;

	/*
	 * A task the kernel could not register (it raced with its exit) comes
	 * back as a nest with its HCUBE_T_A_PID and HCUBE_T_A_ERROR; the
	 * others stay registered.
	 */
	print_begin(false);
	open_json_array(NULL);
	if (!tasks.n)	/* the kernel registers, then drops a reply that does not fit */
		print_fp("registered (the kernel sent no details: see 'hcubectl task list')\n");
	for (k = 0; k < tasks.n; k++) {
		if (tasks.v[k].tb[HCUBE_T_A_ERROR] && !is_json()) {
			ret = refused(&tasks.v[k], k);
			continue;
		}
		open_json_object(NULL);
		print_fp("registered ");
		print_task(tasks.v[k].tb, dim, 0);
		print_fp("\n");
		close_json_object();
	}
	close_json_array();
	print_end();
	for (k = 0; k < tasks.n && hc_opts.json; k++)	/* -j: after the list */
		if (tasks.v[k].tb[HCUBE_T_A_ERROR])
			ret = refused(&tasks.v[k], k);
out:
	hc_attrs_list_free(&tasks);
	return ret;
}

static int task_del(struct hc_ctx *c, int argc, char **argv)
{
	bool all = hc_opt(c, 'a'), threads = hc_opt(c, 't');
	struct hc_req r;
	int i, ret;

	if (all && argc)
		hc_usage(c, "--all takes no PID");
	if (all && threads)
		hc_usage(c, "--all and --threads do not go together");
	if (!all && !argc)
		hc_usage(c, "missing PID (or --all)");
	for (i = 0; i < argc; i++)
		parse_pid(c, argv[i]);

	hc_req_init(&r, c->cmd->nlcmd, false, (size_t)argc * 8 + 64, c->what);
	if (all)
		hc_req_flag(&r, HCUBE_A_ALL, "--all");
	for (i = 0; i < argc; i++)
		hc_req_u32(&r, HCUBE_A_PID, parse_pid(c, argv[i]), "pid %s", argv[i]);
	if (threads)
		hc_req_flag(&r, HCUBE_A_THREADS, "--threads");
	ret = hc_req_send(c, &r, NULL, NULL, NULL);
	hc_req_free(&r);
	return ret;
}

static int task_list(struct hc_ctx *c, int argc, char **argv)
{
	static const char *const header[] = {
		"PID", "TGID", "COMM", "VERTEX", "STATE", "CPUS", "ORIG CPUS",
	};
	struct hc_attrs_list tasks = { 0 };
	struct hc_table t;
	int dim, ret;
	size_t k;

	(void)argc;
	(void)argv;
	ret = hc_cube_dim(c, &dim);
	if (!ret)
		ret = hc_run(c, tasks_reply, &tasks);
	if (ret)
		goto out;

	print_begin(false);
	open_json_array(NULL);
	hc_table_init(&t, 7, "rrlllll", header);
	for (k = 0; k < tasks.n; k++) {
		struct nlattr **tb = tasks.v[k].tb;
		char pid[16] = "?", tgid[16] = "?", lb[HC_LABEL_MAX] = "?", num[16];
		char *comm = tb[HCUBE_T_A_COMM] ? hc_attr_str(tb[HCUBE_T_A_COMM]) : strdup("");
		char *cpus = tb[HCUBE_T_A_CPUS] ? hc_attr_str(tb[HCUBE_T_A_CPUS]) : strdup("");
		char *orig = tb[HCUBE_T_A_ORIG_CPUS] ? hc_attr_str(tb[HCUBE_T_A_ORIG_CPUS]) :
			     strdup("");
		const char *state = "?";

		if (is_json()) {	/* text: the table */
			open_json_object(NULL);
			print_task(tb, dim, 0);
			close_json_object();
		}
		if (tb[HCUBE_T_A_PID])
			snprintf(pid, sizeof(pid), "%u", nla_get_u32(tb[HCUBE_T_A_PID]));
		if (tb[HCUBE_T_A_TGID])
			snprintf(tgid, sizeof(tgid), "%u", nla_get_u32(tb[HCUBE_T_A_TGID]));
		if (tb[HCUBE_T_A_VERTEX])
			hc_label(lb, dim, nla_get_u32(tb[HCUBE_T_A_VERTEX]));
		if (tb[HCUBE_T_A_STATE])
			state = HC_NAME(hc_task_state_names, nla_get_u32(tb[HCUBE_T_A_STATE]), num);
		hc_table_row(&t, pid, tgid, comm, lb, state, *cpus ? cpus : "-",
			     *orig ? orig : "-");
		free(comm);
		free(cpus);
		free(orig);
	}
	close_json_array();
	if (!is_json() && !tasks.n)
		printf("no registered tasks\n");
	else if (!is_json())
		hc_table_print(&t, stdout, "");
	hc_table_free(&t);
	print_end();
out:
	hc_attrs_list_free(&tasks);
	return ret;
}

static const struct hc_opt add_opts[] = {
	{ "threads", 't', NULL, "every thread of each process, not only the given one" },
	{ "vertex", 'v', "V", "place them on vertex V (decimal id, or binary label with a "
	  "0b prefix: 0b0101) instead of letting hcube choose" },
	{ 0 },
};

static const struct hc_opt del_opts[] = {
	{ "threads", 't', NULL, "all their threads" },
	{ "all", 'a', NULL, "every registered task" },
	{ 0 },
};

static const struct hc_cmd task_subs[] = {
	{
		.name = "add",
		.args = "PID... [--threads] [--vertex V]",
		.help =
		"Registers the processes PID... (in this pid namespace). Prints each\n"
		"registered task and its vertex; -j prints a JSON list of {\"pid\",\n"
		"\"vertex\", \"label\", ...} objects. A task the kernel could not register\n"
		"is an object with \"error\" (and a line on stderr, exit status 1); the\n"
		"others stay registered. Needs CAP_NET_ADMIN.\n",
		.opts = add_opts,
		.nlcmd = HCUBE_CMD_TASK_ADD,
		.flags = HC_ARGS,
		.handler = task_add,
	},
	{
		.name = "del",
		.alias = "delete",
		.args = "PID... [--threads]\n--all",
		.help =
		"Unregisters the processes PID... (with --threads, all their threads), or\n"
		"with --all every registered task. Prints nothing (-j: {}). Needs\n"
		"CAP_NET_ADMIN.\n",
		.opts = del_opts,
		.nlcmd = HCUBE_CMD_TASK_DEL,
		.flags = HC_ARGS | HC_ACK,
		.handler = task_del,
	},
	{
		.name = "list",
		.alias = "ls",
		.help =
		"Lists the registered tasks: pid, tgid, comm, vertex, state (active, or\n"
		"changed when someone else changed its affinity), current CPUs and the\n"
		"CPUs it had when it was registered. -j prints a JSON list of objects\n"
		"with the keys pid, tgid, comm, vertex, label, state, cpus, orig_cpus.\n",
		.nlcmd = HCUBE_CMD_TASK_GET,
		.flags = HC_DUMP,
		.handler = task_list,
	},
	{ 0 },
};

const struct hc_cmd hc_cmd_task = {
	.name = "task",
	.summary = "register, unregister and list tasks",
	.help =
	"Registers processes with hcube (which then places them on a vertex and\n"
	"moves them when it rebalances), unregisters them (their affinity is\n"
	"given back), or lists the registered tasks. 'hcubectl task COMMAND\n"
	"--help' describes each.\n",
	.subs = task_subs,
};
