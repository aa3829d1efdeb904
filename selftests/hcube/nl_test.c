// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: every bad input gets its exact errno and extended ack (message,
 * offset of the bad attribute, policy range) and changes nothing; callers
 * without CAP_NET_ADMIN cannot change state. Runs in the VM with the module
 * loaded.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

/* The observable state: must be identical around a refused request. */
struct fingerprint {
	uint32_t generation, ntasks, nhealthy;
	uint64_t stats[HCUBE_A_STATS_MAX + 1];
	uint32_t load[HC_MAXV], state[HC_MAXV];
};

static struct hc_cube cube;

static void take(struct __test_metadata *_metadata, struct hnl *h,
		 struct fingerprint *f)
{
	uint32_t i;

	memset(f, 0, sizeof(*f));
	ASSERT_EQ(0, hc_get_cube(h, &cube));
	f->generation = cube.generation;
	f->ntasks = cube.ntasks;
	f->nhealthy = cube.nhealthy;
	for (i = 0; i < cube.nv; i++) {
		f->load[i] = cube.v[i].load;
		f->state[i] = cube.v[i].state;
	}
	ASSERT_EQ(0, hc_stats(h, f->stats));
}

#define EXPECT_UNCHANGED(h, before) do {					\
	struct fingerprint __after;						\
	take(_metadata, h, &__after);						\
	EXPECT_EQ(0, memcmp(&(before), &__after, sizeof(__after)))		\
		TH_LOG("state changed by a refused request");			\
} while (0)

FIXTURE(nl) {
	struct hnl h;
	struct hreq r;
	struct hreply rp;
	struct fingerprint before;
	pid_t kids[8];
	int nkids;
};

FIXTURE_SETUP(nl)
{
	ASSERT_EQ(0, hnl_open(&self->h)) TH_LOG("is the hcube module loaded?");
	ASSERT_EQ(0, hc_reset(&self->h, HCUBE_MODE_CPU));
	take(_metadata, &self->h, &self->before);
	self->nkids = 0;
}

FIXTURE_TEARDOWN(nl)
{
	hc_kill_all(self->kids, self->nkids);
	hc_reset(&self->h, HCUBE_MODE_CPU);
	hnl_close(&self->h);
}

/* Send r, expect -err, a message containing msg, and record the reply. */
static void expect_err(struct __test_metadata *_metadata, FIXTURE_DATA(nl) *self,
		       int err, const char *msg)
{
	hreply_free(&self->rp);
	EXPECT_EQ(err, hnl_do(&self->h, &self->r, &self->rp))
		TH_LOG("message: '%s'", self->rp.msg);
	EXPECT_NE(NULL, strstr(self->rp.msg, msg))
		TH_LOG("message '%s' lacks '%s'", self->rp.msg, msg);
}

