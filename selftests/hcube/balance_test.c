// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: real processes registered, faulted, hot-unplugged and rebalanced,
 * with every outcome checked from userspace (sched_getaffinity() and
 * /proc/PID/status), not only from the module's own report.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/sysinfo.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

#define NKIDS 160

static struct hc_cube cube;
static struct hc_report rep;

FIXTURE(bal) {
	struct hnl h;
	pid_t kids[NKIDS];
	int nkids;
};

FIXTURE_SETUP(bal)
{
	ASSERT_EQ(0, hnl_open(&self->h)) TH_LOG("is the hcube module loaded?");
	ASSERT_EQ(0, hc_reset(&self->h, HCUBE_MODE_CPU));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	self->nkids = 0;
}

FIXTURE_TEARDOWN(bal)
{
	hc_task_del_all(&self->h);
	hc_kill_all(self->kids, self->nkids);
	hc_reset(&self->h, HCUBE_MODE_CPU);
	hnl_close(&self->h);
}

static void spawn(FIXTURE_DATA(bal) *self, int n, int busy)
{
	while (n-- > 0 && self->nkids < NKIDS)
		self->kids[self->nkids++] = hc_spawn(busy);
}

/*
 * Count the children per vertex from their affinity as userspace sees it;
 * every child must sit on exactly one healthy vertex and /proc must agree.
 */
static void count_by_affinity(struct __test_metadata *_metadata,
			      FIXTURE_DATA(bal) *self, uint32_t *count)
{
	const char *why = hc_count_by_affinity(&self->h, &cube, self->kids,
					       self->nkids, count);

	ASSERT_EQ(NULL, why) TH_LOG("%s", why);
}

/* max - min of @count over healthy vertices joined to C_b */
static uint32_t spread(const uint32_t *count)
{
	uint32_t i, max = 0, min = UINT32_MAX;

	for (i = 0; i < cube.nv; i++) {
		if (cube.v[i].state != HCUBE_VERTEX_HEALTHY || cube.v[i].detached)
			continue;
		max = count[i] > max ? count[i] : max;
		min = count[i] < min ? count[i] : min;
	}
	return max - min;
}

static void check_module_agrees(struct __test_metadata *_metadata,
				const uint32_t *count)
{
	uint32_t i;

	for (i = 0; i < cube.nv; i++)
		EXPECT_EQ(count[i], cube.v[i].load) TH_LOG("vertex %u", i);
}

/*
 * Vertex @v lost CPU @cpu (it is in @state now): no child is left on it or
 * allowed on @cpu, the others are balanced, and the module's loads agree
 * with the children's affinity (counted into @count).
 */
static void expect_evacuated(struct __test_metadata *_metadata,
			     FIXTURE_DATA(bal) *self, uint32_t *count, uint32_t v,
			     int cpu, uint32_t state)
{
	int i;

	count_by_affinity(_metadata, self, count);
	EXPECT_EQ(state, cube.v[v].state);
	EXPECT_EQ(0, count[v]);
	for (i = 0; i < self->nkids; i++) {
		cpu_set_t a;

		ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(a), &a));
		EXPECT_FALSE(CPU_ISSET(cpu, &a));
	}
	EXPECT_LE(spread(count), 1);
	check_module_agrees(_metadata, count);
}

TEST_F(bal, mcwa_balances_skewed_processes)
{
	uint32_t count[HC_MAXV];

	spawn(self, 4, 1);
	spawn(self, 28, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, self->nkids, 0));
	count_by_affinity(_metadata, self, count);
	EXPECT_EQ((uint32_t)self->nkids, count[0]);
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 0, &rep));
	EXPECT_EQ(0, rep.failed);
	EXPECT_GT(rep.moved, 0);
	count_by_affinity(_metadata, self, count);
	EXPECT_LE(spread(count), 1);
	check_module_agrees(_metadata, count);
	/* a second rebalance has nothing to move */
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 0, &rep));
	EXPECT_EQ(0, rep.moved);
}

