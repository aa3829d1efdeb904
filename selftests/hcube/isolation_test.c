// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: CPUs the scheduler isolates (isolcpus=, nohz_full=) are no
 * vertex's usable CPUs unless the module parameter isolated=1. Runs in a
 * VM booted with isolated CPUs (run-vm-tests.sh starts one), loads and
 * unloads the module itself (HCUBE_KO); skips when no CPU is isolated.
 */
#include <sys/sysinfo.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_ITSELF)

#define NKIDS 16

static struct hc_cube cube;

static int load(const char *params)
{
	char p[256];

	if (system("rmmod hcube 2>/dev/null; true"))
		return -1;
	snprintf(p, sizeof(p), "mode=cpu %s", params);
	return hc_module_insmod(p);
}

/* The isolated CPUs: isolcpus= (domain) and nohz_full=, from sysfs. */
static int isolated_cpus(cpu_set_t *set)
{
	static const char *const files[] = {
		"/sys/devices/system/cpu/isolated", "/sys/devices/system/cpu/nohz_full",
	};
	char line[256];
	unsigned int i;

	CPU_ZERO(set);
	for (i = 0; i < 2; i++) {
		FILE *f = fopen(files[i], "r");
		cpu_set_t one;

		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && line[0] != '\n' &&
		    line[0] != '(' && !hc_parse_cpulist(line, &one))
			CPU_OR(set, set, &one);
		fclose(f);
	}
	return CPU_COUNT(set);
}

FIXTURE(iso) {
	struct hnl h;
	cpu_set_t isolated;
	pid_t kids[NKIDS + 1];	/* the sleepers, and one more on an isolated vertex */
	int nkids;
};

FIXTURE_SETUP(iso)
{
	isolated_cpus(&self->isolated);
	self->nkids = 0;
}

/*
 * In each test, not in the setup: kselftest_harness.h (6.1) runs the test
 * after a SKIP in the setup.
 */
#define NEED_ISOLATED_CPUS()							\
	do {									\
		if (!CPU_COUNT(&self->isolated))				\
			SKIP(return, "no isolated CPU (boot with isolcpus= nohz_full=)"); \
	} while (0)

FIXTURE_TEARDOWN(iso)
{
	hc_kill_all(self->kids, self->nkids);
	system("rmmod hcube 2>/dev/null");
}

/* Register @n sleepers with no vertex; each one's affinity is returned. */
static void spawn_registered(struct __test_metadata *_metadata,
			     FIXTURE_DATA(iso) *self, int n)
{
	int i;

	for (i = 0; i < n; i++)
		self->kids[self->nkids++] = hc_spawn(0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, n, -1));
}

TEST_F(iso, isolated_cpus_are_not_used)
{
	struct hc_report *rep = malloc(sizeof(*rep));
	static const int policies[] = {
		HCUBE_POLICY_MCWA, HCUBE_POLICY_DEM, HCUBE_POLICY_OPTIMAL,
	};
	uint32_t v;
	int i, k, cpu;

	NEED_ISOLATED_CPUS();
	ASSERT_NE(NULL, rep);
	ASSERT_EQ(0, load(""));
	ASSERT_EQ(0, hnl_open(&self->h));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	for (v = 0; v < cube.nv; v++) {
		cpu_set_t iso;

		if (cube.v[v].state == HCUBE_VERTEX_ABSENT)
			continue;
		CPU_AND(&iso, &cube.v[v].cpus, &self->isolated);
		/* in mode cpu a vertex is one CPU: isolated or healthy */
		EXPECT_EQ(CPU_COUNT(&iso) ? HCUBE_VERTEX_ISOLATED : HCUBE_VERTEX_HEALTHY,
			  cube.v[v].state) TH_LOG("vertex %u", v);
	}
	spawn_registered(_metadata, self, NKIDS);
	for (k = 0; k < 3; k++) {
		ASSERT_EQ(0, hc_rebalance(&self->h, policies[k], 0, rep));
		for (i = 0; i < self->nkids; i++) {
			cpu_set_t a;

			ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(a), &a));
			for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
				EXPECT_FALSE(CPU_ISSET(cpu, &a) && CPU_ISSET(cpu, &self->isolated))
					TH_LOG("pid %d may run on isolated CPU %d", self->kids[i], cpu);
		}
	}
	/* placing a task on an isolated vertex is refused */
	for (v = 0; v < cube.nv; v++) {
		pid_t one;

		if (cube.v[v].state != HCUBE_VERTEX_ISOLATED)
			continue;
		one = hc_spawn(0);
		self->kids[self->nkids++] = one;
		EXPECT_EQ(-EINVAL, hc_task_add(&self->h, &one, 1, v));
		break;
	}
	hc_task_del_all(&self->h);
	hnl_close(&self->h);
	free(rep);
}

TEST_F(iso, isolated_1_uses_them)
{
	uint32_t v;

	NEED_ISOLATED_CPUS();
	ASSERT_EQ(0, load("isolated=1"));
	ASSERT_EQ(0, hnl_open(&self->h));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	for (v = 0; v < cube.nv; v++)
		if (cube.v[v].state != HCUBE_VERTEX_ABSENT)
			EXPECT_EQ(HCUBE_VERTEX_HEALTHY, cube.v[v].state) TH_LOG("vertex %u", v);
	hnl_close(&self->h);
}

TEST_HARNESS_MAIN
