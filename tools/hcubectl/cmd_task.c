// SPDX-License-Identifier: GPL-2.0
/* hcubectl task add|del|list: register, unregister and list tasks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

static void task_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] [-p] task add PID... [--threads] [--vertex V]\n"
	      "       hcubectl [-j] [-p] task del PID... [--threads]\n"
	      "       hcubectl [-j] [-p] task del --all\n"
	      "       hcubectl [-j] [-p] task list\n"
	      "\n"
	      "Registers processes with hcube (which then places them on a vertex and\n"
	      "moves them when it rebalances), unregisters them (their affinity is\n"
	      "given back), or lists the registered tasks. 'hcubectl task COMMAND\n"
	      "--help' describes each.\n", f);
}

static void add_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] [-p] task add PID... [--threads] [--vertex V]\n"
	      "\n"
	      "Registers the processes PID... (in this pid namespace).\n"
	      "  -t, --threads   every thread of each process, not only the given one\n"
	      "  -v, --vertex V  place them on vertex V (decimal id, or binary label\n"
	      "                  with a 0b prefix: 0b0101) instead of letting hcube choose\n"
	      "Prints each registered task and its vertex; -j prints a JSON list of\n"
	      "{\"pid\", \"vertex\", \"label\", ...} objects. A task the kernel could not\n"
	      "register is an object with \"error\" (and a line on stderr, exit status 1);\n"
	      "the others stay registered. Needs CAP_NET_ADMIN.\n", f);
}

static void del_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] [-p] task del PID... [--threads]\n"
	      "       hcubectl [-j] [-p] task del --all\n"
	      "\n"
	      "Unregisters the processes PID... (with --threads, all their threads), or\n"
	      "with --all every registered task. Prints nothing (-j: {}). Needs\n"
	      "CAP_NET_ADMIN.\n", f);
}

static void list_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] [-p] task list\n"
	      "\n"
	      "Lists the registered tasks: pid, tgid, comm, vertex, state (active, or\n"
	      "changed when someone else changed its affinity), current CPUs and the\n"
	      "CPUs it had when it was registered. -j prints a JSON list of objects\n"
	      "with the keys pid, tgid, comm, vertex, label, state, cpus, orig_cpus.\n", f);
}

/* The cube's dimension for labels; -1 if the kernel does not say. */
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

static int get_dim(struct hc_nl *nl, const char *what, int *dim)
{
	*dim = -1;
	return hc_simple_get(nl, HCUBE_CMD_CUBE_GET, false, what, cube_reply, dim);
}

/* Every HCUBE_A_TASK nest of a message. */
static int tasks_reply(uint8_t cmd, struct nlattr *attrs, int len, void *arg)
{
	struct nlattr *a;
	int rem;

	(void)cmd;
	nla_for_each_attr(a, attrs, len, rem)
		if (nla_type(a) == HCUBE_A_TASK)
			hc_task_parse(hc_tasks_add(arg), a);
	return 0;
}

static uint32_t parse_pid(const char *cmd, const char *s)
{
	uint32_t pid;

	if (!hc_parse_u32(s, &pid))
		hc_usage_error(cmd, "'%s' is not a pid", s);
	if (!pid)
		hc_usage_error(cmd, "pid 0 is not a process");
	return pid;
}