/* @cmd naming @first then @second is refused at @second, changing nothing. */
static void expect_second_pid_refused(struct __test_metadata *_metadata,
				      FIXTURE_DATA(nl) *self, int cmd, pid_t first,
				      pid_t second, int err, const char *msg)
{
	uint32_t off;

	hreq_init(&self->r, &self->h, self->h.family, cmd, 0);
	hreq_u32(&self->r, HCUBE_A_PID, first);
	off = hreq_u32(&self->r, HCUBE_A_PID, second);
	expect_err(_metadata, self, err, msg);
	EXPECT_EQ(off, self->rp.off);
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, fault_needs_cpu_or_vertex)
{
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_CPU or HCUBE_A_VERTEX_ID is required");
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, fault_cpu_and_vertex)
{
	uint32_t off;

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_CPU, 0);
	off = hreq_u32(&self->r, HCUBE_A_VERTEX_ID, 0);
	expect_err(_metadata, self, -EINVAL, "not both");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, fault_cpu_out_of_range)
{
	int ncpu = get_nprocs_conf();
	uint32_t off;

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	off = hreq_u32(&self->r, HCUBE_A_CPU, ncpu);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_TRUE(self->rp.has_off);
	EXPECT_EQ(off, self->rp.off);
	EXPECT_TRUE(self->rp.has_policy);
	EXPECT_EQ(0, self->rp.pmin);
	EXPECT_EQ(ncpu - 1, self->rp.pmax);
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, fault_vertex_out_of_range)
{
	uint32_t off;

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	off = hreq_u32(&self->r, HCUBE_A_VERTEX_ID, cube.nv);
	expect_err(_metadata, self, -ERANGE,
		   "HCUBE_A_VERTEX_ID: vertex id out of range for this cube");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_TRUE(self->rp.has_policy);
	EXPECT_EQ(cube.nv - 1, self->rp.pmax);
	EXPECT_UNCHANGED(&self->h, self->before);

	/* Beyond any cube: the static policy answers. */
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_VERTEX_ID, 1024);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(1023, self->rp.pmax);
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, fault_absent_vertex)
{
	uint32_t i;

	for (i = 0; i < cube.nv; i++)
		if (cube.v[i].state == HCUBE_VERTEX_ABSENT)
			break;
	if (i == cube.nv)
		SKIP(return, "no absent vertex on this topology");
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_VERTEX_ID, i);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_VERTEX_ID: the vertex is absent");
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, fault_twice_and_clear_twice)
{
	ASSERT_EQ(0, hc_fault(&self->h, 1, 1, -1, NULL));
	take(_metadata, &self->h, &self->before);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_CPU, 1);
	expect_err(_metadata, self, -EEXIST, "HCUBE_A_CPU: the CPU is already marked faulty");
	EXPECT_UNCHANGED(&self->h, self->before);
	ASSERT_EQ(0, hc_fault(&self->h, 0, 1, -1, NULL));
	take(_metadata, &self->h, &self->before);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_DEL, 0);
	hreq_u32(&self->r, HCUBE_A_CPU, 1);
	expect_err(_metadata, self, -ENOENT, "HCUBE_A_CPU: the CPU is not marked faulty");
	EXPECT_UNCHANGED(&self->h, self->before);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_DEL, 0);
	hreq_u32(&self->r, HCUBE_A_VERTEX_ID, 0);
	expect_err(_metadata, self, -ENOENT, "HCUBE_A_VERTEX_ID: the vertex is not marked faulty");
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, fault_would_leave_no_healthy_vertex)
{
	uint32_t i, last = 0, healthy = 0;

	for (i = 0; i < cube.nv; i++)
		if (cube.v[i].state == HCUBE_VERTEX_HEALTHY) {
			healthy++;
			last = i;
		}
	for (i = 0; i < cube.nv; i++)
		if (cube.v[i].state == HCUBE_VERTEX_HEALTHY && i != last)
			ASSERT_EQ(0, hc_fault(&self->h, 1, -1, i, NULL));
	take(_metadata, &self->h, &self->before);
	EXPECT_EQ(1, self->before.nhealthy);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_VERTEX_ID, last);
	expect_err(_metadata, self, -EBUSY, "would leave no healthy vertex");
	EXPECT_UNCHANGED(&self->h, self->before);
	/* the same through the last CPU of the last vertex */
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &cube.v[last].usable) &&
		    CPU_COUNT(&cube.v[last].usable) == 1)
			break;
	if (i < CPU_SETSIZE) {
		hreq_u32(&self->r, HCUBE_A_CPU, i);
		expect_err(_metadata, self, -EBUSY, "would leave no healthy vertex");
		EXPECT_UNCHANGED(&self->h, self->before);
	}
	(void)healthy;
}

TEST_F(nl, task_add_needs_pid)
{
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_ADD, 0);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_PID is required");
	EXPECT_TRUE(self->rp.has_miss);
	EXPECT_EQ(HCUBE_A_PID, self->rp.miss_type);
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, task_pid_zero)
{
	uint32_t off;

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_ADD, 0);
	off = hreq_u32(&self->r, HCUBE_A_PID, 0);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_EQ(1, self->rp.pmin);
	EXPECT_EQ(4194304, self->rp.pmax);
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, task_kernel_thread)
{
	/* kthreadd (pid 2) is a kernel thread free to run anywhere */
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_PID, 2);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_PID: a kernel thread cannot be registered");
	EXPECT_UNCHANGED(&self->h, self->before);
}

static pid_t find_comm(const char *comm)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	pid_t found = 0;

	while (dir && (d = readdir(dir)) && !found) {
		char path[300], buf[64];
		int fd, n;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			buf[strcspn(buf, "\n")] = 0;
			if (!strcmp(buf, comm))
				found = atoi(d->d_name);
		}
	}
	if (dir)
		closedir(dir);
	return found;
}

