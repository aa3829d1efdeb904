// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: CPUs marked faulty by their machine checks. Records are injected
 * with the kernel's mce-inject (software injection: each write of
 * /sys/kernel/debug/mce-inject/bank logs one record through mce_log(), as
 * a real machine check is logged), and what the module does is checked
 * from userspace: the cube, the CPU's line of the vertex dump, the
 * events, the counters and the registered tasks' affinity. Skipped where
 * mce-inject is missing.
 *
 * Only the core's own errors count against the CPU that logged them: one
 * record of each class of MCA error code is injected (classes). A
 * firmware-first record cannot be injected here: mce-inject refuses a
 * bank the CPU does not have (the firmware's memory errors are logged
 * with bank 255) and time-stamps every record (the firmware's reports of
 * AMD SMCA banks have no TSC), and qemu offers no ACPI EINJ table; nor
 * can an SMCA bank, qemu's CPUs have none. Both are tried on the
 * classifier itself in selftests/core/mca_test.c.
 */
#include <poll.h>
#include <pthread.h>
#include <sys/mount.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

#define MI		"/sys/kernel/debug/mce-inject"
#define MCE_CE		0x9c00000000000151ULL	/* valid, enabled, corrected */
#define MCE_UCNA	0xbc00000000000151ULL	/* and UC; PCC clear */
#define MCE_BANK	1
#define NKIDS		8

static struct hc_cube cube;

/* What the vertex dump says of one CPU (its HCUBE_A_VERTEX_INFO_CPU_INFO). */
struct cpu_info {
	int found, marked_by, uc;	/* marked_by: -1 when absent */
	uint64_t records, status;
	uint32_t count, window, bank;
};

/* mce-inject loaded and its files there: 0, else -1. */
static int mi_ready(void)
{
	if (access(MI "/bank", W_OK)) {
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		if (system("modprobe mce-inject 2>/dev/null"))
			return -1;
	}
	return access(MI "/bank", W_OK) ? -1 : 0;
}

/* One record of @cpu: 0 or -errno (the write of bank logs it). */
static int mi_inject(int cpu, uint64_t status)
{
	char b[32];
	int err;

	/* mce-inject drops the last byte written: a newline */
	err = hc_write_file(MI "/flags", "sw\n");
	snprintf(b, sizeof(b), "%d", cpu);
	err = err ?: hc_write_file(MI "/cpu", b);
	snprintf(b, sizeof(b), "0x%llx", (unsigned long long)status);
	err = err ?: hc_write_file(MI "/status", b);
	snprintf(b, sizeof(b), "%d", MCE_BANK);
	return err ?: hc_write_file(MI "/bank", b);
}

/* Settings, -1 to leave one as it is. */
static int mce_config(struct hnl *h, int threshold, int window, int uc)
{
	struct hreq *r = malloc(sizeof(*r));

	hreq_init(r, h, h->family, HCUBE_CMD_CONFIG_SET, 0);
	hreq_nest_start(r, HCUBE_A_CONFIG);
	if (threshold >= 0)
		hreq_u32(r, HCUBE_A_CONFIG_MCE_CE_THRESHOLD, threshold);
	if (window >= 0)
		hreq_u32(r, HCUBE_A_CONFIG_MCE_CE_WINDOW, window);
	if (uc >= 0)
		hreq_u32(r, HCUBE_A_CONFIG_MCE_UC, uc);
	hreq_nest_end(r);
	return hc_send(h, r, NULL);
}

