// SPDX-License-Identifier: GPL-2.0
/*
 * The SPANK plugin's parts that need neither Slurm nor the module, on the
 * host: its arguments and --hcube's values, libhcube's policy names against
 * the core's own table and its CPU lists, the choice of each task's vertex,
 * the helper's credentials (as root), and the module not loaded (the
 * host's kernel has no hcube family).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include "kselftest_harness.h"
#include "hcube_core.h"
#include "hcube_core_ext.h"
#include "hcube_spank.h"

TEST(option_values)
{
	EXPECT_EQ(HS_ON, hs_parse_option(NULL));
	EXPECT_EQ(HS_ON, hs_parse_option(""));
	EXPECT_EQ(HS_ON, hs_parse_option("(null)"));	/* #SBATCH --hcube, in srun */
	EXPECT_EQ(HS_OFF, hs_parse_option("off"));
	EXPECT_EQ(HCUBE_POLICY_MCWA, hs_parse_option("mcwa"));
	EXPECT_EQ(HCUBE_POLICY_DEM, hs_parse_option("dem"));
	EXPECT_EQ(HCUBE_POLICY_PEBBLE, hs_parse_option("pebble"));
	EXPECT_EQ(HS_BAD, hs_parse_option("dme"));
	EXPECT_EQ(HS_BAD, hs_parse_option("DEM"));
	EXPECT_EQ(HS_BAD, hs_parse_option("on"));
}

TEST(plugstack_arguments)
{
	char *none[] = { NULL };
	char *all[] = { "default=dem", "user_policy=yes" };
	char *on[] = { "default" };
	char *bad[] = { "user_policy=yes", "verbose", "default=optimal", "quiet" };
	char *badpolicy[] = { "default=dme" };
	struct hs_conf c;
	char why[512];

	EXPECT_EQ(0, hs_parse_args(0, none, &c, why, sizeof(why)));
	EXPECT_EQ(HS_OFF, c.by_default);
	EXPECT_FALSE(c.user_policy);
	EXPECT_STREQ("", why);

	EXPECT_EQ(0, hs_parse_args(2, all, &c, why, sizeof(why)));
	EXPECT_EQ(HCUBE_POLICY_DEM, c.by_default);
	EXPECT_TRUE(c.user_policy);

	EXPECT_EQ(0, hs_parse_args(1, on, &c, why, sizeof(why)));
	EXPECT_EQ(HS_ON, c.by_default);
	EXPECT_FALSE(c.user_policy);

	/* the words it knows still count; the first unknown one is named */
	EXPECT_EQ(-1, hs_parse_args(4, bad, &c, why, sizeof(why)));
	EXPECT_TRUE(c.user_policy);
	EXPECT_EQ(HCUBE_POLICY_OPTIMAL, c.by_default);
	EXPECT_NE(NULL, strstr(why, "'verbose'"));
	EXPECT_EQ(NULL, strstr(why, "quiet"));

	EXPECT_EQ(-1, hs_parse_args(1, badpolicy, &c, why, sizeof(why)));
	EXPECT_EQ(HS_OFF, c.by_default);
	EXPECT_NE(NULL, strstr(why, "'default=dme'"));
}

/* libhcube's names are the core's: the module and hcubectl use those. */
TEST(policy_names_are_the_cores)
{
	u32 p;

	for (p = 0; p <= HCUBE_POLICY_MAX; p++) {
		ASSERT_NE(NULL, hcl_policy_name(p));
		EXPECT_STREQ(hcube_policy_name(p), hcl_policy_name(p));
		EXPECT_EQ((int)p, hcl_policy_parse(hcube_policy_name(p)));
	}
	EXPECT_EQ(NULL, hcl_policy_name(HCUBE_POLICY_MAX + 1));
	EXPECT_EQ(-1, hcl_policy_parse("none"));
	EXPECT_EQ(0, strncmp(hcl_policy_names(", "), "mcwa, dem, cwa, ", 16));
}