TEST_F(nl, task_no_setaffinity)
{
	/* a per-CPU kernel thread is bound: PF_NO_SETAFFINITY */
	pid_t pid = find_comm("ksoftirqd/0");

	ASSERT_GT(pid, 0);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_PID, pid);
	expect_err(_metadata, self, -EPERM, "PF_NO_SETAFFINITY");
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, task_dead_pid)
{
	pid_t pid = fork();
	uint32_t off;

	if (!pid)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_ADD, 0);
	off = hreq_u32(&self->r, HCUBE_A_PID, pid);
	expect_err(_metadata, self, -ESRCH, "HCUBE_A_PID: no such process");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, task_duplicates)
{
	pid_t a = hc_spawn(0), b = hc_spawn(0);

	self->kids[self->nkids++] = a;
	self->kids[self->nkids++] = b;
	ASSERT_EQ(0, hc_task_add(&self->h, &a, 1, -1));
	take(_metadata, &self->h, &self->before);
	expect_second_pid_refused(_metadata, self, HCUBE_CMD_TASK_ADD, b, a, -EEXIST,
				  "HCUBE_A_PID: the task is already registered");
	expect_second_pid_refused(_metadata, self, HCUBE_CMD_TASK_ADD, b, b, -EEXIST,
				  "HCUBE_A_PID: the task is given twice");
}

TEST_F(nl, task_vertex_not_healthy_or_out_of_range)
{
	pid_t a = hc_spawn(0);

	self->kids[self->nkids++] = a;
	ASSERT_EQ(0, hc_fault(&self->h, 1, -1, 1, NULL));
	take(_metadata, &self->h, &self->before);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_PID, a);
	hreq_u32(&self->r, HCUBE_A_VERTEX_ID, 1);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_VERTEX_ID: the vertex is not healthy");
	EXPECT_UNCHANGED(&self->h, self->before);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_PID, a);
	hreq_u32(&self->r, HCUBE_A_VERTEX_ID, cube.nv);
	expect_err(_metadata, self, -ERANGE, "vertex id out of range for this cube");
	EXPECT_EQ(cube.nv - 1, self->rp.pmax);
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, task_del_errors)
{
	pid_t a = hc_spawn(0), b = hc_spawn(0);

	self->kids[self->nkids++] = a;
	self->kids[self->nkids++] = b;
	ASSERT_EQ(0, hc_task_add(&self->h, &a, 1, -1));
	take(_metadata, &self->h, &self->before);
	/* one registered, one not: nothing is unregistered */
	expect_second_pid_refused(_metadata, self, HCUBE_CMD_TASK_DEL, a, b, -ENOENT,
				  "HCUBE_A_PID: the task is not registered");
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_DEL, 0);
	hreq_flag(&self->r, HCUBE_A_ALL);
	hreq_u32(&self->r, HCUBE_A_PID, a);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_ALL: not with HCUBE_A_PID");
	EXPECT_UNCHANGED(&self->h, self->before);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_DEL, 0);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_PID is required");
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, rebalance_bad_policy)
{
	uint32_t off;

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_REBALANCE, 0);
	off = hreq_u32(&self->r, HCUBE_A_REPORT_POLICY, HCUBE_POLICY_MAX + 1);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_EQ(HCUBE_POLICY_MAX, self->rp.pmax);
	EXPECT_UNCHANGED(&self->h, self->before);
}