static void parse_cpu_info(struct nlattr *nest, struct cpu_info *ci)
{
	struct nlattr *a;

	memset(ci, 0, sizeof(*ci));
	ci->found = 1;
	a = hnl_nested(nest, HCUBE_A_CPU_INFO_MARKED_BY);
	ci->marked_by = a ? (int)hnl_u32(a) : -1;
	a = hnl_nested(nest, HCUBE_A_CPU_INFO_MCE_RECORDS);
	ci->records = a ? hnl_u64(a) : 0;
	a = hnl_nested(nest, HCUBE_A_CPU_INFO_MCE_STATUS);
	ci->status = a ? hnl_u64(a) : 0;
	a = hnl_nested(nest, HCUBE_A_CPU_INFO_MCE_COUNT);
	ci->count = a ? hnl_u32(a) : 0;
	a = hnl_nested(nest, HCUBE_A_CPU_INFO_MCE_WINDOW);
	ci->window = a ? hnl_u32(a) : 0;
	a = hnl_nested(nest, HCUBE_A_CPU_INFO_MCE_BANK);
	ci->bank = a ? hnl_u32(a) : 0;
	ci->uc = !!hnl_nested(nest, HCUBE_A_CPU_INFO_MCE_UC);
}

/* @cpu's line in the vertex dump; ci->found 0 when it has none. */
static int cpu_info(struct hnl *h, int cpu, struct cpu_info *ci)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err, i, len, rem, vrem;

	memset(ci, 0, sizeof(*ci));
	ci->marked_by = -1;
	hreq_init(r, h, h->family, HCUBE_CMD_VERTEX_GET, NLM_F_DUMP);
	err = hnl_do(h, r, &rp);
	for (i = 0; !err && i < rp.nmsgs; i++) {
		void *head = hnl_attrs(rp.msgs[i], &len);
		struct nlattr *v, *a;

		hnl_for_each_attr(v, head, len, rem) {
			if ((v->nla_type & NLA_TYPE_MASK) != HCUBE_A_VERTEX)
				continue;
			hnl_for_each_attr(a, hnl_data(v), hnl_len(v), vrem) {
				struct nlattr *c;

				if ((a->nla_type & NLA_TYPE_MASK) != HCUBE_A_VERTEX_INFO_CPU_INFO)
					continue;
				c = hnl_nested(a, HCUBE_A_CPU_INFO_CPU);
				if (c && (int)hnl_u32(c) == cpu)
					parse_cpu_info(a, ci);
			}
		}
	}
	hreply_free(&rp);
	free(r);
	return err;
}

/* The records of @cpu since the module was loaded. */
static uint64_t cpu_records(struct hnl *h, int cpu)
{
	struct cpu_info ci;

	return cpu_info(h, cpu, &ci) ? UINT64_MAX : ci.records;
}

static int vertex_of_cpu(int cpu)
{
	uint32_t i;

	for (i = 0; i < cube.nv; i++)
		if (CPU_ISSET(cpu, &cube.v[i].cpus))
			return i;
	return -1;
}

static int is_faulty(struct hnl *h, int cpu)
{
	int v;

	if (hc_get_cube(h, &cube))
		return -1;
	v = vertex_of_cpu(cpu);
	return v >= 0 && CPU_ISSET(cpu, &cube.v[v].faulty);
}

/*
 * Wait until the module counted @n records in all. The kernel holds about
 * 30 records between mce_log() and the decode chain (and drops more,
 * "MCE records pool full!"): a storm waits for them now and then.
 */
static int wait_records(struct hnl *h, uint64_t n)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1];
	int i;

	for (i = 0; i < 500; i++) {
		if (hc_stats(h, s))
			return -1;
		if (s[HCUBE_A_STATS_MCE_RECORDS] >= n)
			return 0;
		usleep(20000);
	}
	return -1;
}

/*
 * Wait until the module counted @n records in all, then let it apply what
 * they asked for: a CONFIG_SET that changes nothing first applies the
 * marks machine checks asked for (as every command that moves tasks does).
 */
static int settle(struct hnl *h, uint64_t n)
{
	return wait_records(h, n) ?: mce_config(h, -1, -1, -1);
}

