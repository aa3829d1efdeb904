// SPDX-License-Identifier: GPL-2.0
/* hcubectl task add|del|list: register, unregister and list tasks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

#define OPT_TREE	HC_LONG(1)
#define OPT_THREAD	HC_LONG(2)
#define OPT_CGROUP	HC_LONG(3)

/* A cgroup's process that exits between the read and the request: retries. */
#define CGROUP_RETRIES	64

/* What a task add or del names: its pids and the unit of each. */
struct tasks_req {
	uint32_t *pids;
	char **words;		/* the pids as given; NULL: from the cgroup */
	size_t n;
	const char *cgroup;	/* --cgroup PATH */
	int unit;		/* HCUBE_UNIT_*, or -1: none sent (a job) */
	const char *unit_opt;	/* the option that set it */
	bool all;
	const char *vertex;
	uint32_t v;
};

/* What TASK_ADD's reply says: its counts and the tasks it lists. */
struct added {
	struct hc_attrs_list tasks;
	uint32_t registered, exited, refused;
	bool counted;		/* the reply has the counts */
};

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

/* The options and pids of task add (@add) or del, checked. */
static void parse_tasks(struct hc_ctx *c, int argc, char **argv, bool add,
			struct tasks_req *t)
{
	const char *tree = hc_opt(c, OPT_TREE), *thread = hc_opt(c, OPT_THREAD);
	const char *why;
	int i;

	memset(t, 0, sizeof(*t));
	t->all = !add && hc_opt(c, 'a');
	t->cgroup = hc_opt(c, OPT_CGROUP);
	t->vertex = add ? hc_opt(c, 'v') : NULL;
	if (t->vertex && !hc_parse_vertex(t->vertex, &t->v, &why))
		hc_usage(c, "--vertex: '%s' %s", t->vertex, why);
	if (t->all && argc)
		hc_usage(c, "--all takes no PID");
	if (t->all && (tree || thread || t->cgroup))
		hc_usage(c, "--all and --%s do not go together",
			 tree ? "tree" : thread ? "thread" : "cgroup");
	if (tree && thread)
		hc_usage(c, "--tree and --thread do not go together");
	if (t->cgroup && argc)
		hc_usage(c, "--cgroup takes no PID");
	if (t->cgroup && thread)
		hc_usage(c, "--cgroup and --thread do not go together");
	if (!t->all && !t->cgroup && !argc)
		hc_usage(c, add ? "missing PID (or --cgroup PATH)" : "missing PID (or --all)");
	t->unit = tree || t->cgroup ? HCUBE_UNIT_TREE : thread ? HCUBE_UNIT_THREAD : -1;
	t->unit_opt = t->cgroup ? "--cgroup" : tree ? "--tree" : "--thread";
	if (t->cgroup) {
		t->pids = hc_cgroup_pids(c, t->cgroup, &t->n);
		return;
	}
	t->pids = hc_malloc((size_t)argc * sizeof(*t->pids));
	t->words = argv;
	t->n = (size_t)argc;
	for (i = 0; i < argc; i++)
		t->pids[i] = parse_pid(c, argv[i]);
}

/* The request of @t; the offset of each pid in @offs, for the ack. */
static void put_tasks(struct hc_req *r, const struct tasks_req *t, uint32_t *offs)
{
	size_t i;

	if (t->all)
		hc_req_flag(r, HCUBE_A_ALL, "--all");
	for (i = 0; i < t->n; i++) {
		offs[i] = hc_req_next_offs(r);
		if (t->words)
			hc_req_u32(r, HCUBE_A_PID, t->pids[i], "pid %s", t->words[i]);
		else
			hc_req_u32(r, HCUBE_A_PID, t->pids[i], "pid %u", t->pids[i]);
	}
	/* none for a job, the default, so that a module without units works */
	if (t->unit >= 0)
		hc_req_u32(r, HCUBE_A_UNIT, (uint32_t)t->unit, "%s", t->unit_opt);
	if (t->vertex)
		hc_req_u32(r, HCUBE_A_VERTEX_ID, t->v, "vertex %s", t->vertex);
}

/*
 * The pid of @t that the kernel refused as gone: ESRCH (the process
 * exited), or for task del ENOENT (not registered), with the ack pointing
 * at that HCUBE_A_PID. -1 for any other error.
 */