/* The policy attribute takes 0..10 (mcwa .. pebble) in both places. */
TEST_F(nl, policy_range_0_to_10)
{
	struct hc_report rep;
	uint32_t off;
	int p;

	EXPECT_EQ(10, HCUBE_POLICY_MAX);
	EXPECT_EQ(10, HCUBE_POLICY_PEBBLE);
	/* every policy in range is accepted: a dry run with no task */
	for (p = 0; p <= HCUBE_POLICY_MAX; p++) {
		if (p == HCUBE_POLICY_CWA && cube.nhealthy != cube.nv)
			continue;	/* refused for another reason */
		EXPECT_EQ(0, hc_rebalance(&self->h, p, 1, &rep)) TH_LOG("policy %d", p);
		EXPECT_EQ((uint32_t)p, rep.policy);
	}
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_REBALANCE, 0);
	hreq_flag(&self->r, HCUBE_A_REPORT_DRY_RUN);
	off = hreq_u32(&self->r, HCUBE_A_REPORT_POLICY, 11);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_EQ(0, self->rp.pmin);
	EXPECT_EQ(10, self->rp.pmax);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_REBALANCE, 0);
	off = hreq_u32(&self->r, HCUBE_A_REPORT_POLICY, 0xffffffff);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_EQ(10, self->rp.pmax);

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_CONFIG_SET, 0);
	hreq_nest_start(&self->r, HCUBE_A_CONFIG);
	off = hreq_u32(&self->r, HCUBE_A_CONFIG_POLICY, 11);
	hreq_nest_end(&self->r);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_EQ(10, self->rp.pmax);

	/* the largest is a valid default policy */
	EXPECT_EQ(0, hc_config(&self->h, HCUBE_POLICY_PEBBLE, -1, -1, -1));
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_CONFIG_GET, 0);
	hreply_free(&self->rp);
	ASSERT_EQ(0, hnl_do(&self->h, &self->r, &self->rp));
	ASSERT_EQ(1, self->rp.nmsgs);
	EXPECT_EQ(HCUBE_POLICY_PEBBLE,
		  hnl_u32(hnl_nested(hnl_msg_attr(self->rp.msgs[0], HCUBE_A_CONFIG),
				     HCUBE_A_CONFIG_POLICY)));
	EXPECT_EQ(0, hc_rebalance(&self->h, -1, 1, &rep));
	EXPECT_EQ(HCUBE_POLICY_PEBBLE, rep.policy);
	EXPECT_EQ(HCUBE_POLICY_PEBBLE, rep.applied);
}

TEST_F(nl, rebalance_cwa_on_faulty_cube)
{
	uint32_t off;

	ASSERT_EQ(0, hc_fault(&self->h, 1, -1, 1, NULL));
	take(_metadata, &self->h, &self->before);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_REBALANCE, 0);
	off = hreq_u32(&self->r, HCUBE_A_REPORT_POLICY, HCUBE_POLICY_CWA);
	expect_err(_metadata, self, -EINVAL, "cwa needs a fault-free cube");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, unknown_attribute)
{
	uint32_t off;

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_CUBE_GET, 0);
	off = hreq_u32(&self->r, 77, 1);
	expect_err(_metadata, self, -EINVAL, "Unknown attribute type");
	EXPECT_EQ(off, self->rp.off);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	off = hreq_u32(&self->r, HCUBE_A_PID, 1);
	expect_err(_metadata, self, -EINVAL, "Unknown attribute type");
	EXPECT_EQ(off, self->rp.off);
	/* a u32 attribute of the wrong size */
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_FAULT_ADD, 0);
	off = hreq_u8(&self->r, HCUBE_A_CPU, 1);
	expect_err(_metadata, self, -EINVAL, "invalid attribute length");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_UNCHANGED(&self->h, self->before);
}

static void check_default_config(struct __test_metadata *_metadata,
				 struct nlmsghdr *m)
{
	struct nlattr *c = hnl_msg_attr(m, HCUBE_A_CONFIG);

	EXPECT_EQ(0, hnl_u32(hnl_nested(c, HCUBE_A_CONFIG_AUTO)));
	EXPECT_EQ(1, hnl_u32(hnl_nested(c, HCUBE_A_CONFIG_THRESHOLD)));
}

TEST_F(nl, config_ranges)
{
	uint32_t off;

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_CONFIG_SET, 0);
	hreq_nest_start(&self->r, HCUBE_A_CONFIG);
	off = hreq_u32(&self->r, HCUBE_A_CONFIG_THRESHOLD, HCUBE_THRESHOLD_MAX + 1);
	hreq_nest_end(&self->r);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_EQ(HCUBE_THRESHOLD_MAX, self->rp.pmax);

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_CONFIG_SET, 0);
	hreq_nest_start(&self->r, HCUBE_A_CONFIG);
	hreq_u32(&self->r, HCUBE_A_CONFIG_COOLDOWN_MS, HCUBE_COOLDOWN_MS_MIN - 1);
	hreq_nest_end(&self->r);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(HCUBE_COOLDOWN_MS_MIN, self->rp.pmin);
	EXPECT_EQ(HCUBE_COOLDOWN_MS_MAX, self->rp.pmax);

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_CONFIG_SET, 0);
	hreq_nest_start(&self->r, HCUBE_A_CONFIG);
	hreq_u32(&self->r, HCUBE_A_CONFIG_AUTO, 2);
	hreq_nest_end(&self->r);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(1, self->rp.pmax);

	/* nothing applies when one key is bad */
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_CONFIG_SET, 0);
	hreq_nest_start(&self->r, HCUBE_A_CONFIG);
	hreq_u32(&self->r, HCUBE_A_CONFIG_AUTO, 1);
	hreq_u32(&self->r, HCUBE_A_CONFIG_MAX_TASKS, 5);
	hreq_nest_end(&self->r);
	expect_err(_metadata, self, -EINVAL,
		   "HCUBE_A_CONFIG_MAX_TASKS: read-only (module parameter max_tasks)");

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_CONFIG_SET, 0);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_CONFIG is required");
	EXPECT_UNCHANGED(&self->h, self->before);

	/* the config is still the default: auto off */
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_CONFIG_GET, 0);
	hreply_free(&self->rp);
	ASSERT_EQ(0, hnl_do(&self->h, &self->r, &self->rp));
	ASSERT_EQ(1, self->rp.nmsgs);
	check_default_config(_metadata, self->rp.msgs[0]);
}