TEST_F(bal, dem_bounded_imbalance)
{
	uint32_t count[HC_MAXV], i;

	spawn(self, 2, 1);
	spawn(self, 30, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, self->nkids, 0));
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_DEM, 0, &rep));
	EXPECT_EQ(0, rep.failed);
	count_by_affinity(_metadata, self, count);
	/*
	 * Fault-free cube: DEM leaves at most dim between any two. With
	 * absent vertices (dimensions skipped) only an improvement is sure.
	 */
	if (cube.nhealthy == cube.nv) {
		EXPECT_LE(spread(count), cube.dim);
	} else {
		EXPECT_LT(spread(count), (uint32_t)self->nkids);
	}
	for (i = 0; i < cube.nv; i++)
		EXPECT_EQ(rep.planned[i], count[i]);
	check_module_agrees(_metadata, count);
}

TEST_F(bal, dry_run_moves_nothing)
{
	uint32_t count[HC_MAXV], i;

	spawn(self, 16, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, self->nkids, 0));
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 1, &rep));
	EXPECT_TRUE(rep.has_plan);
	EXPECT_GT(rep.ntransfers, 0);
	EXPECT_EQ(0, rep.moved);
	count_by_affinity(_metadata, self, count);
	EXPECT_EQ(16, count[0]);
	for (i = 0; i < cube.nv; i++)
		EXPECT_EQ(rep.before[i], rep.after[i]);
}

TEST_F(bal, fault_evacuates_and_rebalances)
{
	uint32_t count[HC_MAXV], v = 1;
	int cpu;

	spawn(self, 3 * cube.nhealthy, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, self->nkids, -1));
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &cube.v[v].usable))
			break;
	ASSERT_EQ(0, hc_fault(&self->h, 1, cpu, -1, NULL));
	expect_evacuated(_metadata, self, count, v, cpu, HCUBE_VERTEX_FAULTY);
	/* cleared: the vertex is back, empty until a rebalance */
	ASSERT_EQ(0, hc_fault(&self->h, 0, cpu, -1, NULL));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	EXPECT_EQ(HCUBE_VERTEX_HEALTHY, cube.v[v].state);
	ASSERT_EQ(0, hc_rebalance(&self->h, -1, 0, &rep));
	count_by_affinity(_metadata, self, count);
	EXPECT_LE(spread(count), 1);
	EXPECT_GT(count[v], 0);
}

/* Run hcube-sim plan and read its transfers back. */
static int sim_plan(const uint32_t *loads, uint32_t dim, const char *faulty,
		    struct hc_transfer *x, int max)
{
	char cmd[8192], *p;
	static char out[1 << 18];
	size_t n;
	int len, count = 0;
	uint32_t i;
	FILE *f;

	len = snprintf(cmd, sizeof(cmd), "%s plan --dim %u --faulty %s --json --loads ",
		       hc_beside("hcube-sim"), dim, faulty);
	for (i = 0; i < (1U << dim); i++)
		len += snprintf(cmd + len, sizeof(cmd) - len, "%s%u", i ? "," : "", loads[i]);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	if (pclose(f))
		return -1;
	p = strstr(out, "\"transfers\":[");
	while (p && count < max) {
		unsigned int s, a, b, c;

		p = strstr(p, "{\"step\":");
		if (!p || sscanf(p, "{\"step\":%u,\"from\":%u,\"to\":%u,\"count\":%u}",
				 &s, &a, &b, &c) != 4)
			break;
		x[count].step = s;
		x[count].from = a;
		x[count].to = b;
		x[count].count = c;
		count++;
		p++;
	}
	return count;
}

/*
 * Nam et al. (1999), Example 2 on a 16-vertex cube: tasks leave the four faulty
 * vertices, X0X1 becomes the balancing subcube, and the module's dry-run
 * plan equals hcube-sim's for the same loads and faults.
 */
