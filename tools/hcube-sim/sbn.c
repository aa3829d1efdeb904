// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim sbn: the experiments (Section 5, Figs. 9-11) of S. K. Das,
 * D. J. Harvey and R. Biswas, "Adaptive Load-Balancing Algorithms using
 * Symmetric Broadcast Networks", Journal of Parallel and Distributed
 * Computing, 2002, as a discrete-event simulation, for its own algorithms
 * (through the core: sbn, sbn-cube, sbn-heur), its comparison algorithms
 * (rand, grad, recv, send, acwn, twa, as this project reads the paper's
 * Section 2) and the core's other policies (mcwa, dem, optimal, auto, rid,
 * sid, pebble) on the same workloads. Documentation/benchmarks.md describes
 * the model and every choice the paper leaves open.
 *
 * Workload (per scenario, P = 2^d, run): cycle 1 at t = 0 is the initial
 * load; at the start of cycles 2..10 every processor gets
 * floor(s * c * lambda^j e^-lambda / j! + u) new jobs, lambda and j
 * uniform integers in 1..R, u uniform in [0, 1), s calibrating the mean to
 * the paper's jobs per cycle. Job times are uniform on (0, 2 * mean).
 * Processors run their queues in order; a job is never moved once started.
 * Balancing takes no time (the paper's balancing overlaps processing)
 * except TWA's, which suspends every processor. The metrics are the
 * paper's: messages, jobs transferred (each hop counted), the range of
 * busy (equivalently idle) time over the processors, completion time.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "sbn_paper.h"

#define MAXP		32
#define MAXD		5
#define NCYCLES		10
#define NIL		0xffffffffU
#define LIGHT_Q		1	/* light: at most 1 job queued */
#define HEAVY_Q		4	/* heavy: more than 4 jobs queued */
#define RECV_WAIT	0.1	/* s between two requests of one processor */
#define TWA_LATENCY	0.001	/* s per message stage of TWA */

enum sbn_alg {
	A_NOBAL, A_RAND, A_GRAD, A_RECV, A_SEND, A_ACWN, A_TWA,
	A_SBN, A_CUBE, A_SBZ,		/* the paper's ten columns end here */
	A_MCWA, A_DEM, A_OPT, A_AUTO, A_RID, A_SID, A_PEBBLE,
	A_N,
};
#define A_PAPER	10

static const char *const alg_names[A_N] = {
	"nobal", "rand", "grad", "recv", "send", "acwn", "twa", "sbn",
	"sbn-cube", "sbn-heur", "mcwa", "dem", "optimal", "auto", "rid", "sid",
	"pebble",
};

static const int alg_core[A_N] = {
	[A_SBN] = HCUBE_POLICY_SBN, [A_CUBE] = HCUBE_POLICY_SBN_CUBE,
	[A_SBZ] = HCUBE_POLICY_SBN_HEUR, [A_MCWA] = HCUBE_POLICY_MCWA,
	[A_DEM] = HCUBE_POLICY_DEM, [A_OPT] = HCUBE_POLICY_OPTIMAL,
	[A_AUTO] = HCUBE_POLICY_AUTO, [A_RID] = HCUBE_POLICY_RID,
	[A_SID] = HCUBE_POLICY_SID, [A_PEBBLE] = HCUBE_POLICY_PEBBLE,
};

static bool plan_based(int a)
{
	return a >= A_SBN;
}

/* The policy needs every processor's load at one place (AAPC priced). */
static bool needs_gather(int a)
{
	return a == A_OPT || a == A_AUTO;
}

/* Jobs move at most once (the paper's description of the algorithm). */
static bool once_only(int a)
{
	return a == A_RAND || a == A_SEND || a == A_ACWN;
}

struct scenario {
	const char *name, *fig;
	u32 init_all;		/* initial jobs on every processor, or */
	u32 init_logp;		/* on log P processors */
	double cycle;		/* s */
	double c;
	u32 range;		/* lambda and j in 1..range */
	double per_cycle;	/* the paper's mean new jobs per processor and cycle */
	double mean_time;	/* s */
};

static const struct scenario scen[3] = {
	{ "heavy", "Fig. 9", 10, 0, 1.0, 200, 10, 19.41, 0.1 },
	{ "heavy-light", "Fig. 10", 0, 50, 4.0, 260, 20, 12.96, 0.2 },
	{ "light", "Fig. 11", 0, 1, 4.0, 260, 20, 12.96, 0.2 },
};

static const char *const metric_names[4] = {
	"messages", "jobs transferred", "idle-time range (s)", "completion time (s)",
};

struct sbn_out {
	double v[4];		/* messages, jobs, idle range, completion */
	u64 ops;		/* balancing operations (plan-based, twa) */
	u64 gather_units;	/* AAPC time units of the load gathering */
	u32 njobs, executed, max_moves;
	double work;		/* sum of job times */
	u32 bad;
};

/* ---- random numbers: splitmix64 ---- */

static uint64_t sm64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double unit01(uint64_t *x)	/* [0, 1) */
{
	return (double)(sm64(x) >> 11) * 0x1p-53;
}

static u32 below(uint64_t *x, u32 n)
{
	return (u32)(((sm64(x) >> 32) * n) >> 32);
}

/* ---- the workload ---- */

struct job {
	double time;
	u32 cycle, home, proc, moves, next, prev;
};

struct sim {
	u32 d, P;
	const struct scenario *sc;
	int alg;
	struct job *jobs;
	u32 njobs;
	u32 *order;		/* jobs by cycle, then processor */
	u32 cyc_first[NCYCLES + 1];

	/* engine */
	u32 head[MAXP], tail[MAXP], qlen[MAXP];
	u32 run_job[MAXP];
	double ev[MAXP], timer[MAXP], resume[MAXP], busy[MAXP];
	u32 next_cycle, done;
	double last_done;
	uint64_t rng;
	struct sbn_out *o;

	/* per policy */
	u32 prox[MAXP];			/* grad */
	u32 lb[MAXP];			/* send: load last broadcast */
	u32 view[MAXP][MAXP];		/* send: p's view of q's load */
	struct hcube_sbn_th th;		/* plan-based */
	struct sim_core core;
	u8 state[MAXP];
	u32 load[MAXP];
	struct hcube_route *routes;
	u32 routes_cap;
	struct hcube_aapc_info aapc;
};

static double lambda_scale(const struct scenario *sc)
{
	double e = 0;
	u32 l, j;

	for (l = 1; l <= sc->range; l++)
		for (j = 1; j <= sc->range; j++)
			e += sc->c * exp(j * log((double)l) - l - lgamma(j + 1.0));
	e /= (double)sc->range * sc->range;
	return sc->per_cycle / e;
}

static void add_job(struct sim *s, u32 cycle, u32 proc, uint64_t *r, u32 *cap)
{
	struct job *j;

	if (s->njobs == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		s->jobs = realloc(s->jobs, *cap * sizeof(*s->jobs));
		if (!s->jobs)
			sim_die("out of memory");
	}
	j = &s->jobs[s->njobs++];
	memset(j, 0, sizeof(*j));
	j->cycle = cycle;
	j->home = proc;
	/* uniform on (0, 2 * mean) */
	j->time = 2.0 * s->sc->mean_time * (1.0 - unit01(r));
}

static void make_workload(struct sim *s, uint64_t seed, u32 si, u32 run)
{
	const struct scenario *sc = s->sc;
	double scale = lambda_scale(sc);
	uint64_t r = seed;
	u32 cap = 0, p, k, i, loaded[MAXP] = { 0 };

	r = sm64(&r) ^ si;
	r = sm64(&r) ^ s->d;
	r = sm64(&r) ^ run;
	s->njobs = 0;
	s->jobs = NULL;
	/* cycle 0: the initial load, on every processor or on log P of them */
	if (sc->init_logp) {
		u32 perm[MAXP];

		for (p = 0; p < s->P; p++)
			perm[p] = p;
		for (i = 0; i < s->d; i++) {
			u32 k2 = i + below(&r, s->P - i), t = perm[i];

			perm[i] = perm[k2];
			perm[k2] = t;
			loaded[perm[i]] = 1;
		}
	}
	for (p = 0; p < s->P; p++) {
		u32 n = sc->init_all ? sc->init_all : loaded[p] ? sc->init_logp : 0;

		for (i = 0; i < n; i++)
			add_job(s, 0, p, &r, &cap);
	}
	for (k = 1; k < NCYCLES; k++) {
		for (p = 0; p < s->P; p++) {
			u32 lam = 1 + below(&r, sc->range), j = 1 + below(&r, sc->range);
			double pmf = exp(j * log((double)lam) - lam - lgamma(j + 1.0));
			u32 n = (u32)floor(scale * sc->c * pmf + unit01(&r));

			for (i = 0; i < n; i++)
				add_job(s, k, p, &r, &cap);
		}
	}
	s->o->njobs = s->njobs;
	s->o->work = 0;
	for (i = 0; i < s->njobs; i++)
		s->o->work += s->jobs[i].time;
	/* jobs were generated cycle by cycle: first index of each cycle */
	for (k = 0, i = 0; k <= NCYCLES; k++) {
		while (i < s->njobs && s->jobs[i].cycle < k)
			i++;
		s->cyc_first[k] = i;
	}
}

/* ---- queues ---- */

static void q_push(struct sim *s, u32 p, u32 id)
{
	struct job *j = &s->jobs[id];

	j->proc = p;
	j->next = NIL;
	j->prev = s->tail[p];
	if (s->tail[p] == NIL)
		s->head[p] = id;
	else
		s->jobs[s->tail[p]].next = id;
	s->tail[p] = id;
	s->qlen[p]++;
}

static void q_unlink(struct sim *s, u32 p, u32 id)
{
	struct job *j = &s->jobs[id];

	if (j->prev == NIL)
		s->head[p] = j->next;
	else
		s->jobs[j->prev].next = j->next;
	if (j->next == NIL)
		s->tail[p] = j->prev;
	else
		s->jobs[j->next].prev = j->prev;
	s->qlen[p]--;
}

/* The job @p would send: its last queued one (fresh only if @fresh). */
static u32 q_pick(struct sim *s, u32 p, bool fresh)
{
	u32 id;

	for (id = s->tail[p]; id != NIL; id = s->jobs[id].prev)
		if (!fresh || !s->jobs[id].moves)
			return id;
	return NIL;
}

static void start(struct sim *s, u32 p, double t);

/* Move up to @n jobs from @from to @to over @hops hops; returns the count. */
static u32 move_jobs(struct sim *s, u32 from, u32 to, u32 n, u32 hops,
		     bool fresh, double t)
{
	u32 k;

	for (k = 0; k < n; k++) {
		u32 id = q_pick(s, from, fresh);

		if (id == NIL)
			break;
		q_unlink(s, from, id);
		s->jobs[id].moves += hops;
		if (s->jobs[id].moves > s->o->max_moves)
			s->o->max_moves = s->jobs[id].moves;
		q_push(s, to, id);
	}
	s->o->v[1] += (double)k * hops;
	(void)t;		/* the receiver starts when the operation ends */
	return k;
}

static void start(struct sim *s, u32 p, double t)
{
	u32 id;

	if (s->run_job[p] != NIL || !s->qlen[p])
		return;
	id = s->head[p];
	q_unlink(s, p, id);
	s->run_job[p] = id;
	if (t < s->resume[p])
		t = s->resume[p];
	s->ev[p] = t + s->jobs[id].time;
	s->busy[p] += s->jobs[id].time;
}

/* ---- the comparison algorithms ---- */

static u32 nbr(u32 p, u32 i)
{
	return p ^ (1U << i);
}

static void do_rand(struct sim *s, u32 p, double t)
{
	u32 got[MAXD] = { 0 }, i;

	while (s->qlen[p] > HEAVY_Q) {
		u32 q = below(&s->rng, s->d);

		if (!move_jobs(s, p, nbr(p, q), 1, 1, true, t))
			break;
		got[q]++;
	}
	for (i = 0; i < s->d; i++)
		s->o->v[0] += got[i] > 0;
}

/* GRAD: proximities to the nearest light processor, re-broadcast on change. */
static void grad_update(struct sim *s)
{
	u32 p, i, changed = 1, cap = s->d + 1;
	u32 old[MAXP];

	memcpy(old, s->prox, sizeof(old));
	while (changed) {
		changed = 0;
		for (p = 0; p < s->P; p++) {
			u32 v = cap;

			if (s->qlen[p] <= LIGHT_Q) {
				v = 0;
			} else {
				for (i = 0; i < s->d; i++)
					if (s->prox[nbr(p, i)] + 1 < v)
						v = s->prox[nbr(p, i)] + 1;
			}
			if (v != s->prox[p]) {
				s->prox[p] = v;
				changed = 1;
			}
		}
	}
	for (p = 0; p < s->P; p++)
		if (s->prox[p] != old[p])
			s->o->v[0] += s->d;
}

static void do_grad(struct sim *s, double t)
{
	u32 p, i, guard = 0;
	bool moved = true;

	grad_update(s);
	while (moved && guard++ < 64) {
		moved = false;
		for (p = 0; p < s->P; p++) {
			u32 best = NIL;

			if (s->qlen[p] <= HEAVY_Q)
				continue;
			for (i = 0; i < s->d; i++) {
				u32 q = nbr(p, i);

				if (s->prox[q] < s->prox[p] && s->prox[q] <= s->d &&
				    (best == NIL || s->prox[q] < s->prox[best]))
					best = q;
			}
			if (best == NIL)
				continue;
			if (move_jobs(s, p, best, 1, 1, false, t)) {
				s->o->v[0] += 1;
				moved = true;
				grad_update(s);
			}
		}
	}
}

static void do_recv(struct sim *s, u32 p, double t)
{
	u32 i;

	if (s->qlen[p] > LIGHT_Q || s->timer[p] < INFINITY)
		return;
	s->o->v[0] += s->d;		/* the request */
	for (i = 0; i < s->d; i++) {
		u32 q = nbr(p, i);

		if (s->qlen[q] > s->qlen[p] && move_jobs(s, q, p, 1, 1, false, t))
			s->o->v[0] += 1;	/* the reply carries the job */
	}
	s->timer[p] = t + RECV_WAIT;
}

static void send_broadcast(struct sim *s, u32 p)
{
	u32 i;

	if (s->qlen[p] == s->lb[p])
		return;
	if (s->qlen[p] < 2 * (s->lb[p] ? s->lb[p] : 1) && 2 * s->qlen[p] > s->lb[p])
		return;
	s->lb[p] = s->qlen[p];
	for (i = 0; i < s->d; i++)
		s->view[nbr(p, i)][p] = s->qlen[p];
	s->o->v[0] += s->d;
}

static void do_send(struct sim *s, u32 p, double t)
{
	u32 light[MAXD], nl = 0, i, sum, target;

	send_broadcast(s, p);
	if (s->qlen[p] <= HEAVY_Q)
		return;
	sum = s->qlen[p];
	for (i = 0; i < s->d; i++) {
		u32 q = nbr(p, i);

		if (s->view[p][q] <= LIGHT_Q) {
			light[nl++] = q;
			sum += s->view[p][q];
		}
	}
	if (!nl)
		return;
	target = sum / (nl + 1);
	for (i = 0; i < nl; i++) {
		u32 q = light[i], want = target > s->view[p][q] ? target - s->view[p][q] : 0;
		u32 k = move_jobs(s, p, q, want, 1, true, t);

		if (k) {
			s->o->v[0] += 1;
			s->view[p][q] += k;
			send_broadcast(s, q);
		}
	}
	send_broadcast(s, p);
}

static void do_acwn(struct sim *s, u32 p, double t)
{
	u32 in[MAXD], n, i, sum, target;
	bool again = true;

	s->o->v[0] += 2 * s->d;		/* bids and replies */
	n = 0;
	for (i = 0; i < s->d; i++) {
		u32 q = nbr(p, i);

		if (s->qlen[q] + 1 < s->qlen[p])
			in[n++] = nbr(p, i);
	}
	/* level p with the neighbours below its own queue */
	while (again && n) {
		again = false;
		sum = s->qlen[p];
		for (i = 0; i < n; i++)
			sum += s->qlen[in[i]];
		target = sum / (n + 1);
		for (i = 0; i < n; i++) {
			if (s->qlen[in[i]] >= target) {
				in[i] = in[--n];
				again = true;
				break;
			}
		}
	}
	if (!n)
		return;
	for (i = 0; i < n; i++)
		if (move_jobs(s, p, in[i], target - s->qlen[in[i]], 1, true, t))
			s->o->v[0] += 1;
}

/* TWA on the binary-tree template of root 0: suspend, reduce, spread. */
static void do_twa(struct sim *s, double t)
{
	u32 par[MAXP], sub[MAXP], quota[MAXP], order[MAXP], n = 0, p, i, total = 0;
	double pause;

	for (p = 0; p < s->P; p++)
		total += s->qlen[p];
	if (!total)
		return;
	s->o->ops++;
	s->o->v[0] += 3.0 * (s->P - 1);
	/* nodes by increasing stage distance from the root: BFS over parents */
	for (p = 0; p < s->P; p++)
		par[p] = p ? hcube_sbn_pred(HCUBE_SBN_TREE, s->d, 0, p) : NIL;
	order[n++] = 0;
	for (i = 0; i < n; i++)
		for (p = 1; p < s->P; p++)
			if (par[p] == order[i])
				order[n++] = p;
	if (n != s->P)
		sim_die("internal: the TWA tree misses a processor");
	for (p = 0; p < s->P; p++) {
		quota[p] = total / s->P + (p < total % s->P);
		sub[p] = s->qlen[p];
	}
	for (i = n; i-- > 1;) {
		p = order[i];
		sub[par[p]] += sub[p];
		quota[par[p]] += quota[p];
	}
	/* flow over each edge: subtree load minus subtree quota */
	for (i = 1; i < n; i++) {
		p = order[i];
		if (sub[p] != quota[p]) {
			s->o->v[0] += 1;
			s->o->v[1] += sub[p] > quota[p] ? sub[p] - quota[p] : quota[p] - sub[p];
		}
	}
	/* realise the final loads (the hops are counted above) */
	for (p = 0; p < s->P; p++)
		quota[p] = total / s->P + (p < total % s->P);
	for (p = 0, i = 0; p < s->P; p++) {
		while (s->qlen[p] > quota[p]) {
			while (i < s->P && s->qlen[i] >= quota[i])
				i++;
			if (i == s->P)
				sim_die("internal: TWA quotas do not add up");
			{
				double save = s->o->v[1];

				move_jobs(s, p, i, 1, 1, false, t);
				s->o->v[1] = save;
			}
		}
	}
	pause = 3.0 * s->d * TWA_LATENCY;
	for (p = 0; p < s->P; p++) {
		if (s->run_job[p] != NIL)
			s->ev[p] += pause;
		s->resume[p] = t + pause;
	}
}

/* ---- the core's policies ---- */

static void do_plan(struct sim *s, u32 p, double t)
{
	struct hcube_cube cube = { .dim = s->d, .state = s->state, .load = s->load };
	struct hcube_plan *pl = &s->core.plan;
	u32 v, i, nr;
	u64 total = 0;
	int err;

	if ((s32)s->qlen[p] >= s->th.minth && s->qlen[p] <= s->th.maxth)
		return;
	for (v = 0; v < s->P; v++) {
		s->load[v] = s->qlen[v];
		total += s->qlen[v];
	}
	err = hcube_plan_build(pl, alg_core[s->alg], &cube, &s->core.topo, s->core.work);
	if (err)
		sim_die("sbn: %s plan: %s", alg_names[s->alg], hcube_strerror(err));
	err = hcube_plan_routes(pl, s->load, s->routes, s->routes_cap, &nr,
				s->core.work);
	if (err)
		sim_die("sbn: routes: %s", hcube_strerror(err));
	s->o->ops++;
	s->o->v[0] += pl->stats.messages;
	if (needs_gather(s->alg)) {
		/* the loads gathered by an all-to-all exchange: one datum a pair */
		s->o->v[0] += (double)s->aapc.data;
		s->o->gather_units += s->aapc.units;
	}
	for (i = 0; i < nr; i++) {
		double save = s->o->v[1];

		move_jobs(s, s->routes[i].from, s->routes[i].to, s->routes[i].count,
			  s->routes[i].hops, false, t);
		s->o->v[1] = save;
	}
	s->o->v[1] += (double)pl->stats.migrations;
	for (v = 0; v < s->P; v++)
		if (s->qlen[v] != pl->after[v])
			s->o->bad |= SIM_BAD_TASKS;
	hcube_sbn_update_load(total, s->P, &s->th);
}

/* ---- the engine ---- */

static void after_event(struct sim *s, u32 p, double t, bool arrival)
{
	u32 v;

	switch (s->alg) {
	case A_NOBAL:
		break;
	case A_RAND:
		if (arrival)
			do_rand(s, p, t);
		break;
	case A_GRAD:
		do_grad(s, t);
		break;
	case A_RECV:
		do_recv(s, p, t);
		break;
	case A_SEND:
		do_send(s, p, t);
		break;
	case A_ACWN:
		if (arrival)
			do_acwn(s, p, t);
		break;
	case A_TWA:
		if (!arrival && s->run_job[p] == NIL && !s->qlen[p])
			do_twa(s, t);
		break;
	default:
		do_plan(s, p, t);
	}
	for (v = 0; v < s->P; v++)
		start(s, v, t);
}

static void run_one(struct sim *s, int alg, uint64_t seed)
{
	struct sbn_out *o = s->o;
	u32 p, k, i, total = 0;

	s->alg = alg;
	s->rng = seed ^ 0x5bd1e995ULL * (alg + 1);
	for (i = 0; i < s->njobs; i++)
		s->jobs[i].moves = 0;
	for (p = 0; p < s->P; p++) {
		s->head[p] = s->tail[p] = s->run_job[p] = NIL;
		s->qlen[p] = 0;
		s->ev[p] = s->timer[p] = INFINITY;
		s->resume[p] = 0;
		s->busy[p] = 0;
		s->prox[p] = s->d + 1;
	}
	s->done = 0;
	s->last_done = 0;
	s->next_cycle = 1;
	o->executed = 0;
	/* cycle 1: the initial load, routed at start-up (not counted) */
	for (i = s->cyc_first[0]; i < s->cyc_first[1]; i++)
		q_push(s, s->jobs[i].home, i);
	for (p = 0; p < s->P; p++) {
		total += s->qlen[p];
		s->lb[p] = s->qlen[p];
	}
	for (p = 0; p < s->P; p++)
		for (k = 0; k < s->P; k++)
			s->view[p][k] = s->qlen[k];
	hcube_sbn_update_load(total, s->P, &s->th);
	if (alg == A_GRAD)
		grad_update(s);
	for (p = 0; p < s->P; p++)
		start(s, p, 0);
	/* t = 0: the processors without work have just gone idle */
	if (alg == A_TWA)
		do_twa(s, 0);
	for (p = 0; p < s->P; p++)
		after_event(s, p, 0, true);

	for (;;) {
		double t = INFINITY, ta;
		u32 who = NIL;
		bool timer = false;

		for (p = 0; p < s->P; p++) {
			if (s->ev[p] < t) {
				t = s->ev[p];
				who = p;
				timer = false;
			}
			if (s->timer[p] < t) {
				t = s->timer[p];
				who = p;
				timer = true;
			}
		}
		ta = s->next_cycle < NCYCLES ? s->next_cycle * s->sc->cycle : INFINITY;
		if (s->done == s->njobs && ta == INFINITY)
			break;
		if (ta <= t) {
			u32 k0 = s->next_cycle++;
			u32 got[MAXP] = { 0 };

			for (i = s->cyc_first[k0]; i < s->cyc_first[k0 + 1]; i++) {
				u32 q = s->jobs[i].home;

				got[q]++;
				q_push(s, q, i);
			}
			for (p = 0; p < s->P; p++)
				start(s, p, ta);
			for (p = 0; p < s->P; p++)
				if (got[p])
					after_event(s, p, ta, true);
			continue;
		}
		if (who == NIL)
			sim_die("internal: sbn simulation stalled with %u of %u jobs done",
				s->done, s->njobs);
		if (timer) {
			s->timer[who] = INFINITY;
			after_event(s, who, t, false);
			continue;
		}
		s->ev[who] = INFINITY;
		s->run_job[who] = NIL;
		s->done++;
		o->executed++;
		s->last_done = t;
		start(s, who, t);
		after_event(s, who, t, false);
	}
	{
		double hi = 0, lo = INFINITY;

		for (p = 0; p < s->P; p++) {
			hi = s->busy[p] > hi ? s->busy[p] : hi;
			lo = s->busy[p] < lo ? s->busy[p] : lo;
		}
		o->v[2] = hi - lo;
	}
	o->v[3] = s->last_done;
	if (o->executed != o->njobs)
		o->bad |= SIM_BAD_TASKS;
	if (once_only(alg) && o->max_moves > 1)
		o->bad |= SIM_BAD_TASKS;
	if (s->last_done < o->work / s->P * (1 - 1e-12))
		o->bad |= SIM_BAD_IDEAL;
}

/*
 * One run's workload as text, for libhcube-mpi's experiment driver to run
 * on real ranks: "cycle processor time" per job, cycle by cycle, times
 * exact (%.17g reads back to the same double).
 */
static void dump_jobs(const struct sim *s, const char *dir, u32 run)
{
	FILE *f = sim_create(dir, "jobs-%s-%u-%u.txt", s->sc->name, s->P, run);
	u32 i;

	fprintf(f, "# hcube-sim sbn: scenario %s, P %u, run %u, cycle %.17g s\n",
		s->sc->name, s->P, run, s->sc->cycle);
	for (i = 0; i < s->njobs; i++)
		fprintf(f, "%u %u %.17g\n", s->jobs[i].cycle, s->jobs[i].home,
			s->jobs[i].time);
	sim_close(f);
}

/* ---- the command ---- */

struct sbn_grid {
	u32 dims[MAXD], ndims;
	u32 scen[3], nscen;
	u32 runs;
	u32 algs;		/* bit mask */
	uint64_t seed;
	const char *out;
	const char *jobs_out;	/* --jobs-out: every run's jobs, for hcube-mpi-exp */
	bool quiet;
};

static void sbn_usage(FILE *f)
{
	fputs("usage: hcube-sim sbn [--scenario all|heavy|heavy-light|light]\n"
	      "                     [--procs 2,4,8,16,32] [--runs 10] [--seed S]\n"
	      "                     [--policy all|P,P,...] [--out DIR] [--quiet]\n"
	      "                     [--jobs-out DIR]\n"
	      "\n"
	      "Simulates the Poisson workloads of Das et al. (2002) (heavy, heavy to\n"
	      "light, light; 10 cycles of new jobs) on P = 2..32 processors (a\n"
	      "hypercube) for each policy and prints its metrics (messages, jobs\n"
	      "transferred counting every hop, the range of busy time over the\n"
	      "processors, completion time), means over the runs, beside the paper's\n"
	      "Figs. 9-11. Policies: nobal, rand, grad, recv, send, acwn, twa (the\n"
	      "paper's comparison algorithms), sbn, sbn-cube, sbn-heur, mcwa, dem,\n"
	      "optimal, auto, rid, sid, pebble (the core's plans); default all. With\n"
	      "--out, writes sbn.csv (one row per run and policy) and sbn.md there.\n"
	      "With --jobs-out, writes each run's jobs (cycle, processor, time) to\n"
	      "DIR/jobs-SCENARIO-P-RUN.txt, the input of hcube-mpi-exp. Runs are\n"
	      "deterministic for a seed (default 20240501).\n"
	      "\n"
	      "Exit status: 0; 1 if a check failed (a job lost or run twice, a\n"
	      "once-only policy moving a job twice, completion before work / P);\n"
	      "2 on bad input.\n", f);
}

static int alg_parse(const char *name)
{
	int a;

	for (a = 0; a < A_N; a++)
		if (!strcmp(name, alg_names[a]))
			return a;
	return -1;
}

static u32 parse_algs(const char *s)
{
	return sim_parse_names(s, alg_parse, A_N,
			       "nobal, rand, grad, recv, send, acwn, twa, sbn, sbn-cube, "
			       "sbn-heur, mcwa, dem, optimal, auto, rid, sid, pebble, all");
}

static void print_tables(FILE *f, const struct sbn_grid *g, const struct sbn_out *res)
{
	u32 si, m, di, a, r;

	fprintf(f, "The workloads of Das et al. (2002) on hcube-sim (%u runs per point, seed %llu); "
		"each cell: ours, then the paper's value in parentheses where it has "
		"one (Figs. 9-11).\n", g->runs, (unsigned long long)g->seed);
	for (si = 0; si < g->nscen; si++) {
		const struct scenario *sc = &scen[g->scen[si]];

		fprintf(f, "\n### %s (paper %s)\n", sc->name, sc->fig);
		for (m = 0; m < 4; m++) {
			double avg[A_N] = { 0 };

			fprintf(f, "\n%s:\n\n| P |", metric_names[m]);
			for (a = 0; a < A_N; a++)
				if (g->algs & (1U << a))
					fprintf(f, " %s |", alg_names[a]);
			fprintf(f, "\n| ---: |");
			for (a = 0; a < A_N; a++)
				if (g->algs & (1U << a))
					fprintf(f, " ---: |");
			fprintf(f, "\n");
			for (di = 0; di <= g->ndims; di++) {
				bool last = di == g->ndims;
				u32 d = last ? 0 : g->dims[di];

				if (last)
					fprintf(f, "| avg |");
				else
					fprintf(f, "| %u |", 1U << d);
				for (a = 0; a < A_N; a++) {
					double v = 0;
					const char *fmt = m < 2 ? " %.0f" : " %.2f";

					if (!(g->algs & (1U << a)))
						continue;
					if (last) {
						v = avg[a] / g->ndims;
					} else {
						for (r = 0; r < g->runs; r++)
							v += res[((si * g->ndims + di) * A_N + a) *
								 g->runs + r].v[m];
						v /= g->runs;
						avg[a] += v;
					}
					fprintf(f, fmt, v);
					if (a < A_PAPER && (last ? g->ndims == 5 : true)) {
						u32 row = last ? 5 : d - 1;

						fprintf(f, m < 2 ? " (%.0f)" : " (%.2f)",
							sbn_paper[g->scen[si]][m][row][a]);
					}
					fprintf(f, " |");
				}
				fprintf(f, "\n");
			}
		}
		fprintf(f, "\nbalancing operations per run (twa and the core's plans), "
			"AAPC time units of the load gathering per run (optimal, auto):\n\n"
			"| P | policy | operations | AAPC units |\n| ---: | --- | ---: | ---: |\n");
		for (di = 0; di < g->ndims; di++) {
			for (a = 0; a < A_N; a++) {
				double ops = 0, gu = 0;

				if (!(g->algs & (1U << a)) || (a != A_TWA && !plan_based(a)))
					continue;
				for (r = 0; r < g->runs; r++) {
					const struct sbn_out *o =
						&res[((si * g->ndims + di) * A_N + a) * g->runs + r];

					ops += o->ops;
					gu += o->gather_units;
				}
				fprintf(f, "| %u | %s | %.1f | %.0f |\n", 1U << g->dims[di],
					alg_names[a], ops / g->runs, gu / g->runs);
			}
		}
	}
}

int cmd_sbn(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scenario", required_argument, NULL, 'S' },
		{ "procs", required_argument, NULL, 'P' },
		{ "runs", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "policy", required_argument, NULL, 'p' },
		{ "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "jobs-out", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sbn_grid g = { .runs = 10, .seed = SIM_DEFAULT_SEED };
	u32 procs[MAXD + 1], np, i, si, di, r, bad = 0;
	struct sbn_out *res;
	int c, a;

	g.algs = (1U << A_N) - 1;
	for (i = 0; i < MAXD; i++)
		g.dims[i] = i + 1;
	g.ndims = MAXD;
	for (i = 0; i < 3; i++)
		g.scen[i] = i;
	g.nscen = 3;
	while ((c = sim_getopt(argc, argv, opts, "sbn", sbn_usage)) != -1) {
		switch (c) {
		case 'S':
			if (!strcmp(optarg, "all")) {
				g.nscen = 3;
				break;
			}
			for (i = 0; i < 3 && strcmp(optarg, scen[i].name); i++)
				;
			if (i == 3)
				sim_die("--scenario: '%s' is not all, heavy, heavy-light or light",
					optarg);
			g.scen[0] = i;
			g.nscen = 1;
			break;
		case 'P':
			np = (u32)sim_parse_list("--procs", optarg, 32, procs, MAXD + 1);
			if (!np || np > MAXD)
				sim_die("--procs: 1 to %u values among 2, 4, 8, 16, 32", MAXD);
			for (i = 0; i < np; i++) {
				u32 d = 0;

				while ((2U << d) < procs[i])
					d++;
				if (procs[i] < 2 || (2U << d) != procs[i])
					sim_die("--procs: %u is not one of 2, 4, 8, 16, 32", procs[i]);
				g.dims[i] = d + 1;
			}
			g.ndims = np;
			break;
		case 'r':
			g.runs = (u32)sim_parse_uint("--runs", optarg, 10000);
			if (!g.runs)
				sim_die("--runs: at least 1");
			break;
		case 's':
			g.seed = sim_parse_uint("--seed", optarg, ~0ULL);
			break;
		case 'p':
			g.algs = parse_algs(optarg);
			break;
		case 'o':
			g.out = optarg;
			break;
		case 'q':
			g.quiet = true;
			break;
		case 'J':
			g.jobs_out = optarg;
			break;
		}
	}

	res = calloc((size_t)g.nscen * g.ndims * A_N * g.runs, sizeof(*res));
	if (!res)
		sim_die("out of memory");
	for (si = 0; si < g.nscen; si++) {
		for (di = 0; di < g.ndims; di++) {
			struct sim s;

			memset(&s, 0, sizeof(s));
			s.d = g.dims[di];
			s.P = 1U << s.d;
			s.sc = &scen[g.scen[si]];
			sim_core_init(&s.core, s.d);
			/* Das et al.'s operation, whole, as the paper runs it */
			s.core.plan.whole = true;
			if (hcube_topo_build(&s.core.topo, s.d, s.state, s.core.work))
				sim_die("internal: topology of a fault-free cube");
			s.routes_cap = hcube_routes_max(s.d);
			s.routes = malloc(s.routes_cap * sizeof(*s.routes));
			if (!s.routes)
				sim_die("out of memory");
			if (sim_aapc_info(s.d, s.state, &s.aapc))
				sim_die("internal: AAPC of a fault-free cube");
			for (r = 0; r < g.runs; r++) {
				struct sbn_out w;

				memset(&w, 0, sizeof(w));
				s.o = &w;
				make_workload(&s, g.seed, g.scen[si], r);
				if (g.jobs_out)
					dump_jobs(&s, g.jobs_out, r);
				for (a = 0; a < A_N; a++) {
					struct sbn_out *o =
						&res[((si * g.ndims + di) * A_N + a) * g.runs + r];

					if (!(g.algs & (1U << a)))
						continue;
					*o = w;
					s.o = o;
					run_one(&s, a, g.seed ^ ((uint64_t)r << 32) ^ (s.d << 8));
					if (o->bad) {
						fprintf(stderr, "hcube-sim: sbn %s P=%u run %u %s: %s\n",
							s.sc->name, s.P, r, alg_names[a],
							sim_bad_text(o->bad));
						bad++;
					}
				}
				free(s.jobs);
			}
			free(s.routes);
			sim_core_free(&s.core);
		}
	}

	if (g.out) {
		FILE *f = sim_create(g.out, "sbn.csv");

		fprintf(f, "scenario,procs,policy,run,messages,jobs_transferred,idle_range,"
			"completion,operations,aapc_units,jobs,executed,max_moves,work,bad\n");
		for (si = 0; si < g.nscen; si++)
			for (di = 0; di < g.ndims; di++)
				for (a = 0; a < A_N; a++)
					for (r = 0; a < A_N && (g.algs & (1U << a)) && r < g.runs; r++) {
						const struct sbn_out *o =
							&res[((si * g.ndims + di) * A_N + a) * g.runs + r];

						fprintf(f, "%s,%u,%s,%u,%.0f,%.0f,%.6f,%.6f,%llu,%llu,"
							"%u,%u,%u,%.6f,%u\n", scen[g.scen[si]].name,
							1U << g.dims[di], alg_names[a], r, o->v[0],
							o->v[1], o->v[2], o->v[3],
							(unsigned long long)o->ops,
							(unsigned long long)o->gather_units, o->njobs,
							o->executed, o->max_moves, o->work, o->bad);
					}
		sim_close(f);
		f = sim_create(g.out, "sbn.md");
		print_tables(f, &g, res);
		sim_close(f);
	}
	if (!g.quiet)
		print_tables(stdout, &g, res);
	free(res);
	if (bad) {
		fprintf(stderr, "hcube-sim: %u property failures\n", bad);
		return 1;
	}
	return 0;
}
