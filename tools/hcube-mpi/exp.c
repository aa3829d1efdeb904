// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-mpi-exp: the simulators' workloads on real MPI ranks. Each rank is
 * one processor of the hypercube: it holds its own queue of jobs (work
 * units that libhcube-mpi really moves between ranks: id, execution time,
 * hops) and runs them in virtual time. The ranks agree on the next moment
 * something global happens (a trigger or a cycle of new jobs) with one
 * all-reduce, advance their own clocks to it, and balance with
 * hcube_mpi_balance(); so the figures that do not depend on the machine's
 * speed (messages, units moved, steps, operations, and the virtual
 * completion and idle times) come from real message passing, and wall
 * time is measured per balancing operation only.
 *
 * The rules are hcube-sim's, read from its dumps of the same seeds:
 *   sbn   the Poisson workloads of Das et al. (2002) (hcube-sim sbn
 *         --jobs-out): a processor whose queue leaves [MinTh, MaxTh] of
 *         the last known TotalJQ after one of its events starts an
 *         operation; balancing takes no time;
 *   p000  the Section 6 model of Nam et al. (1999) (hcube-sim run
 *         --instance-out): a node starting a task with fewer than
 *         floor(A * its queue after the last balancing) queued starts a
 *         synchronous round, which costs every node the message steps and
 *         its own migrations.
 * One thing differs by construction: hcube-sim moves each task once,
 * straight to its final node (the plan's routes), where the ranks pass
 * units hop by hop along the plan, each rank sending its most recent
 * units; the loads after every operation are the same, which tasks end
 * where is not, so the runs drift apart after the first operation.
 *
 * Output: CSV on rank 0's stdout, one row per run and policy.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hcube_core_ext.h"
#include "hcube_mpi.h"

#define NCYCLES		10
#define MAXRANKS	1024

static int rank, size;

static void die(const char *fmt, const char *arg)
{
	if (!rank) {
		fprintf(stderr, "hcube-mpi-exp: ");
		fprintf(stderr, fmt, arg);
		fputc('\n', stderr);
	}
	MPI_Abort(MPI_COMM_WORLD, 2);
	exit(2);
}

/* ---- jobs: the work units ---- */

struct job {
	double time;
	u32 id, hops;
};

struct queue {
	struct job *j;
	u32 head, n, cap;
};

static void q_push(struct queue *q, struct job j)
{
	if (q->head + q->n == q->cap) {
		if (q->head > q->cap / 2) {
			memmove(q->j, q->j + q->head, q->n * sizeof(*q->j));
			q->head = 0;
		} else {
			q->cap = q->cap ? 2 * q->cap : 256;
			q->j = realloc(q->j, q->cap * sizeof(*q->j));
			if (!q->j)
				die("%s", "out of memory");
		}
	}
	q->j[q->head + q->n++] = j;
}

static struct job q_pop(struct queue *q)
{
	q->n--;
	return q->j[q->head++];
}

static u32 q_count(void *p)
{
	return ((struct queue *)p)->n;
}

/* The most recent units first, as hcube-sim picks them (the tail). */
static ssize_t q_pack(void *p, u32 n, void *buf, size_t cap)
{
	struct queue *q = p;
	size_t need = (size_t)n * sizeof(struct job);
	u32 i;

	if (n > q->n)
		return -1;
	if (need > cap)
		return (ssize_t)need;
	for (i = 0; i < n; i++)
		q->j[q->head + q->n - n + i].hops++;
	memcpy(buf, q->j + q->head + q->n - n, need);
	q->n -= n;
	return (ssize_t)need;
}

static int q_unpack(void *p, u32 n, const void *buf, size_t len)
{
	const struct job *j = buf;
	u32 i;

	if (len != (size_t)n * sizeof(*j))
		return -1;
	for (i = 0; i < n; i++)
		q_push(p, j[i]);
	return 0;
}

static const struct hcube_mpi_ops ops = {
	.count = q_count, .pack = q_pack, .unpack = q_unpack,
};

/* ---- the processor: its queue and its clock ---- */

struct proc {
	struct queue q;
	bool running;
	double ev;		/* end of the running job, or the next start */
	double busy, last_done;
	u32 done;
	struct hcube_sbn_th th;	/* sbn: the last known thresholds */
	u32 lref;		/* p000: queue after the last balancing */
	/* totals of the run */
	u64 msgs, logical, units, moved, steps, ops;
	double wall;		/* seconds in hcube_mpi_balance() */
	double lb;		/* p000: balancing time charged to this node */
};

static struct proc me;
static struct hcube_mpi *H;
static const char *policy;	/* NULL: no balancing */

/* All ranks: the first (time, rank) at which @mine (this rank's) is least. */
static void next_global(double mine, double *t, int *who)
{
	struct { double t; int r; } in = { mine, rank }, out;

	MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
	*t = out.t;
	*who = out.r;
}

/* One balancing operation, every rank; its figures added to the run's. */
static void balance(struct hcube_mpi_report *r)
{
	int err = hcube_mpi_balance(H, policy, r);

	if (err)
		die("balance: %s", hcube_mpi_errmsg(H));
	me.ops++;
	me.msgs += r->msgs_sent;
	me.logical += r->msgs_sent - r->relayed;
	me.units += r->units_sent;
	if (r->before > r->after)
		me.moved += r->before - r->after;
	me.steps += r->steps;
	me.wall += r->seconds;
}

/* sbn: an operation, then the new TotalJQ's thresholds everywhere. */
static void sbn_op(void)
{
	struct hcube_mpi_report r;

	balance(&r);
	hcube_sbn_update_load(r.total, r.healthy, &me.th);
}

/* ---- the workloads of Das et al. (2002) ---- */

struct jobs {
	struct job *j;
	u32 *cycle;
	u32 n, total;
	double cycle_len;
};

static void read_jobs(const char *path, struct jobs *js)
{
	FILE *f = fopen(path, "r");
	char line[256];
	u32 cap = 0, c, p, id = 0;
	double t;

	if (!f)
		die("cannot read %s (make it with hcube-sim sbn --jobs-out)", path);
	js->n = 0;
	js->cycle_len = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			char *s = strstr(line, "cycle ");

			if (s)
				js->cycle_len = strtod(s + 6, NULL);
			continue;
		}
		if (sscanf(line, "%u %u %lf", &c, &p, &t) != 3 || c >= NCYCLES)
			die("malformed job in %s", path);
		if ((int)p >= size)
			die("%s is for more ranks", path);
		if ((int)p == rank) {
			if (js->n == cap) {
				cap = cap ? 2 * cap : 256;
				js->j = realloc(js->j, cap * sizeof(*js->j));
				js->cycle = realloc(js->cycle, cap * sizeof(u32));
				if (!js->j || !js->cycle)
					die("%s", "out of memory");
			}
			js->j[js->n] = (struct job){ .time = t, .id = id };
			js->cycle[js->n++] = c;
		}
		id++;
	}
	fclose(f);
	js->total = id;
	if (js->cycle_len <= 0)
		die("no cycle length in %s", path);
}