TEST_F(nl, topology_set_errors)
{
	pid_t a = hc_spawn(0);
	uint32_t off;

	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_MODE is required");
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	off = hreq_u32(&self->r, HCUBE_A_MODE, HCUBE_MODE_MAX + 1);
	expect_err(_metadata, self, -ERANGE, "integer out of range");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_EQ(HCUBE_MODE_MAX, self->rp.pmax);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	hreq_u32(&self->r, HCUBE_A_MODE, HCUBE_MODE_CPU);
	off = hreq_str(&self->r, HCUBE_A_GROUP, "0");
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_GROUP: only with mode custom");
	EXPECT_EQ(off, self->rp.off);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	hreq_u32(&self->r, HCUBE_A_MODE, HCUBE_MODE_CUSTOM);
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_GROUP is required with mode custom");
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	hreq_u32(&self->r, HCUBE_A_MODE, HCUBE_MODE_CUSTOM);
	hreq_str(&self->r, HCUBE_A_GROUP, "0-1");
	off = hreq_str(&self->r, HCUBE_A_GROUP, "1-2");
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_GROUP: CPUs already in another group");
	EXPECT_EQ(off, self->rp.off);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	hreq_u32(&self->r, HCUBE_A_MODE, HCUBE_MODE_CUSTOM);
	off = hreq_str(&self->r, HCUBE_A_GROUP, "zero");
	expect_err(_metadata, self, -EINVAL, "HCUBE_A_GROUP: not a cpulist");
	EXPECT_EQ(off, self->rp.off);
	EXPECT_UNCHANGED(&self->h, self->before);

	self->kids[self->nkids++] = a;
	ASSERT_EQ(0, hc_task_add(&self->h, &a, 1, -1));
	take(_metadata, &self->h, &self->before);
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	hreq_u32(&self->r, HCUBE_A_MODE, HCUBE_MODE_NODE);
	expect_err(_metadata, self, -EBUSY, "HCUBE_A_MODE: tasks are registered");
	EXPECT_UNCHANGED(&self->h, self->before);
}

TEST_F(nl, custom_topology)
{
	int ncpu = get_nprocs();

	if (ncpu < 4)
		SKIP(return, "needs 4 CPUs");
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	hreq_u32(&self->r, HCUBE_A_MODE, HCUBE_MODE_CUSTOM);
	hreq_str(&self->r, HCUBE_A_GROUP, "0-1");
	hreq_str(&self->r, HCUBE_A_GROUP, "2");
	hreq_str(&self->r, HCUBE_A_GROUP, "3");
	hreply_free(&self->rp);
	ASSERT_EQ(0, hnl_do(&self->h, &self->r, &self->rp));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	EXPECT_EQ(HCUBE_MODE_CUSTOM, cube.mode);
	EXPECT_EQ(2, cube.dim);
	EXPECT_EQ(2, CPU_COUNT(&cube.v[0].cpus));
	EXPECT_TRUE(CPU_ISSET(2, &cube.v[1].cpus));
	EXPECT_EQ(HCUBE_VERTEX_ABSENT, cube.v[3].state);
}

