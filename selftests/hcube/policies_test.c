// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the policies beyond mcwa/dem/cwa on real registered processes
 * (checked with sched_getaffinity() and /proc), auto's applied policy, the
 * pebble clusters' controller election (Gulati et al. 1990; the 3-cube
 * case TV-7 of selftests/core/pebble_test.c) with its events, and a
 * contended receiver. Runs in the VM with the module loaded.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/sysinfo.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

#define NKIDS 200

static struct hc_cube cube;
static struct hc_report rep;

/* What every test has: the netlink handle, its children, an events socket. */
struct pol_state {
	struct hnl h;
	pid_t kids[NKIDS];
	int nkids;
	int evfd;		/* member of the events group, or -1 */
};

static void common_setup(struct __test_metadata *_metadata, struct pol_state *self)
{
	ASSERT_EQ(0, hnl_open(&self->h)) TH_LOG("is the hcube module loaded?");
	ASSERT_EQ(0, hc_reset(&self->h, HCUBE_MODE_CPU));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	self->nkids = 0;
	self->evfd = -1;
}

static void common_teardown(struct pol_state *self)
{
	if (self->evfd >= 0)
		close(self->evfd);
	hc_task_del_all(&self->h);
	hc_kill_all(self->kids, self->nkids);
	hc_reset(&self->h, HCUBE_MODE_CPU);
	hnl_close(&self->h);
}

FIXTURE(pol) {
	struct pol_state s;
};

FIXTURE_SETUP(pol)
{
	common_setup(_metadata, &self->s);
}

FIXTURE_TEARDOWN(pol)
{
	common_teardown(&self->s);
}

static void spawn(struct pol_state *self, int n)
{
	while (n-- > 0 && self->nkids < NKIDS)
		self->kids[self->nkids++] = hc_spawn(0);
}

/* Register the last @n children spawned on @vertex. */
static int add_on(struct pol_state *self, int n, int vertex)
{
	return hc_task_add(&self->h, self->kids + self->nkids - n, n, vertex);
}

/* Children per vertex from their affinity; each on exactly one healthy vertex. */
static void count_by_affinity(struct __test_metadata *_metadata,
			      struct pol_state *self, uint32_t *count)
{
	const char *why = hc_count_by_affinity(&self->h, &cube, self->kids,
					       self->nkids, count);

	ASSERT_EQ(NULL, why) TH_LOG("%s", why);
}

static int healthy(uint32_t v)
{
	return cube.v[v].state == HCUBE_VERTEX_HEALTHY;
}

/* The core's imbalance, for one component: distance from [floor, ceil]. */
static uint32_t imbalance(const uint32_t *load, uint32_t *lo, uint32_t *hi)
{
	uint32_t v, h = 0, total = 0, imb = 0;

	for (v = 0; v < cube.nv; v++)
		if (healthy(v)) {
			h++;
			total += load[v];
		}
	*lo = total / h;
	*hi = *lo + (total % h ? 1 : 0);
	for (v = 0; v < cube.nv; v++) {
		if (!healthy(v))
			continue;
		if (load[v] > *hi)
			imb += load[v] - *hi;
		else if (load[v] < *lo)
			imb += *lo - load[v];
	}
	return imb;
}

static uint32_t max_load(const uint32_t *load)
{
	uint32_t v, m = 0;

	for (v = 0; v < cube.nv; v++)
		if (healthy(v) && load[v] > m)
			m = load[v];
	return m;
}

/* One run of rebalances_real_processes per policy. */
FIXTURE(each) {
	struct pol_state s;
};

FIXTURE_VARIANT(each) {
	int policy;
};

FIXTURE_VARIANT_ADD(each, optimal) { .policy = HCUBE_POLICY_OPTIMAL };
FIXTURE_VARIANT_ADD(each, auto) { .policy = HCUBE_POLICY_AUTO };
FIXTURE_VARIANT_ADD(each, rid) { .policy = HCUBE_POLICY_RID };
FIXTURE_VARIANT_ADD(each, sid) { .policy = HCUBE_POLICY_SID };
FIXTURE_VARIANT_ADD(each, sbn) { .policy = HCUBE_POLICY_SBN };
FIXTURE_VARIANT_ADD(each, sbn_cube) { .policy = HCUBE_POLICY_SBN_CUBE };
FIXTURE_VARIANT_ADD(each, sbn_heur) { .policy = HCUBE_POLICY_SBN_HEUR };
FIXTURE_VARIANT_ADD(each, pebble) { .policy = HCUBE_POLICY_PEBBLE };