static bool sbn_trigger(u32 qlen)
{
	return policy && ((s32)qlen < me.th.minth || qlen > me.th.maxth);
}

/* Start the next job if idle (hcube-sim's start()). */
static void sbn_start(double t)
{
	struct job j;

	if (me.running || !me.q.n)
		return;
	j = q_pop(&me.q);
	me.running = true;
	me.ev = t + j.time;
	me.busy += j.time;
}

/* The completion at me.ev. */
static void sbn_complete(void)
{
	me.running = false;
	me.done++;
	me.last_done = me.ev;
	sbn_start(me.ev);
	if (!me.running)
		me.ev = INFINITY;
}

/* This rank's first completion before @ta at which it would trigger. */
static double sbn_lookahead(double ta)
{
	double t = me.ev;
	u32 q = me.q.n, i = me.q.head;

	if (!me.running || !policy)
		return INFINITY;
	while (t < ta) {
		if (!q)
			return sbn_trigger(0) ? t : INFINITY;
		q--;
		if (sbn_trigger(q))
			return t;
		t += me.q.j[i++].time;
	}
	return INFINITY;
}

/* Process this rank's completions before (@t, @who); at it if it is ours. */
static void sbn_advance(double t, int who)
{
	while (me.running && (me.ev < t || (me.ev == t && rank < who)))
		sbn_complete();
	if (rank == who && me.running && me.ev == t)
		sbn_complete();
}