TEST(cpulists)
{
	const char *bad[] = { "a", "1-", "3-1", "1,,2", "1,", ",1", "-1", "1 2", "0x1" };
	char buf[64];
	cpu_set_t s;
	size_t i;

	ASSERT_EQ(0, hcl_cpulist_parse("0-3,8,10-11", &s));
	EXPECT_EQ(7, CPU_COUNT(&s));
	EXPECT_TRUE(CPU_ISSET(3, &s) && CPU_ISSET(8, &s) && CPU_ISSET(11, &s));
	EXPECT_FALSE(CPU_ISSET(9, &s));
	EXPECT_EQ(strlen("0-3,8,10-11"), hcl_cpulist_format(&s, buf, sizeof(buf)));
	EXPECT_STREQ("0-3,8,10-11", buf);

	ASSERT_EQ(0, hcl_cpulist_parse("", &s));	/* a vertex with no usable CPU */
	EXPECT_EQ(0, CPU_COUNT(&s));
	EXPECT_EQ(0, hcl_cpulist_format(&s, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	ASSERT_EQ(0, hcl_cpulist_parse("5\n", &s));	/* as sysfs writes it */
	EXPECT_TRUE(CPU_ISSET(5, &s) && CPU_COUNT(&s) == 1);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *list = bad[i];

		EXPECT_EQ(-EINVAL, hcl_cpulist_parse(list, &s)) TH_LOG("'%s'", list);
	}
	/* past CPU_SETSIZE: said, and the rest kept */
	snprintf(buf, sizeof(buf), "1,%d-%d", CPU_SETSIZE - 1, CPU_SETSIZE + 4);
	EXPECT_EQ(-ERANGE, hcl_cpulist_parse(buf, &s));
	EXPECT_EQ(2, CPU_COUNT(&s));

	/* too small a buffer: cut, NUL-terminated, and the length it needs */
	hcl_cpulist_parse("0-3,8,10-11", &s);
	EXPECT_EQ(11, hcl_cpulist_format(&s, buf, 6));
	EXPECT_STREQ("0-3,8", buf);
}

/* Random sets survive a format and a parse. */
TEST(cpulist_round_trip)
{
	char buf[8192];
	cpu_set_t a, b;
	int i, cpu;

	srandom(27);
	for (i = 0; i < 500; i++) {
		CPU_ZERO(&a);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (random() % 4 == 0 || (i % 2 && cpu % 7 < 3))
				CPU_SET(cpu, &a);
		ASSERT_LT(hcl_cpulist_format(&a, buf, sizeof(buf)), sizeof(buf));
		ASSERT_EQ(0, hcl_cpulist_parse(buf, &b));
		ASSERT_TRUE(CPU_EQUAL(&a, &b));
	}
}

/* @n vertices of @per CPUs each, all healthy, no load. */
static void cube(struct hcl_vertex *v, int n, int per)
{
	int i, c;

	memset(v, 0, (size_t)n * sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].id = (uint32_t)i;
		v[i].state = HCUBE_VERTEX_HEALTHY;
		for (c = 0; c < per; c++) {
			CPU_SET(i * per + c, &v[i].cpus);
			CPU_SET(i * per + c, &v[i].usable);
		}
	}
}

static void task(struct hs_task *t, const char *bound, const char *allowed)
{
	memset(t, 0, sizeof(*t));
	hcl_cpulist_parse(bound, &t->bound);
	hcl_cpulist_parse(allowed, &t->allowed);
	t->vertex = -2;
}

TEST(vertex_of_the_binding)
{
	struct hcl_vertex v[8];
	struct hs_task t[4];

	cube(v, 8, 1);			/* mode cpu: a vertex per CPU */
	task(&t[0], "0", "0-1,4-5");
	task(&t[1], "4", "0-1,4-5");
	task(&t[2], "1", "0-1,4-5");
	task(&t[3], "5", "0-1,4-5");
	hs_choose_vertices(t, 4, v, 8);
	EXPECT_EQ(0, t[0].vertex);
	EXPECT_EQ(4, t[1].vertex);
	EXPECT_EQ(1, t[2].vertex);
	EXPECT_EQ(5, t[3].vertex);

	cube(v, 2, 4);			/* mode node: 0-3, 4-7 */
	task(&t[0], "3-5", "0-7");	/* most of it on vertex 1 */
	task(&t[1], "2", "0-7");
	hs_choose_vertices(t, 2, v, 2);
	EXPECT_EQ(1, t[0].vertex);
	EXPECT_EQ(0, t[1].vertex);
}

TEST(unbound_tasks_are_the_modules)
{
	struct hcl_vertex v[8];
	struct hs_task t[2];

	cube(v, 8, 1);
	task(&t[0], "0-1,4-5", "0-1,4-5");	/* Slurm bound nothing */
	task(&t[1], "0-7", "0-7");
	hs_choose_vertices(t, 2, v, 8);
	EXPECT_EQ(-1, t[0].vertex);
	EXPECT_EQ(-1, t[1].vertex);
}

