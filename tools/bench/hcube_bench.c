// SPDX-License-Identifier: GPL-2.0
/*
 * hcube_bench: what a rebalance costs at scale, against the userspace way,
 * and what balancing does to the makespan of a bag of CPU-bound processes.
 * Runs inside the VM with hcube.ko loaded (tools/bench/run-bench.sh);
 * Documentation/performance.md explains the method and the results.
 *
 *   hcube_bench cost [-n 16,1024,4096,16384] [-r REPS] [-k DRYRUNS]
 *       N sleeping threads (a few processes of up to 1024 threads, 64 KiB
 *       stacks), three quarters on vertex 0 and a quarter on the opposite
 *       vertex. Times registration, what a read command (show, stats)
 *       costs, a dry run, the module's rebalance, the userspace way (the
 *       dry run's plan applied with sched_setaffinity() per thread, the
 *       tasks not registered) and the physical limit (the same moves as a
 *       bare loop of set_cpus_allowed_ptr() in the bench module
 *       hcube_bare.ko, when it is loaded), the slab memory per
 *       registered task, and the task list (TASK_GET dump) as root, who
 *       sees every task, and as nobody, who sees none of them.
 *
 *       With the largest N: a small rebalance (the loads a few tasks off
 *       balance: about four moves) and what fork+exit of an unregistered
 *       process costs while N tasks are registered.
 *
 *   hcube_bench fork [-n FORKS] [-b BATCHES] [-l LABEL]
 *       What fork+exit+wait of an unregistered process costs, the median
 *       of BATCHES batches of FORKS each, labelled LABEL (the module not
 *       loaded, loaded with no task, ...): the probes' cost.
 *
 *   hcube_bench idle [-s SECONDS] [-n 0,16384]
 *       The module's wake-ups (its work items run, from the workqueue
 *       tracepoint) while nothing happens, with N tasks registered.
 *
 *   hcube_bench mce [-n 16,16384] [-r REPS] [-t THRESHOLD] [-w WINDOW_S] [-c CPU] [-T]
 *       From a machine check to the last task off the CPU: N sleeping
 *       threads on CPU (the cube's last; in mode cpu its vertex is that
 *       CPU alone), mce_ce_threshold THRESHOLD [3] in WINDOW_S [60]
 *       seconds; THRESHOLD - 1 corrected errors injected with mce-inject
 *       untimed, then the clock runs from the write that injects the one
 *       crossing it to the FAULT_NTF (reason mce) and to the REBALANCE_NTF
 *       after the evacuation, received on the "events" group. REPS runs,
 *       each followed by FAULT_DEL; with -T as many again with the
 *       hcube_migrate tracepoint on, which dates the last move off the
 *       CPU in the kernel (trace_clock mono).
 *
 *   hcube_bench makespan [-p PER_VERTEX] [-e MEAN_MS] [-f 0,1,2] [-s SEEDS]
 *                        [-t THRESHOLD] [-c COOLDOWN_MS] [-P pin,dem,mcwa,cfs]
 *       PER_VERTEX worker processes per vertex, each consuming a given
 *       amount of its own CPU time (the guest's view of time, see the
 *       document), with 0, 1, 2 faulty vertices, under four policies.
 *
 * Every result is one line "R <kind> key=value ..." on stdout; everything
 * else is a comment for people ("# ...").
 */
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include "hcube_util.h"

#define MAXN		65536	/* threads in the cost benchmark */
#define HOLDER_MAX	1024	/* tasks (threads) per holder process */
#define MAXW		4096	/* workers in the makespan benchmark */

static struct hnl h;
static struct hc_cube cube;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	double t[256];

	if (n <= 0)
		return 0;
	if (n > 256)
		n = 256;
	memcpy(t, v, n * sizeof(*t));
	qsort(t, n, sizeof(*t), cmp_dbl);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "hcube_bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

/* ---- a lean netlink round trip: static buffers, nothing allocated ---- */

struct bresp {
	int err;
	int n;
	struct nlmsghdr *m[64];
	char msg[512];
};

static char bbuf[16 << 20];

static int bnl_do(struct nlmsghdr *req, struct bresp *rp)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	size_t used = 0;

	rp->err = 0;
	rp->n = 0;
	rp->msg[0] = 0;
	if (sendto(h.fd, req, req->nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	for (;;) {
		char *at = bbuf + used;
		struct nlmsghdr *nlh;
		ssize_t n;

		if (used + (4 << 20) > sizeof(bbuf))
			return -ENOBUFS;
		n = recv(h.fd, at, sizeof(bbuf) - used, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		used += NLMSG_ALIGN(n);
		for (nlh = (struct nlmsghdr *)at; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_seq != req->nlmsg_seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE)
				return 0;	/* the end of a dump */
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct hreply tmp;

				memset(&tmp, 0, sizeof(tmp));
				rp->err = ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
				hnl_parse_ext_ack(&tmp, nlh);
				snprintf(rp->msg, sizeof(rp->msg), "%s", tmp.msg);
				return rp->err;
			}
			if (rp->n < 64)
				rp->m[rp->n++] = nlh;
		}
	}
}

/* A request with room for @npids HCUBE_A_PID attributes (hreq holds 64 KiB). */
struct breq {
	struct nlmsghdr *nlh;
	size_t cap;
};

static void breq_init(struct breq *r, size_t cap, uint8_t cmd)
{
	if (cap > r->cap) {
		free(r->nlh);
		r->nlh = malloc(cap);
		r->cap = cap;
		if (!r->nlh)
			die("malloc", ENOMEM);
	}
	hnl_msg_init(r->nlh, h.family, cmd, 0, ++h.seq);
}

static void breq_put(struct breq *r, uint16_t type, const void *data, uint16_t len)
{
	if (NLMSG_ALIGN(r->nlh->nlmsg_len) + NLA_ALIGN(NLA_HDRLEN + len) > r->cap)
		die("request too large", E2BIG);
	hnl_msg_put(r->nlh, type, data, len);
}

static void breq_u32(struct breq *r, uint16_t type, uint32_t v)
{
	breq_put(r, type, &v, sizeof(v));
}

static struct breq req;
static struct bresp resp;

/* What a rebalance reply says. */
struct rb {
	double wall;			/* seconds, around the netlink call */
	uint64_t dur_ns, migrations;
	uint32_t moved, failed, ntransfers, nv;
	uint32_t before[HC_MAXV], planned[HC_MAXV], after[HC_MAXV];
};

static int rebalance(int policy, int dry, struct rb *o)
{
	static struct hc_report rep;
	double t0;
	int err;

	breq_init(&req, 1 << 16, HCUBE_CMD_REBALANCE);
	if (policy >= 0)
		breq_u32(&req, HCUBE_A_REPORT_POLICY, policy);
	if (dry)
		breq_put(&req, HCUBE_A_REPORT_DRY_RUN, NULL, 0);
	t0 = now_s();
	err = bnl_do(req.nlh, &resp);
	o->wall = now_s() - t0;
	if (err || !resp.n)
		return err ? err : -ENODATA;
	memset(&rep, 0, sizeof(rep));
	hc_parse_report(resp.m[0], &rep);
	o->dur_ns = rep.dur_ns;
	o->migrations = rep.migrations;
	o->moved = rep.moved;
	o->failed = rep.failed;
	o->ntransfers = rep.plan_ntransfers;
	o->nv = rep.nv;
	memcpy(o->before, rep.before, sizeof(o->before));
	memcpy(o->planned, rep.planned, sizeof(o->planned));
	memcpy(o->after, rep.after, sizeof(o->after));
	return 0;
}

/* TASK_ADD: @pids, each a job (all its threads), on @vertex; timed. */
static int task_add(const pid_t *pids, int n, int vertex, double *wall)
{
	double t0;
	int i, err;

	breq_init(&req, (size_t)n * 8 + 4096, HCUBE_CMD_TASK_ADD);
	for (i = 0; i < n; i++)
		breq_u32(&req, HCUBE_A_PID, pids[i]);
	if (vertex >= 0)
		breq_u32(&req, HCUBE_A_VERTEX_ID, vertex);
	t0 = now_s();
	err = bnl_do(req.nlh, &resp);
	if (wall)
		*wall = now_s() - t0;
	if (err)
		fprintf(stderr, "hcube_bench: TASK_ADD: %s (%s)\n", strerror(-err), resp.msg);
	return err;
}