static long gone_pid(const struct hc_ctx *c, const struct tasks_req *t,
		     const struct hc_extack *ext, const uint32_t *offs)
{
	size_t i;

	if (!ext->has_offs || !(ext->error == ESRCH ||
				(c->cmd->nlcmd == HCUBE_CMD_TASK_DEL && ext->error == ENOENT)))
		return -1;
	for (i = 0; i < t->n; i++)
		if (offs[i] == ext->offs)
			return (long)i;
	return -1;
}

/*
 * Send the request of @t. With --cgroup, a process that exits between the
 * read of cgroup.procs and the request makes the kernel refuse it all: that
 * pid is dropped and the request sent again (at most CGROUP_RETRIES times);
 * a line on stderr says how many were.
 */
/* TASK_ADD's reply: the counts, then the task nests. */
static int added_reply(const struct hc_msg *m, void *arg)
{
	struct added *a = arg;

	if (m->tb[HCUBE_A_NREGISTERED]) {
		a->counted = true;
		a->registered += nla_get_u32(m->tb[HCUBE_A_NREGISTERED]);
		if (m->tb[HCUBE_A_NEXITED])
			a->exited += nla_get_u32(m->tb[HCUBE_A_NEXITED]);
		if (m->tb[HCUBE_A_NREFUSED])
			a->refused += nla_get_u32(m->tb[HCUBE_A_NREFUSED]);
	}
	return tasks_reply(m, &a->tasks);
}

static int send_tasks(struct hc_ctx *c, struct tasks_req *t, struct added *added)
{
	uint32_t *offs = hc_malloc(t->n * sizeof(*offs));
	struct hc_extack ext;
	size_t skipped = 0;
	struct hc_req r;
	long k;
	int ret;

	for (;;) {
		hc_req_init(&r, c->cmd->nlcmd, false, t->n * 8 + 64, c->what);
		put_tasks(&r, t, offs);
		ret = hc_req_send(c, &r, added ? added_reply : NULL, added,
				  t->cgroup ? &ext : NULL);
		if (!ret || !t->cgroup)
			break;
		k = gone_pid(c, t, &ext, offs);
		if (k < 0 || t->n == 1 || skipped == CGROUP_RETRIES) {
			hc_req_error(&r, &ext);
			break;
		}
		memmove(&t->pids[k], &t->pids[k + 1], (--t->n - (size_t)k) * sizeof(*t->pids));
		skipped++;
		hc_req_free(&r);
	}
	hc_req_free(&r);
	free(offs);
	if (!ret && skipped) {
		fflush(stdout);
		fprintf(stderr, "hcubectl: %s: --cgroup %s: %zu of its processes %s; skipped\n",
			c->what, t->cgroup, skipped, c->cmd->nlcmd == HCUBE_CMD_TASK_ADD ?
			"exited before the request" : "were not registered or had exited");
	}
	return ret;
}

/* A task the kernel could not register: a line on stderr, status 1. */
static int refused(const struct hc_attrs *t, size_t k)
{
	int32_t e = nla_get_s32(t->tb[HCUBE_A_TASK_ERROR]);
	const char *err = strerror(e < 0 && e != INT32_MIN ? -e : EPROTO);

	fflush(stdout);
	if (t->tb[HCUBE_A_TASK_PID])
		fprintf(stderr, "hcubectl: task add: pid %u: %s\n",
			nla_get_u32(t->tb[HCUBE_A_TASK_PID]), err);
	else
		fprintf(stderr, "hcubectl: task add: task %zu: %s\n", k + 1, err);
	return HC_EXIT_ERROR;
}

