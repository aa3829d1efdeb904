// SPDX-License-Identifier: GPL-2.0
/*
 * hcube netlink fuzzer: random and mutated messages to the family, as root,
 * as an unprivileged user, and as nobody holding CAP_NET_ADMIN alone, for a
 * bounded time each (seeded).
 *
 * Checked for every message: each reply is well formed (lengths, types,
 * attributes that parse to the last byte); a rejected message changes
 * nothing (a fingerprint of the cube, its tasks, counters and config taken
 * before and after); an unprivileged caller never changes state. After the
 * CAP_NET_ADMIN phase: root's unregistered processes have the CPU masks they
 * had, and root's registered ones are still registered (an administrator of
 * the network may mark faults and rebalance, but not pin, register or
 * release root's tasks). Prints the messages sent and the replies by errno;
 * exits 1 on a violation.
 *
 * With "shared" (make soak), other programs register jobs, change the
 * module's state and take CPUs offline at the same time: root's phase,
 * which would release their jobs, and the resets are left out, and so are
 * the checks that need the state to be the fuzzer's alone (a rejected
 * message changes nothing, root's processes keep their masks).
 *
 * Usage: nl_fuzz [SECONDS [SEED [shared]]]
 */
#include <getopt.h>
#include <poll.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

#define NOBODY 65534

/* Who sends: the checks that apply differ. */
enum who { AS_ROOT, AS_NOBODY, AS_NET_ADMIN };

static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545F4914F6CDD1DULL) >> 32);
}

static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(((uint64_t)rnd() * n) >> 32) : 0;
}

struct fp {
	uint32_t generation, ntasks, nhealthy, mode, dim;
	uint64_t stats[HCUBE_A_STATS_MAX + 1];
	char config[128];
};

static struct hc_cube cube;
static int violations;
static long sent, accepted, noreply, errs[140];
static pid_t kids[4];
static int shared;

static void violation(const char *what, uint8_t cmd)
{
	violations++;
	if (violations <= 20)
		printf("# VIOLATION: %s (command %u)\n", what, cmd);
}

static int get_config(struct hnl *h, char *out, size_t len)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err;

	hreq_init(r, h, h->family, HCUBE_CMD_CONFIG_GET, 0);
	err = hnl_do(h, r, &rp);
	memset(out, 0, len);
	if (!err && rp.nmsgs) {
		struct nlattr *c = hnl_msg_attr(rp.msgs[0], HCUBE_A_CONFIG);

		if (c && (size_t)hnl_len(c) <= len)
			memcpy(out, hnl_data(c), hnl_len(c));
	}
	hreply_free(&rp);
	free(r);
	return err;
}

static int take(struct hnl *h, struct fp *f)
{
	memset(f, 0, sizeof(*f));
	if (hc_get_cube(h, &cube) || hc_stats(h, f->stats) ||
	    get_config(h, f->config, sizeof(f->config)))
		return -1;
	f->generation = cube.generation;
	f->ntasks = cube.ntasks;
	f->nhealthy = cube.nhealthy;
	f->mode = cube.mode;
	f->dim = cube.dim;
	/* reads bump no counter, but the reaper may: ignore "exited" */
	f->stats[HCUBE_A_STATS_EXITED] = 0;
	return 0;
}

/* Values around every edge the family has. */
static uint32_t edge_value(void)
{
	static const uint32_t fixed[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 1023, 1024, 4096, 65535, 65536,
		1000000, 1000001, 3600000, 3600001, 4194303, 4194304, 4194305,
		0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
	};
	uint32_t k = below(4);

	if (k == 0)
		return fixed[below(sizeof(fixed) / sizeof(fixed[0]))];
	if (k == 1)
		return cube.nv + below(3) - 1;
	if (k == 2)
		return kids[below(4)] + below(3) - 1;
	return rnd();
}