static int task_del_all(double *wall)
{
	double t0;
	int err;

	breq_init(&req, 1 << 16, HCUBE_CMD_TASK_DEL);
	breq_put(&req, HCUBE_A_ALL, NULL, 0);
	t0 = now_s();
	err = bnl_do(req.nlh, &resp);
	if (wall)
		*wall = now_s() - t0;
	return err;
}

/* A read command (CUBE_GET): what it costs with the tasks registered. */
static double cube_get_wall(void)
{
	double t0;

	breq_init(&req, 1 << 16, HCUBE_CMD_CUBE_GET);
	t0 = now_s();
	if (bnl_do(req.nlh, &resp))
		die("CUBE_GET", resp.err);
	return now_s() - t0;
}

/* `hcubectl show`: the cube and a dump of the vertices. */
static double show_wall(void)
{
	double t0 = now_s();

	breq_init(&req, 1 << 16, HCUBE_CMD_CUBE_GET);
	if (bnl_do(req.nlh, &resp))
		die("CUBE_GET", resp.err);
	breq_init(&req, 1 << 16, HCUBE_CMD_VERTEX_GET);
	req.nlh->nlmsg_flags |= NLM_F_DUMP;
	if (bnl_do(req.nlh, &resp))
		die("VERTEX_GET", resp.err);
	return now_s() - t0;
}

static double stats_wall(void)
{
	double t0 = now_s();

	breq_init(&req, 1 << 16, HCUBE_CMD_STATS_GET);
	if (bnl_do(req.nlh, &resp))
		die("STATS_GET", resp.err);
	return now_s() - t0;
}

/*
 * The TASK_GET dump (`hcubectl task list`), median of 16 walls in seconds,
 * as the caller is (@nobody 0) or as nobody without capabilities, in a
 * child: *seen is how many tasks the dump returned.
 */
static double dump_wall(int nobody, int *seen)
{
	double w[16], m = -1;
	int fd[2], i, n = 0;
	struct hnl u;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct { double m; int n; } out = { -1, -1 };

		if (!nobody || (!setresgid(65534, 65534, 65534) &&
				!setresuid(65534, 65534, 65534) && !hnl_open(&u))) {
			for (i = 0; i < 16; i++) {
				uint32_t *pids;
				double t0 = now_s();

				n = hc_task_pids(nobody ? &u : &h, &pids);
				w[i] = now_s() - t0;
				if (n >= 0)
					free(pids);
			}
			out.m = median(w, 16);
			out.n = n;
		}
		if (write(fd[1], &out, sizeof(out)) != sizeof(out))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (pid > 0) {
		struct { double m; int n; } in;

		if (read(fd[0], &in, sizeof(in)) == sizeof(in)) {
			m = in.m;
			*seen = in.n;
		}
		waitpid(pid, NULL, 0);
	}
	close(fd[0]);
	return m;
}

/* ---- the bare loop (hcube_bare.ko) ---- */

#define BARE_MOVES "/sys/kernel/debug/hcube_bare/moves"

struct bare_move {
	int32_t tid;
	uint32_t cpu_lo, cpu_hi;
};

/* The CPU range of a vertex's usable CPUs; they are contiguous here. */
static void vertex_range(int v, uint32_t *lo, uint32_t *hi)
{
	int cpu, n = 0;

	*lo = UINT32_MAX;
	*hi = 0;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &cube.v[v].usable))
			continue;
		if ((uint32_t)cpu < *lo)
			*lo = cpu;
		*hi = cpu;
		n++;
	}
	if (!n || *hi - *lo + 1 != (uint32_t)n)
		die("a vertex's CPUs are not a range", EINVAL);
}

/* The kernel-side time of set_cpus_allowed_ptr() for @m moves, in s. */
static double bare_apply(const pid_t *tid, const int *to, int m)
{
	static struct bare_move mv[MAXN];
	unsigned int moves, errors;
	unsigned long long ns;
	FILE *f;
	int i, fd;

	for (i = 0; i < m; i++) {
		mv[i].tid = tid[i];
		vertex_range(to[i], &mv[i].cpu_lo, &mv[i].cpu_hi);
	}
	fd = open(BARE_MOVES, O_WRONLY);
	if (fd < 0 || write(fd, mv, m * sizeof(mv[0])) != (ssize_t)(m * sizeof(mv[0])))
		die("write " BARE_MOVES, errno);
	close(fd);
	f = fopen(BARE_MOVES, "r");
	if (!f || fscanf(f, "%u %u %llu", &moves, &errors, &ns) != 3)
		die("read " BARE_MOVES, EIO);
	fclose(f);
	if (moves != (unsigned int)m || errors)
		die("the bare loop's moves", EIO);
	return ns * 1e-9;
}

/* ---- slab accounting ---- */

#define SLAB_MAX 2048

struct slabsnap {
	int n;
	char name[SLAB_MAX][64];
	long objs[SLAB_MAX], objsize[SLAB_MAX], bytes[SLAB_MAX];
	long total, meminfo_slab_kb;
};

static void slab_snap(struct slabsnap *s)
{
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");

	memset(s, 0, sizeof(*s));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && s->n < SLAB_MAX) {
		long act, num, osz, per, pages, aslabs, nslabs;
		char name[64];

		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%63s %ld %ld %ld %ld %ld : tunables %*d %*d %*d : slabdata %ld %ld",
			   name, &act, &num, &osz, &per, &pages, &aslabs, &nslabs) != 8)
			continue;
		snprintf(s->name[s->n], sizeof(s->name[0]), "%s", name);
		s->objs[s->n] = act;
		s->objsize[s->n] = osz;
		s->bytes[s->n] = nslabs * pages * 4096;
		s->total += s->bytes[s->n];
		s->n++;
	}
	fclose(f);
	f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &s->meminfo_slab_kb) == 1)
			break;
	if (f)
		fclose(f);
}

static int slab_find(const struct slabsnap *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return i;
	return -1;
}

/* ---- the sleeping threads ---- */

struct holders {
	volatile int ready;		/* tasks that stored their tid */
	pid_t tid[MAXN];
};

static struct holders *hs;

static void *sleeper(void *arg)
{
	long k = (long)arg;

	hs->tid[k] = syscall(SYS_gettid);
	__atomic_add_fetch(&hs->ready, 1, __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return NULL;
}

/* A process holding @count tasks (itself and count - 1 threads) on @mask. */
static pid_t holder_spawn(int first, int count, const cpu_set_t *mask)
{
	pid_t pid = fork();
	pthread_attr_t attr;
	int i;

	if (pid)
		return pid;
	/* gone with the bench, even when it dies: they hold its stdout */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* the threads inherit the affinity: they start on the vertex */
	if (sched_setaffinity(0, sizeof(*mask), mask))
		_exit(2);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	pthread_attr_setguardsize(&attr, 4096);
	hs->tid[first] = getpid();
	__atomic_add_fetch(&hs->ready, 1, __ATOMIC_SEQ_CST);
	for (i = 1; i < count; i++) {
		pthread_t t;

		if (pthread_create(&t, &attr, sleeper, (void *)(long)(first + i))) {
			fprintf(stderr, "hcube_bench: pthread_create: thread %d of %d failed\n",
				i, count);
			_exit(3);
		}
	}
	for (;;)
		pause();
}

/* ---- cost ---- */

static void parse_list(const char *s, int *v, int *n, int max)
{
	*n = 0;
	while (*s && *n < max) {
		v[(*n)++] = strtol(s, (char **)&s, 10);
		if (*s == ',')
			s++;
	}
}

/*
 * The userspace way: the plan's loads before and after, the threads by
 * vertex; surplus threads leave their vertex, each straight to a vertex
 * short of threads, with one sched_setaffinity() each (with @dry, none:
 * only the list). Returns the moves; @moved_tid, @moved_from and
 * @moved_to record them.
 */
static int user_apply(const struct rb *plan, pid_t **byv, int *nbyv,
		      pid_t *moved_tid, int *moved_from, int *moved_to, int dry,
		      int *errors)
{
	int need[HC_MAXV], v, w = 0, k, m = 0;

	*errors = 0;
	for (v = 0; v < (int)plan->nv; v++)
		need[v] = (int)plan->planned[v] - (int)plan->before[v];
	for (v = 0; v < (int)plan->nv; v++) {
		int surplus = (int)plan->before[v] - (int)plan->planned[v];

		for (k = 0; k < surplus && k < nbyv[v]; k++) {
			pid_t tid = byv[v][nbyv[v] - 1 - k];

			while (w < (int)plan->nv && need[w] <= 0)
				w++;
			if (w == (int)plan->nv)
				return m;
			if (!dry && sched_setaffinity(tid, sizeof(cpu_set_t),
						      &cube.v[w].usable))
				(*errors)++;
			need[w]--;
			moved_tid[m] = tid;
			moved_to[m] = w;
			moved_from[m++] = v;
		}
	}
	return m;
}

/* fork+exit+wait of a process that does nothing: microseconds each. */
static double fork_batch(int n)
{
	double t0 = now_s();
	int i;

	for (i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p < 0)
			die("fork", errno);
		waitpid(p, NULL, 0);
	}
	return (now_s() - t0) * 1e6 / n;
}