/* The records count once it stopped changing for half a second. */
static uint64_t quiet_records(struct hnl *h)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1], last = UINT64_MAX;
	int i;

	for (i = 0; i < 100; i++) {
		if (hc_stats(h, s))
			return UINT64_MAX;
		if (s[HCUBE_A_STATS_MCE_RECORDS] == last)
			return last;
		last = s[HCUBE_A_STATS_MCE_RECORDS];
		usleep(500000);
	}
	return UINT64_MAX;
}

/* The CPUs the test may use: online CPUs of the cube, in order. */
static int cube_cpus(int *cpus, int max)
{
	int cpu, n = 0;
	uint32_t i;

	for (cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		for (i = 0; i < cube.nv; i++)
			if (CPU_ISSET(cpu, &cube.v[i].usable))
				cpus[n++] = cpu;
	return n;
}

FIXTURE(mce) {
	struct hnl h;
	pid_t kids[NKIDS];
	int nkids;
	uint64_t s0[HCUBE_A_STATS_MAX + 1];
	int cpus[CPU_SETSIZE], ncpus;
};

FIXTURE_SETUP(mce)
{
	if (mi_ready())
		SKIP(return, "mce-inject is not available (modprobe mce-inject, debugfs)");
	ASSERT_EQ(0, hnl_open(&self->h)) TH_LOG("is the hcube module loaded?");
	ASSERT_EQ(0, hc_reset(&self->h, HCUBE_MODE_CPU));
	ASSERT_EQ(0, mce_config(&self->h, 0, 86400, 0));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	self->ncpus = cube_cpus(self->cpus, CPU_SETSIZE);
	ASSERT_GE(self->ncpus, 4);
	ASSERT_EQ(0, hc_stats(&self->h, self->s0));
	self->nkids = 0;
}

FIXTURE_TEARDOWN(mce)
{
	int i;

	if (!self->h.fd)
		return;
	hc_task_del_all(&self->h);
	hc_kill_all(self->kids, self->nkids);
	for (i = 1; i < self->ncpus; i++)
		hc_set_online(self->cpus[i], 1);
	mce_config(&self->h, 0, 86400, 0);
	hc_reset(&self->h, HCUBE_MODE_CPU);
	hnl_close(&self->h);
}

/* @n more sleepers registered on the vertex of @cpu. */
static int register_on(FIXTURE_DATA(mce) *self, int cpu, int n)
{
	int first = self->nkids, i;

	for (i = 0; i < n && self->nkids < NKIDS; i++)
		self->kids[self->nkids++] = hc_spawn(0);
	return hc_task_add(&self->h, self->kids + first, self->nkids - first,
			   vertex_of_cpu(cpu));
}

/* No registered task may run on @cpu. */
static void expect_off(struct __test_metadata *_metadata,
		       FIXTURE_DATA(mce) *self, int cpu)
{
	int i;

	for (i = 0; i < self->nkids; i++) {
		cpu_set_t a;

		ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(a), &a));
		EXPECT_FALSE(CPU_ISSET(cpu, &a)) TH_LOG("task %d still on CPU %d",
						       self->kids[i], cpu);
	}
}

static uint64_t delta(FIXTURE_DATA(mce) *self, int k)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1];

	if (hc_stats(&self->h, s))
		return UINT64_MAX;
	return s[k] - self->s0[k];
}

/*
 * One record of each class of MCA error code on one CPU: those of the core
 * (cache and TLB of levels L0-L2, internal errors) count in its window and
 * its records; the others only move the counter that says why.
 */
struct mce_class {
	uint64_t status;
	int stat;		/* the counter it moves; 0: the CPU's count */
	const char *what;
};