TEST_F(bal, example2_faults_and_plan_match_simulator)
{
	static const uint32_t ex2[16] = { 6, 2, 4, 20, 4, 0, 0, 10,
					  0, 10, 0, 5, 15, 12, 14, 18 };
	static const int faulty[4] = { 5, 6, 8, 10 };
	static struct hc_transfer simx[256];
	uint32_t count[HC_MAXV], i;
	int j, k, nsim;

	if (cube.nv != 16 || cube.nhealthy != 16)
		SKIP(return, "needs 16 CPUs (a fault-free 4-cube in cpu mode)");
	spawn(self, 64, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, self->nkids, -1));
	for (j = 0; j < 4; j++)
		ASSERT_EQ(0, hc_fault(&self->h, 1, -1, faulty[j], NULL));
	count_by_affinity(_metadata, self, count);
	for (j = 0; j < 4; j++)
		EXPECT_EQ(0, count[faulty[j]]);
	EXPECT_STREQ("X0X1", cube.pattern);
	EXPECT_EQ(2, cube.depth);
	EXPECT_LE(spread(count), 1);

	/* Now Example 2's own loads, 120 tasks. */
	ASSERT_EQ(0, hc_task_del_all(&self->h));
	hc_kill_all(self->kids, self->nkids);
	self->nkids = 0;
	for (i = 0; i < 16; i++) {
		int first = self->nkids;

		spawn(self, ex2[i], 0);
		if (ex2[i])
			ASSERT_EQ(0, hc_task_add(&self->h, self->kids + first,
						 ex2[i], i));
	}
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 1, &rep));
	for (i = 0; i < 16; i++)
		EXPECT_EQ(ex2[i], rep.before[i]);
	EXPECT_STREQ("X0X1", rep.pattern);
	nsim = sim_plan(rep.before, 4, "5,6,8,10", simx, 256);
	ASSERT_GT(nsim, 0);
	ASSERT_EQ((uint32_t)nsim, rep.ntransfers);
	for (k = 0; k < nsim; k++) {
		EXPECT_EQ(simx[k].step, rep.x[k].step);
		EXPECT_EQ(simx[k].from, rep.x[k].from);
		EXPECT_EQ(simx[k].to, rep.x[k].to);
		EXPECT_EQ(simx[k].count, rep.x[k].count);
	}
	/* Tables 5 and 6 of the paper, from the module's plan */
	for (k = 0, j = 0; k < (int)rep.ntransfers; k++) {
		struct hc_transfer *x = &rep.x[k];

		j += (x->from == 9 && x->to == 1 && x->count == 7) +
		     (x->from == 11 && x->to == 3 && x->count == 7) +
		     (x->from == 3 && x->to == 1 && x->count == 11);
	}
	EXPECT_EQ(3, j);
	for (i = 0; i < 16; i++)
		EXPECT_EQ(cube.v[i].state == HCUBE_VERTEX_HEALTHY ? 10 : 0,
			  rep.planned[i]);
	/* and applied: every healthy vertex holds 10, seen from userspace */
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 0, &rep));
	count_by_affinity(_metadata, self, count);
	for (i = 0; i < 16; i++)
		EXPECT_EQ(cube.v[i].state == HCUBE_VERTEX_HEALTHY ? 10 : 0, count[i]);
}