FIXTURE_SETUP(each)
{
	common_setup(_metadata, &self->s);
}

FIXTURE_TEARDOWN(each)
{
	common_teardown(&self->s);
}

/*
 * Skewed processes on a cube with a marked vertex, rebalanced by the
 * variant's policy. What each policy guarantees (the core's documentation
 * and its property tests): optimal and auto end balanced, floor/ceil over
 * the healthy vertices (one component here); rid, sid and pebble never
 * raise the largest load (receivers stop at the average, pebble's at the
 * floor); the SBN variants follow the paper's thresholds and may push a
 * vertex above the old maximum, so for them only the task accounting and
 * the masks are checked. Every task stays on one healthy vertex with that
 * vertex's CPUs, where the plan put it.
 */
TEST_F(each, rebalances_real_processes)
{
	struct pol_state *st = &self->s;
	uint32_t count[HC_MAXV], lo, hi, v, marked = 3, n;
	int p = variant->policy;

	if (cube.nv < 4 || !healthy(marked))
		SKIP(return, "needs a healthy vertex 3");
	ASSERT_EQ(0, hc_fault(&st->h, 1, -1, marked, NULL));
	ASSERT_EQ(0, hc_get_cube(&st->h, &cube));
	ASSERT_EQ(HCUBE_VERTEX_FAULTY, cube.v[marked].state);
	n = 5 * cube.nhealthy;
	spawn(st, 2 * n / 3);
	ASSERT_EQ(0, add_on(st, st->nkids, 0));
	spawn(st, n - st->nkids);
	ASSERT_EQ(0, add_on(st, n - 2 * n / 3, 1));

	ASSERT_EQ(0, hc_rebalance(&st->h, p, 0, &rep));
	EXPECT_EQ((uint32_t)p, rep.policy);
	if (p == HCUBE_POLICY_AUTO) {
		EXPECT_TRUE(rep.applied == HCUBE_POLICY_DEM ||
			    rep.applied == HCUBE_POLICY_MCWA ||
			    rep.applied == HCUBE_POLICY_OPTIMAL) TH_LOG("applied %u", rep.applied);
	} else {
		EXPECT_EQ((uint32_t)p, rep.applied);
	}
	EXPECT_EQ(0, rep.failed);
	EXPECT_GT(rep.moved, 0);
	EXPECT_EQ(p == HCUBE_POLICY_PEBBLE, rep.has_contended);

	count_by_affinity(_metadata, st, count);
	for (v = 0; v < cube.nv; v++) {
		EXPECT_EQ(rep.planned[v], count[v]) TH_LOG("vertex %u", v);
		EXPECT_EQ(rep.after[v], count[v]) TH_LOG("vertex %u", v);
		EXPECT_EQ(cube.v[v].load, count[v]) TH_LOG("vertex %u", v);
	}
	EXPECT_EQ(0, count[marked]);
	/* the report's imbalance is the planned loads' */
	EXPECT_EQ(imbalance(count, &lo, &hi), rep.imbalance);
	switch (p) {
	case HCUBE_POLICY_OPTIMAL:
	case HCUBE_POLICY_AUTO:
		EXPECT_EQ(0, rep.imbalance);
		for (v = 0; v < cube.nv; v++)
			if (healthy(v)) {
				EXPECT_GE(count[v], lo) TH_LOG("vertex %u", v);
				EXPECT_LE(count[v], hi) TH_LOG("vertex %u", v);
			}
		break;
	case HCUBE_POLICY_RID:
	case HCUBE_POLICY_SID:
		EXPECT_LE(max_load(count), max_load(rep.before));
		break;
	case HCUBE_POLICY_PEBBLE:
		/* each task goes from above the ceiling to below the floor */
		EXPECT_LE(max_load(count), max_load(rep.before));
		EXPECT_EQ(imbalance(rep.before, &lo, &hi) - 2 * rep.moved,
			  imbalance(count, &lo, &hi));
		break;
	}
}

/* Join the events group on a socket of its own. */
static void listen_events(struct __test_metadata *_metadata, struct pol_state *self)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint32_t grp = self->h.mcgrp;

	self->evfd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	ASSERT_GE(self->evfd, 0);
	ASSERT_GT(grp, 0);
	ASSERT_EQ(0, bind(self->evfd, (struct sockaddr *)&sa, sizeof(sa)));
	ASSERT_EQ(0, setsockopt(self->evfd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				&grp, sizeof(grp)));
}

struct ctrl_ev {
	int n;
	uint32_t cluster[16], old[16], now[16], reason[16];	/* 0xffff: none */
	int rebalance_auto;	/* REBALANCE_NTF with trigger auto seen */
	uint32_t auto_applied;
};

