// SPDX-License-Identifier: GPL-2.0
/*
 * The fake kernel's cube (the environment describes it; fakekernel.c says
 * how): its vertices with their states, CPUs and loads, the fault marks,
 * the topology the project's core builds from them, and HCUBE_FAKE_STATE,
 * the file that keeps the mode, the marks and the settings between runs.
 * The commands on it: CUBE_GET, VERTEX_GET, FAULT_ADD/DEL and TOPO_SET,
 * answered and checked as the module does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fake.h"

struct fake_cube cube;

static const u32 ex2_loads[16] = { 6, 2, 4, 20, 4, 0, 0, 10, 0, 10, 0, 5, 15, 12, 14, 18 };

size_t parse_list(const char *s, u32 *out, size_t cap)
{
	size_t n = 0;

	while (s && *s && n < cap) {
		char *end;

		out[n++] = (u32)strtoul(s, &end, 10);
		s = *end == ',' ? end + 1 : end;
		if (!*end)
			break;
	}
	return n;
}

/*
 * A vertex's state from the marks: faulty when it is marked or all its CPUs
 * are (and it has CPUs), else what the environment says.
 */
static u32 vstate_of(u32 v)
{
	bool all = cube.env_state[v] != HCUBE_VERTEX_ABSENT;
	u32 i;

	for (i = 0; i < CPUS_PER_VERTEX; i++)
		all = all && cube.cpu_faulty[v * CPUS_PER_VERTEX + i];
	return cube.marked[v] || all ? HCUBE_VERTEX_FAULTY : cube.env_state[v];
}

/* The core's state of a vertex in the uAPI's state @vstate. */
static u8 core_state_of(u32 vstate)
{
	return vstate == HCUBE_VERTEX_HEALTHY ? HCUBE_V_HEALTHY :
	       vstate == HCUBE_VERTEX_OFFLINE ? HCUBE_V_OFFLINE :
	       vstate == HCUBE_VERTEX_ABSENT ? HCUBE_V_ABSENT : HCUBE_V_FAULTY;
}

/* A state file's list ("cpus 3,4": @s " 3,4") into @set, @n entries. */
static void load_set(const char *s, bool *set, u32 n)
{
	u32 list[1024];
	size_t nl, i;

	nl = parse_list(*s ? s + 1 : "", list, 1024);
	memset(set, 0, n * sizeof(*set));
	for (i = 0; i < nl; i++)
		if (list[i] < n)
			set[list[i]] = true;
}

/* "cpus 3,4" (@name, then the members of @set, @n entries), "cpus" when none. */
static void save_set(FILE *f, const char *name, const bool *set, u32 n)
{
	const char *sep = " ";
	u32 i;

	fprintf(f, "%s", name);
	for (i = 0; i < n; i++)
		if (set[i]) {
			fprintf(f, "%s%u", sep, i);
			sep = ",";
		}
	fprintf(f, "\n");
}

/* HCUBE_FAKE_STATE: "mode M", "cpus C,C", "marked V,V", "config P A T C". */
static void state_load(void)
{
	const char *path = getenv("HCUBE_FAKE_STATE");
	char line[8192];
	FILE *f;
	u32 v;

	if (!path)
		return;
	f = real_fopen ? real_fopen(path, "r") : NULL;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "mode ", 5)) {
			cube.mode = (u32)atoi(line + 5);
		} else if (!strncmp(line, "cpus", 4)) {
			load_set(line + 4, cube.cpu_faulty, FAKE_NR_CPU_IDS);
		} else if (!strncmp(line, "marked", 6)) {
			load_set(line + 6, cube.marked, cube.n);
		} else if (!strncmp(line, "config ", 7)) {
			sscanf(line + 7, "%u %u %u %u %u %u %u", &cube.cfg[0], &cube.cfg[1],
			       &cube.cfg[2], &cube.cfg[3], &cube.cfg[4], &cube.cfg[5],
			       &cube.cfg[6]);
		}
	}
	fclose(f);
	for (v = 0; v < cube.n; v++)
		cube.vstate[v] = vstate_of(v);
}

