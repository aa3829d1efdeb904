// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: what a rebalance tells and to whom. A dry run's plan goes to its
 * caller alone (the last rebalance's plan, the events group and the
 * counters but dry_runs stay as they were); a reply and an event carry
 * report_transfers transfers at most, and say when they cut the list,
 * which a REBALANCE dump gives whole; a plan the core stopped short of
 * raising the maximum says so in both; an unload while births send events
 * to a listener.
 */
#include <poll.h>
#include <sys/sysinfo.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_ITSELF)

#define NKIDS 24

static struct hc_report rep, dump;
/* STOPPED_SHORT in the last reply, and in the last event rebalance_events() saw */
static int rep_short, ev_short;

static int load(const char *params)
{
	if (system("rmmod hcube 2>/dev/null") && hc_module_loaded())
		return -1;
	return hc_module_insmod(params);
}

FIXTURE(rp) {
	struct hnl h;
	pid_t kids[NKIDS];
	int nkids, ev;
};

FIXTURE_SETUP(rp)
{
	self->nkids = 0;
	self->ev = -1;
}

FIXTURE_TEARDOWN(rp)
{
	if (self->ev >= 0)
		close(self->ev);
	hc_kill_all(self->kids, self->nkids);
	system("rmmod hcube 2>/dev/null");
}

/* Open the family, then @n sleepers registered on vertex @v. */
static int setup(FIXTURE_DATA(rp) *self, int n, int v)
{
	int first = self->nkids;

	if (hnl_open(&self->h))
		return -1;
	while (n-- > 0 && self->nkids < NKIDS)
		self->kids[self->nkids++] = hc_spawn(0);
	return hc_task_add(&self->h, self->kids + first, self->nkids - first, v);
}

/* A socket on the events group. */
static int join_events(struct hnl *h)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint32_t grp = h->mcgrp;
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC), rcv = 4 << 20;

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		return -1;
	return fd;
}

/*
 * The REBALANCE_NTF events that come within @ms of quiet; the last one's
 * transfer nests into *nests and its TRANSFERS_CUT into *cut.
 */
static int rebalance_events(int fd, uint16_t family, int ms, int *nests, int *cut)
{
	static char buf[1 << 20];
	int seen = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *nlh;
		ssize_t n;

		if (poll(&p, 1, ms) <= 0)
			return seen;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -1;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			struct genlmsghdr *g = NLMSG_DATA(nlh);
			struct nlattr *a;
			int len, rem;
			void *head;

			if (nlh->nlmsg_type != family || g->cmd != HCUBE_CMD_REBALANCE_NTF)
				continue;
			seen++;
			*nests = 0;
			head = hnl_attrs(nlh, &len);
			hnl_for_each_attr(a, head, len, rem)
				*nests += (a->nla_type & NLA_TYPE_MASK) == HCUBE_A_REPORT_TRANSFER;
			*cut = !!hnl_msg_attr(nlh, HCUBE_A_REPORT_TRANSFERS_CUT);
			ev_short = !!hnl_msg_attr(nlh, HCUBE_A_REPORT_STOPPED_SHORT);
		}
	}
}

/* REBALANCE's reply: the report into rep, its TRANSFERS_CUT into *cut. */
static int rebalance(struct hnl *h, int policy, int dry_run, int *cut)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err;

	memset(&rep, 0, sizeof(rep));
	hreq_init(r, h, h->family, HCUBE_CMD_REBALANCE, 0);
	hreq_u32(r, HCUBE_A_REPORT_POLICY, policy);
	if (dry_run)
		hreq_flag(r, HCUBE_A_REPORT_DRY_RUN);
	err = hnl_do(h, r, &rp);
	if (!err && rp.nmsgs != 1)
		err = -EPROTO;
	if (!err) {
		hc_parse_report(rp.msgs[0], &rep);
		*cut = !!hnl_msg_attr(rp.msgs[0], HCUBE_A_REPORT_TRANSFERS_CUT);
		rep_short = !!hnl_msg_attr(rp.msgs[0], HCUBE_A_REPORT_STOPPED_SHORT);
	}
	hreply_free(&rp);
	free(r);
	return err;
}

/* REBALANCE's dump: every transfer into dump (x, ntransfers, plan_ntransfers). */
static int rebalance_dump(struct hnl *h, int policy, int dry_run)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err, i;

	memset(&dump, 0, sizeof(dump));
	hreq_init(r, h, h->family, HCUBE_CMD_REBALANCE, NLM_F_DUMP);
	if (policy >= 0)
		hreq_u32(r, HCUBE_A_REPORT_POLICY, policy);
	if (dry_run)
		hreq_flag(r, HCUBE_A_REPORT_DRY_RUN);
	err = hnl_do(h, r, &rp);
	for (i = 0; !err && i < rp.nmsgs; i++) {
		if (rp.msgs[i]->nlmsg_flags & NLM_F_DUMP_INTR)
			err = -EINTR;
		hc_parse_report(rp.msgs[i], &dump);
	}
	hreply_free(&rp);
	free(r);
	return err;
}