static const struct mce_class classes[] = {
	{ 0x9c00000000000151ULL, 0, "L1 instruction cache read" },
	{ 0x9c00000000000135ULL, 0, "L1 data cache read" },
	{ 0x9c00000000000146ULL, 0, "L2 data cache write" },
	{ 0x9c00000000000015ULL, 0, "L1 data TLB" },
	{ 0x9c00000000000005ULL, 0, "internal parity" },
	{ 0x9c00000000000402ULL, 0, "internal unclassified" },
	{ 0x9c00000000000400ULL, 0, "internal timer" },
	{ 0x9c0000000000009fULL, HCUBE_A_STATS_MCE_MEMORY, "memory controller read" },
	{ 0x9c000000000000c0ULL, HCUBE_A_STATS_MCE_MEMORY, "memory scrubbing" },
	{ 0x9c0000000000000fULL, HCUBE_A_STATS_MCE_MEMORY, "generic cache hierarchy" },
	{ 0x9c00000000000813ULL, HCUBE_A_STATS_MCE_BUS, "bus read of memory" },
	{ 0x9c00000000000e0bULL, HCUBE_A_STATS_MCE_BUS, "I/O error" },
	{ 0x9c0000000000010bULL, HCUBE_A_STATS_MCE_SHARED_CACHE, "generic-level (L3) cache" },
	{ 0x9c00000000000017ULL, HCUBE_A_STATS_MCE_SHARED_CACHE, "generic-level TLB" },
	{ 0x9c00000000000001ULL, HCUBE_A_STATS_MCE_OTHER, "unclassified" },
};

static const int mce_reasons[] = {
	HCUBE_A_STATS_MCE_MEMORY, HCUBE_A_STATS_MCE_BUS, HCUBE_A_STATS_MCE_SHARED_CACHE,
	HCUBE_A_STATS_MCE_FIRMWARE, HCUBE_A_STATS_MCE_OTHER,
};

TEST_F(mce, classes)
{
	HC_SETUP_SKIPPED();
	int cpu = self->cpus[2], i, k;
	uint64_t r0 = cpu_records(&self->h, cpu), s0[HCUBE_A_STATS_MAX + 1];
	uint64_t s1[HCUBE_A_STATS_MAX + 1];
	uint32_t count = 0;
	struct cpu_info ci;

	ASSERT_EQ(0, mce_config(&self->h, 100, 60, 0));
	for (i = 0; i < (int)(sizeof(classes) / sizeof(classes[0])); i++) {
		const struct mce_class *c = &classes[i];

		ASSERT_EQ(0, hc_stats(&self->h, s0));
		ASSERT_EQ(0, mi_inject(cpu, c->status));
		ASSERT_EQ(0, settle(&self->h, s0[HCUBE_A_STATS_MCE_RECORDS] + 1));
		ASSERT_EQ(0, hc_stats(&self->h, s1));
		ASSERT_EQ(0, cpu_info(&self->h, cpu, &ci));
		count += !c->stat;
		EXPECT_EQ(count, ci.count) TH_LOG("%s (0x%llx): CPU %d's count", c->what,
						  (unsigned long long)c->status, cpu);
		EXPECT_EQ(r0 + count, ci.records) TH_LOG("%s: CPU %d's records", c->what, cpu);
		for (k = 0; k < (int)(sizeof(mce_reasons) / sizeof(mce_reasons[0])); k++) {
			int a = mce_reasons[k];

			EXPECT_EQ(a == c->stat, s1[a] - s0[a])
				TH_LOG("%s: counter %d moved by %llu", c->what, a,
				       (unsigned long long)(s1[a] - s0[a]));
		}
		EXPECT_EQ(0, is_faulty(&self->h, cpu)) TH_LOG("%s", c->what);
	}
	EXPECT_EQ(0, delta(self, HCUBE_A_STATS_MCE_MARKS));
}

/*
 * Issue 31's case: five corrected memory-controller read errors logged by
 * one CPU, over a threshold of 3, and an uncorrected one with mce_uc on,
 * leave the CPU and its tasks alone; five of its own errors then mark it.
 */