void state_save(void)
{
	const char *path = getenv("HCUBE_FAKE_STATE");
	FILE *f;

	if (!path)
		return;
	f = real_fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "mode %u\n", cube.mode);
	save_set(f, "cpus", cube.cpu_faulty, FAKE_NR_CPU_IDS);
	save_set(f, "marked", cube.marked, cube.n);
	fprintf(f, "config %u %u %u %u %u %u %u\n", cube.cfg[0], cube.cfg[1], cube.cfg[2],
		cube.cfg[3], cube.cfg[4], cube.cfg[5], cube.cfg[6]);
	fclose(f);
}

/*
 * The vertices' states the environment gives: HCUBE_FAKE_FAULTY (default
 * for dim 4: 5 marked faulty, 6 all CPUs faulty, 8 offline, 10 absent),
 * HCUBE_FAKE_OFFLINE, HCUBE_FAKE_ISOLATED; then what stays when the marks
 * are gone (env_state).
 */
static void env_states(void)
{
	const char *s = getenv("HCUBE_FAKE_FAULTY");
	u32 v, i, list[1024];
	size_t nl;

	if (!s && cube.dim == 4) {
		cube.vstate[5] = HCUBE_VERTEX_FAULTY;
		cube.marked[5] = true;
		cube.vstate[6] = HCUBE_VERTEX_FAULTY;
		cube.vstate[8] = HCUBE_VERTEX_OFFLINE;
		cube.vstate[10] = HCUBE_VERTEX_ABSENT;
	} else {
		nl = parse_list(s, list, 1024);
		for (i = 0; i < nl; i++)
			if (list[i] < cube.n) {
				cube.vstate[list[i]] = HCUBE_VERTEX_FAULTY;
				cube.marked[list[i]] = true;
			}
	}
	/* vertices offline (all their CPUs), which no file can know of */
	s = getenv("HCUBE_FAKE_OFFLINE");
	nl = s ? parse_list(s, list, 1024) : 0;
	for (i = 0; i < nl; i++)
		if (list[i] < cube.n)
			cube.vstate[list[i]] = HCUBE_VERTEX_OFFLINE;
	s = getenv("HCUBE_FAKE_ISOLATED");
	nl = s ? parse_list(s, list, 1024) : 0;
	for (i = 0; i < nl; i++)
		if (list[i] < cube.n * CPUS_PER_VERTEX)
			cube.cpu_isolated[list[i]] = true;
	for (v = 0; v < cube.n; v++)
		if (cube.vstate[v] == HCUBE_VERTEX_HEALTHY &&
		    cube.cpu_isolated[v * CPUS_PER_VERTEX] &&
		    cube.cpu_isolated[v * CPUS_PER_VERTEX + 1])
			cube.vstate[v] = HCUBE_VERTEX_ISOLATED;
	for (v = 0; v < cube.n; v++) {
		/* a faulty vertex not marked: all its CPUs are faulty */
		if (cube.vstate[v] == HCUBE_VERTEX_FAULTY && !cube.marked[v]) {
			cube.cpu_faulty[v * CPUS_PER_VERTEX] = true;
			cube.cpu_faulty[v * CPUS_PER_VERTEX + 1] = true;
		}
		cube.env_state[v] = cube.vstate[v] == HCUBE_VERTEX_FAULTY ?
				    HCUBE_VERTEX_HEALTHY : cube.vstate[v];
	}
}

/* HCUBE_FAKE_LOADS, else Example 2's for dim 4, else pseudo-random; 0 off the healthy. */
static void env_loads(void)
{
	const char *s = getenv("HCUBE_FAKE_LOADS");
	unsigned int seed = 7;
	u32 v;

	if (s) {
		parse_list(s, cube.load, cube.n);
	} else {
		for (v = 0; v < cube.n; v++)
			cube.load[v] = cube.dim == 4 ? ex2_loads[v] :
				       (u32)(rand_r(&seed) % 50);
	}
	for (v = 0; v < cube.n; v++)
		if (cube.core_state[v] != HCUBE_V_HEALTHY)
			cube.load[v] = 0;
}

