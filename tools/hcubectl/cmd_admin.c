// SPDX-License-Identifier: GPL-2.0
/* hcubectl fault, topology, config and stats. */
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

static const struct option help_only[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static bool is_help(const char *s)
{
	return !strcmp(s, "--help") || !strcmp(s, "-h") || !strcmp(s, "help");
}

/* Run getopt for --help and unknown options; returns the positionals. */
static char **positionals(int argc, char **argv, const char *cmd,
			  void (*usage)(FILE *f), int *n)
{
	bool first = true;

	while (hc_getopt(argc, argv, cmd, "", help_only, usage, &first) != -1)
		;
	*n = argc - optind;
	return argv + optind;
}

/* ---- fault ---- */

static void fault_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] fault add|del cpu N\n"
	      "       hcubectl [-j] fault add|del vertex V\n"
	      "\n"
	      "Marks a CPU, or a whole vertex, faulty (add) or healthy again (del).\n"
	      "hcube evacuates the registered tasks of a vertex that loses its last\n"
	      "usable CPU and rebuilds the balancing subcube and its trees.\n"
	      "  N  a CPU number\n"
	      "  V  a vertex: decimal id, or binary label with a 0b prefix (0b0101)\n"
	      "Prints nothing (-j: {}). Needs CAP_NET_ADMIN.\n", f);
}

int cmd_fault(int argc, char **argv)
{
	const char *cmd, *why;
	struct hc_nl nl;
	struct hc_req r;
	uint8_t nlcmd;
	uint32_t v;
	char **pos;
	bool cpu;
	int n, ret;

	if (argc < 2)
		hc_usage_error("fault", "missing command (add, del)");
	if (is_help(argv[1])) {
		fault_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "add")) {
		cmd = "fault add";
		nlcmd = HCUBE_CMD_FAULT_ADD;
	} else if (!strcmp(argv[1], "del") || !strcmp(argv[1], "delete")) {
		cmd = "fault del";
		nlcmd = HCUBE_CMD_FAULT_DEL;
	} else {
		hc_usage_error("fault", "unknown command '%s' (add, del)", argv[1]);
	}
	pos = positionals(argc - 1, argv + 1, cmd, fault_usage, &n);
	if (n < 1)
		hc_usage_error(cmd, "missing 'cpu N' or 'vertex V'");
	if (strcmp(pos[0], "cpu") && strcmp(pos[0], "vertex"))
		hc_usage_error(cmd, "'%s' is neither 'cpu' nor 'vertex'", pos[0]);
	cpu = !strcmp(pos[0], "cpu");
	if (n < 2)
		hc_usage_error(cmd, "missing %s", cpu ? "CPU number" : "vertex");
	if (n > 2)
		hc_usage_error(cmd, "unexpected argument '%s'", pos[2]);
	if (cpu && !hc_parse_u32(pos[1], &v))
		hc_usage_error(cmd, "'%s' is not a CPU number", pos[1]);
	if (!cpu && !hc_parse_vertex(pos[1], &v, &why))
		hc_usage_error(cmd, "vertex '%s' %s", pos[1], why);

	hc_nl_open(&nl);
	hc_req_init(&r, &nl, nlcmd, false, 64, cmd);
	if (cpu)
		hc_req_u32(&r, HCUBE_A_CPU, v, "cpu %s", pos[1]);
	else
		hc_req_u32(&r, HCUBE_A_VERTEX_ID, v, "vertex %s", pos[1]);
	ret = hc_req_run(&nl, &r, NULL, NULL);
	hc_req_free(&r);
	hc_nl_close(&nl);
	if (!ret && hc_opts.json)
		hc_json_empty();
	return ret;
}

/* ---- topology ---- */