static int task_add(struct hc_ctx *c, int argc, char **argv)
{
	struct added a = { 0 };
	struct tasks_req t;
	size_t k, listed = 0, errors = 0;
	int dim, ret;

	parse_tasks(c, argc, argv, true, &t);
	ret = hc_cube_dim(c, &dim);
	if (!ret)
		ret = send_tasks(c, &t, &a);
	if (ret)
		goto out;

	/*
	 * The reply counts the tasks and lists those the pids name; a thread
	 * or descendant the kernel could not register comes as a nest with
	 * its HCUBE_A_TASK_PID and HCUBE_A_TASK_ERROR (the others stay
	 * registered).
	 */
	print_begin(false);
	open_json_object(NULL);
	if (a.counted) {
		print_uint(PRINT_JSON, "registered", NULL, a.registered);
		print_uint(PRINT_JSON, "exited", NULL, a.exited);
		print_uint(PRINT_JSON, "refused", NULL, a.refused);
	}
	open_json_array("tasks");
	for (k = 0; k < a.tasks.n; k++) {
		if (a.tasks.v[k].tb[HCUBE_A_TASK_ERROR] && !is_json()) {
			ret = refused(&a.tasks.v[k], k);
			continue;
		}
		open_json_object(NULL);
		print_fp("registered ");
		print_task(a.tasks.v[k].tb, dim, 0);
		print_fp("\n");
		close_json_object();
		listed++;
	}
	for (k = 0; k < a.tasks.n; k++)
		errors += !!a.tasks.v[k].tb[HCUBE_A_TASK_ERROR];
	close_json_array();
	close_json_object();
	if (a.counted && a.registered > listed)
		print_fp("registered %u tasks in all: 'hcubectl task list' lists them\n",
			 a.registered);
	if (a.counted && a.exited)
		print_fp("left out %u threads or descendants that exited meanwhile\n",
			 a.exited);
	if (!a.counted && !a.tasks.n)
		print_fp("registered (the kernel sent no details: see 'hcubectl task list')\n");
	print_end();
	for (k = 0; k < a.tasks.n && hc_opts.json; k++)	/* -j: after the object */
		if (a.tasks.v[k].tb[HCUBE_A_TASK_ERROR])
			ret = refused(&a.tasks.v[k], k);
	if (a.counted && a.refused > errors) {
		/* more than the reply lists */
		fflush(stdout);
		fprintf(stderr, "hcubectl: task add: %u threads or descendants could not be registered\n",
			a.refused);
		ret = HC_EXIT_ERROR;
	}
out:
	hc_attrs_list_free(&a.tasks);
	free(t.pids);
	return ret;
}

static int task_del(struct hc_ctx *c, int argc, char **argv)
{
	struct tasks_req t;
	int ret;

	parse_tasks(c, argc, argv, false, &t);
	ret = send_tasks(c, &t, NULL);
	free(t.pids);
	return ret;
}

/* A cell of the table: an attribute's value, or "-". */
static const char *cell(char *buf, size_t size, const struct nlattr *a,
			const char *const *names, unsigned int n)
{
	if (!a)
		return "-";
	if (names)
		return hc_name(names, n, nla_get_u32(a), buf, size);
	snprintf(buf, size, "%u", nla_get_u32(a));
	return buf;
}