void cube_init(void)
{
	const char *s;
	u32 v;

	if (cube.ready)
		return;
	s = getenv("HCUBE_FAKE_DIM");
	cube.dim = s ? (u32)atoi(s) : 4;
	if (cube.dim > HCUBE_MAX_DIM)
		cube.dim = HCUBE_MAX_DIM;
	cube.n = 1U << cube.dim;
	cube.core_state = calloc(cube.n, 1);
	cube.vstate = calloc(cube.n, sizeof(u32));
	cube.marked = calloc(cube.n, sizeof(bool));
	cube.load = calloc(cube.n, sizeof(u32));
	cube.cpu_faulty = calloc(FAKE_NR_CPU_IDS, sizeof(bool));
	cube.cpu_isolated = calloc(FAKE_NR_CPU_IDS, sizeof(bool));
	cube.cpu_mce = calloc(FAKE_NR_CPU_IDS, sizeof(bool));
	cube.env_state = calloc(cube.n, sizeof(u32));
	env_states();
	cube.mode = HCUBE_MODE_LLC;
	cube.cfg[0] = HCUBE_POLICY_DEM;
	cube.cfg[1] = 1;
	cube.cfg[2] = 3;
	cube.cfg[3] = 250;
	cube.cfg[5] = 86400;
	state_load();
	/* CPUs a machine check marked: faulty, their vertex faulty when all are */
	s = getenv("HCUBE_FAKE_MCE");
	if (s) {
		u32 list[1024];
		size_t nl = parse_list(s, list, 1024), i;

		cube.cpu_info = true;
		for (i = 0; i < nl; i++)
			if (list[i] < cube.n * CPUS_PER_VERTEX)
				cube.cpu_mce[list[i]] = cube.cpu_faulty[list[i]] = true;
		for (v = 0; v < cube.n; v++)
			cube.vstate[v] = vstate_of(v);
	}
	for (v = 0; v < cube.n; v++)
		cube.core_state[v] = core_state_of(cube.vstate[v]);
	env_loads();

	/* as the module: the initial election, lowest healthy label */
	cube.ctrl = malloc((1U << cube.dim) * sizeof(uint16_t));
	for (v = 0; v < cube.n; v++)
		cube.ctrl[v] = HCUBE_VERTEX_NONE;
	hcube_pebble_elect(cube.dim, hcube_pebble_cdim(cube.dim), cube.core_state,
			   cube.ctrl);
	cube.topo_mem = malloc(hcube_topo_memsize(cube.dim));
	cube.work = malloc(hcube_work_memsize(cube.dim));
	if (hcube_topo_init(&cube.topo, cube.dim, cube.topo_mem) ||
	    hcube_topo_build(&cube.topo, cube.dim, cube.core_state, cube.work))
		fprintf(stderr, "fake kernel: no topology for this cube\n");
	hcube_cpu_ids.max = FAKE_NR_CPU_IDS - 1;	/* as hcube_nl_init() */
	cube.ready = true;
}

bool usable(u32 v)
{
	return cube.vstate[v] == HCUBE_VERTEX_HEALTHY;
}

/* HCUBE_FAKE_STATE: the states and the topology after a change; saved. */
static void cube_refresh(void)
{
	u32 v;

	for (v = 0; v < cube.n; v++) {
		cube.vstate[v] = vstate_of(v);
		cube.core_state[v] = core_state_of(cube.vstate[v]);
		if (!usable(v))
			cube.load[v] = 0;
	}
	hcube_topo_build(&cube.topo, cube.dim, cube.core_state, cube.work);
	state_save();
}