/* A binding over several vertices: the least loaded, counting this step. */
TEST(ties_go_to_the_least_loaded)
{
	struct hcl_vertex v[8];
	struct hs_task t[5];
	int i;

	cube(v, 8, 1);
	v[2].load = 3;
	for (i = 0; i < 5; i++)
		task(&t[i], "2-3", "0-7");
	hs_choose_vertices(t, 5, v, 8);
	EXPECT_EQ(3, t[0].vertex);	/* 2 has 3 tasks, 3 none */
	EXPECT_EQ(3, t[1].vertex);
	EXPECT_EQ(3, t[2].vertex);
	EXPECT_EQ(2, t[3].vertex);	/* 3:3 against 2:3, the lower id */
	EXPECT_EQ(3, t[4].vertex);
}

TEST(faulty_cpus_are_not_chosen)
{
	struct hcl_vertex v[8];
	struct hs_task t[3];

	cube(v, 8, 1);
	v[3].state = HCUBE_VERTEX_FAULTY;
	CPU_ZERO(&v[3].usable);
	v[6].state = HCUBE_VERTEX_OFFLINE;
	task(&t[0], "3", "0-7");	/* only faulty CPUs: the module places it */
	task(&t[1], "3,5", "0-7");
	task(&t[2], "6-7", "0-7");
	hs_choose_vertices(t, 3, v, 8);
	EXPECT_EQ(-1, t[0].vertex);
	EXPECT_EQ(5, t[1].vertex);
	EXPECT_EQ(7, t[2].vertex);

	/* node mode, a faulty CPU in a healthy vertex: not usable, not counted */
	cube(v, 2, 4);
	CPU_CLR(3, &v[0].usable);
	CPU_CLR(2, &v[0].usable);
	task(&t[0], "2-4", "0-7");
	hs_choose_vertices(t, 1, v, 2);
	EXPECT_EQ(1, t[0].vertex);
}

/* The capabilities of /proc/self/status's line @key ("CapEff:"). */
static unsigned long long caps(const char *key)
{
	unsigned long long v = ~0ULL;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtoull(line + strlen(key), NULL, 16);
	if (f)
		fclose(f);
	return v;
}

/* What the helper sends its requests with: the user's, and CAP_NET_ADMIN. */
TEST(helper_credentials)
{
	gid_t gids[2] = { 65534, 4242 };
	struct hs_request rq = {
		.uid = 65534, .gid = 65533, .gids = gids, .ngids = 2,
	};
	int status;
	pid_t pid;

	if (geteuid())
		SKIP(return, "needs root, as slurmstepd has it");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct hs_result res = { 0 };
		uid_t r, e, s;
		gid_t g[8];
		int bad = 0;

		if (hs_become_user(&rq, &res))
			_exit(10);
		getresuid(&r, &e, &s);
		bad |= (r != 65534 || e != 65534 || s != 65534) << 0;
		getresgid(g, g + 1, g + 2);
		bad |= (g[0] != 65533 || g[1] != 65533 || g[2] != 65533) << 1;
		/* the kernel keeps them sorted */
		bad |= (getgroups(8, g) != 2 || g[0] != 4242 || g[1] != 65534) << 2;
		bad |= (caps("CapEff:") != 1ULL << CAP_NET_ADMIN) << 3;
		bad |= (caps("CapPrm:") != 1ULL << CAP_NET_ADMIN) << 4;
		bad |= (caps("CapInh:") != 0) << 5;
		/* no way back to root, and no CAP_SYS_NICE */
		bad |= (setuid(0) == 0) << 6;
		bad |= (res.uid != 65534 || res.gid != 65533 ||
			res.caps != 1ULL << CAP_NET_ADMIN) << 7;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* This host's kernel has no hcube family: ENOENT, said as such. */
TEST(module_not_loaded)
{
	pid_t me = getpid();
	struct hs_request rq = { .pids = &me, .n = 1, .policy = HS_ON };
	struct hs_result res;
	struct hcl *c;

	if (getenv("LD_PRELOAD"))
		SKIP(return, "a fake kernel answers");
	EXPECT_EQ(-ENOENT, hcl_open(&c, 1000));
	EXPECT_EQ(NULL, c);
	rq.uid = geteuid();
	rq.gid = getegid();
	hs_register(&rq, 5000, &res);
	EXPECT_EQ(-ENOENT, res.err);
	EXPECT_STREQ("the hcube module is not loaded", res.text);
	EXPECT_EQ(0, res.registered);
	EXPECT_EQ(-1, res.new_policy);
}

TEST_HARNESS_MAIN