TEST_F(mce, memory_errors_spare_the_cpu)
{
	HC_SETUP_SKIPPED();
	int cpu = self->cpus[2], i;
	cpu_set_t a;

	ASSERT_EQ(0, mce_config(&self->h, 3, 60, 1));
	ASSERT_EQ(0, register_on(self, cpu, 2));
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, mi_inject(cpu, 0x9c0000000000009fULL));
	ASSERT_EQ(0, mi_inject(cpu, 0xbc0000000000009fULL));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 6));
	EXPECT_EQ(0, is_faulty(&self->h, cpu));
	EXPECT_EQ(0, delta(self, HCUBE_A_STATS_MCE_MARKS));
	EXPECT_EQ(6, delta(self, HCUBE_A_STATS_MCE_MEMORY));
	for (i = 0; i < self->nkids; i++) {
		ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(a), &a));
		EXPECT_TRUE(CPU_ISSET(cpu, &a)) TH_LOG("task %d was moved off CPU %d",
						      self->kids[i], cpu);
	}
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 9));
	EXPECT_EQ(1, is_faulty(&self->h, cpu));
	expect_off(_metadata, self, cpu);
}

/* The defaults (mce_ce_threshold 0, mce_uc off) count and change nothing. */
TEST_F(mce, defaults_only_count)
{
	HC_SETUP_SKIPPED();
	int cpu = self->cpus[2], i;
	uint64_t r0 = cpu_records(&self->h, cpu);
	struct cpu_info ci;
	uint32_t gen;

	gen = cube.generation;
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, mi_inject(cpu, MCE_UCNA));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 6));
	EXPECT_EQ(0, is_faulty(&self->h, cpu));
	EXPECT_EQ(gen, cube.generation);
	EXPECT_EQ(6, delta(self, HCUBE_A_STATS_MCE_RECORDS));
	EXPECT_EQ(0, delta(self, HCUBE_A_STATS_MCE_MARKS));
	ASSERT_EQ(0, cpu_info(&self->h, cpu, &ci));
	ASSERT_TRUE(ci.found);
	EXPECT_EQ(-1, ci.marked_by);
	EXPECT_EQ(r0 + 6, ci.records);
	EXPECT_EQ(0, ci.count);		/* no window is kept while off */
	EXPECT_EQ(MCE_BANK, ci.bank);
	EXPECT_EQ(MCE_UCNA, ci.status);
}

/*
 * Below the threshold nothing happens; at it the CPU is faulty, its tasks
 * left it, the event and the vertex dump name the machine check; fault
 * del clears the mark and the count.
 */