static int same_transfers(const struct hc_transfer *a, const struct hc_transfer *b, uint32_t n)
{
	return !memcmp(a, b, n * sizeof(*a));
}

/*
 * A dry run leaves the last rebalance's plan as it was (its dump), sends
 * no event to the events group, and changes no counter but dry_runs.
 */
TEST_F_TIMEOUT(rp, dry_run_writes_nothing_shared_and_notifies_nobody, 120)
{
	static struct hc_transfer last[64];
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s1[HCUBE_A_STATS_MAX + 1];
	uint32_t nlast;
	int cut, nests, i;

	ASSERT_EQ(0, load("mode=cpu"));
	ASSERT_EQ(0, setup(self, 12, 0));
	ASSERT_EQ(0, rebalance(&self->h, HCUBE_POLICY_DEM, 0, &cut));
	nlast = rep.ntransfers;
	ASSERT_GT(nlast, 0);
	ASSERT_LE(nlast, 64);
	memcpy(last, rep.x, nlast * sizeof(*last));
	/* new loads, so that a plan made now differs from the last one */
	ASSERT_EQ(0, setup(self, 6, 1));
	self->ev = join_events(&self->h);
	ASSERT_GE(self->ev, 0);
	ASSERT_EQ(0, hc_stats(&self->h, s0));

	ASSERT_EQ(0, rebalance(&self->h, HCUBE_POLICY_MCWA, 1, &cut));
	ASSERT_GT(rep.plan_ntransfers, 0);
	EXPECT_FALSE(rep.ntransfers == nlast && same_transfers(rep.x, last, nlast))
		TH_LOG("the dry run's plan is the last rebalance's: the test shows nothing");

	EXPECT_EQ(0, rebalance_events(self->ev, self->h.family, 500, &nests, &cut))
		TH_LOG("a dry run sent REBALANCE_NTF to the events group");
	ASSERT_EQ(0, hc_stats(&self->h, s1));
	EXPECT_EQ(s0[HCUBE_A_STATS_DRY_RUNS] + 1, s1[HCUBE_A_STATS_DRY_RUNS]);
	for (i = HCUBE_A_STATS_PAD + 1; i <= HCUBE_A_STATS_MAX; i++)
		if (i != HCUBE_A_STATS_DRY_RUNS && s0[i] != s1[i])
			break;
	EXPECT_EQ(HCUBE_A_STATS_MAX + 1, i)
		TH_LOG("counter %d changed with a dry run", i);
	/* the last rebalance's plan, as it was */
	ASSERT_EQ(0, rebalance_dump(&self->h, -1, 0));
	EXPECT_EQ(nlast, dump.plan_ntransfers);
	EXPECT_EQ(nlast, dump.ntransfers);
	EXPECT_TRUE(same_transfers(dump.x, last, nlast))
		TH_LOG("the last rebalance's plan changed with a dry run");
}

/*
 * report_transfers=2: a reply and the event list two transfers and say
 * that they cut the list; the dump lists them all, the reply's first.
 */
TEST_F_TIMEOUT(rp, transfers_past_the_bound_by_dump, 120)
{
	int cut = 0, ncut = 0, nests = -1;

	ASSERT_EQ(0, load("mode=cpu report_transfers=2"));
	ASSERT_EQ(0, setup(self, NKIDS, 0));
	self->ev = join_events(&self->h);
	ASSERT_GE(self->ev, 0);

	ASSERT_EQ(0, rebalance(&self->h, HCUBE_POLICY_DEM, 1, &cut));
	ASSERT_GT(rep.plan_ntransfers, 2) TH_LOG("a plan of more than 2 transfers is needed");
	EXPECT_EQ(2, rep.ntransfers) TH_LOG("a dry run's reply lists %u of %u transfers",
					    rep.ntransfers, rep.plan_ntransfers);
	EXPECT_TRUE(cut) TH_LOG("a cut reply without TRANSFERS_CUT");
	ASSERT_EQ(0, rebalance_dump(&self->h, HCUBE_POLICY_DEM, 1));
	EXPECT_EQ(rep.plan_ntransfers, dump.plan_ntransfers);
	EXPECT_EQ(rep.plan_ntransfers, dump.ntransfers);
	EXPECT_TRUE(same_transfers(dump.x, rep.x, 2));

	ASSERT_EQ(0, rebalance(&self->h, HCUBE_POLICY_DEM, 0, &cut));
	EXPECT_EQ(2, rep.ntransfers);
	EXPECT_TRUE(cut);
	EXPECT_EQ(1, rebalance_events(self->ev, self->h.family, 500, &nests, &ncut));
	EXPECT_EQ(2, nests) TH_LOG("the event lists %d transfers", nests);
	EXPECT_TRUE(ncut) TH_LOG("a cut event without TRANSFERS_CUT");
	ASSERT_EQ(0, rebalance_dump(&self->h, -1, 0));
	EXPECT_EQ(rep.plan_ntransfers, dump.ntransfers);
	EXPECT_TRUE(same_transfers(dump.x, rep.x, 2));
}