/* The median of @batches batches of @n forks, as an R fork line. */
static void fork_cost(const char *label, int n, int batches, int ntasks)
{
	double us[64] = { 0 }, min = 0;
	int b;

	if (batches > 64)
		batches = 64;
	if (batches < 1)
		batches = 1;
	for (b = 0; b < batches; b++) {
		us[b] = fork_batch(n);
		if (!b || us[b] < min)
			min = us[b];
	}
	printf("R fork label=%s cpus=%ld tasks=%d n=%d batches=%d us_per_fork=%.2f us_min=%.2f\n",
	       label, sysconf(_SC_NPROCESSORS_ONLN), ntasks, n, batches, median(us, batches),
	       min);
	fflush(stdout);
}

static int cmd_fork(int argc, char **argv)
{
	const char *label = "loaded";
	int n = 2000, batches = 7, c;

	optind = 1;
	while ((c = getopt(argc, argv, "n:b:l:")) != -1) {
		switch (c) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'b':
			batches = atoi(optarg);
			break;
		case 'l':
			label = optarg;
			break;
		default:
			return 2;
		}
	}
	fork_cost(label, n, batches, 0);
	return 0;
}

/*
 * A small rebalance: a few tasks off the balanced loads. From the
 * balance the last rebalance left, @k threads of the most loaded vertex
 * are unregistered: the plan then moves about @k tasks.
 */
static void small_rebalance(int n, int k, const pid_t *tids, int ntids)
{
	struct rb o;
	double d[16];
	int r, i, done;

	for (r = 0; r < 5; r++) {
		struct hreq *q;
		uint32_t max = 0, v, vmax = 0;

		if (rebalance(HCUBE_POLICY_MCWA, 0, &o))
			die("rebalance", resp.err);
		for (v = 0; v < o.nv; v++)
			if (o.after[v] > max) {
				max = o.after[v];
				vmax = v;
			}
		/* k threads of vertex vmax leave */
		q = malloc(sizeof(*q));
		hreq_init(q, &h, h.family, HCUBE_CMD_TASK_DEL, 0);
		for (i = 0, done = 0; i < ntids && done < k; i++) {
			cpu_set_t a;

			if (!sched_getaffinity(tids[i], sizeof(a), &a) &&
			    CPU_EQUAL(&a, &cube.v[vmax].usable)) {
				hreq_u32(q, HCUBE_A_PID, tids[i]);
				done++;
			}
		}
		hreq_u32(q, HCUBE_A_UNIT, HCUBE_UNIT_THREAD);
		hc_send(&h, q, NULL);
		if (rebalance(HCUBE_POLICY_MCWA, 0, &o))
			die("rebalance", resp.err);
		d[r] = o.dur_ns * 1e-9;
		printf("# small rebalance %d: %u moved\n", r, o.moved);
	}
	printf("R small cpus=%ld n=%d moved=%u small_dur_ms=%.3f\n",
	       sysconf(_SC_NPROCESSORS_ONLN), n, o.moved, median(d, 5) * 1e3);
	fflush(stdout);
}