TEST_F(bal, exited_and_changed_tasks_are_reported)
{
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s1[HCUBE_A_STATS_MAX + 1];
	struct hc_task tasks[8];
	pid_t gone, moved;
	cpu_set_t other;
	int n, i, cpu;

	spawn(self, 4, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, 4, 0));
	ASSERT_EQ(0, hc_stats(&self->h, s0));
	gone = self->kids[0];
	moved = self->kids[1];
	kill(gone, SIGKILL);
	waitpid(gone, NULL, 0);
	self->kids[0] = -1;
	/* the exit is seen when it happens, without a command that looks */
	for (i = 0; i < 500; i++) {
		ASSERT_EQ(0, hc_stats(&self->h, s1));
		if (s1[HCUBE_A_STATS_EXITED] == s0[HCUBE_A_STATS_EXITED] + 1)
			break;
		usleep(10000);
	}
	EXPECT_EQ(s0[HCUBE_A_STATS_EXITED] + 1, s1[HCUBE_A_STATS_EXITED]);
	EXPECT_EQ(3, s1[HCUBE_A_STATS_TASKS]);
	/* what taskset would do: another vertex's CPU */
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &cube.v[1].usable))
			break;
	CPU_ZERO(&other);
	CPU_SET(cpu, &other);
	ASSERT_EQ(0, sched_setaffinity(moved, sizeof(other), &other));

	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 0, &rep));
	/* it was gone before: the rebalance found no task exiting */
	EXPECT_EQ(0, rep.exited);
	ASSERT_EQ(1, rep.nchanged);
	EXPECT_EQ((uint32_t)moved, rep.changed_pid[0]);
	ASSERT_EQ(0, hc_stats(&self->h, s1));
	EXPECT_EQ(s0[HCUBE_A_STATS_EXITED] + 1, s1[HCUBE_A_STATS_EXITED]);
	EXPECT_EQ(s0[HCUBE_A_STATS_CHANGED] + 1, s1[HCUBE_A_STATS_CHANGED]);
	EXPECT_EQ(s1[HCUBE_A_STATS_REGISTERED],
		  s1[HCUBE_A_STATS_UNREGISTERED] + s1[HCUBE_A_STATS_EXITED] +
		  s1[HCUBE_A_STATS_TASKS]);
	n = hc_get_tasks(&self->h, tasks, 8);
	ASSERT_EQ(3, n);
	for (i = 0; i < n; i++) {
		uint32_t want = tasks[i].pid == (uint32_t)moved ?
				HCUBE_TASK_CHANGED : HCUBE_TASK_ACTIVE;

		EXPECT_NE((uint32_t)gone, tasks[i].pid);
		EXPECT_EQ(want, tasks[i].state);
	}
	/* the changed task is left alone: its own mask stays */
	{
		cpu_set_t now;

		ASSERT_EQ(0, sched_getaffinity(moved, sizeof(now), &now));
		EXPECT_TRUE(CPU_EQUAL(&now, &other));
	}
}

/* A vertex of its own CPU goes offline and comes back (cpu mode). */
TEST_F(bal, cpu_offline_online_single_cpu_vertex)
{
	uint32_t count[HC_MAXV];
	int cpu = 1, v;

	if (get_nprocs() < 3)
		SKIP(return, "needs 3 CPUs");
	spawn(self, 2 * cube.nhealthy, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, self->nkids, -1));
	for (v = 0; v < (int)cube.nv; v++)
		if (CPU_ISSET(cpu, &cube.v[v].cpus))
			break;
	ASSERT_LT(v, (int)cube.nv);
	ASSERT_EQ(0, hc_set_online(cpu, 0));
	expect_evacuated(_metadata, self, count, v, cpu, HCUBE_VERTEX_OFFLINE);
	ASSERT_EQ(0, hc_set_online(cpu, 1));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	EXPECT_EQ(HCUBE_VERTEX_HEALTHY, cube.v[v].state);
	ASSERT_EQ(0, hc_rebalance(&self->h, -1, 0, &rep));
	count_by_affinity(_metadata, self, count);
	EXPECT_GT(count[v], 0);
	EXPECT_LE(spread(count), 1);
}

static int first_of(const cpu_set_t *set)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			return cpu;
	return -1;
}