static uint32_t max_load(const uint32_t *l, uint32_t n)
{
	uint32_t i, m = 0;

	for (i = 0; i < n; i++)
		m = l[i] > m ? l[i] : m;
	return m;
}

/*
 * Never worse: on vertices 0-3 loaded 2, 5, 6, 1, Das et al.'s SBN
 * operation would leave some vertex above 6 (hcube-sim plan --policy sbn
 * --json: stopped_short). The core cuts it, the tasks move by the cut
 * plan, and the reply and the event say STOPPED_SHORT; a plan that runs
 * whole (mcwa) does not.
 */
TEST_F_TIMEOUT(rp, stopped_short_in_reply_and_event, 120)
{
	static const int loads[] = { 2, 5, 6, 1 };
	int cut, nests, v;

	/* absent vertices (6 CPUs) change SBN's plan of these loads */
	if (get_nprocs() & (get_nprocs() - 1))
		SKIP(return, "needs a whole cube: a power of two CPUs");
	ASSERT_EQ(0, load("mode=cpu"));
	ASSERT_EQ(0, hnl_open(&self->h));
	for (v = 0; v < 4; v++) {
		int first = self->nkids, i;

		for (i = 0; i < loads[v]; i++)
			self->kids[self->nkids++] = hc_spawn(0);
		ASSERT_EQ(0, hc_task_add(&self->h, self->kids + first, loads[v], v));
	}
	self->ev = join_events(&self->h);
	ASSERT_GE(self->ev, 0);

	ASSERT_EQ(0, rebalance(&self->h, HCUBE_POLICY_SBN, 0, &cut));
	ASSERT_EQ(6, max_load(rep.before, rep.nv)) TH_LOG("the loads are not the test's");
	EXPECT_TRUE(rep_short) TH_LOG("a cut SBN plan without STOPPED_SHORT in the reply");
	EXPECT_GT(rep.moved, 0) TH_LOG("the cut plan moved nothing: the test shows less");
	EXPECT_LE(max_load(rep.planned, rep.nv), 6);
	EXPECT_LE(max_load(rep.after, rep.nv), 6);
	ev_short = 0;
	EXPECT_EQ(1, rebalance_events(self->ev, self->h.family, 500, &nests, &cut));
	EXPECT_TRUE(ev_short) TH_LOG("a cut SBN plan without STOPPED_SHORT in the event");

	ASSERT_EQ(0, rebalance(&self->h, HCUBE_POLICY_MCWA, 1, &cut));
	EXPECT_FALSE(rep_short) TH_LOG("a whole MCWA plan with STOPPED_SHORT");
}

/* A registered process that forks children that exit at once, until killed. */
static pid_t forker(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;) {
			pid_t c = fork();

			if (c == 0)
				_exit(0);
			if (c > 0)
				waitpid(c, NULL, 0);
		}
	}
	return pid;
}

/*
 * rmmod while a registered process forks (births in flight, most refused
 * with a TASK_NTF each: max_tasks=2) and a listener is on the group: the
 * unload completes (a splat fails the run).
 */
TEST_F_TIMEOUT(rp, unload_with_births_and_a_listener, 120)
{
	int round;

	for (round = 0; round < 3; round++) {
		pid_t f;

		ASSERT_EQ(0, load("mode=cpu births=1 max_tasks=2"));
		ASSERT_EQ(0, hnl_open(&self->h));
		self->ev = join_events(&self->h);
		ASSERT_GE(self->ev, 0);
		f = forker();
		ASSERT_GT(f, 0);
		self->kids[self->nkids++] = f;
		ASSERT_EQ(0, hc_task_add(&self->h, &f, 1, 0));
		usleep(300000);
		hnl_close(&self->h);
		EXPECT_EQ(0, system("rmmod hcube")) TH_LOG("round %d: rmmod failed", round);
		hc_kill_all(self->kids, self->nkids);
		self->nkids = 0;
		close(self->ev);
		self->ev = -1;
	}
}

TEST_HARNESS_MAIN