static int cost_one(int n, int reps, int ndry, int cpus)
{
	static pid_t *byv[HC_MAXV], moved_tid[MAXN], hpid[MAXN / 16 + 64];
	static int nbyv[HC_MAXV], moved_from[MAXN], moved_to[MAXN], hvertex[MAXN / 16 + 64];
	static int hfirst[MAXN / 16 + 64], hcount[MAXN / 16 + 64];
	static struct slabsnap s0, s1;
	static struct rb dry[64], mod, plan;
	double t_reg[256], t_regone = 0, t_del[256], t_get0[16], t_get[16];
	double d_dry[64], w_dry[64], w_mod[64], d_mod[64], w_user[64], d_bare[64];
	double t_show[16], t_stats[16], t_dump_root, t_dump_nobody;
	int seen_root = -1, seen_nobody = -1;
	int bare = !access(BARE_MOVES, W_OK), nparts = bare ? 3 : 2;
	int nh = 0, per, i, r, v, far = cube.nv - 1, nreg = 0, ndel = 0;
	int moved_user = 0, errs = 0, first = 0, idx;
	double t0, t_spawn;
	uint32_t moved_mod = 0, failed_mod = 0, ntransfers = 0;
	uint64_t migr = 0;

	if (n > MAXN)
		die("too many threads", E2BIG);
	/* three quarters of the holders on vertex 0, a quarter on the far one */
	per = n / 4 < HOLDER_MAX ? n / 4 : HOLDER_MAX;
	for (i = 0; first < n; i++) {
		hfirst[i] = first;
		hcount[i] = n - first < per ? n - first : per;
		hvertex[i] = first < n * 3 / 4 ? 0 : far;
		first += hcount[i];
	}
	nh = i;
	for (v = 0; v < (int)cube.nv; v++) {
		free(byv[v]);
		byv[v] = calloc(n, sizeof(pid_t));
		nbyv[v] = 0;
	}
	for (i = 0; i < 16; i++)
		t_get0[i] = cube_get_wall();

	hs->ready = 0;
	t0 = now_s();
	for (i = 0; i < nh; i++)
		hpid[i] = holder_spawn(hfirst[i], hcount[i], &cube.v[hvertex[i]].usable);
	while (hs->ready < n) {
		int st;

		usleep(2000);
		if (waitpid(-1, &st, WNOHANG) > 0)
			die("a holder process died (threads-max? memory?)", EAGAIN);
	}
	t_spawn = now_s() - t0;
	for (i = 0; i < nh; i++)
		for (idx = hfirst[i]; idx < hfirst[i] + hcount[i]; idx++)
			byv[hvertex[i]][nbyv[hvertex[i]]++] = hs->tid[idx];
	printf("# %d threads in %d processes: created in %.2f s\n", n, nh, t_spawn);
	fflush(stdout);

	/* registration: one request per process, each a job (all its threads) */
	sleep(1);
	slab_snap(&s0);
	t0 = now_s();
	for (i = 0; i < nh; i++)
		if (task_add(&hpid[i], 1, hvertex[i], NULL))
			die("TASK_ADD", resp.err);
	t_reg[nreg++] = now_s() - t0;
	sleep(1);
	slab_snap(&s1);

	for (i = 0; i < 16; i++) {
		t_get[i] = cube_get_wall();
		t_show[i] = show_wall();
		t_stats[i] = stats_wall();
	}
	t_dump_root = dump_wall(0, &seen_root);
	t_dump_nobody = dump_wall(1, &seen_nobody);
	for (i = 0; i < ndry; i++) {
		if (rebalance(HCUBE_POLICY_MCWA, 1, &dry[i]))
			die("dry run", resp.err);
		w_dry[i] = dry[i].wall;
		d_dry[i] = dry[i].dur_ns * 1e-9;
	}
	plan = dry[0];
	for (v = 0; v < (int)plan.nv; v++)
		if (plan.before[v] != (uint32_t)nbyv[v])
			die("the dry run's loads are not the placement", EIO);

	/*
	 * Each repetition starts and ends registered and skewed. The order of
	 * the module, the userspace way and the bare loop turns with it.
	 */
	for (r = 0; r < reps; r++) {
		int part;

		for (part = 0; part < nparts; part++) {
			int which = (part + r) % nparts;

			if (which == 0) {
				/* registered and skewed: the module's rebalance */
				if (rebalance(HCUBE_POLICY_MCWA, 0, &mod))
					die("rebalance", resp.err);
				w_mod[r] = mod.wall;
				d_mod[r] = mod.dur_ns * 1e-9;
				moved_mod = mod.moved;
				failed_mod += mod.failed;
				ntransfers = mod.ntransfers;
				migr = mod.migrations;
				for (v = 0; v < (int)mod.nv; v++)
					if (mod.after[v] != plan.planned[v])
						die("the rebalance did not reach the plan", EIO);
				/* unregistering restores the skewed affinity */
				if (task_del_all(&t_del[ndel++]))
					die("TASK_DEL", resp.err);
			} else {
				/* the same moves, the tasks unregistered (skewed) */
				if (task_del_all(&t_del[ndel++]))
					die("TASK_DEL", resp.err);
				t0 = now_s();
				moved_user = user_apply(&plan, byv, nbyv, moved_tid, moved_from,
							moved_to, which == 2, &errs);
				if (which == 1)
					w_user[r] = now_s() - t0;
				else
					d_bare[r] = bare_apply(moved_tid, moved_to, moved_user);
				if (errs)
					die("sched_setaffinity", EIO);
				/* back to the skewed placement, untimed */
				for (i = 0; i < moved_user; i++)
					sched_setaffinity(moved_tid[i], sizeof(cpu_set_t),
							  &cube.v[moved_from[i]].usable);
			}
			/* registered and skewed again */
			t0 = now_s();
			for (i = 0; i < nh; i++)
				if (task_add(&hpid[i], 1, hvertex[i], NULL))
					die("TASK_ADD", resp.err);
			t_reg[nreg++] = now_s() - t0;
		}
	}
	/* with the largest: fork+exit while they are registered; a small rebalance */
	if (n >= 16384) {
		fork_cost("registered", 2000, 7, n);
		small_rebalance(n, 4, hs->tid, n);
	}
	/* one request with every tid (HCUBE_A_PID n times), when it fits */
	if (task_del_all(NULL) == 0 && (size_t)n * 8 + 4096 < 200000) {
		if (task_add(hs->tid, n, 0, &t_regone))
			t_regone = -1;
		task_del_all(NULL);
	}

	for (i = 0; i < nh; i++)
		kill(hpid[i], SIGKILL);
	for (i = 0; i < nh; i++)
		waitpid(hpid[i], NULL, 0);

	{
		int ih = slab_find(&s1, "hcube_task"), ih0 = slab_find(&s0, "hcube_task");
		int ik = slab_find(&s1, "kmalloc-8"), ik0 = slab_find(&s0, "kmalloc-8");
		int ir = slab_find(&s1, "radix_tree_node"), ir0 = slab_find(&s0, "radix_tree_node");
		long hobj = ih >= 0 ? s1.objs[ih] - (ih0 >= 0 ? s0.objs[ih0] : 0) : -1;
		long hbytes = ih >= 0 ? s1.bytes[ih] - (ih0 >= 0 ? s0.bytes[ih0] : 0) : -1;
		long k8 = ik >= 0 && ik0 >= 0 ? s1.bytes[ik] - s0.bytes[ik0] : -1;
		long rbytes = ir >= 0 && ir0 >= 0 ? s1.bytes[ir] - s0.bytes[ir0] : -1;
		double mw = median(w_mod, reps), mu = median(w_user, reps);
		double md = median(w_dry, ndry), mb = bare ? median(d_bare, reps) : 0;
		double mdur = median(d_mod, reps);

		printf("R cost cpus=%d vertices=%u n=%d moved=%u user_moved=%d failed=%u "
		       "transfers=%u migrations=%llu spawn_s=%.3f "
		       "reg_ms=%.3f regone_ms=%.3f del_ms=%.3f get0_ms=%.3f get_ms=%.3f "
		       "dry_wall_ms=%.3f dry_dur_ms=%.3f mod_wall_ms=%.3f mod_dur_ms=%.3f "
		       "user_ms=%.3f mod_wall_min_ms=%.3f user_min_ms=%.3f "
		       "ratio_apply=%.3f ratio_total=%.3f "
		       "mod_us_per_task=%.3f user_us_per_task=%.3f "
		       "hcube_task_objs=%ld hcube_task_objsize=%ld hcube_task_bytes=%ld "
		       "kmalloc8_bytes=%ld radix_bytes=%ld slab_total_bytes=%ld meminfo_slab_kb=%ld "
		       "bytes_per_task=%.1f reps=%d show_ms=%.3f stats_ms=%.3f "
		       "bare_ms=%.3f ratio_bare=%.3f "
		       "dump_root_ms=%.3f dump_root_tasks=%d "
		       "dump_nobody_ms=%.3f dump_nobody_tasks=%d\n",
		       cpus, cube.nv, n, moved_mod, moved_user, failed_mod, ntransfers,
		       (unsigned long long)migr, t_spawn,
		       median(t_reg, nreg) * 1e3, t_regone * 1e3, median(t_del, ndel) * 1e3,
		       median(t_get0, 16) * 1e3, median(t_get, 16) * 1e3,
		       md * 1e3, median(d_dry, ndry) * 1e3, mw * 1e3, median(d_mod, reps) * 1e3,
		       mu * 1e3, w_mod[0] * 1e3, w_user[0] * 1e3,
		       mw / mu, mw / (md + mu),
		       moved_mod ? mw * 1e6 / moved_mod : 0,
		       moved_user ? mu * 1e6 / moved_user : 0,
		       hobj, ih >= 0 ? s1.objsize[ih] : -1, hbytes, k8, rbytes,
		       s1.total - s0.total, s1.meminfo_slab_kb - s0.meminfo_slab_kb,
		       (double)(s1.total - s0.total) / n, reps,
		       median(t_show, 16) * 1e3, median(t_stats, 16) * 1e3,
		       mb * 1e3, mb > 0 ? mdur / mb : 0,
		       t_dump_root * 1e3, seen_root, t_dump_nobody * 1e3, seen_nobody);
		fflush(stdout);
	}
	return 0;
}

static int cmd_cost(int argc, char **argv)
{
	int ns[16], nn = 0, reps = 3, ndry = 5, i, c;
	char list[] = "16,1024,4096,16384";

	parse_list(list, ns, &nn, 16);
	while ((c = getopt(argc, argv, "n:r:k:")) != -1) {
		switch (c) {
		case 'n': parse_list(optarg, ns, &nn, 16); break;
		case 'r': reps = atoi(optarg); break;
		case 'k': ndry = atoi(optarg); break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > 64 || ndry < 1 || ndry > 64)
		die("-r and -k: 1..64", EINVAL);
	hs = mmap(NULL, sizeof(*hs), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (hs == MAP_FAILED)
		die("mmap", errno);
	if (hc_reset(&h, HCUBE_MODE_CPU) || hc_get_cube(&h, &cube))
		die("reset the module (mode cpu)", EIO);
	printf("# cost: mode cpu, %u vertices (%u-cube), %ld CPUs\n", cube.nv, cube.dim,
	       sysconf(_SC_NPROCESSORS_ONLN));
	for (i = 0; i < nn; i++)
		cost_one(ns[i], reps, ndry, (int)sysconf(_SC_NPROCESSORS_ONLN));
	return 0;
}

/* ---- idle wake-ups ---- */

#define TRACING "/sys/kernel/tracing"

/*
 * The module's work items that ran in @secs seconds of quiet: each is a
 * wake-up of the module (a timer or an event). From the workqueue
 * tracepoint, which names the function.
 */
static long idle_wakeups(int secs)
{
	char line[512];
	long n = 0;
	FILE *f;
	int err;

	err = hc_clear_file(TRACING "/trace");
	if (!err)
		err = hc_write_file(TRACING "/events/workqueue/workqueue_execute_start/enable", "1");
	if (err)
		die("tracefs (workqueue_execute_start)", err);
	sleep(secs);
	hc_write_file(TRACING "/events/workqueue/workqueue_execute_start/enable", "0");
	f = fopen(TRACING "/trace", "r");
	if (!f)
		die("tracefs trace", errno);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, "function hcube_"))
			n++;
	fclose(f);
	return n;
}