/* After an arrival: every rank that got jobs checks, in rank order. */
static void sbn_arrival_checks(double t, bool got)
{
	int last = -1;

	for (;;) {
		int flag = got && rank > last && sbn_trigger(me.q.n) ? rank : size, who;

		MPI_Allreduce(&flag, &who, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
		if (who == size)
			return;
		sbn_op();
		sbn_start(t);
		last = who;
	}
}

static void run_sbn(const struct jobs *js)
{
	u32 i, k, total;
	double t;
	int who;

	for (i = 0; i < js->n; i++)
		if (js->cycle[i] == 0)
			q_push(&me.q, js->j[i]);
	MPI_Allreduce(&me.q.n, &total, 1, MPI_UINT32_T, MPI_SUM, MPI_COMM_WORLD);
	hcube_sbn_update_load(total, (u32)size, &me.th);
	me.ev = INFINITY;
	sbn_start(0);
	sbn_arrival_checks(0, true);
	for (k = 1;;) {
		double ta = k < NCYCLES ? k * js->cycle_len : INFINITY;

		next_global(sbn_lookahead(ta), &t, &who);
		if (t < ta) {
			sbn_advance(t, who);
			sbn_op();
			sbn_start(t);
		} else if (ta < INFINITY) {
			bool got = false;

			sbn_advance(ta, -1);
			for (i = 0; i < js->n; i++) {
				if (js->cycle[i] == k) {
					q_push(&me.q, js->j[i]);
					got = true;
				}
			}
			sbn_start(ta);
			sbn_arrival_checks(ta, got);
			k++;
		} else {
			while (me.running)
				sbn_complete();
			break;
		}
	}
}

/* ---- the model of Nam et al. (1999) ---- */

struct model {
	double alpha, mig, msg;
	bool sender_only;
	u32 fixed;		/* > 0: fixed threshold */
	u32 dim;
	u8 state[MAXRANKS];
	struct hcube_topo topo;
	void *topo_mem, *work;
};

static struct model M;

static u32 threshold(void)
{
	return M.fixed ? M.fixed : (u32)floor(M.alpha * me.lref);
}

/* One event of this node at me.ev (model.c's run_policy()). */
static void m_event(void)
{
	struct job j;

	if (me.running) {
		me.running = false;
		me.done++;
		me.last_done = me.ev;
	}
	if (!me.q.n) {
		me.ev = INFINITY;
		return;
	}
	j = q_pop(&me.q);
	me.running = true;
	me.busy += j.time;
	me.ev += j.time;
}

/* The first event of this node at which it would start a round. */
static double m_lookahead(void)
{
	double t = me.ev;
	u32 q = me.q.n, i = me.q.head;

	if (!policy || !hcube_usable(M.state[rank]))
		return INFINITY;
	while (t < INFINITY) {
		if (!q)
			return INFINITY;
		q--;
		if (q < threshold())
			return t;
		t += me.q.j[i++].time;
	}
	return INFINITY;
}

static void m_advance(double t, int who)
{
	while (me.ev < t || (me.ev == t && rank < who))
		m_event();
	if (rank == who && me.ev == t)
		m_event();
}

/* Hops from @v to the farthest healthy node (the request's broadcast). */
static u32 eccentricity(u32 v)
{
	u16 dist[MAXRANKS], queue[MAXRANKS];
	u32 head = 0, tail = 0, n = 1U << M.dim, x, d, ecc = 0;

	for (x = 0; x < n; x++)
		dist[x] = 0xffff;
	dist[v] = 0;
	queue[tail++] = (u16)v;
	while (head < tail) {
		u32 u = queue[head++];

		ecc = dist[u] > ecc ? dist[u] : ecc;
		for (d = 0; d < M.dim; d++) {
			x = u ^ (1U << d);
			if (hcube_usable(M.state[x]) && dist[x] == 0xffff) {
				dist[x] = dist[u] + 1;
				queue[tail++] = (u16)x;
			}
		}
	}
	return ecc;
}

/*
 * The synchronous round started by @init at @t: every healthy node stops
 * for the message steps (the request's broadcast, the initiator's
 * eccentricity, and the plan's load-information steps: MCWA 2T + 2k, DEM
 * 2n) and pays its own migrations, as the ranks counted them.
 */
static void m_round(double t, int init)
{
	struct hcube_mpi_report r;
	u32 info = eccentricity((u32)init);
	double d;

	balance(&r);
	me.steps += info;	/* the broadcast, beside the plan's own steps */
	info += !strcmp(policy, "dem") ? 2 * M.dim :
		2 * M.topo.depth + 2 * M.topo.cb_dim;
	if (!hcube_usable(M.state[rank]))
		return;
	d = M.msg * info + M.mig * (r.units_sent + (M.sender_only ? 0 : r.units_recv));
	me.lb += d;
	me.lref = me.q.n;
	if (me.running)
		me.ev += d;
	else if (me.q.n)
		me.ev = t + d;
}

/* Read one instance: the faulty nodes, this node's tasks; returns t_nobal. */
static double read_instance(const char *path, u32 *ntasks, double *work)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	double t, own = 0;
	u32 v, id, i;

	if (!f)
		die("cannot read %s (make it with hcube-sim run --instance-out)", path);
	for (i = 0; i < (1U << M.dim); i++)
		M.state[i] = HCUBE_V_HEALTHY;
	*ntasks = 0;
	*work = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (!strncmp(line, "faulty", 6)) {
			char *c = line + 6, *end;

			for (;;) {
				unsigned long x = strtoul(c, &end, 10);

				if (end == c)
					break;
				if (x >= (1UL << M.dim))
					die("bad faulty node in %s", path);
				M.state[x] = HCUBE_V_FAULTY;
				c = end;
			}
			continue;
		}
		if (sscanf(line, "%u %u %lf", &v, &id, &t) != 3 || v >= (1U << M.dim))
			die("malformed task in %s", path);
		(*ntasks)++;
		*work += t;
		if ((int)v == rank) {
			q_push(&me.q, (struct job){ .time = t, .id = id });
			own += t;
		}
	}
	fclose(f);
	return own;
}