static int task_list(struct hc_ctx *c, int argc, char **argv)
{
	static const char *const header[] = {
		"PID", "TGID", "COMM", "VERTEX", "STATE", "ORIGIN", "UNIT", "CREATOR",
		"CPUS", "ORIG CPUS",
	};
	static const char *const header_old[] = {
		"PID", "TGID", "COMM", "VERTEX", "STATE", "CPUS", "ORIG CPUS",
	};
	struct hc_attrs_list tasks = { 0 };
	bool units = false;
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

	/* How each task was added: columns when the module says (units). */
	for (k = 0; k < tasks.n; k++)
		units |= tasks.v[k].tb[HCUBE_A_TASK_ORIGIN] || tasks.v[k].tb[HCUBE_A_TASK_UNIT] ||
			 tasks.v[k].tb[HCUBE_A_TASK_CREATOR];
	if (units)
		hc_table_init(&t, 10, "rrllllllll", header);
	else
		hc_table_init(&t, 7, "rrlllll", header_old);
	print_begin(false);
	open_json_array(NULL);
	for (k = 0; k < tasks.n; k++) {
		struct nlattr **tb = tasks.v[k].tb;
		char pid[16] = "?", tgid[16] = "?", lb[HC_LABEL_MAX] = "?", num[16];
		char origin[16], unit[16], creator[16];
		char *comm = tb[HCUBE_A_TASK_COMM] ? hc_attr_str(tb[HCUBE_A_TASK_COMM]) :
			     strdup("");
		char *cpus = tb[HCUBE_A_TASK_CPUS] ? hc_attr_str(tb[HCUBE_A_TASK_CPUS]) :
			     strdup("");
		char *orig = tb[HCUBE_A_TASK_ORIG_CPUS] ? hc_attr_str(tb[HCUBE_A_TASK_ORIG_CPUS]) :
			     strdup("");
		const char *state = "?";
		const char *cells[10];

		if (is_json()) {	/* text: the table */
			open_json_object(NULL);
			print_task(tb, dim, HC_TASK_UNITS);
			close_json_object();
		}
		if (tb[HCUBE_A_TASK_PID])
			snprintf(pid, sizeof(pid), "%u", nla_get_u32(tb[HCUBE_A_TASK_PID]));
		if (tb[HCUBE_A_TASK_TGID])
			snprintf(tgid, sizeof(tgid), "%u", nla_get_u32(tb[HCUBE_A_TASK_TGID]));
		if (tb[HCUBE_A_TASK_VERTEX])
			hc_label(lb, dim, nla_get_u32(tb[HCUBE_A_TASK_VERTEX]));
		if (tb[HCUBE_A_TASK_STATE])
			state = HC_NAME(hc_task_state_names, nla_get_u32(tb[HCUBE_A_TASK_STATE]),
					num);
		cells[0] = pid;
		cells[1] = tgid;
		cells[2] = comm;
		cells[3] = lb;
		cells[4] = state;
		if (units) {
			cells[5] = cell(origin, sizeof(origin), tb[HCUBE_A_TASK_ORIGIN],
					hc_reason_names, ARRAY_SIZE(hc_reason_names));
			cells[6] = cell(unit, sizeof(unit), tb[HCUBE_A_TASK_UNIT], hc_unit_names,
					ARRAY_SIZE(hc_unit_names));
			cells[7] = cell(creator, sizeof(creator), tb[HCUBE_A_TASK_CREATOR],
					NULL, 0);
		}
		cells[units ? 8 : 5] = *cpus ? cpus : "-";
		cells[units ? 9 : 6] = *orig ? orig : "-";
		hc_table_rowv(&t, cells);
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
	{ "tree", OPT_TREE, NULL, "each process and its descendants that exist now" },
	{ "thread", OPT_THREAD, NULL,
	  "that one thread only: the threads and children it creates are not registered" },
	{ "cgroup", OPT_CGROUP, "PATH",
	  "every process of the cgroup v2 directory PATH (its cgroup.procs), each with "
	  "its descendants (--tree); PATH absolute, or relative to the cgroup2 mount" },
	{ "vertex", 'v', "V", "place them on vertex V (decimal id, or binary label with a "
	  "0b prefix: 0b0101) instead of letting hcube choose" },
	{ 0 },
};

static const struct hc_opt del_opts[] = {
	{ "tree", OPT_TREE, NULL, "each process and its registered descendants" },
	{ "thread", OPT_THREAD, NULL, "that one thread only" },
	{ "cgroup", OPT_CGROUP, "PATH", "every process of the cgroup v2 directory PATH, "
	  "with its descendants" },
	{ "all", 'a', NULL, "every registered task" },
	{ 0 },
};

static const struct hc_cmd task_subs[] = {
	{
		.name = "add",
		.args = "PID... [--tree | --thread] [--vertex V]\n--cgroup PATH [--vertex V]",
		.help =
		"Registers the processes PID... (in this pid namespace). A process is\n"
		"registered as a job: all its threads, and the threads and child\n"
		"processes it (or a registered descendant) creates later join it on\n"
		"their creator's vertex. Prints each task a PID names and its vertex,\n"
		"then how many tasks were registered in all (and threads or descendants\n"
		"that exited meanwhile, left out); -j prints {\"registered\", \"exited\",\n"
		"\"refused\", \"tasks\": [{\"pid\", \"vertex\", \"label\", ...}]}. A thread\n"
		"or descendant the kernel could not register is a task with \"error\"\n"
		"(and a line on stderr, exit status 1); the others stay registered. With\n"
		"--cgroup, a process that exits before the request is left out (a line\n"
		"on stderr counts them). Needs CAP_NET_ADMIN.\n",
		.opts = add_opts,
		.nlcmd = HCUBE_CMD_TASK_ADD,
		.flags = HC_ARGS,
		.handler = task_add,
	},
	{
		.name = "del",
		.alias = "delete",
		.args = "PID... [--tree | --thread]\n--cgroup PATH\n--all",
		.help =
		"Unregisters the processes PID... (each with all its threads), or with\n"
		"--all every registered task; their affinity is given back. With\n"
		"--cgroup, a process that is not registered (or exited) is left out.\n"
		"Prints nothing (-j: {}). Needs CAP_NET_ADMIN.\n",
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
		"changed when someone else changed its affinity), how it was added\n"
		"(origin: admin, or fork and thread for the children and threads of a\n"
		"registered job), its unit (job, or thread) and its creator's pid,\n"
		"current CPUs and the CPUs it had when it was registered (the origin,\n"
		"unit and creator columns when the module reports them). -j prints a\n"
		"JSON list of objects with the keys pid, tgid, comm, vertex, label,\n"
		"state, cpus, orig_cpus, and origin, unit, creator (null when absent).\n",
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