static int cmd_idle(int argc, char **argv)
{
	int ns[8], nn = 0, secs = 60, i, c, k, idx;
	char list[] = "0,16384";
	pid_t hpid[64];

	parse_list(list, ns, &nn, 8);
	while ((c = getopt(argc, argv, "s:n:")) != -1) {
		switch (c) {
		case 's': secs = atoi(optarg); break;
		case 'n': parse_list(optarg, ns, &nn, 8); break;
		default: return 2;
		}
	}
	hs = mmap(NULL, sizeof(*hs), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (hs == MAP_FAILED)
		die("mmap", errno);
	if (hc_reset(&h, HCUBE_MODE_CPU) || hc_get_cube(&h, &cube))
		die("reset the module (mode cpu)", EIO);
	for (i = 0; i < nn; i++) {
		int n = ns[i], nh = 0, first = 0;
		long w;

		if (n > MAXN)
			die("too many threads", E2BIG);
		hs->ready = 0;
		for (first = 0; first < n; first += HOLDER_MAX)
			hpid[nh++] = holder_spawn(first, n - first < HOLDER_MAX ?
						  n - first : HOLDER_MAX,
						  &cube.v[0].usable);
		while (hs->ready < n)
			usleep(2000);
		for (k = 0; k < nh; k++)
			if (task_add(&hpid[k], 1, -1, NULL))
				die("TASK_ADD", resp.err);
		sleep(2);	/* let the registration's own work end */
		w = idle_wakeups(secs);
		printf("R idle tasks=%d seconds=%d wakeups=%ld wakeups_per_min=%.1f\n",
		       n, secs, w, w * 60.0 / secs);
		task_del_all(NULL);
		for (idx = 0; idx < nh; idx++)
			kill(hpid[idx], SIGKILL);
		for (idx = 0; idx < nh; idx++)
			waitpid(hpid[idx], NULL, 0);
	}
	return 0;
}

/* ---- from a machine check to the last task off the CPU ---- */

#define MI		"/sys/kernel/debug/mce-inject"
#define MCE_CE		0x9c00000000000151ULL	/* valid, enabled, corrected */
#define MCE_BANK	"1"
#define MIGRATE_EV	TRACING "/events/hcube/hcube_migrate"

/* mce-inject there (loaded, debugfs mounted): 0, else -1. */
static int mce_inject_ready(void)
{
	if (!access(MI "/bank", W_OK))
		return 0;
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (access(MI "/bank", W_OK) && system("modprobe mce-inject 2>/dev/null"))
		return -1;
	return access(MI "/bank", W_OK) ? -1 : 0;
}

/*
 * A corrected error of @cpu, but for the write that logs it: flags, CPU
 * and status written, *bankfd open on the bank file. mce-inject drops the
 * last byte of a write: flags get a newline.
 */
static void mce_prepare(int cpu, int *bankfd)
{
	char b[32];
	int err;

	err = hc_write_file(MI "/flags", "sw\n");
	snprintf(b, sizeof(b), "%d", cpu);
	err = err ?: hc_write_file(MI "/cpu", b);
	snprintf(b, sizeof(b), "0x%llx", (unsigned long long)MCE_CE);
	err = err ?: hc_write_file(MI "/status", b);
	if (err)
		die("mce-inject", err);
	*bankfd = open(MI "/bank", O_WRONLY);
	if (*bankfd < 0)
		die("open " MI "/bank", errno);
}

/* The write that logs the record prepared (mce_log(), then the decode chain). */
static void mce_fire(int bankfd)
{
	if (write(bankfd, MCE_BANK, 1) != 1)
		die("write " MI "/bank", errno);
	close(bankfd);
}

static void mce_inject(int cpu)
{
	int fd;

	mce_prepare(cpu, &fd);
	mce_fire(fd);
}

/* CONFIG_SET of the machine-check settings; -1 leaves one as it is. */
static void mce_config(int threshold, int window)
{
	struct hreq *r = malloc(sizeof(*r));

	if (!r)
		die("malloc", ENOMEM);
	hreq_init(r, &h, h.family, HCUBE_CMD_CONFIG_SET, 0);
	hreq_nest_start(r, HCUBE_A_CONFIG);
	if (threshold >= 0)
		hreq_u32(r, HCUBE_A_CONFIG_MCE_CE_THRESHOLD, threshold);
	if (window >= 0)
		hreq_u32(r, HCUBE_A_CONFIG_MCE_CE_WINDOW, window);
	hreq_nest_end(r);
	if (hc_send(&h, r, NULL))
		die("CONFIG_SET (mce_ce_threshold, mce_ce_window)", EINVAL);
}

/* The configured mce_ce_threshold and mce_ce_window (CONFIG_GET). */
static void mce_config_get(int *threshold, int *window)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err;

	*threshold = *window = -1;
	if (!r)
		die("malloc", ENOMEM);
	hreq_init(r, &h, h.family, HCUBE_CMD_CONFIG_GET, 0);
	err = hnl_do(&h, r, &rp);
	if (!err && rp.nmsgs) {
		struct nlattr *c = hnl_msg_attr(rp.msgs[0], HCUBE_A_CONFIG), *a;

		a = hnl_nested(c, HCUBE_A_CONFIG_MCE_CE_THRESHOLD);
		if (a)
			*threshold = hnl_u32(a);
		a = hnl_nested(c, HCUBE_A_CONFIG_MCE_CE_WINDOW);
		if (a)
			*window = hnl_u32(a);
	}
	hreply_free(&rp);
	free(r);
	if (err)
		die("CONFIG_GET", err);
}

/* Wait until the module saw @n machine-check records in all. */
static void mce_wait_records(uint64_t n)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1];
	int i;

	for (i = 0; i < 1000; i++) {
		if (hc_stats(&h, s))
			die("STATS_GET", EIO);
		if (s[HCUBE_A_STATS_MCE_RECORDS] >= n)
			return;
		usleep(10000);
	}
	die("the module did not see the records injected", ETIMEDOUT);
}

/* A socket on the family's "events" group, with room for a burst. */
static int events_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	int rcv = 16 << 20;
	uint32_t grp = h.mcgrp;

	if (fd < 0)
		die("socket", errno);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		die("the events group", errno);
	return fd;
}

/* Everything queued on @fd so far, dropped. */
static void events_drain(int fd)
{
	for (;;) {
		ssize_t n = recv(fd, bbuf, sizeof(bbuf), MSG_DONTWAIT);

		if (n < 0 && errno != ENOBUFS && errno != EINTR)
			return;
	}
}

static int attr_u32(struct nlmsghdr *nlh, int type, uint32_t *v)
{
	struct nlattr *a = hnl_msg_attr(nlh, type);

	if (!a)
		return 0;
	*v = hnl_u32(a);
	return 1;
}

/*
 * What one run saw, in seconds from just before the write that injected
 * the crossing record: the FAULT_NTF (reason mce, the CPU marked)
 * received, and the REBALANCE_NTF of the rebalance that follows the
 * evacuation (trigger fault) received; its report.
 */
struct mce_run {
	double fault, off;
	struct hc_report rep;
};

/*
 * Wait on @fd for the CPU's FAULT_NTF and then the REBALANCE_NTF after
 * the evacuation, each stamped on receipt; -ETIMEDOUT after 300 s.
 */