TEST_F(mce, threshold_marks)
{
	HC_SETUP_SKIPPED();
	int cpu = self->cpus[2], fd, i, seen = 0;
	uint64_t r0 = cpu_records(&self->h, cpu);
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint32_t grp = self->h.mcgrp;
	static char buf[1 << 18];
	struct cpu_info ci;

	ASSERT_EQ(0, mce_config(&self->h, 3, 60, 0));
	ASSERT_EQ(0, register_on(self, cpu, 4));
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	ASSERT_EQ(0, setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)));

	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 2));
	EXPECT_EQ(0, is_faulty(&self->h, cpu));
	ASSERT_EQ(0, cpu_info(&self->h, cpu, &ci));
	EXPECT_EQ(2, ci.count);
	EXPECT_EQ(60, ci.window);

	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 3));
	EXPECT_EQ(1, is_faulty(&self->h, cpu));
	expect_off(_metadata, self, cpu);
	EXPECT_EQ(1, delta(self, HCUBE_A_STATS_MCE_MARKS));
	ASSERT_EQ(0, cpu_info(&self->h, cpu, &ci));
	EXPECT_EQ(HCUBE_REASON_MCE, ci.marked_by);
	EXPECT_EQ(3, ci.count);
	EXPECT_EQ(60, ci.window);
	EXPECT_EQ(MCE_BANK, ci.bank);
	EXPECT_EQ(MCE_CE, ci.status);
	EXPECT_FALSE(ci.uc);

	for (i = 0; i < 50 && seen != 1; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *nlh;
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			break;
		n = recv(fd, buf, sizeof(buf), 0);
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			struct genlmsghdr *g = NLMSG_DATA(nlh);
			struct nlattr *r, *c, *info;
			struct cpu_info ei;

			if (nlh->nlmsg_type != self->h.family || g->cmd != HCUBE_CMD_FAULT_NTF)
				continue;
			r = hnl_msg_attr(nlh, HCUBE_A_REASON);
			c = hnl_msg_attr(nlh, HCUBE_A_CPU);
			info = hnl_msg_attr(nlh, HCUBE_A_CPU_INFO);
			if (!r || hnl_u32(r) != HCUBE_REASON_MCE || !c || (int)hnl_u32(c) != cpu ||
			    !info)
				continue;
			parse_cpu_info(info, &ei);
			EXPECT_EQ(HCUBE_REASON_MCE, ei.marked_by);
			EXPECT_EQ(3, ei.count);
			seen = 1;
		}
	}
	close(fd);
	EXPECT_EQ(1, seen) TH_LOG("no FAULT_NTF with reason mce for CPU %d", cpu);

	/* fault del: the mark and the count go */
	ASSERT_EQ(0, hc_fault(&self->h, 0, cpu, -1, NULL));
	ASSERT_EQ(0, cpu_info(&self->h, cpu, &ci));
	EXPECT_EQ(-1, ci.marked_by);
	EXPECT_EQ(0, ci.count);
	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 5));
	EXPECT_EQ(0, is_faulty(&self->h, cpu));
	ASSERT_EQ(0, cpu_info(&self->h, cpu, &ci));
	EXPECT_EQ(2, ci.count);
	EXPECT_EQ(r0 + 5, ci.records);
}

/* Errors older than the window do not count. */
TEST_F(mce, window_slides)
{
	HC_SETUP_SKIPPED();
	int cpu = self->cpus[1];
	struct cpu_info ci;

	ASSERT_EQ(0, mce_config(&self->h, 3, 2, 0));
	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	sleep(3);
	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 3));
	EXPECT_EQ(0, is_faulty(&self->h, cpu));
	ASSERT_EQ(0, cpu_info(&self->h, cpu, &ci));
	EXPECT_EQ(1, ci.count);
	/* two more within the window: three of the last ones in it */
	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, mi_inject(cpu, MCE_CE));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 5));
	EXPECT_EQ(1, is_faulty(&self->h, cpu));
}

/* An uncorrected recoverable error: a mark at once with mce_uc on, else a count. */
TEST_F(mce, uncorrected)
{
	HC_SETUP_SKIPPED();
	int a = self->cpus[1], b = self->cpus[3];
	uint64_t r0 = cpu_records(&self->h, a);
	struct cpu_info ci;

	ASSERT_EQ(0, mce_config(&self->h, 100, 60, 0));
	ASSERT_EQ(0, mi_inject(a, MCE_UCNA));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 1));
	EXPECT_EQ(0, is_faulty(&self->h, a));
	ASSERT_EQ(0, cpu_info(&self->h, a, &ci));
	EXPECT_EQ(r0 + 1, ci.records);
	EXPECT_EQ(0, ci.count);		/* not a corrected error */

	ASSERT_EQ(0, mce_config(&self->h, -1, -1, 1));
	ASSERT_EQ(0, register_on(self, b, 3));
	ASSERT_EQ(0, mi_inject(b, MCE_UCNA));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 2));
	EXPECT_EQ(1, is_faulty(&self->h, b));
	expect_off(_metadata, self, b);
	ASSERT_EQ(0, cpu_info(&self->h, b, &ci));
	EXPECT_EQ(HCUBE_REASON_MCE, ci.marked_by);
	EXPECT_TRUE(ci.uc);
	EXPECT_EQ(MCE_UCNA, ci.status);
	EXPECT_EQ(0, is_faulty(&self->h, a));
}