/* Without CAP_NET_ADMIN: reads work, every change is refused. */
TEST_F(nl, unprivileged_caller)
{
	static const uint8_t cmds[] = {
		HCUBE_CMD_TOPO_SET, HCUBE_CMD_FAULT_ADD, HCUBE_CMD_FAULT_DEL,
		HCUBE_CMD_TASK_ADD, HCUBE_CMD_TASK_DEL, HCUBE_CMD_REBALANCE,
		HCUBE_CMD_CONFIG_SET,
	};
	pid_t a = hc_spawn(0), pid;
	int status;

	self->kids[self->nkids++] = a;
	pid = fork();
	if (!pid) {
		struct hnl h;
		struct hreq *r = malloc(sizeof(*r));
		struct hreply rp;
		int fails = 0;
		size_t i;

		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(100);
		if (hnl_open(&h))
			_exit(101);
		hreq_init(r, &h, h.family, HCUBE_CMD_CUBE_GET, 0);
		if (hnl_do(&h, r, &rp))
			fails |= 1;
		hreply_free(&rp);
		for (i = 0; i < sizeof(cmds); i++) {
			hreq_init(r, &h, h.family, cmds[i], 0);
			if (cmds[i] == HCUBE_CMD_TASK_ADD || cmds[i] == HCUBE_CMD_TASK_DEL)
				hreq_u32(r, HCUBE_A_PID, a);
			if (cmds[i] == HCUBE_CMD_FAULT_ADD || cmds[i] == HCUBE_CMD_FAULT_DEL)
				hreq_u32(r, HCUBE_A_CPU, 0);
			if (cmds[i] == HCUBE_CMD_TOPO_SET)
				hreq_u32(r, HCUBE_A_MODE, HCUBE_MODE_CPU);
			if (hnl_do(&h, r, &rp) != -EPERM)
				fails |= 2 << i;
			hreply_free(&rp);
		}
		_exit(fails);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_UNCHANGED(&self->h, self->before);
}

/* A task in a cpuset that leaves out CPUs of the cube is refused. */
TEST_F(nl, task_cpuset_limits_its_vertices)
{
	const char *cg = "/sys/fs/cgroup/hcube-test";
	char path[256], pidbuf[32];
	pid_t a;
	int fd;

	if (get_nprocs() < 2)
		SKIP(return, "needs 2 CPUs");
	fd = open("/sys/fs/cgroup/cgroup.subtree_control", O_WRONLY);
	if (fd < 0 || write(fd, "+cpuset", 7) != 7) {
		if (fd >= 0)
			close(fd);
		SKIP(return, "no cgroup v2 cpuset controller");
	}
	close(fd);
	mkdir(cg, 0755);
	snprintf(path, sizeof(path), "%s/cpuset.cpus", cg);
	fd = open(path, O_WRONLY);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(1, write(fd, "0", 1));
	close(fd);
	a = hc_spawn(0);
	self->kids[self->nkids++] = a;
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	fd = open(path, O_WRONLY);
	ASSERT_GE(fd, 0);
	snprintf(pidbuf, sizeof(pidbuf), "%d", a);
	ASSERT_GT(write(fd, pidbuf, strlen(pidbuf)), 0);
	close(fd);
	usleep(100000);

	/* its cpuset (CPU 0) has no CPU of vertex 1: refused, nothing changes */
	hreq_init(&self->r, &self->h, self->h.family, HCUBE_CMD_TASK_ADD, 0);
	hreq_u32(&self->r, HCUBE_A_PID, a);
	hreq_u32(&self->r, HCUBE_A_VERTEX_ID, 1);
	expect_err(_metadata, self, -EXDEV, "HCUBE_A_PID: the task's cpuset allows no usable CPU");
	EXPECT_UNCHANGED(&self->h, self->before);
	/* without a vertex it goes to the one its cpuset allows: CPU 0's */
	{
		struct hc_task t[4];
		cpu_set_t set;

		ASSERT_EQ(0, hc_task_add(&self->h, &a, 1, -1));
		ASSERT_EQ(1, hc_get_tasks(&self->h, t, 4));
		EXPECT_EQ(0, t[0].vertex);
		ASSERT_EQ(0, sched_getaffinity(a, sizeof(set), &set));
		EXPECT_EQ(1, CPU_COUNT(&set));
		EXPECT_TRUE(CPU_ISSET(0, &set));
		ASSERT_EQ(0, hc_task_del_all(&self->h));
	}

	hc_kill_all(self->kids, self->nkids);
	self->nkids = 0;
	rmdir(cg);
}

TEST_HARNESS_MAIN