/* Would a vertex stay healthy with CPU @cpu (or vertex @vx) marked too? */
static bool any_healthy_with(int cpu, int vx)
{
	u32 v, i;

	for (v = 0; v < cube.n; v++) {
		bool all = true;

		if (cube.env_state[v] != HCUBE_VERTEX_HEALTHY || cube.marked[v] || (int)v == vx)
			continue;
		for (i = v * CPUS_PER_VERTEX; i < (v + 1) * CPUS_PER_VERTEX; i++)
			all = all && (cube.cpu_faulty[i] || (int)i == cpu);
		if (!all)
			return true;
	}
	return false;
}

void put_pattern(struct mb *b, uint16_t type)
{
	char pat[HCUBE_MAX_DIM + 2];

	put_str(b, type, hcube_pattern(pat, cube.dim, cube.topo.cb_base, cube.topo.cb_mask));
}

void put_summary(struct mb *b)
{
	put_u32(b, HCUBE_A_MODE, cube.mode);
	put_u32(b, HCUBE_A_DIM, cube.dim);
	put_u32(b, HCUBE_A_NVERTICES, cube.n);
	put_u32(b, HCUBE_A_NHEALTHY, cube.topo.nhealthy);
	put_u32(b, HCUBE_A_NATTACHED, cube.topo.nattached);
	put_u32(b, HCUBE_A_NTASKS, 4);
	put_u32(b, HCUBE_A_CB_BASE, cube.topo.cb_base);
	put_u32(b, HCUBE_A_CB_MASK, cube.topo.cb_mask);
	put_pattern(b, HCUBE_A_CB_PATTERN);
	put_u32(b, HCUBE_A_TREE_DEPTH, cube.topo.depth);
	put_u32(b, HCUBE_A_GENERATION, 42);
	put_u32(b, HCUBE_A_CLUSTER_DIM, hcube_pebble_cdim(cube.dim));
	put_attr(b, HCUBE_A_CONTROLLERS, cube.ctrl,
		 (1U << (cube.dim - hcube_pebble_cdim(cube.dim))) * sizeof(uint16_t));
}

void cpus_of(u32 v, char *buf, size_t size)
{
	snprintf(buf, size, "%u-%u", v * CPUS_PER_VERTEX, v * CPUS_PER_VERTEX + 1);
}

/* The CPUs of vertex @v (CPUS_PER_VERTEX is 2) in @set: "a-b", "a", "b" or "". */
static void cpus_in(u32 v, const bool *set, char *buf, size_t size)
{
	u32 c0 = v * CPUS_PER_VERTEX;

	if (set[c0] && set[c0 + 1])
		snprintf(buf, size, "%u-%u", c0, c0 + 1);
	else if (set[c0] || set[c0 + 1])
		snprintf(buf, size, "%u", c0 + !set[c0]);
	else
		buf[0] = '\0';
}

/*
 * As the module: a CPU_INFO nest for each CPU of @v that is faulty or
 * offline, with what marked it; those of machine checks with 3 records.
 */
static void put_cpu_info(struct mb *b, u32 v)
{
	u32 c;

	for (c = v * CPUS_PER_VERTEX; c < (v + 1) * CPUS_PER_VERTEX; c++) {
		bool off = cube.vstate[v] == HCUBE_VERTEX_OFFLINE;
		size_t n;

		if (!cube.cpu_faulty[c] && !off)
			continue;
		n = nest_begin(b, HCUBE_A_VERTEX_INFO_CPU_INFO | NLA_F_NESTED);
		put_u32(b, HCUBE_A_CPU_INFO_CPU, c);
		put_u32(b, HCUBE_A_CPU_INFO_MARKED_BY, cube.cpu_mce[c] ? HCUBE_REASON_MCE :
			cube.cpu_faulty[c] ? HCUBE_REASON_ADMIN : HCUBE_REASON_HOTPLUG);
		if (cube.cpu_mce[c]) {
			put_u64(b, HCUBE_A_CPU_INFO_MCE_RECORDS, 3, HCUBE_A_CPU_INFO_PAD);
			put_u32(b, HCUBE_A_CPU_INFO_MCE_COUNT, 3);
			put_u32(b, HCUBE_A_CPU_INFO_MCE_WINDOW, 60);
		}
		nest_end(b, n);
	}
}