/* A random attribute, possibly nested, at the end of r. */
static void put_random_attr(struct hreq *r, int depth)
{
	uint16_t type = below(4) ? below(HCUBE_A_MAX + 3) : below(64);
	uint8_t buf[96];
	uint32_t v, len, i;

	if (r->nlh->nlmsg_len > sizeof(r->buf) - 256)
		return;
	switch (below(6)) {
	case 0:
		v = edge_value();
		hreq_put(r, type, &v, 4);
		break;
	case 1:
		hreq_put(r, type, NULL, 0);
		break;
	case 2:
		len = below(sizeof(buf));
		for (i = 0; i < len; i++)
			buf[i] = rnd();
		hreq_put(r, type, buf, len);
		break;
	case 3:
		if (depth < 3) {
			struct nlattr *nest;
			uint32_t off = hreq_put(r, type | (below(2) ? NLA_F_NESTED : 0), NULL, 0);
			int k = below(4);

			while (k--)
				put_random_attr(r, depth + 1);
			nest = (struct nlattr *)(r->buf + off);
			nest->nla_len = r->buf + r->nlh->nlmsg_len - (char *)nest;
		}
		break;
	case 4:
		hreq_str(r, type, below(2) ? "0-3,8" : "x");
		break;
	default:
		v = edge_value();
		hreq_put(r, type, &v, below(2) ? 8 : 2);
		break;
	}
}

/* A valid request of @cmd, for mutation. */
static void template(struct hreq *r, struct hnl *h, uint8_t cmd)
{
	hreq_init(r, h, h->family, cmd, 0);
	switch (cmd) {
	case HCUBE_CMD_VERTEX_GET:
		hreq_u32(r, HCUBE_A_VERTEX_ID, below(cube.nv + 1));
		break;
	case HCUBE_CMD_TOPO_SET:
		hreq_u32(r, HCUBE_A_MODE, below(3));
		break;
	case HCUBE_CMD_FAULT_ADD:
	case HCUBE_CMD_FAULT_DEL:
		if (below(2))
			hreq_u32(r, HCUBE_A_CPU, below(8));
		else
			hreq_u32(r, HCUBE_A_VERTEX_ID, below(cube.nv));
		break;
	case HCUBE_CMD_TASK_ADD:
	case HCUBE_CMD_TASK_DEL:
		hreq_u32(r, HCUBE_A_PID, kids[below(4)]);
		break;
	case HCUBE_CMD_REBALANCE:
		hreq_u32(r, HCUBE_A_REPORT_POLICY, below(HCUBE_POLICY_MAX + 1));
		if (below(2))
			hreq_flag(r, HCUBE_A_REPORT_DRY_RUN);
		break;
	case HCUBE_CMD_CONFIG_SET:
		hreq_nest_start(r, HCUBE_A_CONFIG);
		hreq_u32(r, HCUBE_A_CONFIG_THRESHOLD, below(4));
		hreq_nest_end(r);
		break;
	}
}

static void mutate(struct hreq *r)
{
	uint32_t n = r->nlh->nlmsg_len, k = 1 + below(4);

	while (k--) {
		uint32_t at = NLMSG_HDRLEN + GENL_HDRLEN + below(n > 20 ? n - 20 : 1);

		if (at < n)
			r->buf[at] ^= 1 << below(8);
	}
}

/* Every message of a reply must parse to the last byte. */
static int attrs_parse(void *head, int len, int depth)
{
	struct nlattr *a;
	int rem;

	hnl_for_each_attr(a, head, len, rem) {
		if ((a->nla_type & NLA_F_NESTED) && depth < 4 &&
		    attrs_parse(hnl_data(a), hnl_len(a), depth + 1))
			return -1;
	}
	return rem == 0 ? 0 : -1;
}