/* Read what arrived within @ms; CONTROLLER_NTF and REBALANCE_NTF recorded. */
static void drain(struct pol_state *self, struct ctrl_ev *e, int ms)
{
	static char buf[1 << 18];

	for (;;) {
		struct pollfd p = { .fd = self->evfd, .events = POLLIN };
		struct nlmsghdr *nlh;
		ssize_t n;

		if (poll(&p, 1, ms) <= 0)
			return;
		n = recv(self->evfd, buf, sizeof(buf), 0);
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			struct genlmsghdr *g = NLMSG_DATA(nlh);
			struct nlattr *a;

			if (nlh->nlmsg_type != self->h.family)
				continue;
			if (g->cmd == HCUBE_CMD_CONTROLLER_NTF && e->n < 16) {
				a = hnl_msg_attr(nlh, HCUBE_A_CLUSTER);
				e->cluster[e->n] = a ? hnl_u32(a) : 0xffff;
				a = hnl_msg_attr(nlh, HCUBE_A_CONTROLLER_OLD);
				e->old[e->n] = a ? hnl_u32(a) : 0xffff;
				a = hnl_msg_attr(nlh, HCUBE_A_CONTROLLER_NEW);
				e->now[e->n] = a ? hnl_u32(a) : 0xffff;
				a = hnl_msg_attr(nlh, HCUBE_A_REASON);
				e->reason[e->n] = a ? hnl_u32(a) : 0xffff;
				e->n++;
			}
			if (g->cmd == HCUBE_CMD_REBALANCE_NTF) {
				a = hnl_msg_attr(nlh, HCUBE_A_REPORT_TRIGGER);
				if (a && hnl_u32(a) == HCUBE_REASON_AUTO) {
					e->rebalance_auto = 1;
					a = hnl_msg_attr(nlh, HCUBE_A_REPORT_APPLIED);
					e->auto_applied = a ? hnl_u32(a) : 0xffff;
				}
			}
		}
	}
}

/* Lowest healthy label of each cluster: the controllers of a new topology. */
static void expect_initial_controllers(struct __test_metadata *_metadata)
{
	uint32_t c, v, want;

	ASSERT_EQ(cube.dim < 3 ? cube.dim : 3, cube.cdim);
	ASSERT_EQ(cube.nv >> cube.cdim, cube.nclusters);
	for (c = 0; c < cube.nclusters; c++) {
		want = HCUBE_NO_CONTROLLER;
		for (v = c << cube.cdim; v < (c + 1) << cube.cdim && want == HCUBE_NO_CONTROLLER; v++)
			if (healthy(v))
				want = v;
		EXPECT_EQ(want, cube.ctrl[c]) TH_LOG("cluster %u", c);
	}
	for (v = 0; v < cube.nv; v++)
		EXPECT_EQ(cube.ctrl[v >> cube.cdim] == v, cube.v[v].controller)
			TH_LOG("vertex %u", v);
}

#define EXPECT_CTRL_EVENT(ev, i, from, to, why) do {			\
	EXPECT_GT((ev).n, (i));						\
	EXPECT_EQ(0, (ev).cluster[i]);					\
	EXPECT_EQ((uint32_t)(from), (ev).old[i]);			\
	EXPECT_EQ((uint32_t)(to), (ev).now[i]);				\
	EXPECT_EQ((uint32_t)(why), (ev).reason[i]);			\
} while (0)

/*
 * TV-7 (selftests/core/pebble_test.c) on cluster 0 (the 3-cube 000..111): controller 000 fails,
 * 001 takes over; 001 fails too, 010 does; 000 and 001 recover and 010
 * keeps the role (no preemption); when 010 fails the lowest healthy label,
 * 000, is elected again. Each change is one CONTROLLER_NTF, and a recovery
 * sends none.
 */