static void run_p000(void)
{
	double t;
	int who;

	me.ev = hcube_usable(M.state[rank]) ? 0 : INFINITY;
	me.lref = me.q.n;
	for (;;) {
		next_global(m_lookahead(), &t, &who);
		if (t == INFINITY)
			break;
		m_advance(t, who);
		m_round(t, who);
	}
	while (me.ev < INFINITY)
		m_event();
}

/* ---- the command line ---- */

static void usage(void)
{
	if (!rank)
		fputs("usage: mpirun -np P hcube-mpi-exp sbn --jobs DIR --scenario S\n"
		      "           [--runs R] [--policy none,dem,mcwa,sbn]\n"
		      "       mpirun -np 2^N hcube-mpi-exp p000 --instances DIR --dim N\n"
		      "           --faults F,F,... [--runs R] [--policy none,dem,mcwa]\n"
		      "           [--threshold A] [--fixed-threshold K] [--mig-cost C]\n"
		      "           [--msg-cost C] [--mig-charge both|sender]\n"
		      "\n"
		      "Runs hcube-sim's workloads (its dumps: sbn --jobs-out, run\n"
		      "--instance-out) on the ranks, balancing with libhcube-mpi, and\n"
		      "prints one CSV row per run and policy.\n", stderr);
	MPI_Abort(MPI_COMM_WORLD, 2);
	exit(2);
}