/* In node mode a CPU leaves its vertex's mask; the vertex stays healthy. */
TEST_F(bal, cpu_offline_online_in_group)
{
	cpu_set_t a;
	int cpu = -1, v, i;

	ASSERT_EQ(0, hc_reset(&self->h, HCUBE_MODE_NODE));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	for (v = 0; v < (int)cube.nv; v++)
		if (CPU_COUNT(&cube.v[v].usable) >= 2)
			break;
	if (v == (int)cube.nv)
		SKIP(return, "no vertex with two CPUs in node mode");
	for (i = CPU_SETSIZE - 1; i > 0; i--)
		if (CPU_ISSET(i, &cube.v[v].usable)) {
			cpu = i;
			break;
		}
	ASSERT_GT(cpu, 0);
	spawn(self, 4, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, 4, v));
	ASSERT_EQ(0, hc_set_online(cpu, 0));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	EXPECT_EQ(HCUBE_VERTEX_HEALTHY, cube.v[v].state);
	EXPECT_FALSE(CPU_ISSET(cpu, &cube.v[v].usable));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(a), &a));
		EXPECT_FALSE(CPU_ISSET(cpu, &a));
		EXPECT_TRUE(CPU_EQUAL(&a, &cube.v[v].usable))
			TH_LOG("pid %d: %d CPUs (first %d), its vertex %d: %d CPUs", self->kids[i],
			       CPU_COUNT(&a), first_of(&a), v, CPU_COUNT(&cube.v[v].usable));
	}
	ASSERT_EQ(0, hc_set_online(cpu, 1));
	/* the module's worker applies the online once the write returned */
	for (i = 0; i < 50; i++) {
		ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
		if (CPU_ISSET(cpu, &cube.v[v].usable))
			break;
		usleep(100000);
	}
	EXPECT_TRUE(CPU_ISSET(cpu, &cube.v[v].usable));
	/*
	 * The tasks get the CPU back once their cpuset has it again, which it
	 * learns in its own work, after hcube's: within a few passes.
	 */
	for (i = 0; i < 4; i++) {
		int tries;

		for (tries = 0; tries < 500; tries++) {
			ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(a), &a));
			if (CPU_ISSET(cpu, &a))
				break;
			usleep(10000);
		}
		EXPECT_TRUE(CPU_ISSET(cpu, &a)) TH_LOG("pid %d did not get CPU %d back",
						       self->kids[i], cpu);
	}
}

TEST_F(bal, automatic_trigger)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1];
	uint32_t count[HC_MAXV];
	int tries;

	spawn(self, 3 * cube.nhealthy, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, self->nkids, 0));
	ASSERT_EQ(0, hc_config(&self->h, -1, 1, 2, 100));
	for (tries = 0; tries < 100; tries++) {
		ASSERT_EQ(0, hc_stats(&self->h, s));
		if (s[HCUBE_A_STATS_AUTO_REBALANCES])
			break;
		usleep(100000);
	}
	EXPECT_GE(s[HCUBE_A_STATS_AUTO_REBALANCES], 1);
	count_by_affinity(_metadata, self, count);
	EXPECT_LE(spread(count), 1);
	/* balanced now: the cooldown passes and nothing more fires */
	usleep(1500000);
	ASSERT_EQ(0, hc_stats(&self->h, s));
	EXPECT_EQ(1, s[HCUBE_A_STATS_AUTO_REBALANCES]);
}

/* The "events" group tells about faults, tasks and rebalances. */
TEST_F(bal, events)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC), seen = 0, i;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint32_t grp = self->h.mcgrp;
	static char buf[1 << 18];

	ASSERT_GE(fd, 0);
	ASSERT_GT(grp, 0);
	ASSERT_EQ(0, bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	ASSERT_EQ(0, setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp,
				sizeof(grp)));
	spawn(self, 4, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, 4, 0));
	ASSERT_EQ(0, hc_fault(&self->h, 1, -1, 1, NULL));
	ASSERT_EQ(0, hc_rebalance(&self->h, -1, 0, &rep));
	for (i = 0; i < 50; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *nlh;
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			break;
		n = recv(fd, buf, sizeof(buf), 0);
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			struct genlmsghdr *g = NLMSG_DATA(nlh);

			if (nlh->nlmsg_type != self->h.family)
				continue;
			if (g->cmd == HCUBE_CMD_TASK_NTF)
				seen |= 1;
			if (g->cmd == HCUBE_CMD_FAULT_NTF) {
				struct nlattr *e = hnl_msg_attr(nlh, HCUBE_A_EVENT);
				struct nlattr *v = hnl_msg_attr(nlh, HCUBE_A_VERTEX_ID);

				if (e && hnl_u32(e) == HCUBE_FAULT_ADDED && v &&
				    hnl_u32(v) == 1)
					seen |= 2;
			}
			if (g->cmd == HCUBE_CMD_REBALANCE_NTF)
				seen |= 4;
		}
	}
	close(fd);
	EXPECT_EQ(7, seen);
}