static int well_formed(struct hnl *h, struct hreply *rp)
{
	int i;

	for (i = 0; i < rp->nmsgs; i++) {
		struct nlmsghdr *m = rp->msgs[i];
		int len;
		void *head;

		if (m->nlmsg_type != h->family ||
		    m->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
			return 0;
		head = hnl_attrs(m, &len);
		if (attrs_parse(head, len, 0))
			return 0;
	}
	return 1;
}

static int is_mutating(uint8_t cmd)
{
	switch (cmd) {
	case HCUBE_CMD_TOPO_SET: case HCUBE_CMD_FAULT_ADD: case HCUBE_CMD_FAULT_DEL:
	case HCUBE_CMD_TASK_ADD: case HCUBE_CMD_TASK_DEL: case HCUBE_CMD_REBALANCE:
	case HCUBE_CMD_CONFIG_SET:
		return 1;
	}
	return 0;
}

static void fuzz(struct hnl *h, double seconds, enum who who)
{
	struct hreq *r = malloc(sizeof(*r));
	struct timespec t0, t;
	struct fp before, after;
	struct timeval tv = { .tv_sec = 2 };
	struct hreply rp;

	setsockopt(h->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (take(h, &before))
		violation("fingerprint failed", 0);
	for (;;) {
		uint8_t cmd = below(5) ? 1 + below(HCUBE_CMD_CONFIG_SET) : below(32);
		int kind = below(4), err, truncated = 0;
		uint16_t flags;

		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 > seconds)
			break;
		if (kind == 0) {
			template(r, h, cmd);
			mutate(r);
		} else {
			template(r, h, cmd);
			if (kind > 1) {
				int k = below(5);

				hreq_init(r, h, h->family, cmd, 0);
				while (k--)
					put_random_attr(r, 0);
			}
		}
		flags = below(4) ? 0 : NLM_F_DUMP;
		r->nlh->nlmsg_flags |= flags;
		if (!below(50)) {
			/* a header that claims more or less than is there */
			r->nlh->nlmsg_len = below(2) ? NLMSG_HDRLEN - 1 : r->nlh->nlmsg_len + 64;
			truncated = 1;
		}
		if (!below(40))
			((struct genlmsghdr *)NLMSG_DATA(r->nlh))->reserved = rnd();

		/* the kernel drops a malformed header silently: do not wait long */
		tv.tv_sec = truncated ? 0 : 2;
		tv.tv_usec = truncated ? 50000 : 0;
		setsockopt(h->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		sent++;
		err = hnl_do(h, r, &rp);
		if (err == -EAGAIN || err == -EWOULDBLOCK) {
			/* only a malformed header may go unanswered */
			if (!truncated)
				violation("no reply to a well-framed request", cmd);
			noreply++;
			hreply_free(&rp);
			continue;
		}
		if (!well_formed(h, &rp))
			violation("malformed reply", cmd);
		if (err < 0 && -err < (int)(sizeof(errs) / sizeof(errs[0])))
			errs[-err]++;
		if (!err) {
			accepted++;
			/* keep the automatic trigger off: it would change state on its own */
			if (cmd == HCUBE_CMD_CONFIG_SET && who != AS_NOBODY)
				hc_config(h, -1, 0, -1, -1);
		}
		if (who == AS_NOBODY && !err && is_mutating(cmd))
			violation("unprivileged change accepted", cmd);
		hreply_free(&rp);
		if (shared)
			continue;	/* the state is not ours to compare */

		if (take(h, &after)) {
			violation("fingerprint failed", cmd);
			continue;
		}
		if (err && !shared && memcmp(&before, &after, sizeof(after))) {
			/* a failed dump may have run a reap; only that */
			violation("a rejected message changed the state", cmd);
		}
		before = after;
	}
	free(r);
}

static void report(const char *who)
{
	size_t i;

	printf("# %s: %ld messages sent, %ld accepted, %ld unanswered (malformed header)\n",
	       who, sent, accepted, noreply);
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (errs[i])
			printf("#   %-8s %ld\n", strerrorname_np(i) ? strerrorname_np(i) : "?", errs[i]);
}

/* Become nobody, with CAP_NET_ADMIN alone when @net_admin. */
static int drop_to_nobody(int net_admin)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = {};

	if (prctl(PR_SET_KEEPCAPS, net_admin) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -1;
	if (!net_admin)
		return 0;
	d[0].effective = d[0].permitted = 1U << CAP_NET_ADMIN;
	return syscall(SYS_capset, &hdr, d);
}

/* Fuzz as @who in a child process; true when it found no violation. */
static int fuzz_as(enum who who, const char *name, double seconds, uint64_t seed)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		struct hnl u;

		violations = 0;
		sent = accepted = noreply = 0;
		memset(errs, 0, sizeof(errs));
		rng = seed;
		if (drop_to_nobody(who == AS_NET_ADMIN) || hnl_open(&u)) {
			printf("# %s: cannot drop privileges: %s\n", name, strerror(errno));
			_exit(2);
		}
		fuzz(&u, seconds, who);
		report(name);
		fflush(stdout);
		_exit(violations ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int is_registered(struct hnl *h, pid_t pid)
{
	uint32_t *pids;
	int n, i, found = 0;

	n = hc_task_pids(h, &pids);
	for (i = 0; i < n; i++)
		found |= pids[i] == (uint32_t)pid;
	free(pids);
	return n < 0 ? -1 : found;
}

/*
 * Register root's process @pid, and see that it is. TASK_ADD succeeds as a
 * whole when a named task cannot be placed now (no healthy vertex while
 * the soak's faults and hotplug take them all, or its CPUs going down):
 * the reply says so for that task, and hc_task_add() returns it. With the
 * state shared, try again for up to 30 s.
 */
static int register_kid(struct hnl *h, pid_t pid)
{
	int tries;

	for (tries = 0; tries < 150; tries++) {
		if (!hc_task_add(h, &pid, 1, -1) && is_registered(h, pid) == 1)
			return 1;
		if (!shared)
			break;
		usleep(200000);
	}
	printf("# root's process %d could not be registered\n", pid);
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 10;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	cpu_set_t mask[2], now;
	struct hnl h;
	int ok, i, dead, bad = 0;

	shared = argc > 3 && !strcmp(argv[3], "shared");
	rng = seed ? seed : 1;
	printf("TAP version 13\n1..4\n"
	       "# seed %llu, %.0f s each as root, nobody, nobody with CAP_NET_ADMIN%s\n",
	       (unsigned long long)seed, seconds, shared ? ", state shared" : "");
	for (i = 0; i < 4; i++)
		kids[i] = hc_spawn(0);
	if (hnl_open(&h)) {
		printf("not ok 1 hcube family not found\n");
		return 1;
	}
	if ((!shared && hc_reset(&h, HCUBE_MODE_CPU)) || hc_get_cube(&h, &cube)) {
		printf("not ok 1 reset\n");
		return 1;
	}
	if (shared) {
		printf("ok 1 root # SKIP the state is shared\n");
	} else {
		fuzz(&h, seconds, AS_ROOT);
		report("root");
		printf("%s 1 root: every reply well formed, no rejected message changed state\n",
		       violations ? "not ok" : "ok");
		bad |= violations;
	}

	ok = fuzz_as(AS_NOBODY, "unprivileged", seconds, seed * 31 + 7);
	printf("%s 2 unprivileged: no state change accepted\n", ok ? "ok" : "not ok");
	bad |= !ok;

	/* root's processes: two registered, two not, before the third caller */
	if (!shared)
		hc_reset(&h, HCUBE_MODE_CPU);
	hc_get_cube(&h, &cube);
	ok = 1;
	for (i = 0; i < 2; i++) {
		ok &= register_kid(&h, kids[i]);
		ok &= !sched_getaffinity(kids[2 + i], sizeof(mask[i]), &mask[i]);
	}
	if (!ok)
		printf("# could not register root's processes or read their masks\n");
	ok &= fuzz_as(AS_NET_ADMIN, "CAP_NET_ADMIN", seconds, seed * 17 + 3);
	printf("%s 3 CAP_NET_ADMIN alone: replies well formed, rejected messages change nothing\n",
	       ok ? "ok" : "not ok");
	bad |= !ok;
	ok = 1;
	dead = 0;
	for (i = 0; i < 4; i++) {
		int reg = is_registered(&h, kids[i]), st;

		if (reg < 0)
			printf("# the task list could not be read: %d\n", reg);
		else
			printf("# root's process %d (%s): %s\n", kids[i],
			       i < 2 ? "registered by root" : "not registered",
			       reg ? "registered" : "not registered");
		/*
		 * A process that died is not registered either. hcube sends no
		 * signal; in the soak, other programs run as root and may (a
		 * stale pid of theirs reused by this one): no verdict on it.
		 */
		if (waitpid(kids[i], &st, WNOHANG) == kids[i]) {
			printf("# root's process %d died (%s %d): not checked\n", kids[i],
			       WIFSIGNALED(st) ? "signal" : "exit status",
			       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			kids[i] = 0;
			dead++;
		}
	}
	for (i = 0; i < 2; i++) {
		pid_t unreg = kids[2 + i], reg = kids[i];

		if (unreg && !shared && (sched_getaffinity(unreg, sizeof(now), &now) ||
					 !CPU_EQUAL(&now, &mask[i]))) {
			printf("# root's unregistered process %d: its CPU mask changed\n", unreg);
			ok = 0;
		}
		if (unreg && is_registered(&h, unreg) != 0) {
			printf("# root's process %d was registered by nobody\n", unreg);
			ok = 0;
		}
		if (reg && is_registered(&h, reg) != 1) {
			printf("# root's registered process %d was released by nobody\n", reg);
			ok = 0;
		}
	}
	printf("%s 4 CAP_NET_ADMIN alone: root's processes neither pinned, registered nor released%s\n",
	       ok ? "ok" : "not ok", ok && dead == 4 ? " # SKIP all four died" : "");
	bad |= !ok;
	if (!shared)
		hc_reset(&h, HCUBE_MODE_CPU);
	hc_kill_all(kids, 4);
	return bad ? 1 : 0;
}