/* Sum, max and min of a value over the ranks, at rank 0. */
static double reduce(double v, MPI_Op op)
{
	double out = 0;

	MPI_Reduce(&v, &out, 1, MPI_DOUBLE, op, 0, MPI_COMM_WORLD);
	return out;
}

static void reset(void)
{
	struct proc keep = { .q = me.q };
	int all[MAXRANKS], i;

	keep.q.head = 0;
	keep.q.n = 0;
	me = keep;
	for (i = 0; i < size; i++)
		all[i] = i;
	if (hcube_mpi_mark(H, all, size, HCUBE_MPI_HEALTHY, NULL))
		die("mark: %s", hcube_mpi_errmsg(H));
}

/* The run's totals over the ranks, at rank 0. */
struct totals {
	double msgs, logical, units, moved, done, last, wall, lb, busy_hi, busy_lo;
};

static void totals(struct totals *t)
{
	t->msgs = reduce((double)me.msgs, MPI_SUM);
	t->logical = reduce((double)me.logical, MPI_SUM);
	t->units = reduce((double)me.units, MPI_SUM);
	t->moved = reduce((double)me.moved, MPI_SUM);
	t->done = reduce(me.done, MPI_SUM);
	t->lb = reduce(me.lb, MPI_SUM);
	t->last = reduce(me.last_done, MPI_MAX);
	t->wall = reduce(me.wall, MPI_MAX);
	t->busy_hi = reduce(me.busy, MPI_MAX);
	t->busy_lo = reduce(me.busy, MPI_MIN);
}

static void one_sbn(const char *dir, const char *scen, u32 run, const char *pol)
{
	struct jobs js = { 0 };
	struct totals t;
	char path[4096];

	snprintf(path, sizeof(path), "%s/jobs-%s-%d-%u.txt", dir, scen, size, run);
	read_jobs(path, &js);
	run_sbn(&js);
	totals(&t);
	if (!rank)
		printf("%s,%d,%s,%u,%.0f,%.0f,%.0f,%.0f,%.6f,%.6f,%llu,%llu,%u,%.0f,%.6f\n",
		       scen, size, pol, run, t.msgs, t.logical, t.units, t.moved,
		       t.busy_hi - t.busy_lo, t.last, (unsigned long long)me.ops,
		       (unsigned long long)me.steps, js.total, t.done, t.wall);
	free(js.j);
	free(js.cycle);
}