static void put_vertex(struct mb *b, u32 v)
{
	size_t n = nest_begin(b, HCUBE_A_VERTEX | NLA_F_NESTED);
	char cpus[32];

	cpus_of(v, cpus, sizeof(cpus));
	put_u32(b, HCUBE_A_VERTEX_INFO_ID, v);
	put_u32(b, HCUBE_A_VERTEX_INFO_STATE, cube.vstate[v]);
	if (cube.vstate[v] != HCUBE_VERTEX_ABSENT) {
		put_str(b, HCUBE_A_VERTEX_INFO_CPUS, cpus);
		u32 c0 = v * CPUS_PER_VERTEX;
		char faulty[32], isolated[32], use[32] = "";

		cpus_in(v, cube.cpu_faulty, faulty, sizeof(faulty));
		cpus_in(v, cube.cpu_isolated, isolated, sizeof(isolated));
		/* a healthy vertex has one isolated CPU at most */
		if (usable(v))
			snprintf(use, sizeof(use), "%s", cpus);
		if (usable(v) && *isolated)
			snprintf(use, sizeof(use), "%u", cube.cpu_isolated[c0] ? c0 + 1 : c0);
		put_str(b, HCUBE_A_VERTEX_INFO_USABLE_CPUS, use);
		put_str(b, HCUBE_A_VERTEX_INFO_FAULTY_CPUS, faulty);
		put_str(b, HCUBE_A_VERTEX_INFO_OFFLINE_CPUS,
			cube.vstate[v] == HCUBE_VERTEX_OFFLINE ? cpus : "");
		put_str(b, HCUBE_A_VERTEX_INFO_ISOLATED_CPUS, isolated);
		if (cube.cpu_info)
			put_cpu_info(b, v);
	}
	put_u32(b, HCUBE_A_VERTEX_INFO_LOAD, cube.load[v]);
	if (cube.topo.dist[v] == 0 && usable(v))
		put_attr(b, HCUBE_A_VERTEX_INFO_IN_CB, NULL, 0);
	put_attr(b, HCUBE_A_VERTEX_INFO_PARENT, &(int32_t){ cube.topo.parent[v] }, 4);
	if (cube.topo.dist[v] != HCUBE_DIST_NONE)
		put_u32(b, HCUBE_A_VERTEX_INFO_DIST, cube.topo.dist[v]);
	put_u32(b, HCUBE_A_VERTEX_INFO_OMEGA, cube.topo.omega[v]);
	if (usable(v) && cube.topo.dist[v] == HCUBE_DIST_NONE)
		put_attr(b, HCUBE_A_VERTEX_INFO_DETACHED, NULL, 0);
	if (cube.marked[v])
		put_attr(b, HCUBE_A_VERTEX_INFO_MARKED, NULL, 0);
	if (cube.ctrl[v >> hcube_pebble_cdim(cube.dim)] == v)
		put_attr(b, HCUBE_A_VERTEX_INFO_CONTROLLER, NULL, 0);
	nest_end(b, n);
}

void do_cube_get(const struct req *r)
{
	struct mb b = { 0 };

	reply_begin(&b, r, 0);
	put_summary(&b);
	msg_end_queue(&b);
	free(b.d);
	queue_ack(r->nlh);
}

/* One vertex, or all of them in a dump (also a dump of the one it names). */
void do_vertex_get(const struct req *r)
{
	const struct nlattr *va = r->a[HCUBE_A_VERTEX_ID];
	bool dump = r->nlh->nlmsg_flags & NLM_F_DUMP;
	struct mb b = { 0 };
	u32 v;

	if (va && !check_vertex(r, va))
		return;
	if (!va && !dump)
		return;
	for (v = va ? get_u32(va) : 0; v < (va ? get_u32(va) + 1 : cube.n); v++) {
		reply_begin(&b, r, dump ? NLM_F_MULTI : 0);
		put_vertex(&b, v);
		msg_end_queue(&b);
	}
	free(b.d);
	if (dump)
		queue_done(r->nlh);
	else
		queue_ack(r->nlh);
}