static void topology_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] topology set cpu|node|llc\n"
	      "       hcubectl [-j] topology set custom CPULIST CPULIST...\n"
	      "\n"
	      "Rebuilds the vertices: one per CPU, per NUMA node or per last-level\n"
	      "cache group; or custom: one CPULIST (like 0-3,8) per vertex, in label\n"
	      "order (the first is vertex 0): 1 to 1024 non-empty, disjoint lists of\n"
	      "present CPUs. With a number of groups that is not a power of two, the\n"
	      "labels past the last group have no CPU group (absent). Only while no\n"
	      "task is registered. Prints nothing (-j: {}). Needs CAP_NET_ADMIN.\n"
	      "'hcubectl show' prints the result.\n", f);
}

int cmd_topology(int argc, char **argv)
{
	const char *why;
	struct hc_nl nl;
	struct hc_req r;
	char **pos;
	size_t size = 64;
	int n, i, mode, ret;

	if (argc < 2)
		hc_usage_error("topology", "missing command (set)");
	if (is_help(argv[1])) {
		topology_usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "set"))
		hc_usage_error("topology", "unknown command '%s' (set)", argv[1]);
	pos = positionals(argc - 1, argv + 1, "topology set", topology_usage, &n);
	if (n < 1)
		hc_usage_error("topology set", "missing mode (cpu, node, llc, custom)");
	mode = hc_mode_parse(pos[0]);
	if (mode < 0)
		hc_usage_error("topology set", "unknown mode '%s' (cpu, node, llc, custom)",
			       pos[0]);
	if (mode != HCUBE_MODE_CUSTOM && n > 1)
		hc_usage_error("topology set", "mode %s takes no CPU list", pos[0]);
	if (mode == HCUBE_MODE_CUSTOM && n < 2)
		hc_usage_error("topology set", "custom needs one CPULIST per vertex");
	if (n - 1 > 1 << HCUBE_MAX_DIM_UAPI)
		hc_usage_error("topology set", "custom takes at most %d CPULISTs",
			       1 << HCUBE_MAX_DIM_UAPI);
	for (i = 1; i < n; i++) {
		if (!pos[i][0])
			hc_usage_error("topology set",
				       "CPULIST %d is empty (every group needs a CPU)", i - 1);
		if (!hc_parse_cpulist(pos[i], &why))
			hc_usage_error("topology set", "CPULIST '%s' %s", pos[i], why);
		size += strlen(pos[i]) + 8;
	}

	hc_nl_open(&nl);
	hc_req_init(&r, &nl, HCUBE_CMD_TOPO_SET, false, size, "topology set");
	hc_req_u32(&r, HCUBE_A_MODE, (uint32_t)mode, "mode %s", pos[0]);
	for (i = 1; i < n; i++)
		hc_req_str(&r, HCUBE_A_GROUP, pos[i], "group %d ('%s')", i - 1, pos[i]);
	ret = hc_req_run(&nl, &r, NULL, NULL);
	hc_req_free(&r);
	hc_nl_close(&nl);
	if (!ret && hc_opts.json)
		hc_json_empty();
	return ret;
}

/* ---- config ---- */

static void config_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] [-p] config show\n"
	      "       hcubectl [-j] config set KEY VALUE [KEY VALUE]...\n"
	      "\n"
	      "Shows or changes the settings of the module:\n"
	      "  policy     P              the policy of automatic and default rebalances:\n"
	      "                            mcwa, dem, cwa, optimal, auto, rid, sid, sbn,\n"
	      "                            sbn-cube, sbn-heur or pebble\n"
	      "  auto       on|off|1|0     rebalance automatically when a healthy vertex's\n"
	      "                            load drops below the threshold\n"
	      "  threshold  N              that load\n"
	      "  cooldown   MS             at most one automatic rebalance per MS ms\n"
	      "  max_tasks  (read-only)    the module parameter max_tasks\n"
	      "The kernel checks the ranges. set prints nothing (-j: {}) and needs\n"
	      "CAP_NET_ADMIN; show -j prints {\"policy\", \"auto\", \"threshold\",\n"
	      "\"cooldown_ms\", \"max_tasks\"}.\n", f);
}