TEST_F(pol, controller_election_3cube)
{
	struct pol_state *st = &self->s;
	struct ctrl_ev e = { 0 };

	if (cube.dim < 2 || !healthy(0) || !healthy(1) || !healthy(2))
		SKIP(return, "needs vertices 0, 1, 2 healthy");
	expect_initial_controllers(_metadata);
	EXPECT_EQ(0, cube.ctrl[0]);
	listen_events(_metadata, st);

	ASSERT_EQ(0, hc_fault(&st->h, 1, -1, 0, NULL));
	drain(st, &e, 300);
	ASSERT_EQ(1, e.n);
	EXPECT_CTRL_EVENT(e, 0, 0, 1, HCUBE_REASON_ADMIN);
	ASSERT_EQ(0, hc_get_cube(&st->h, &cube));
	EXPECT_EQ(1, cube.ctrl[0]);
	EXPECT_TRUE(cube.v[1].controller);
	EXPECT_FALSE(cube.v[0].controller);

	ASSERT_EQ(0, hc_fault(&st->h, 1, -1, 1, NULL));
	drain(st, &e, 300);
	ASSERT_EQ(2, e.n);
	EXPECT_CTRL_EVENT(e, 1, 1, 2, HCUBE_REASON_ADMIN);

	/* recovered controllers do not take the role back */
	ASSERT_EQ(0, hc_fault(&st->h, 0, -1, 0, NULL));
	ASSERT_EQ(0, hc_fault(&st->h, 0, -1, 1, NULL));
	drain(st, &e, 300);
	EXPECT_EQ(2, e.n);
	ASSERT_EQ(0, hc_get_cube(&st->h, &cube));
	EXPECT_EQ(HCUBE_VERTEX_HEALTHY, cube.v[0].state);
	EXPECT_EQ(2, cube.ctrl[0]);
	EXPECT_TRUE(cube.v[2].controller);
	EXPECT_FALSE(cube.v[0].controller);

	/* the next election: the lowest healthy label wins */
	ASSERT_EQ(0, hc_fault(&st->h, 1, -1, 2, NULL));
	drain(st, &e, 300);
	ASSERT_EQ(3, e.n);
	EXPECT_CTRL_EVENT(e, 2, 2, 0, HCUBE_REASON_ADMIN);
	ASSERT_EQ(0, hc_fault(&st->h, 0, -1, 2, NULL));
	drain(st, &e, 300);
	EXPECT_EQ(3, e.n);
	ASSERT_EQ(0, hc_get_cube(&st->h, &cube));
	EXPECT_EQ(0, cube.ctrl[0]);

	/* a new topology elects afresh, without controller events */
	ASSERT_EQ(0, hc_fault(&st->h, 1, -1, 0, NULL));
	drain(st, &e, 300);
	ASSERT_EQ(4, e.n);
	ASSERT_EQ(0, hc_fault(&st->h, 0, -1, 0, NULL));
	ASSERT_EQ(0, hc_topo(&st->h, HCUBE_MODE_CPU));
	drain(st, &e, 300);
	EXPECT_EQ(4, e.n);
	ASSERT_EQ(0, hc_get_cube(&st->h, &cube));
	expect_initial_controllers(_metadata);
}

/* The controller's CPU goes offline: a new one (hotplug); back online: kept. */
TEST_F(pol, controller_election_hotplug)
{
	struct pol_state *st = &self->s;
	struct ctrl_ev e = { 0 };
	int cpu = -1, i;

	if (cube.dim < 2 || !healthy(0) || !healthy(1) || !healthy(2))
		SKIP(return, "needs vertices 0, 1, 2 healthy");
	for (i = 1; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &cube.v[1].cpus)) {
			cpu = i;
			break;
		}
	if (cpu < 1 || CPU_COUNT(&cube.v[1].cpus) != 1)
		SKIP(return, "vertex 1 is not one CPU other than 0");
	listen_events(_metadata, st);
	ASSERT_EQ(0, hc_fault(&st->h, 1, -1, 0, NULL));
	drain(st, &e, 300);
	ASSERT_EQ(1, e.n);
	EXPECT_CTRL_EVENT(e, 0, 0, 1, HCUBE_REASON_ADMIN);

	ASSERT_EQ(0, hc_set_online(cpu, 0));
	drain(st, &e, 500);
	ASSERT_EQ(2, e.n);
	EXPECT_CTRL_EVENT(e, 1, 1, 2, HCUBE_REASON_HOTPLUG);
	ASSERT_EQ(0, hc_set_online(cpu, 1));
	drain(st, &e, 500);
	EXPECT_EQ(2, e.n);
	ASSERT_EQ(0, hc_get_cube(&st->h, &cube));
	EXPECT_EQ(HCUBE_VERTEX_HEALTHY, cube.v[1].state);
	EXPECT_EQ(2, cube.ctrl[0]);
}

/*
 * Contention (Gulati et al. 1990, Fig. 1): owners 001, 010 and 100 all overloaded,
 * vertex 000 their one light neighbour, every other vertex at the floor.
 * The receiver is in all three pebbles; the controller gives it no more
 * than its spare capacity (floor - load), and nothing else changes.
 */