/* Storms on two CPUs at once (interleaved records): both marked, once each. */
TEST_F(mce, storm_two_cpus)
{
	HC_SETUP_SKIPPED();
	int a = self->cpus[1], b = self->cpus[self->ncpus - 1], i;

	ASSERT_EQ(0, mce_config(&self->h, 5, 60, 0));
	ASSERT_EQ(0, register_on(self, a, 2));
	ASSERT_EQ(0, register_on(self, b, 2));
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, mi_inject(a, MCE_CE));
		ASSERT_EQ(0, mi_inject(b, MCE_CE));
		if (i % 5 == 4)
			ASSERT_EQ(0, wait_records(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] +
						   2 * (i + 1)));
	}
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 40));
	EXPECT_EQ(1, is_faulty(&self->h, a));
	EXPECT_EQ(1, is_faulty(&self->h, b));
	EXPECT_EQ(2, delta(self, HCUBE_A_STATS_MCE_MARKS));
	/* records of a CPU marked already are ignored, none lost */
	EXPECT_EQ(40, delta(self, HCUBE_A_STATS_MCE_RECORDS));
	EXPECT_LE(delta(self, HCUBE_A_STATS_MCE_IGNORED), 30);
	expect_off(_metadata, self, a);
	expect_off(_metadata, self, b);
}

/* A storm on every CPU never marks the last healthy vertex; it is refused. */
TEST_F(mce, storm_every_cpu)
{
	HC_SETUP_SKIPPED();
	int i, k, left = 0;

	ASSERT_EQ(0, mce_config(&self->h, 2, 60, 0));
	for (k = 0; k < 3; k++) {
		for (i = 0; i < self->ncpus; i++)
			ASSERT_EQ(0, mi_inject(self->cpus[i], MCE_CE));
		ASSERT_EQ(0, wait_records(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] +
					   (k + 1) * self->ncpus));
	}
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 3 * self->ncpus));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	for (i = 0; i < self->ncpus; i++)
		left += !CPU_ISSET(self->cpus[i], &cube.v[vertex_of_cpu(self->cpus[i])].faulty);
	EXPECT_EQ(1, left);
	EXPECT_EQ(1, cube.nhealthy);
	EXPECT_EQ(self->ncpus - 1, delta(self, HCUBE_A_STATS_MCE_MARKS));
	EXPECT_GE(delta(self, HCUBE_A_STATS_MCE_REFUSED), 1);
}

/*
 * A CPU of no vertex: its records are counted as outside, nothing else.
 * A custom cube of every usable CPU but the last.
 */
TEST_F(mce, outside_cpu)
{
	HC_SETUP_SKIPPED();
	int last = self->cpus[self->ncpus - 1];
	struct hreq *r = malloc(sizeof(*r));
	char list[32];

	ASSERT_EQ(0, mce_config(&self->h, 1, 60, 1));
	hreq_init(r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	hreq_u32(r, HCUBE_A_MODE, HCUBE_MODE_CUSTOM);
	snprintf(list, sizeof(list), "%d-%d", self->cpus[0], self->cpus[self->ncpus - 2]);
	hreq_str(r, HCUBE_A_GROUP, list);
	ASSERT_EQ(0, hc_send(&self->h, r, NULL)) TH_LOG("custom group %s", list);
	ASSERT_EQ(0, mi_inject(last, MCE_CE));
	ASSERT_EQ(0, mi_inject(last, MCE_UCNA));
	ASSERT_EQ(0, settle(&self->h, self->s0[HCUBE_A_STATS_MCE_RECORDS] + 2));
	EXPECT_EQ(2, delta(self, HCUBE_A_STATS_MCE_OUTSIDE));
	EXPECT_EQ(0, delta(self, HCUBE_A_STATS_MCE_MARKS));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	EXPECT_EQ(1, cube.nhealthy);
}

/*
 * A storm on a CPU that goes offline meanwhile: mce-inject only takes an
 * online CPU, so whether the last records find it offline is a race. What
 * must hold either way: every record the module saw counted once, on that
 * CPU (the kernel may drop some of a storm before the decode chain), and
 * the CPU not marked.
 */
struct storm {
	const int *cpus;	/* records of these CPUs in turn */
	int ncpus, stop, n;
};

static void *storm_fn(void *arg)
{
	struct storm *s = arg;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE) &&
	       !mi_inject(s->cpus[s->n % s->ncpus], MCE_CE))
		s->n++;
	return NULL;
}