struct config {
	uint32_t has;	/* bit per HCUBE_C_A_* */
	uint32_t policy, threshold, cooldown_ms, max_tasks;
	uint8_t autob;
};

static int config_reply(uint8_t cmd, struct nlattr *attrs, int len, void *arg)
{
	struct nlattr *tb[HCUBE_A_MAX + 1], *ct[HCUBE_C_A_MAX + 1];
	struct config *c = arg;

	(void)cmd;
	hc_parse(tb, HCUBE_A_MAX, attrs, len);
	if (!tb[HCUBE_A_CONFIG])
		return -1;
	hc_parse_nested(ct, HCUBE_C_A_MAX, tb[HCUBE_A_CONFIG]);
	if (hc_get_u32(ct[HCUBE_C_A_POLICY], &c->policy))
		c->has |= 1U << HCUBE_C_A_POLICY;
	if (hc_get_u8(ct[HCUBE_C_A_AUTO], &c->autob))
		c->has |= 1U << HCUBE_C_A_AUTO;
	if (hc_get_u32(ct[HCUBE_C_A_THRESHOLD], &c->threshold))
		c->has |= 1U << HCUBE_C_A_THRESHOLD;
	if (hc_get_u32(ct[HCUBE_C_A_COOLDOWN_MS], &c->cooldown_ms))
		c->has |= 1U << HCUBE_C_A_COOLDOWN_MS;
	if (hc_get_u32(ct[HCUBE_C_A_MAX_TASKS], &c->max_tasks))
		c->has |= 1U << HCUBE_C_A_MAX_TASKS;
	return 0;
}

static int config_show(int argc, char **argv)
{
	struct config c = { 0 };
	struct hc_nl nl;
	char num[16];
	int n, ret;

	positionals(argc, argv, "config show", config_usage, &n);
	if (n)
		hc_usage_error("config show", "unexpected argument '%s'", argv[optind]);
	hc_nl_open(&nl);
	ret = hc_simple_get(&nl, HCUBE_CMD_CONFIG_GET, false, "config show",
			    config_reply, &c);
	hc_nl_close(&nl);
	if (ret)
		return ret;

	if (hc_opts.json) {
		struct json j;

		hc_json_begin(&j);
		json_obj_open(&j, NULL);
		if (HC_HAS(&c, HCUBE_C_A_POLICY))
			json_str(&j, "policy", hc_name_or_num(hc_policy_name(c.policy),
							      c.policy, num, sizeof(num)));
		else
			json_null(&j, "policy");
		if (HC_HAS(&c, HCUBE_C_A_AUTO))
			json_bool(&j, "auto", c.autob);
		else
			json_null(&j, "auto");
		hc_json_u32(&j, "threshold", HC_HAS(&c, HCUBE_C_A_THRESHOLD), c.threshold);
		hc_json_u32(&j, "cooldown_ms", HC_HAS(&c, HCUBE_C_A_COOLDOWN_MS),
			     c.cooldown_ms);
		hc_json_u32(&j, "max_tasks", HC_HAS(&c, HCUBE_C_A_MAX_TASKS), c.max_tasks);
		json_obj_close(&j);
		json_end(&j);
		return 0;
	}
	if (HC_HAS(&c, HCUBE_C_A_POLICY))
		printf("policy     %s\n", hc_name_or_num(hc_policy_name(c.policy),
						       c.policy, num, sizeof(num)));
	if (HC_HAS(&c, HCUBE_C_A_AUTO))
		printf("auto       %s\n", c.autob ? "on" : "off");
	if (HC_HAS(&c, HCUBE_C_A_THRESHOLD))
		printf("threshold  %u\n", c.threshold);
	if (HC_HAS(&c, HCUBE_C_A_COOLDOWN_MS))
		printf("cooldown   %u ms\n", c.cooldown_ms);
	if (HC_HAS(&c, HCUBE_C_A_MAX_TASKS))
		printf("max_tasks  %u\n", c.max_tasks);
	return 0;
}