static void one_p000(const char *dir, u32 f, u32 run, const char *pol)
{
	int faulty[MAXRANKS], nf = 0;
	u32 ntasks, healthy = 0, v;
	double work, nobal;
	struct totals t;
	char path[4096];

	snprintf(path, sizeof(path), "%s/instance-%u-%u-%u.txt", dir, M.dim, f, run);
	nobal = reduce(read_instance(path, &ntasks, &work), MPI_MAX);
	for (v = 0; v < (u32)size; v++) {
		if (hcube_usable(M.state[v]))
			healthy++;
		else
			faulty[nf++] = (int)v;
	}
	if (hcube_mpi_mark(H, faulty, nf, HCUBE_MPI_FAULTY, NULL) ||
	    hcube_topo_build(&M.topo, M.dim, M.state, M.work))
		die("%s", "cannot mark the faulty ranks");
	run_p000();
	totals(&t);
	if (!rank) {
		printf("%u,%u,%u,%s,%u,%.6f,%.6f,%.6f,%llu,%.4f,%.4f,%.0f,%.0f,%llu,%.6f,%.0f,%u,%.6f\n",
		       M.dim, f, run, pol, healthy, t.last, nobal, nobal / t.last,
		       (unsigned long long)me.ops, t.units / healthy, t.moved / healthy,
		       t.msgs, t.logical, (unsigned long long)me.steps, t.lb / healthy,
		       t.done, ntasks, t.wall);
		if (t.done != ntasks || t.last < work / healthy * (1 - 1e-12))
			fprintf(stderr, "hcube-mpi-exp: %s, %u faults, run %u: %.0f of %u tasks run, makespan %.3f, work per node %.3f\n",
				pol, f, run, t.done, ntasks, t.last, work / healthy);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "instances", required_argument, NULL, 'i' },
		{ "scenario", required_argument, NULL, 's' },
		{ "dim", required_argument, NULL, 'd' },
		{ "faults", required_argument, NULL, 'f' },
		{ "runs", required_argument, NULL, 'r' },
		{ "policy", required_argument, NULL, 'p' },
		{ "threshold", required_argument, NULL, 'a' },
		{ "fixed-threshold", required_argument, NULL, 'K' },
		{ "mig-cost", required_argument, NULL, 'M' },
		{ "msg-cost", required_argument, NULL, 'm' },
		{ "mig-charge", required_argument, NULL, 'G' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *scen = "heavy";
	char pols[256] = "none,dem,mcwa,sbn", faults[256] = "0", *tok, *save;
	u32 runs = 3, run, fl[64], nfl = 0;
	bool sbn;
	int c;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 2 || (strcmp(argv[1], "sbn") && strcmp(argv[1], "p000")))
		usage();
	sbn = !strcmp(argv[1], "sbn");
	if (!sbn)
		strcpy(pols, "none,dem,mcwa");
	M.alpha = 0.25;
	M.mig = 0.1;
	M.msg = 0.01;
	opterr = 0;
	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
		case 'i':
			dir = optarg;
			break;
		case 's':
			scen = optarg;
			break;
		case 'd':
			M.dim = (u32)atoi(optarg);
			break;
		case 'f':
			snprintf(faults, sizeof(faults), "%s", optarg);
			break;
		case 'r':
			runs = (u32)atoi(optarg);
			break;
		case 'p':
			snprintf(pols, sizeof(pols), "%s", optarg);
			break;
		case 'a':
			M.alpha = atof(optarg);
			break;
		case 'K':
			M.fixed = (u32)atoi(optarg);
			break;
		case 'M':
			M.mig = atof(optarg);
			break;
		case 'm':
			M.msg = atof(optarg);
			break;
		case 'G':
			M.sender_only = !strcmp(optarg, "sender");
			break;
		default:
			usage();
		}
	}
	for (tok = strtok_r(faults, ",", &save); tok && nfl < 64;
	     tok = strtok_r(NULL, ",", &save))
		fl[nfl++] = (u32)atoi(tok);
	if (!dir || !runs || !nfl || (!sbn && (M.dim > 10 || (1 << M.dim) != size)))
		usage();
	if (hcube_mpi_open(MPI_COMM_WORLD, &ops, &me.q, &H))
		die("%s", "cannot open libhcube-mpi");
	if (!sbn) {
		M.topo_mem = malloc(hcube_topo_memsize(M.dim));
		M.work = malloc(hcube_work_memsize(M.dim));
		if (!M.topo_mem || !M.work || hcube_topo_init(&M.topo, M.dim, M.topo_mem))
			die("%s", "out of memory");
	}
	if (!rank)
		printf(sbn ? "scenario,procs,policy,run,messages,logical_messages,"
			     "jobs_transferred,moved,idle_range,completion,operations,"
			     "steps,jobs,executed,balance_s\n" :
			     "dim,faults,run,policy,healthy,makespan,t_nobal,speedup,"
			     "rounds,hops_per_node,moved_per_node,messages,"
			     "logical_messages,comm_steps,lb_time,executed,tasks,balance_s\n");
	for (u32 i = 0; i < (sbn ? 1 : nfl); i++) {
		for (run = 0; run < runs; run++) {
			char list[256];

			snprintf(list, sizeof(list), "%s", pols);
			for (tok = strtok_r(list, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				policy = strcmp(tok, "none") ? tok : NULL;
				reset();
				if (sbn)
					one_sbn(dir, scen, run, tok);
				else
					one_p000(dir, fl[i], run, tok);
				fflush(stdout);
			}
		}
	}
	hcube_mpi_close(H);
	free(me.q.j);
	free(M.topo_mem);
	free(M.work);
	MPI_Finalize();
	return 0;
}