/* Read the trace at @path into @buf (@size bytes); -1 on error. */
static int read_trace(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n >= 0)
		buf[n] = 0;
	return n;
}

/* hcube:hcube_rebalance and hcube:hcube_migrate in ftrace. */
TEST_F(bal, tracepoints)
{
	const char *t = "/sys/kernel/tracing";
	char path[128], buf[1 << 16];
	int n;

	snprintf(path, sizeof(path), "%s/events/hcube/enable", t);
	if (hc_write_file(path, "1"))
		SKIP(return, "no tracefs");
	snprintf(path, sizeof(path), "%s/trace", t);
	hc_write_file(path, "");
	spawn(self, 8, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, 8, 0));
	ASSERT_EQ(0, hc_rebalance(&self->h, -1, 0, &rep));
	n = read_trace(path, buf, sizeof(buf));
	ASSERT_GT(n, 0);
	EXPECT_NE(NULL, strstr(buf, "hcube_rebalance: policy=mcwa"));
	EXPECT_NE(NULL, strstr(buf, "hcube_migrate: pid="));
	snprintf(path, sizeof(path), "%s/events/hcube/enable", t);
	hc_write_file(path, "0");
}

/*
 * Wait until the module's workqueue ran nothing of hcube's for 1.5 s (at
 * most 60 s): the passes and retries that follow an earlier test's
 * hotplug back off to 1.28 s apart, and on PREEMPT_RT a cpuset takes in a
 * CPU that came online later. True when it went idle.
 */
static bool wait_idle(const char *trace, char *buf, int size)
{
	int i;

	for (i = 0; i < 40; i++) {
		if (hc_clear_file(trace))
			return false;
		usleep(1500000);
		if (read_trace(trace, buf, size) < 0)
			return false;
		if (!strstr(buf, "function hcube_"))
			return true;
	}
	return false;
}

/*
 * A rebalance costs what its moves cost: no pass over every registered
 * task follows it (hcube_pass_workfn on the module's workqueue, seen by
 * the kernel's workqueue_execute_start event), though a task someone else
 * pinned is left where no move looks at it.
 */
TEST_F(bal, no_pass_over_every_task_after_a_rebalance)
{
	const char *t = "/sys/kernel/tracing";
	char path[128], *buf;
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s1[HCUBE_A_STATS_MAX + 1];
	cpu_set_t other;
	int n, cpu;

	snprintf(path, sizeof(path), "%s/events/workqueue/workqueue_execute_start/enable", t);
	if (hc_write_file(path, "1"))
		SKIP(return, "no tracefs");
	buf = malloc(1 << 20);
	ASSERT_NE(NULL, buf);
	snprintf(path, sizeof(path), "%s/trace", t);
	ASSERT_TRUE(wait_idle(path, buf, 1 << 20)) TH_LOG("hcube's work did not stop in 60 s");
	spawn(self, 8, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, 7, 0));
	ASSERT_EQ(0, hc_task_add(&self->h, &self->kids[7], 1, 1));
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &cube.v[1].usable))
			break;
	CPU_ZERO(&other);
	CPU_SET(cpu == CPU_SETSIZE - 1 ? 0 : cpu + 1, &other);
	/* the task of vertex 1 pinned elsewhere: no move takes it */
	ASSERT_EQ(0, sched_setaffinity(self->kids[7], sizeof(other), &other));
	usleep(100000);
	ASSERT_EQ(0, hc_stats(&self->h, s0));
	snprintf(path, sizeof(path), "%s/trace", t);
	ASSERT_EQ(0, hc_clear_file(path));
	ASSERT_EQ(0, hc_rebalance(&self->h, -1, 0, &rep));
	EXPECT_GT(rep.moved, 0);
	usleep(300000);
	n = read_trace(path, buf, 1 << 20);
	snprintf(path, sizeof(path), "%s/events/workqueue/workqueue_execute_start/enable", t);
	hc_write_file(path, "0");
	ASSERT_GE(n, 0);
	EXPECT_EQ(NULL, strstr(buf, "hcube_pass_workfn"))
		TH_LOG("a pass followed the rebalance (moved %u, failed %u)", rep.moved, rep.failed);
	free(buf);
	ASSERT_EQ(0, hc_stats(&self->h, s1));
	EXPECT_EQ(s0[HCUBE_A_STATS_CHANGED], s1[HCUBE_A_STATS_CHANGED])
		TH_LOG("something looked at the task no move took");
}