static int config_set(int argc, char **argv)
{
	const char *cmd = "config set";
	struct nlattr *nest;
	struct hc_nl nl;
	struct hc_req r;
	uint32_t seen = 0, v;
	char **pos;
	int n, i, ret;

	pos = positionals(argc, argv, cmd, config_usage, &n);
	if (!n)
		hc_usage_error(cmd, "missing KEY VALUE");
	/* Check everything before talking to the kernel. */
	for (i = 0; i < n; i += 2) {
		const char *key = pos[i], *val = i + 1 < n ? pos[i + 1] : NULL;
		int bit;

		if (!strcmp(key, "policy"))
			bit = HCUBE_C_A_POLICY;
		else if (!strcmp(key, "auto"))
			bit = HCUBE_C_A_AUTO;
		else if (!strcmp(key, "threshold"))
			bit = HCUBE_C_A_THRESHOLD;
		else if (!strcmp(key, "cooldown") || !strcmp(key, "cooldown_ms"))
			bit = HCUBE_C_A_COOLDOWN_MS;
		else if (!strcmp(key, "max_tasks"))
			hc_usage_error(cmd, "max_tasks is read-only (a module parameter)");
		else
			hc_usage_error(cmd, "unknown key '%s' (policy, auto, threshold, cooldown)",
				       key);
		if (!val)
			hc_usage_error(cmd, "missing value for '%s'", key);
		if (seen & (1U << bit))
			hc_usage_error(cmd, "'%s' given twice", key);
		seen |= 1U << bit;
		if (bit == HCUBE_C_A_POLICY && hc_policy_parse(val) < 0)
			hc_usage_error(cmd, "unknown policy '%s' (%s)", val, HC_POLICY_LIST);
		if (bit == HCUBE_C_A_AUTO && strcmp(val, "on") && strcmp(val, "off") &&
		    strcmp(val, "1") && strcmp(val, "0"))
			hc_usage_error(cmd, "auto: '%s' is not on, off, 1 or 0", val);
		if ((bit == HCUBE_C_A_THRESHOLD || bit == HCUBE_C_A_COOLDOWN_MS) &&
		    !hc_parse_u32(val, &v))
			hc_usage_error(cmd, "%s: '%s' is not a non-negative integer%s",
				       key, val, bit == HCUBE_C_A_COOLDOWN_MS ?
				       " (milliseconds)" : "");
	}

	hc_nl_open(&nl);
	hc_req_init(&r, &nl, HCUBE_CMD_CONFIG_SET, false, 128, cmd);
	nest = hc_req_nest(&r, HCUBE_A_CONFIG, "config");
	for (i = 0; i < n; i += 2) {
		const char *key = pos[i], *val = pos[i + 1];

		if (!strcmp(key, "policy")) {
			hc_req_u32(&r, HCUBE_C_A_POLICY, (uint32_t)hc_policy_parse(val),
				   "policy %s", val);
		} else if (!strcmp(key, "auto")) {
			hc_req_u8(&r, HCUBE_C_A_AUTO,
				  !strcmp(val, "on") || !strcmp(val, "1"), "auto %s", val);
		} else if (!strcmp(key, "threshold")) {
			hc_parse_u32(val, &v);
			hc_req_u32(&r, HCUBE_C_A_THRESHOLD, v, "threshold %s", val);
		} else {
			hc_parse_u32(val, &v);
			hc_req_u32(&r, HCUBE_C_A_COOLDOWN_MS, v, "cooldown %s", val);
		}
	}
	hc_req_nest_end(&r, nest);
	ret = hc_req_run(&nl, &r, NULL, NULL);
	hc_req_free(&r);
	hc_nl_close(&nl);
	if (!ret && hc_opts.json)
		hc_json_empty();
	return ret;
}

int cmd_config(int argc, char **argv)
{
	if (argc < 2)
		hc_usage_error("config", "missing command (show, set)");
	if (is_help(argv[1])) {
		config_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "show"))
		return config_show(argc - 1, argv + 1);
	if (!strcmp(argv[1], "set"))
		return config_set(argc - 1, argv + 1);
	hc_usage_error("config", "unknown command '%s' (show, set)", argv[1]);
}