static int events_wait(int fd, int cpu, double t0, struct mce_run *o)
{
	double deadline = t0 + 300;

	o->fault = o->off = -1;
	while (o->off < 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *nlh;
		double t;
		ssize_t n;

		if (now_s() > deadline)
			return -ETIMEDOUT;
		if (poll(&p, 1, 1000) <= 0)
			continue;
		n = recv(fd, bbuf, sizeof(bbuf), 0);
		t = now_s();
		if (n < 0) {
			if (errno == ENOBUFS)
				fprintf(stderr, "hcube_bench: events: ENOBUFS, some were lost\n");
			if (errno == ENOBUFS || errno == EINTR)
				continue;
			return -errno;
		}
		for (nlh = (struct nlmsghdr *)bbuf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			struct genlmsghdr *g = NLMSG_DATA(nlh);
			uint32_t reason, c, ev;

			if (nlh->nlmsg_type != h.family)
				continue;
			if (g->cmd == HCUBE_CMD_FAULT_NTF && o->fault < 0 &&
			    attr_u32(nlh, HCUBE_A_REASON, &reason) && reason == HCUBE_REASON_MCE &&
			    attr_u32(nlh, HCUBE_A_CPU, &c) && (int)c == cpu &&
			    attr_u32(nlh, HCUBE_A_EVENT, &ev) && ev == HCUBE_FAULT_ADDED)
				o->fault = t - t0;
			if (g->cmd == HCUBE_CMD_REBALANCE_NTF && o->fault >= 0 && o->off < 0 &&
			    attr_u32(nlh, HCUBE_A_REPORT_TRIGGER, &reason) &&
			    reason == HCUBE_REASON_FAULT) {
				o->off = t - t0;
				memset(&o->rep, 0, sizeof(o->rep));
				hc_parse_report(nlh, &o->rep);
			}
		}
	}
	return 0;
}

/* The hcube_migrate tracepoint on, for the moves off vertex @v only. */
static void migrate_trace_on(int v)
{
	char f[64];
	int err;

	snprintf(f, sizeof(f), "from == %d && err == 0", v);
	err = hc_write_file(TRACING "/tracing_on", "0");
	err = err ?: hc_write_file(TRACING "/trace_clock", "mono");
	err = err ?: hc_write_file(TRACING "/buffer_size_kb", "4096");
	err = err ?: hc_write_file(MIGRATE_EV "/filter", f);
	err = err ?: hc_clear_file(TRACING "/trace");
	err = err ?: hc_write_file(MIGRATE_EV "/enable", "1");
	err = err ?: hc_write_file(TRACING "/tracing_on", "1");
	if (err)
		die("tracefs (the hcube_migrate tracepoint)", err);
}

/*
 * The tracepoint off; the moves it recorded: how many, the time of the
 * first and of the last (CLOCK_MONOTONIC, as trace_clock mono), and the
 * lost-event marks.
 */
static int migrate_trace_off(double *first, double *last, int *lost)
{
	char line[512];
	int n = 0;
	FILE *f;

	hc_write_file(MIGRATE_EV "/enable", "0");
	hc_write_file(TRACING "/tracing_on", "0");
	*first = *last = 0;
	*lost = 0;
	f = fopen(TRACING "/trace", "r");
	if (!f)
		die("tracefs trace", errno);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, ": hcube_migrate:");
		double ts;

		if (line[0] == '#' || !p) {
			if (strstr(line, "LOST"))
				(*lost)++;
			continue;
		}
		*p = 0;
		p = strrchr(line, ' ');
		if (!p || sscanf(p, "%lf", &ts) != 1)
			continue;
		if (!n || ts < *first)
			*first = ts;
		if (!n || ts > *last)
			*last = ts;
		n++;
	}
	fclose(f);
	hc_write_file(MIGRATE_EV "/filter", "0");
	hc_write_file(TRACING "/trace_clock", "local");
	hc_write_file(TRACING "/tracing_on", "1");
	return n;
}

/* The threads still allowed on @cpu (sched_getaffinity), of @n. */
static int still_on(int cpu, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		cpu_set_t a;

		if (sched_getaffinity(hs->tid[i], sizeof(a), &a) || CPU_ISSET(cpu, &a))
			k++;
	}
	return k;
}

/*
 * One timed run: the crossing record injected on @cpu (the tasks on its
 * vertex @v, threshold - 1 records counted already), then the two events
 * waited for; with @traced, the hcube_migrate tracepoint on for the moves
 * off @v. Prints its R line; returns its times in ms (last: -1 untraced).
 */
static void mce_run(int n, int cpu, int v, int threshold, int window, int traced,
		    int rep, double *fault, double *off, double *last)
{
	static struct mce_run o;
	double t0, tfirst = 0, tlast = 0;
	int fd, bankfd, left, ntraced = -1, lost = 0, err;

	fd = events_open();
	events_drain(fd);
	if (traced)
		migrate_trace_on(v);
	mce_prepare(cpu, &bankfd);
	t0 = now_s();
	mce_fire(bankfd);
	err = events_wait(fd, cpu, t0, &o);
	close(fd);
	if (traced)
		ntraced = migrate_trace_off(&tfirst, &tlast, &lost);
	if (err)
		die("waiting for the FAULT_NTF and the REBALANCE_NTF", err);
	left = still_on(cpu, n);
	if (hc_get_cube(&h, &cube))
		die("CUBE_GET", EIO);
	*fault = o.fault * 1e3;
	*off = o.off * 1e3;
	*last = ntraced > 0 ? (tlast - t0) * 1e3 : -1;
	printf("R mce cpus=%ld n=%d cpu=%d vertex=%d threshold=%d window_s=%d traced=%d "
	       "rep=%d fault_ms=%.3f off_ms=%.3f rebalance_dur_ms=%.3f evacuated=%u "
	       "moved=%u failed=%u left_on_cpu=%d vertex_load=%u",
	       sysconf(_SC_NPROCESSORS_ONLN), n, cpu, v, threshold, window, traced,
	       rep, *fault, *off, o.rep.dur_ns * 1e-6, o.rep.evacuated,
	       o.rep.moved, o.rep.failed, left, cube.v[v].load);
	if (traced)
		printf(" traced_moves=%d lost=%d first_move_ms=%.3f last_move_ms=%.3f",
		       ntraced, lost, ntraced > 0 ? (tfirst - t0) * 1e3 : -1, *last);
	printf("\n");
	if (left || cube.v[v].load)
		fprintf(stderr, "hcube_bench: mce: %d threads still allowed on CPU %d\n",
			left, cpu);
}

/*
 * @n sleeping threads registered on the vertex @v of @cpu, marked faulty
 * by machine checks @reps times (untraced, then with @traced as many
 * times traced): each time the mark cleared and the threads registered
 * again.
 */