u32 healthy_vertex(u32 k)
{
	u32 v, seen = 0;

	for (;;)
		for (v = 0; v < cube.n; v++)
			if (usable(v) && seen++ == k)
				return v;
}

bool check_vertex(const struct req *r, const struct nlattr *a)
{
	if (get_u32(a) >= cube.n)
		return fail(r, ERANGE, HCUBE_ERR_VERTEX_RANGE, a, true, 0, cube.n - 1);
	return true;
}

/* HCUBE_FAKE_STATE: the mark of @cpu or @v added or cleared, as hcube_fault_change(). */
static bool fault_change(const struct req *r, const struct nlattr *cpu, const struct nlattr *v)
{
	bool add = r->cmd == HCUBE_CMD_FAULT_ADD, was;
	const struct nlattr *at = cpu ? cpu : v;
	u32 id = get_u32(at);

	if (!cpu && cube.env_state[id] == HCUBE_VERTEX_ABSENT)
		return fail(r, EINVAL, HCUBE_ERR_VERTEX_ABSENT, v, false, 0, 0);
	was = cpu ? cube.cpu_faulty[id] : cube.marked[id];
	if (add && was)
		return fail(r, EEXIST, cpu ? HCUBE_ERR_CPU_MARKED : HCUBE_ERR_VERTEX_MARKED, at,
			    false, 0, 0);
	if (!add && !was)
		return fail(r, ENOENT, cpu ? HCUBE_ERR_CPU_UNMARKED : HCUBE_ERR_VERTEX_UNMARKED,
			    at, false, 0, 0);
	if (add && !any_healthy_with(cpu ? (int)id : -1, cpu ? -1 : (int)id))
		return fail(r, EBUSY, cpu ? HCUBE_ERR_CPU_LAST : HCUBE_ERR_VERTEX_LAST, at, false,
			    0, 0);
	if (cpu)
		cube.cpu_faulty[id] = add;
	else
		cube.marked[id] = add;
	cube_refresh();
	return true;
}

void do_fault(const struct req *r)
{
	const struct nlattr *cpu = r->a[HCUBE_A_CPU], *v = r->a[HCUBE_A_VERTEX_ID];

	if (!cpu == !v) {
		fail(r, EINVAL, cpu ? HCUBE_ERR_CPU_AND_VERTEX : HCUBE_ERR_CPU_OR_VERTEX,
		     cpu ? v : NULL, false, 0, 0);
		return;
	}
	/* the policy checked the range of CPU ids; presence: -ENODEV */
	if (cpu && get_u32(cpu) >= cube.n * CPUS_PER_VERTEX) {
		fail(r, ENODEV, HCUBE_ERR_CPU_ABSENT, cpu, false, 0, 0);
		return;
	}
	if (v && !check_vertex(r, v))
		return;
	if (getenv("HCUBE_FAKE_STATE") && !fault_change(r, cpu, v))
		return;
	queue_ack(r->nlh);
}

/*
 * A cpulist ("0-3,8", "0-7:2/4") into @cpus (FAKE_NR_CPU_IDS entries):
 * false if it is not one, or names a CPU past nr_cpu_ids.
 */
static bool parse_cpulist(const char *s, bool *cpus)
{
	while (*s) {
		unsigned long a, b, used = 1, group = 1, c;
		char *end;

		if (*s < '0' || *s > '9')
			return false;
		a = b = strtoul(s, &end, 10);
		if (*end == '-') {
			b = strtoul(end + 1, &end, 10);
			if (*end == ':') {
				used = strtoul(end + 1, &end, 10);
				if (*end++ != '/')
					return false;
				group = strtoul(end, &end, 10);
				if (!used || !group || used > group)
					return false;
			}
		}
		if (b < a || b >= FAKE_NR_CPU_IDS)
			return false;
		for (c = a; c <= b; c++)
			if ((c - a) % group < used)
				cpus[c] = true;
		if (*end == ',')
			end++;
		else if (*end)
			return false;
		s = end;
	}
	return true;
}