TEST_F(pol, pebble_contended_receiver)
{
	struct pol_state *st = &self->s;
	uint32_t count[HC_MAXV], owners[3] = { 1, 2, 4 }, L = 0, x = 0, v, h = 0;
	uint32_t total = 0, fl = 0, ce = 0, excess = 0, before[HC_MAXV];
	int i, pass, found = 0;

	if (cube.dim < 3)
		SKIP(return, "needs a 3-cube");
	for (v = 0; v < cube.nv; v++)
		h += healthy(v);
	/*
	 * Owner load L and the others' x such that x is the floor: the first
	 * whose excess exceeds the receiver's capacity, else any.
	 */
	for (pass = 0; pass < 2 && !found; pass++) {
		for (L = 10; L <= 16 && !found; L++) {
			for (x = L - 1; x > 0 && !found; x--) {
				total = 3 * L + (h - 4) * x;
				fl = total / h;
				ce = fl + (total % h ? 1 : 0);
				found = fl == x && L > ce && total <= NKIDS &&
					(pass || 3 * (L - ce) > fl);
			}
		}
	}
	ASSERT_TRUE(found);
	L--;
	x++;
	for (v = 0; v < cube.nv; v++) {
		int n = !healthy(v) || v == 0 ? 0 : v == 1 || v == 2 || v == 4 ? L : x;

		before[v] = n;
		if (!n)
			continue;
		spawn(st, n);
		ASSERT_EQ(0, add_on(st, n, v));
	}
	ASSERT_LE(st->nkids, NKIDS);
	for (i = 0; i < 3; i++)
		excess += L - ce;
	TH_LOG("owners at %u, others at %u, floor %u ceil %u: excess %u for a capacity of %u",
	       L, x, fl, ce, excess, fl);

	ASSERT_EQ(0, hc_rebalance(&st->h, HCUBE_POLICY_PEBBLE, 0, &rep));
	EXPECT_EQ(0, rep.failed);
	EXPECT_TRUE(rep.has_contended);
	EXPECT_GE(rep.contended, 1);
	count_by_affinity(_metadata, st, count);
	for (v = 0; v < cube.nv; v++)
		EXPECT_EQ(before[v], rep.before[v]) TH_LOG("vertex %u", v);
	/* the receiver: within its capacity, and filled as far as it goes */
	EXPECT_LE(count[0], fl);
	EXPECT_EQ(excess < fl ? excess : fl, count[0]);
	for (i = 0; i < 3; i++) {
		EXPECT_LE(count[owners[i]], L);
		EXPECT_GE(count[owners[i]], ce);
	}
	for (v = 3; v < cube.nv; v++) {
		if (v != 4)
			EXPECT_EQ(before[v], count[v]) TH_LOG("vertex %u", v);
	}
	EXPECT_EQ(rep.moved, count[0]);
}

/* The automatic trigger with policy auto: the event names what it applied. */
TEST_F(pol, automatic_trigger_auto_policy)
{
	struct pol_state *st = &self->s;
	uint64_t s[HCUBE_A_STATS_MAX + 1], s0[HCUBE_A_STATS_MAX + 1];
	struct ctrl_ev e = { 0 };
	uint32_t count[HC_MAXV], lo, hi;
	int tries;

	/* the counters count since the module was loaded */
	ASSERT_EQ(0, hc_stats(&st->h, s0));
	listen_events(_metadata, st);
	spawn(st, 3 * cube.nhealthy + 1);
	ASSERT_EQ(0, add_on(st, st->nkids, 0));
	ASSERT_EQ(0, hc_config(&st->h, HCUBE_POLICY_AUTO, 1, 2, 100));
	for (tries = 0; tries < 100; tries++) {
		ASSERT_EQ(0, hc_stats(&st->h, s));
		if (s[HCUBE_A_STATS_AUTO_REBALANCES] > s0[HCUBE_A_STATS_AUTO_REBALANCES])
			break;
		usleep(100000);
	}
	EXPECT_EQ(s0[HCUBE_A_STATS_AUTO_REBALANCES] + 1, s[HCUBE_A_STATS_AUTO_REBALANCES]);
	drain(st, &e, 300);
	EXPECT_TRUE(e.rebalance_auto);
	EXPECT_TRUE(e.auto_applied == HCUBE_POLICY_DEM || e.auto_applied == HCUBE_POLICY_MCWA ||
		    e.auto_applied == HCUBE_POLICY_OPTIMAL) TH_LOG("applied %u", e.auto_applied);
	count_by_affinity(_metadata, st, count);
	EXPECT_EQ(0, imbalance(count, &lo, &hi));
}

TEST_HARNESS_MAIN