static void mce_one(int n, int reps, int cpu, int v, int threshold, int window,
		    int traced)
{
	static pid_t hpid[MAXN / HOLDER_MAX + 1];
	double t0, d_fault[64], d_off[64], d_last[64];
	int nh = 0, first, r, k, tr;
	cpu_set_t on;

	CPU_ZERO(&on);
	CPU_SET(cpu, &on);
	hs->ready = 0;
	t0 = now_s();
	for (first = 0; first < n; first += HOLDER_MAX)
		hpid[nh++] = holder_spawn(first, n - first < HOLDER_MAX ? n - first : HOLDER_MAX,
					  &on);
	while (hs->ready < n) {
		for (k = 0; k < nh; k++)
			if (waitpid(hpid[k], NULL, WNOHANG))
				die("a holder of threads failed", ECHILD);
		usleep(2000);
	}
	printf("# mce: %d threads in %d processes on CPU %d (vertex %d), spawned in %.1f s\n",
	       n, nh, cpu, v, now_s() - t0);
	for (tr = 0; tr <= traced; tr++) {
		for (r = 0; r < reps; r++) {
			uint64_t s[HCUBE_A_STATS_MAX + 1];

			for (k = 0; k < nh; k++)
				if (task_add(&hpid[k], 1, v, NULL))
					die("TASK_ADD", resp.err);
			if (hc_get_cube(&h, &cube) || (int)cube.v[v].load != n)
				die("the tasks are not all on the vertex", EIO);
			/* threshold - 1 records, untimed, seen by the module */
			if (hc_stats(&h, s))
				die("STATS_GET", EIO);
			for (k = 0; k < threshold - 1; k++)
				mce_inject(cpu);
			mce_wait_records(s[HCUBE_A_STATS_MCE_RECORDS] + threshold - 1);
			if (hc_get_cube(&h, &cube) || CPU_ISSET(cpu, &cube.v[v].faulty))
				die("the CPU was marked below the threshold", EIO);
			/* the registration's and the last run's work over */
			sleep(2);
			mce_run(n, cpu, v, threshold, window, tr, r, &d_fault[r], &d_off[r],
				&d_last[r]);
			/* the mark cleared, the threads' affinity (the CPU) given back */
			if (hc_fault(&h, 0, cpu, -1, NULL))
				die("FAULT_DEL", EIO);
			if (task_del_all(NULL))
				die("TASK_DEL", resp.err);
			if (hc_get_cube(&h, &cube))
				die("CUBE_GET", EIO);
		}
		printf("# mce: n=%d traced=%d, medians of %d: FAULT_NTF %.3f ms, "
		       "REBALANCE_NTF %.3f ms", n, tr, reps, median(d_fault, reps),
		       median(d_off, reps));
		if (tr)
			printf(", last move off the CPU %.3f ms", median(d_last, reps));
		printf("\n");
	}
	for (k = 0; k < nh; k++)
		kill(hpid[k], SIGKILL);
	for (k = 0; k < nh; k++)
		waitpid(hpid[k], NULL, 0);
}