/* Mode custom as the module checks it: non-empty, present, disjoint groups. */
static bool check_groups(const struct req *r)
{
	bool *all = calloc(FAKE_NR_CPU_IDS, 1), *g = calloc(FAKE_NR_CPU_IDS, 1);
	const char *msg = NULL;
	const struct nlattr *bad = NULL;
	u32 i, c, n;

	for (i = 0; i < r->ngroups && !msg; i++) {
		bad = r->groups[i];
		memset(g, 0, FAKE_NR_CPU_IDS);
		if (!parse_cpulist((const char *)bad + NLA_HDRLEN, g)) {
			msg = HCUBE_ERR_GROUP_CPULIST;
			break;
		}
		for (c = n = 0; c < FAKE_NR_CPU_IDS; c++)
			n += g[c];
		if (!n)
			msg = HCUBE_ERR_GROUP_EMPTY;
		for (c = 0; c < FAKE_NR_CPU_IDS && !msg; c++) {
			if (g[c] && c >= cube.n * CPUS_PER_VERTEX)
				msg = HCUBE_ERR_GROUP_ABSENT;
			else if (g[c] && all[c])
				msg = HCUBE_ERR_GROUP_OVERLAP;
			all[c] |= g[c];
		}
	}
	free(all);
	free(g);
	if (msg)
		return fail(r, EINVAL, msg, bad, false, 0, 0);
	return true;
}

/* HCUBE_FAKE_STATE: the fake's groups are fixed, custom must give exactly them. */
static bool own_groups(const struct req *r)
{
	static const char msg[] = "fake kernel: custom groups must be its own (2 CPUs per vertex)";
	u32 v;

	for (v = 0; v < r->ngroups; v++) {
		bool g[FAKE_NR_CPU_IDS_MAX] = { 0 };
		u32 c, same = 0, n = 0;

		parse_cpulist((const char *)r->groups[v] + NLA_HDRLEN, g);
		for (c = 0; c < FAKE_NR_CPU_IDS; c++) {
			n += g[c];
			same += g[c] && c / CPUS_PER_VERTEX == v;
		}
		if (v >= cube.n || cube.env_state[v] == HCUBE_VERTEX_ABSENT ||
		    n != CPUS_PER_VERTEX || same != CPUS_PER_VERTEX)
			return fail(r, EINVAL, msg, r->groups[v], false, 0, 0);
	}
	if (r->ngroups != cube.n)
		return fail(r, EINVAL, msg, r->groups[0], false, 0, 0);
	return true;
}

void do_topo_set(const struct req *r)
{
	const struct nlattr *m = r->a[HCUBE_A_MODE];
	u32 mode;

	if (!m) {
		fail_miss(r, HCUBE_ERR_MODE_REQUIRED, HCUBE_A_MODE);
		return;
	}
	mode = get_u32(m);
	if (mode != HCUBE_MODE_CUSTOM && r->ngroups) {
		fail(r, EINVAL, HCUBE_ERR_GROUP_NOT_CUSTOM, r->groups[0], false, 0, 0);
		return;
	}
	if (mode == HCUBE_MODE_CUSTOM && !r->ngroups) {
		fail_miss(r, HCUBE_ERR_GROUP_REQUIRED, HCUBE_A_GROUP);
		return;
	}
	if (mode == HCUBE_MODE_CUSTOM && !check_groups(r))
		return;
	if (getenv("HCUBE_FAKE_STATE")) {
		if (mode == HCUBE_MODE_CUSTOM && !own_groups(r))
			return;
		cube.mode = mode;
		memset(cube.marked, 0, cube.n * sizeof(bool));
		cube_refresh();
	}
	queue_ack(r->nlh);
}