/* ---- stats ---- */

static void stats_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] [-p] stats\n"
	      "\n"
	      "The module's counters since it was loaded: rebalances (and of those\n"
	      "automatic), dry runs, migrations (task-hops planned), tasks moved, moves\n"
	      "that failed, evacuations, tasks found exited, affinity changes by others,\n"
	      "tasks registered and unregistered, tasks registered now. -j prints one\n"
	      "object: rebalances, auto_rebalances, dry_runs, migrations, moved,\n"
	      "failures, evacuations, exited, changed, registered, unregistered, tasks.\n", f);
}

static const char *const stats_keys[] = {
	[HCUBE_S_A_REBALANCES] = "rebalances",
	[HCUBE_S_A_AUTO_REBALANCES] = "auto_rebalances",
	[HCUBE_S_A_DRY_RUNS] = "dry_runs",
	[HCUBE_S_A_MIGRATIONS] = "migrations",
	[HCUBE_S_A_MOVED] = "moved",
	[HCUBE_S_A_FAILURES] = "failures",
	[HCUBE_S_A_EVACUATIONS] = "evacuations",
	[HCUBE_S_A_EXITED] = "exited",
	[HCUBE_S_A_CHANGED] = "changed",
	[HCUBE_S_A_REGISTERED] = "registered",
	[HCUBE_S_A_UNREGISTERED] = "unregistered",
	[HCUBE_S_A_TASKS] = "tasks",
	[HCUBE_S_A_ADOPTED] = "adopted",
	[HCUBE_S_A_REFUSED] = "refused",
	[HCUBE_S_A_RELEASED] = "released",
	[HCUBE_S_A_EVENTS_LOST] = "events_lost",
};

struct stats {
	uint32_t has;
	uint64_t v[HCUBE_S_A_MAX + 1];
};

static int stats_reply(uint8_t cmd, struct nlattr *attrs, int len, void *arg)
{
	struct nlattr *tb[HCUBE_A_MAX + 1], *st[HCUBE_S_A_MAX + 1];
	struct stats *s = arg;
	int i;

	(void)cmd;
	hc_parse(tb, HCUBE_A_MAX, attrs, len);
	if (!tb[HCUBE_A_STATS])
		return -1;
	hc_parse_nested(st, HCUBE_S_A_MAX, tb[HCUBE_A_STATS]);
	for (i = HCUBE_S_A_PAD + 1; i <= HCUBE_S_A_MAX; i++)
		if (hc_get_u64(st[i], &s->v[i]))
			s->has |= 1U << i;
	return 0;
}

int cmd_stats(int argc, char **argv)
{
	struct stats s = { 0 };
	struct hc_nl nl;
	int n, i, ret;

	positionals(argc, argv, "stats", stats_usage, &n);
	if (n)
		hc_usage_error("stats", "unexpected argument '%s'", argv[optind]);
	hc_nl_open(&nl);
	ret = hc_simple_get(&nl, HCUBE_CMD_STATS_GET, false, "stats", stats_reply, &s);
	hc_nl_close(&nl);
	if (ret)
		return ret;
	if (hc_opts.json) {
		struct json j;

		hc_json_begin(&j);
		json_obj_open(&j, NULL);
		for (i = HCUBE_S_A_PAD + 1; i <= HCUBE_S_A_MAX; i++) {
			if (HC_HAS(&s, i))
				json_uint(&j, stats_keys[i], s.v[i]);
			else
				json_null(&j, stats_keys[i]);
		}
		json_obj_close(&j);
		json_end(&j);
		return 0;
	}
	for (i = HCUBE_S_A_PAD + 1; i <= HCUBE_S_A_MAX; i++)
		if (HC_HAS(&s, i))
			printf("%-16s %llu\n", stats_keys[i], (unsigned long long)s.v[i]);
	return 0;
}