static int cmd_mce(int argc, char **argv)
{
	int ns[16], nn = 0, reps = 5, threshold = 3, window = 60, cpu = -1, traced = 0;
	int th0, win0, i, v, c;
	char list[] = "16,16384";

	parse_list(list, ns, &nn, 16);
	while ((c = getopt(argc, argv, "n:r:t:w:c:T")) != -1) {
		switch (c) {
		case 'n': parse_list(optarg, ns, &nn, 16); break;
		case 'r': reps = atoi(optarg); break;
		case 't': threshold = atoi(optarg); break;
		case 'w': window = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		case 'T': traced = 1; break;
		default: return 2;
		}
	}
	if (reps < 1 || reps > 64 || threshold < 1 || window < 1)
		die("-r 1..64, -t and -w at least 1", EINVAL);
	for (i = 0; i < nn; i++)
		if (ns[i] < 1 || ns[i] > MAXN)
			die("-n: 1..65536 threads", EINVAL);
	if (mce_inject_ready())
		die("mce-inject is not available (modprobe mce-inject, debugfs)", ENOENT);
	if (traced && access(MIGRATE_EV "/enable", W_OK))
		mount("tracefs", TRACING, "tracefs", 0, NULL);
	if (traced && access(MIGRATE_EV "/enable", W_OK))
		die("-T: no " MIGRATE_EV " (tracefs mounted?)", ENOENT);
	hs = mmap(NULL, sizeof(*hs), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (hs == MAP_FAILED)
		die("mmap", errno);
	if (hc_reset(&h, HCUBE_MODE_CPU) || hc_get_cube(&h, &cube))
		die("reset the module (mode cpu)", EIO);
	/* the cube's last CPU by default */
	if (cpu < 0)
		for (v = 0; v < (int)cube.nv; v++)
			for (i = 0; i < CPU_SETSIZE; i++)
				if (CPU_ISSET(i, &cube.v[v].usable) && i > cpu)
					cpu = i;
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		die("-c: no such CPU", EINVAL);
	for (v = 0; v < (int)cube.nv && !CPU_ISSET(cpu, &cube.v[v].usable); v++)
		;
	if (v == (int)cube.nv || CPU_COUNT(&cube.v[v].usable) != 1)
		die("the CPU is not a usable vertex of its own", EINVAL);
	mce_config_get(&th0, &win0);
	mce_config(threshold, window);
	printf("# mce: mode cpu, %u vertices, CPU %d is vertex %d; mce_ce_threshold %d, "
	       "mce_ce_window %d s\n", cube.nv, cpu, v, threshold, window);
	for (i = 0; i < nn; i++)
		mce_one(ns[i], reps, cpu, v, threshold, window, traced);
	mce_config(th0 >= 0 ? th0 : 0, win0 >= 1 ? win0 : -1);
	return 0;
}

/* ---- makespan ---- */

static uint64_t rng;

static uint64_t rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rnd01(void)
{
	return (rnd64() >> 11) * (1.0 / 9007199254740992.0);
}

struct wshared {
	double fin[MAXW];		/* CLOCK_MONOTONIC when done */
	long migr[MAXW];		/* se.nr_migrations while working */
	double cpu[MAXW];		/* CPU time consumed */
	int last_cpu[MAXW];
};

static struct wshared *ws;

static long nr_migrations(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/sched", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "se.nr_migrations : %ld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A worker: wait for the start, then burn @work seconds of its own CPU time. */
static void worker(int idx, double work, int startfd)
{
	volatile unsigned long x = 0;
	double c0, c;
	long m0;
	char ch;
	int i;

	while (read(startfd, &ch, 1) < 0 && errno == EINTR)
		;
	m0 = nr_migrations();
	c0 = thread_cpu();
	do {
		for (i = 0; i < 2000; i++)
			x += i;
		c = thread_cpu();
	} while (c - c0 < work);
	ws->fin[idx] = now_s();
	ws->migr[idx] = nr_migrations() - m0;
	ws->cpu[idx] = c - c0;
	ws->last_cpu[idx] = sched_getcpu();
	_exit(0);
}

enum { POL_PIN, POL_DEM, POL_MCWA, POL_CFS, NPOL };
static const char *const pol_name[NPOL] = { "pin", "dem", "mcwa", "cfs" };

struct inst {
	int nw, per, nf;
	int faulty[HC_MAXV];		/* per vertex */
	int vertex[MAXW];
	double work[MAXW];
	double mean_v[HC_MAXV];
};

/* The lowest-dimension healthy neighbour of @u, or -1. */
static int neighbour(const struct inst *in, int u)
{
	uint32_t d;

	for (d = 0; d < cube.dim; d++)
		if (!in->faulty[u ^ (1u << d)])
			return u ^ (1u << d);
	return -1;
}

struct mres {
	double makespan, cpu_sum, over_max;	/* over: CPU time past the work */
	long kmigr;
	uint64_t moved, hops, rebalances, auto_rebalances, evacuated;
};

static void run_policy(const struct inst *in, int pol, int threshold, int cooldown,
		       struct mres *o)
{
	static pid_t pid[MAXW];
	static pid_t byv[HC_MAXV][MAXW];
	int nbyv[HC_MAXV] = { 0 };
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s1[HCUBE_A_STATS_MAX + 1];
	cpu_set_t healthy;
	int pfd[2], i, u;
	double t0, last = 0;

	memset(o, 0, sizeof(*o));
	memset(ws, 0, sizeof(*ws));
	CPU_ZERO(&healthy);
	for (u = 0; u < (int)cube.nv; u++)
		if (!in->faulty[u])
			CPU_OR(&healthy, &healthy, &cube.v[u].usable);
	if (pipe(pfd))
		die("pipe", errno);
	for (i = 0; i < in->nw; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(pfd[1]);
			worker(i, in->work[i], pfd[0]);
		}
		if (pid[i] < 0)
			die("fork", errno);
	}
	close(pfd[0]);
	/* pinned as an MPI job would be: each worker on its vertex's CPUs */
	for (i = 0; i < in->nw; i++) {
		u = in->vertex[i];
		if (sched_setaffinity(pid[i], sizeof(cpu_set_t), &cube.v[u].usable))
			die("sched_setaffinity", errno);
		byv[u][nbyv[u]++] = pid[i];
	}
	switch (pol) {
	case POL_PIN:
		for (i = 0; i < in->nw; i++) {
			u = in->vertex[i];
			if (in->faulty[u] &&
			    sched_setaffinity(pid[i], sizeof(cpu_set_t),
					      &cube.v[neighbour(in, u)].usable))
				die("sched_setaffinity", errno);
		}
		break;
	case POL_CFS:
		for (i = 0; i < in->nw; i++)
			if (sched_setaffinity(pid[i], sizeof(cpu_set_t), &healthy))
				die("sched_setaffinity", errno);
		break;
	case POL_DEM:
	case POL_MCWA:
		if (hc_config(&h, pol == POL_DEM ? HCUBE_POLICY_DEM : HCUBE_POLICY_MCWA,
			      0, threshold, cooldown))
			die("CONFIG_SET", EIO);
		for (u = 0; u < (int)cube.nv; u++)
			if (nbyv[u] && task_add(byv[u], nbyv[u], u, NULL))
				die("TASK_ADD", resp.err);
		hc_stats(&h, s0);
		/* the faulty vertices: the module evacuates, then rebalances */
		for (u = 0; u < (int)cube.nv; u++)
			if (in->faulty[u] && hc_fault(&h, 1, -1, u, NULL))
				die("FAULT_ADD", EIO);
		if (hc_config(&h, -1, 1, -1, -1))
			die("CONFIG_SET", EIO);
		break;
	}
	t0 = now_s();
	close(pfd[1]);		/* go */
	for (i = 0; i < in->nw; i++) {
		int st;

		if (waitpid(pid[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			die("a worker failed", EIO);
	}
	for (i = 0; i < in->nw; i++) {
		if (ws->fin[i] > last)
			last = ws->fin[i];
		o->kmigr += ws->migr[i];
		o->cpu_sum += ws->cpu[i];
		if (ws->cpu[i] - in->work[i] > o->over_max)
			o->over_max = ws->cpu[i] - in->work[i];
	}
	o->makespan = last - t0;
	if (pol == POL_DEM || pol == POL_MCWA) {
		hc_config(&h, -1, 0, -1, -1);
		hc_stats(&h, s1);
		o->moved = s1[HCUBE_A_STATS_MOVED] - s0[HCUBE_A_STATS_MOVED];
		o->hops = s1[HCUBE_A_STATS_MIGRATIONS] - s0[HCUBE_A_STATS_MIGRATIONS];
		o->rebalances = s1[HCUBE_A_STATS_REBALANCES] - s0[HCUBE_A_STATS_REBALANCES];
		o->auto_rebalances = s1[HCUBE_A_STATS_AUTO_REBALANCES] -
				     s0[HCUBE_A_STATS_AUTO_REBALANCES];
		o->evacuated = s1[HCUBE_A_STATS_EVACUATIONS] - s0[HCUBE_A_STATS_EVACUATIONS];
		for (u = 0; u < (int)cube.nv; u++)
			if (in->faulty[u])
				hc_fault(&h, 0, -1, u, NULL);
		task_del_all(NULL);
	}
}

static int cmd_makespan(int argc, char **argv)
{
	int per = 8, nf_list[8], nnf = 0, seeds = 3, threshold = -1, cooldown = 100;
	int pols[NPOL] = { 1, 1, 1, 1 }, c, s, fi, p, i, u;
	double mean_ms = 500;
	char fl[] = "0,1,2";
	static struct inst in;

	parse_list(fl, nf_list, &nnf, 8);
	while ((c = getopt(argc, argv, "p:e:f:s:t:c:P:")) != -1) {
		switch (c) {
		case 'p': per = atoi(optarg); break;
		case 'e': mean_ms = atof(optarg); break;
		case 'f': parse_list(optarg, nf_list, &nnf, 8); break;
		case 's': seeds = atoi(optarg); break;
		case 't': threshold = atoi(optarg); break;
		case 'c': cooldown = atoi(optarg); break;
		case 'P':
			for (p = 0; p < NPOL; p++)
				pols[p] = strstr(optarg, pol_name[p]) != NULL;
			break;
		default: return 2;
		}
	}
	if (threshold < 0)
		threshold = per / 4 > 1 ? per / 4 : 1;
	ws = mmap(NULL, sizeof(*ws), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ws == MAP_FAILED)
		die("mmap", errno);
	if (hc_reset(&h, HCUBE_MODE_CPU) || hc_get_cube(&h, &cube))
		die("reset the module (mode cpu)", EIO);
	if (cube.nv * per > MAXW)
		die("too many workers", E2BIG);
	printf("# makespan: mode cpu, %u vertices, %d workers per vertex, mean work %.0f ms, "
	       "threshold %d, cooldown %d ms\n", cube.nv, per, mean_ms, threshold, cooldown);
	for (s = 0; s < seeds; s++) {
		for (fi = 0; fi < nnf; fi++) {
			double sum_v[HC_MAXV] = { 0 }, total = 0, pred = 0;
			int nf = nf_list[fi], healthy;

			rng = 0x5eed0000ULL + s * 1000 + nf;
			memset(&in, 0, sizeof(in));
			in.per = per;
			in.nf = nf;
			for (i = 0; i < nf; i++) {
				do
					u = rnd64() % cube.nv;
				while (in.faulty[u]);
				in.faulty[u] = 1;
			}
			for (u = 0; u < (int)cube.nv; u++) {
				in.mean_v[u] = rnd01() * 2 * mean_ms / 1000;
				for (i = 0; i < per; i++) {
					in.vertex[in.nw] = u;
					in.work[in.nw] = rnd01() * 2 * in.mean_v[u];
					total += in.work[in.nw++];
				}
			}
			/* no balancing: the faulty vertices' work on one neighbour */
			for (i = 0; i < in.nw; i++) {
				u = in.vertex[i];
				sum_v[in.faulty[u] ? neighbour(&in, u) : u] += in.work[i];
			}
			for (u = 0; u < (int)cube.nv; u++)
				if (sum_v[u] > pred)
					pred = sum_v[u];
			healthy = cube.nv - nf;
			for (p = 0; p < NPOL; p++) {
				struct mres r;

				if (!pols[p])
					continue;
				run_policy(&in, p, threshold, cooldown, &r);
				printf("R makespan cpus=%ld seed=%d faults=%d policy=%s workers=%d "
				       "makespan_s=%.3f pin_pred_s=%.3f ideal_s=%.3f work_s=%.3f "
				       "cpu_s=%.3f over_max_s=%.3f kmigr=%ld moved=%llu hops=%llu rebalances=%llu "
				       "auto=%llu evacuated=%llu\n",
				       sysconf(_SC_NPROCESSORS_ONLN), s, nf, pol_name[p], in.nw,
				       r.makespan, pred,
				       total / healthy, total, r.cpu_sum, r.over_max, r.kmigr,
				       (unsigned long long)r.moved, (unsigned long long)r.hops,
				       (unsigned long long)r.rebalances,
				       (unsigned long long)r.auto_rebalances,
				       (unsigned long long)r.evacuated);
				fflush(stdout);
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	int err, rcv = 64 << 20;

	if (argc < 2) {
		fprintf(stderr, "usage: hcube_bench cost|idle|mce|makespan|fork [options]\n");
		return 2;
	}
	setrlimit(RLIMIT_NPROC, &rl);
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* with or without the module */
	if (!strcmp(argv[1], "fork"))
		return cmd_fork(argc - 1, argv + 1);
	err = hnl_open(&h);
	if (err)
		die("the hcube family (is the module loaded?)", err);
	/* TASK_ADD's reply for 1024 threads exceeds rmem_max: force it */
	if (setsockopt(h.fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv)))
		die("SO_RCVBUFFORCE", errno);
	if (!strcmp(argv[1], "cost"))
		return cmd_cost(argc - 1, argv + 1);
	if (!strcmp(argv[1], "idle"))
		return cmd_idle(argc - 1, argv + 1);
	if (!strcmp(argv[1], "makespan"))
		return cmd_makespan(argc - 1, argv + 1);
	if (!strcmp(argv[1], "mce"))
		return cmd_mce(argc - 1, argv + 1);
	fprintf(stderr, "hcube_bench: unknown command '%s'\n", argv[1]);
	return 2;
}