TEST_F(mce, storm_offline_cpu)
{
	HC_SETUP_SKIPPED();
	int cpu = self->cpus[self->ncpus - 1];
	struct storm st = { .cpus = &cpu, .ncpus = 1 };
	uint64_t r0 = cpu_records(&self->h, cpu), seen;
	struct cpu_info ci;
	pthread_t t;

	ASSERT_EQ(0, mce_config(&self->h, 1000, 60, 0));
	ASSERT_EQ(0, pthread_create(&t, NULL, storm_fn, &st));
	usleep(300000);
	ASSERT_EQ(0, hc_set_online(cpu, 0));
	usleep(300000);
	__atomic_store_n(&st.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	ASSERT_GT(st.n, 0);
	seen = quiet_records(&self->h) - self->s0[HCUBE_A_STATS_MCE_RECORDS];
	ASSERT_EQ(0, mce_config(&self->h, -1, -1, -1));
	EXPECT_GT(seen, 0);
	EXPECT_LE(seen, st.n);
	ASSERT_EQ(0, cpu_info(&self->h, cpu, &ci));
	EXPECT_EQ(r0 + seen, ci.records);
	EXPECT_EQ(HCUBE_REASON_HOTPLUG, ci.marked_by);
	EXPECT_EQ(0, delta(self, HCUBE_A_STATS_MCE_MARKS));
	TH_LOG("%d records injected, %llu seen, %llu found the CPU offline", st.n,
	       (unsigned long long)seen,
	       (unsigned long long)delta(self, HCUBE_A_STATS_MCE_OFFLINE));
	ASSERT_EQ(0, hc_set_online(cpu, 1));
}

/*
 * A storm on every CPU in turn during rmmod, marks asked for until the
 * last healthy vertex and refused after: the unload finishes, its tasks
 * get their affinity back, and the module loads again.
 */
TEST_F(mce, storm_during_rmmod)
{
	HC_SETUP_SKIPPED();
	struct storm st = { .cpus = self->cpus, .ncpus = self->ncpus };
	cpu_set_t before, after;
	pthread_t t;
	int i;

	if (!hc_module_ko())
		SKIP(return, "HCUBE_KO is not set: the test cannot load the module again");
	ASSERT_EQ(0, mce_config(&self->h, 2, 60, 1));
	ASSERT_EQ(0, register_on(self, self->cpus[1], 4));
	ASSERT_EQ(0, pthread_create(&t, NULL, storm_fn, &st));
	usleep(200000);
	hnl_close(&self->h);
	self->h.fd = 0;
	EXPECT_EQ(0, system("rmmod hcube"));
	usleep(200000);
	__atomic_store_n(&st.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	EXPECT_GT(st.n, 0);
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(before), &before));
	for (i = 0; i < self->nkids; i++) {
		ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(after), &after));
		EXPECT_TRUE(CPU_EQUAL(&before, &after)) TH_LOG("task %d", self->kids[i]);
	}
	hc_kill_all(self->kids, self->nkids);
	self->nkids = 0;
	ASSERT_EQ(0, hc_module_insmod(""));
	ASSERT_EQ(0, hnl_open(&self->h));
}

TEST_HARNESS_MAIN