static int task_add(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", no_argument, NULL, 't' },
		{ "vertex", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *vertex_arg = NULL, *why;
	struct hc_tasks tasks = { 0 };
	bool threads = false, first = true;
	uint32_t vertex = 0;
	struct hc_nl nl;
	struct hc_req r;
	int c, i, dim, ret;
	size_t k;

	while ((c = hc_getopt(argc, argv, "task add", "tv:", opts, add_usage,
			      &first)) != -1) {
		if (c == 't') {
			threads = true;
		} else if (c == 'v') {
			vertex_arg = optarg;
			if (!hc_parse_vertex(optarg, &vertex, &why))
				hc_usage_error("task add", "--vertex: '%s' %s", optarg, why);
		}
	}
	if (optind >= argc)
		hc_usage_error("task add", "missing PID");
	for (i = optind; i < argc; i++)
		parse_pid("task add", argv[i]);

	hc_nl_open(&nl);
	ret = get_dim(&nl, "task add", &dim);
	if (ret)
		goto out;
	hc_req_init(&r, &nl, HCUBE_CMD_TASK_ADD, false, (size_t)(argc - optind) * 8 + 64,
		    "task add");
	for (i = optind; i < argc; i++)
		hc_req_u32(&r, HCUBE_A_PID, parse_pid("task add", argv[i]), "pid %s",
			   argv[i]);
	if (threads)
		hc_req_flag(&r, HCUBE_A_THREADS, "--threads");
	if (vertex_arg)
		hc_req_u32(&r, HCUBE_A_VERTEX_ID, vertex, "vertex %s", vertex_arg);
	ret = hc_req_run(&nl, &r, tasks_reply, &tasks);
	hc_req_free(&r);
	if (ret)
		goto out;

	/*
	 * A task the kernel could not register (it raced with its exit) comes
	 * back as a nest with its HCUBE_T_A_PID and HCUBE_T_A_ERROR; the
	 * others stay registered.
	 */
	if (hc_opts.json) {
		struct json j;

		hc_json_begin(&j);
		json_arr_open(&j, NULL);
		for (k = 0; k < tasks.n; k++)
			hc_task_json(&j, NULL, &tasks.v[k], dim);
		json_arr_close(&j);
		json_end(&j);
	} else if (!tasks.n) {
		/* The kernel registers, then drops a reply that does not fit. */
		printf("registered (the kernel sent no details: see 'hcubectl task list')\n");
	}
	for (k = 0; k < tasks.n; k++) {
		const struct hc_task *t = &tasks.v[k];
		struct hc_str b = { 0 };

		if (HC_HAS(t, HCUBE_T_A_ERROR)) {
			fflush(stdout);
			if (HC_HAS(t, HCUBE_T_A_PID))
				fprintf(stderr, "hcubectl: task add: pid %u: %s\n", t->pid,
					strerror(t->error < 0 && t->error != INT32_MIN ?
						 -t->error : EPROTO));
			else
				fprintf(stderr, "hcubectl: task add: task %zu: %s\n", k + 1,
					strerror(t->error < 0 && t->error != INT32_MIN ?
						 -t->error : EPROTO));
			ret = HC_EXIT_ERROR;
			continue;
		}
		if (hc_opts.json)
			continue;
		hc_task_text(&b, t, dim);
		printf("registered %s\n", b.s);
		hc_str_free(&b);
	}
out:
	hc_tasks_free(&tasks);
	hc_nl_close(&nl);
	return ret;
}

static int task_del(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", no_argument, NULL, 't' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool threads = false, all = false, first = true;
	struct hc_nl nl;
	struct hc_req r;
	int c, i, ret;

	while ((c = hc_getopt(argc, argv, "task del", "ta", opts, del_usage,
			      &first)) != -1) {
		if (c == 't')
			threads = true;
		else if (c == 'a')
			all = true;
	}
	if (all && optind < argc)
		hc_usage_error("task del", "--all takes no PID");
	if (all && threads)
		hc_usage_error("task del", "--all and --threads do not go together");
	if (!all && optind >= argc)
		hc_usage_error("task del", "missing PID (or --all)");
	for (i = optind; i < argc; i++)
		parse_pid("task del", argv[i]);

	hc_nl_open(&nl);
	hc_req_init(&r, &nl, HCUBE_CMD_TASK_DEL, false, (size_t)(argc - optind) * 8 + 64,
		    "task del");
	if (all)
		hc_req_flag(&r, HCUBE_A_ALL, "--all");
	for (i = optind; i < argc; i++)
		hc_req_u32(&r, HCUBE_A_PID, parse_pid("task del", argv[i]), "pid %s",
			   argv[i]);
	if (threads)
		hc_req_flag(&r, HCUBE_A_THREADS, "--threads");
	ret = hc_req_run(&nl, &r, NULL, NULL);
	hc_req_free(&r);
	hc_nl_close(&nl);
	if (!ret && hc_opts.json)
		hc_json_empty();
	return ret;
}

static int task_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const header[] = {
		"PID", "TGID", "COMM", "VERTEX", "STATE", "CPUS", "ORIG CPUS",
	};
	struct hc_tasks tasks = { 0 };
	bool first = true;
	struct hc_nl nl;
	int dim, ret;
	size_t k;

	while (hc_getopt(argc, argv, "task list", "", opts, list_usage, &first) != -1)
		;
	if (optind < argc)
		hc_usage_error("task list", "unexpected argument '%s'", argv[optind]);

	hc_nl_open(&nl);
	ret = get_dim(&nl, "task list", &dim);
	if (!ret)
		ret = hc_simple_get(&nl, HCUBE_CMD_TASK_GET, true, "task list",
				    tasks_reply, &tasks);
	hc_nl_close(&nl);
	if (ret)
		goto out;

	if (hc_opts.json) {
		struct json j;

		hc_json_begin(&j);
		json_arr_open(&j, NULL);
		for (k = 0; k < tasks.n; k++)
			hc_task_json(&j, NULL, &tasks.v[k], dim);
		json_arr_close(&j);
		json_end(&j);
	} else if (!tasks.n) {
		printf("no registered tasks\n");
	} else {
		struct hc_table t;

		hc_table_init(&t, 7, "rrlllll", header);
		for (k = 0; k < tasks.n; k++) {
			const struct hc_task *x = &tasks.v[k];
			char pid[16] = "?", tgid[16] = "?", lb[HC_LABEL_MAX] = "?";
			char num[16];
			const char *state = "?";

			if (HC_HAS(x, HCUBE_T_A_PID))
				snprintf(pid, sizeof(pid), "%u", x->pid);
			if (HC_HAS(x, HCUBE_T_A_TGID))
				snprintf(tgid, sizeof(tgid), "%u", x->tgid);
			if (HC_HAS(x, HCUBE_T_A_VERTEX))
				hc_label(lb, dim, x->vertex);
			if (HC_HAS(x, HCUBE_T_A_STATE))
				state = hc_name_or_num(hc_tstate_name(x->state),
						       x->state, num, sizeof(num));
			hc_table_row(&t, pid, tgid, x->comm, lb, state,
				     x->cpus && x->cpus[0] ? x->cpus : "-",
				     x->orig_cpus && x->orig_cpus[0] ? x->orig_cpus : "-");
		}
		hc_table_print(&t, stdout, "");
		hc_table_free(&t);
	}
out:
	hc_tasks_free(&tasks);
	return ret;
}

int cmd_task(int argc, char **argv)
{
	if (argc < 2)
		hc_usage_error("task", "missing command (add, del, list)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		task_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "add"))
		return task_add(argc - 1, argv + 1);
	if (!strcmp(argv[1], "del") || !strcmp(argv[1], "delete"))
		return task_del(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list") || !strcmp(argv[1], "ls"))
		return task_list(argc - 1, argv + 1);
	hc_usage_error("task", "unknown command '%s' (add, del, list)", argv[1]);
}