/*
 * A task whose affinity the administrator changed is the administrator's:
 * a CPU of its old vertex going offline and coming back does not make it
 * hcube's again, task del leaves the administrator's mask, and so does
 * rmmod (when the test may load the module again). Two hotplug operations,
 * an rmmod and an insmod: more than the harness's 30 s on the debug kernel
 * under KASAN on a loaded host.
 */
TEST_F_TIMEOUT(bal, administrators_pinning_survives_hotplug_and_unregistration, 120)
{
	struct hc_task t[4];
	int n = get_nprocs(), v, cpu, i;
	cpu_set_t admin, a;

	if (n < 4)
		SKIP(return, "needs 4 CPUs");
	cpu = n - 1;
	for (v = 0; v < (int)cube.nv; v++)
		if (CPU_ISSET(cpu, &cube.v[v].cpus))
			break;
	spawn(self, 1, 0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, 1, v));
	CPU_ZERO(&admin);
	for (i = 0; i < n - 2; i++)
		CPU_SET(i, &admin);
	ASSERT_EQ(0, sched_setaffinity(self->kids[0], sizeof(admin), &admin));
	ASSERT_EQ(1, hc_get_tasks(&self->h, t, 4));
	EXPECT_EQ(HCUBE_TASK_CHANGED, t[0].state);
	ASSERT_EQ(0, hc_set_online(cpu, 0));
	usleep(300000);
	ASSERT_EQ(0, hc_rebalance(&self->h, -1, 0, &rep));
	ASSERT_EQ(1, hc_get_tasks(&self->h, t, 4));
	EXPECT_EQ(HCUBE_TASK_CHANGED, t[0].state) TH_LOG("hotplug made it hcube's again");
	ASSERT_EQ(0, sched_getaffinity(self->kids[0], sizeof(a), &a));
	EXPECT_TRUE(CPU_EQUAL(&a, &admin)) TH_LOG("the administrator's mask was replaced");
	ASSERT_EQ(0, hc_set_online(cpu, 1));
	usleep(300000);
	ASSERT_EQ(0, sched_getaffinity(self->kids[0], sizeof(a), &a));
	EXPECT_TRUE(CPU_EQUAL(&a, &admin));
	if (hc_module_ko()) {
		hnl_close(&self->h);
		ASSERT_EQ(0, system("rmmod hcube"));
		ASSERT_EQ(0, sched_getaffinity(self->kids[0], sizeof(a), &a));
		EXPECT_TRUE(CPU_EQUAL(&a, &admin)) TH_LOG("rmmod replaced the administrator's mask");
		ASSERT_EQ(0, hc_module_insmod(""));
		ASSERT_EQ(0, hnl_open(&self->h));
	} else {
		ASSERT_EQ(0, hc_task_del_all(&self->h));
		ASSERT_EQ(0, sched_getaffinity(self->kids[0], sizeof(a), &a));
		EXPECT_TRUE(CPU_EQUAL(&a, &admin));
	}
}

TEST_HARNESS_MAIN
