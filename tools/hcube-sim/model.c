// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim: the execution model of Section 6 of K. Nam, J. Seo, S. Lee
 * and J. Kim, "Synchronous Load Balancing in Hypercube Multicomputers
 * with Faulty Nodes", Journal of Parallel and Distributed Computing 58,
 * 1999, as a discrete-event simulation on the same core the module runs.
 *
 * An n-cube with f faulty nodes drawn at random; 100 tasks per node, the
 * faulty nodes' tasks dealt in turn over the healthy ones. Node u has a
 * mean tau(u) ~ U(0, 2 E[tau]) and each task j created on u an execution
 * time tau_j ~ U(0, 2 tau(u)); time is in units of E[tau]. A task keeps its
 * execution time when it migrates (the nodes are identical processors; the
 * work is the task's). Each node runs its queue in order, one task at a
 * time, and the queue length (tasks not yet started) is its load.
 *
 * A node whose queue falls below floor(alpha * its length after its last
 * balancing) (its initial length before the first) starts balancing; with
 * a fixed threshold K (the paper's "prespecified threshold"), a node whose
 * queue falls below K does, at every task it starts:
 * - MCWA, DEM, CWA, MCWA-opt: a synchronous round on the current queue
 *   lengths. Every node stops for the message steps: the broadcast of the
 *   request (the initiator's eccentricity in the healthy graph) and the
 *   plan's load-information steps (comm_steps minus its migration steps),
 *   msg_cost each. Then each node pays mig_cost per task it sends and per
 *   task it receives, relays included (round cost "nodes"; with the charge
 *   "sender", per task it sends only); or, with round
 *   cost "global", every node waits for all migration steps, each as long
 *   as mig_cost times the most tasks one node sends or receives in it. The
 *   plan's routes (each task moved once, from the tail of its queue to the
 *   tail of its final node's) decide which queued tasks move.
 * - MCWA-opt (beyond the paper): MCWA's information steps and final loads,
 *   but the tasks move along the optimal flow (hcube_mincost()), each task
 *   on a shortest healthy path.
 * - RID: asynchronous. The node asks its healthy neighbours for their
 *   loads and pulls phi_k = (l_avg - l(i)) * l(k) / sum l(k) tasks from each
 *   (rounded to the nearest), paying two message steps and mig_cost per
 *   task received; each neighbour pays its reply and mig_cost per task it
 *   sends. A node that runs out of tasks asks too; if that brings nothing
 *   it asks again when a neighbour's load grows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

#define NIL 0xffffffffU

static const char *const pol_names[SIM_NPOL] = {
	[SIM_NONE] = "none",
	[SIM_MCWA] = "mcwa",
	[SIM_DEM] = "dem",
	[SIM_RID] = "rid",
	[SIM_CWA] = "cwa",
	[SIM_MCWAOPT] = "mcwa-opt",
	[SIM_OPTIMAL] = "optimal",
	[SIM_AUTO] = "auto",
	[SIM_SID] = "sid",
	[SIM_SBN] = "sbn",
	[SIM_SBN_CUBE] = "sbn-cube",
	[SIM_SBN_HEUR] = "sbn-heur",
	[SIM_PEBBLE] = "pebble",
};

static const int core_pol[SIM_NPOL] = {
	[SIM_MCWA] = HCUBE_POLICY_MCWA,
	[SIM_DEM] = HCUBE_POLICY_DEM,
	[SIM_CWA] = HCUBE_POLICY_CWA,
	[SIM_MCWAOPT] = HCUBE_POLICY_MCWA,
	[SIM_OPTIMAL] = HCUBE_POLICY_OPTIMAL,
	[SIM_AUTO] = HCUBE_POLICY_AUTO,
	[SIM_SID] = HCUBE_POLICY_SID,
	[SIM_SBN] = HCUBE_POLICY_SBN,
	[SIM_SBN_CUBE] = HCUBE_POLICY_SBN_CUBE,
	[SIM_SBN_HEUR] = HCUBE_POLICY_SBN_HEUR,
	[SIM_PEBBLE] = HCUBE_POLICY_PEBBLE,
};

/* Plans that need every node's load in one place: priced as one AAPC. */
static bool needs_gather(int pol)
{
	return pol == SIM_OPTIMAL || pol == SIM_AUTO;
}

const char *sim_pol_name(int pol)
{
	return pol >= 0 && pol < SIM_NPOL ? pol_names[pol] : "?";
}

int sim_pol_parse(const char *name)
{
	int i;

	for (i = 0; i < SIM_NPOL; i++)
		if (!strcmp(name, pol_names[i]))
			return i;
	return -1;
}

/* ---- random numbers: splitmix64 seeds xoshiro256** ---- */

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t sim_run_seed(uint64_t seed, u32 dim, u32 nfaults, u32 run)
{
	uint64_t x = seed;

	x = splitmix64(&x) ^ dim;
	x = splitmix64(&x) ^ nfaults;
	x = splitmix64(&x) ^ run;
	return splitmix64(&x);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform on the open interval (0, 1). */
static double rng_unit(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) * 0x1p-53;
}

static u32 rng_below(struct rng *r, u32 n)
{
	return (u32)(((rng_next(r) >> 32) * n) >> 32);
}

/* ---- the model ---- */

struct sim_model {
	u32 dim, n, tpn, ntasks;
	struct sim_core core;
	void *flow_work;
	struct hcube_route *routes;
	u32 routes_cap;
	bool topo_ok;
	bool aapc_known;		/* info.aapc_units is computed */
	struct hcube_plan fplan;	/* mcwa-opt: the optimal flow as a plan */
	void *fplan_mem;

	/* the instance */
	u8 state[HCUBE_MAX_VERTICES];
	u32 faulty[HCUBE_MAX_VERTICES], nfaulty;
	u32 healthy[HCUBE_MAX_VERTICES], nh;
	u32 nbr[HCUBE_MAX_VERTICES][HCUBE_MAX_DIM], nnbr[HCUBE_MAX_VERTICES];
	u32 ecc[HCUBE_MAX_VERTICES];
	double *time;			/* per task */
	u32 *inext;			/* initial queues: next task */
	u32 ihead[HCUBE_MAX_VERTICES], itail[HCUBE_MAX_VERTICES];
	u32 ilen[HCUBE_MAX_VERTICES];
	struct sim_info info;

	/* the engine */
	const struct sim_params *p;
	int pol;
	struct sim_result *res;
	u32 *next, *prev;		/* queues: doubly linked task ids */
	u8 *executed;
	u32 head[HCUBE_MAX_VERTICES], tail[HCUBE_MAX_VERTICES];
	u32 qlen[HCUBE_MAX_VERTICES];
	u32 lref[HCUBE_MAX_VERTICES];	/* queue length after last balancing */
	u8 running[HCUBE_MAX_VERTICES], waiting[HCUBE_MAX_VERTICES];
	double ev[HCUBE_MAX_VERTICES];	/* next event, INFINITY if none */
	u32 heap[HCUBE_MAX_VERTICES], hpos[HCUBE_MAX_VERTICES], hlen;
	u32 load[HCUBE_MAX_VERTICES];
	u32 sent[HCUBE_MAX_VERTICES], recv[HCUBE_MAX_VERTICES];
	u32 done;
	double stall_sum;		/* RID: balancing time over all nodes */
};

struct sim_model *sim_model_new(u32 dim, u32 tasks_per_node)
{
	struct sim_model *m = calloc(1, sizeof(*m));
	size_t nt;

	if (!m)
		sim_die("out of memory");
	m->dim = dim;
	m->n = 1U << dim;
	m->tpn = tasks_per_node;
	nt = (size_t)m->n * tasks_per_node;
	if (nt > HCUBE_MAX_TOTAL_LOAD || nt > 0x7fffffffU / 4)
		sim_die("too many tasks: %zu", nt);
	m->ntasks = (u32)nt;
	sim_core_init(&m->core, dim);
	/* the papers' experiments: each policy's whole operation */
	m->core.plan.whole = true;
	m->flow_work = malloc(hcube_mincost_memsize(dim));
	m->fplan_mem = malloc(hcube_plan_memsize(dim));
	if (!m->fplan_mem || hcube_plan_init(&m->fplan, dim, m->fplan_mem))
		sim_die("out of memory");
	m->routes_cap = hcube_routes_max(dim);
	m->routes = malloc(m->routes_cap * sizeof(*m->routes));
	m->time = malloc(nt * sizeof(*m->time) + 1);
	m->inext = malloc(nt * sizeof(u32) + 1);
	m->next = malloc(nt * sizeof(u32) + 1);
	m->prev = malloc(nt * sizeof(u32) + 1);
	m->executed = malloc(nt + 1);
	if (!m->flow_work || !m->routes || !m->time || !m->inext || !m->next ||
	    !m->prev || !m->executed)
		sim_die("out of memory");
	return m;
}

void sim_model_free(struct sim_model *m)
{
	if (!m)
		return;
	sim_core_free(&m->core);
	free(m->flow_work);
	free(m->fplan_mem);
	free(m->routes);
	free(m->time);
	free(m->inext);
	free(m->next);
	free(m->prev);
	free(m->executed);
	free(m);
}

u32 sim_model_faulty(const struct sim_model *m, const u32 **faulty)
{
	*faulty = m->faulty;
	return m->nfaulty;
}

const struct hcube_topo *sim_model_topo(const struct sim_model *m)
{
	return m->topo_ok ? &m->core.topo : NULL;
}

static void init_append(struct sim_model *m, u32 v, u32 id)
{
	m->inext[id] = NIL;
	if (m->itail[v] == NIL)
		m->ihead[v] = id;
	else
		m->inext[m->itail[v]] = id;
	m->itail[v] = id;
	m->ilen[v]++;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Neighbours, components and eccentricities in the healthy graph. */
static void healthy_graph(struct sim_model *m)
{
	u32 dist[HCUBE_MAX_VERTICES], queue[HCUBE_MAX_VERTICES];
	u32 comp[HCUBE_MAX_VERTICES];
	u32 i, v, d;

	m->info.ncomp = 0;
	m->info.diameter = 0;
	for (v = 0; v < m->n; v++) {
		comp[v] = NIL;
		m->nnbr[v] = 0;
		m->ecc[v] = 0;
		if (m->state[v] != HCUBE_V_HEALTHY)
			continue;
		for (d = 0; d < m->dim; d++)
			if (m->state[v ^ (1U << d)] == HCUBE_V_HEALTHY)
				m->nbr[v][m->nnbr[v]++] = v ^ (1U << d);
	}
	for (i = 0; i < m->nh; i++) {
		u32 s = m->healthy[i], head = 0, tail = 0;

		for (v = 0; v < m->n; v++)
			dist[v] = NIL;
		dist[s] = 0;
		queue[tail++] = s;
		while (head < tail) {
			u32 u = queue[head++];

			if (dist[u] > m->ecc[s])
				m->ecc[s] = dist[u];
			for (d = 0; d < m->nnbr[u]; d++) {
				u32 x = m->nbr[u][d];

				if (dist[x] == NIL) {
					dist[x] = dist[u] + 1;
					queue[tail++] = x;
				}
			}
		}
		if (comp[s] == NIL) {
			for (v = 0; v < tail; v++)
				comp[queue[v]] = m->info.ncomp;
			m->info.ncomp++;
		}
		if (m->ecc[s] > m->info.diameter)
			m->info.diameter = m->ecc[s];
	}
}

static void draw_instance(struct sim_model *m, const struct sim_params *p,
			  const u32 *faulty)
{
	u32 perm[HCUBE_MAX_VERTICES], out[HCUBE_MAX_VERTICES];
	struct rng r;
	u32 i, v, j, c;
	int err;

	rng_seed(&r, sim_run_seed(p->seed, p->dim, p->nfaults, p->run));
	if (p->nfaults >= m->n)
		sim_die("--faults: %u faulty nodes leave no healthy node in a %u-cube",
			p->nfaults, m->dim);
	for (v = 0; v < m->n; v++) {
		perm[v] = v;
		m->state[v] = HCUBE_V_HEALTHY;
	}
	if (faulty) {
		memcpy(m->faulty, faulty, p->nfaults * sizeof(*faulty));
	} else {
		for (i = 0; i < p->nfaults; i++) {
			u32 k = i + rng_below(&r, m->n - i), t = perm[i];

			perm[i] = perm[k];
			perm[k] = t;
			m->faulty[i] = perm[i];
		}
	}
	m->nfaulty = p->nfaults;
	qsort(m->faulty, m->nfaulty, sizeof(u32), cmp_u32);
	for (i = 0; i < m->nfaulty; i++)
		m->state[m->faulty[i]] = HCUBE_V_FAULTY;
	m->nh = 0;
	for (v = 0; v < m->n; v++)
		if (m->state[v] == HCUBE_V_HEALTHY)
			m->healthy[m->nh++] = v;

	/* tau(u), then each task's time; faulty nodes' tasks too */
	m->info.work = 0;
	for (v = 0; v < m->n; v++) {
		double tau = 2.0 * rng_unit(&r);

		for (j = 0; j < m->tpn; j++) {
			double t = 2.0 * tau * rng_unit(&r);

			m->time[v * m->tpn + j] = t;
			m->info.work += t;
		}
	}

	for (v = 0; v < m->n; v++) {
		m->ihead[v] = NIL;
		m->itail[v] = NIL;
		m->ilen[v] = 0;
	}
	for (i = 0; i < m->nh; i++)
		for (j = 0; j < m->tpn; j++)
			init_append(m, m->healthy[i], m->healthy[i] * m->tpn + j);
	c = 0;
	for (i = 0; i < m->nfaulty; i++) {
		u32 f = m->faulty[i], id = f * m->tpn;

		if (p->redist == SIM_REDIST_EVEN) {
			for (j = 0; j < m->tpn; j++)
				init_append(m, m->healthy[c++ % m->nh], id + j);
			continue;
		}
		memset(out, 0, sizeof(out));
		err = hcube_evacuate(m->dim, m->state, m->ilen, f, m->tpn, out);
		if (err)
			sim_die("evacuate: %s", hcube_strerror(err));
		for (v = 0; v < m->n; v++)
			for (j = 0; j < out[v]; j++)
				init_append(m, v, id++);
	}

	m->info.nhealthy = m->nh;
	m->info.ntasks = m->ntasks;
	m->info.t_nobal = 0;
	for (i = 0; i < m->nh; i++) {
		double t = 0;
		u32 id;

		for (id = m->ihead[m->healthy[i]]; id != NIL; id = m->inext[id])
			t += m->time[id];
		if (t > m->info.t_nobal)
			m->info.t_nobal = t;
	}
	m->info.ideal = m->info.t_nobal / (m->info.work / m->nh);

	err = hcube_topo_build(&m->core.topo, m->dim, m->state, m->core.work);
	m->topo_ok = !err;
	m->aapc_known = false;	/* computed when a policy first needs it */
	m->info.aapc_units = 0;
	m->info.depth = m->topo_ok ? m->core.topo.depth : 0;
	m->info.cb_dim = m->topo_ok ? m->core.topo.cb_dim : 0;
	healthy_graph(m);
}

/* ---- queues ---- */

static void q_push_back(struct sim_model *m, u32 v, u32 id)
{
	m->next[id] = NIL;
	m->prev[id] = m->tail[v];
	if (m->tail[v] == NIL)
		m->head[v] = id;
	else
		m->next[m->tail[v]] = id;
	m->tail[v] = id;
	m->qlen[v]++;
}

static u32 q_pop_front(struct sim_model *m, u32 v)
{
	u32 id = m->head[v];

	m->head[v] = m->next[id];
	if (m->head[v] == NIL)
		m->tail[v] = NIL;
	else
		m->prev[m->head[v]] = NIL;
	m->qlen[v]--;
	return id;
}

static u32 q_pop_back(struct sim_model *m, u32 v)
{
	u32 id = m->tail[v];

	m->tail[v] = m->prev[id];
	if (m->tail[v] == NIL)
		m->head[v] = NIL;
	else
		m->next[m->tail[v]] = NIL;
	m->qlen[v]--;
	return id;
}

/* Move @count tasks from the tail of @from's queue to the tail of @to's. */
static void q_move(struct sim_model *m, u32 from, u32 to, u32 count)
{
	while (count--)
		q_push_back(m, to, q_pop_back(m, from));
}

void sim_model_dump(const struct sim_model *m, FILE *f)
{
	u32 i, v, id;

	fprintf(f, "# hcube-sim run: %u-cube, seed %llu, run %u, %u tasks per node\n",
		m->dim, (unsigned long long)m->p->seed, m->p->run, m->tpn);
	fprintf(f, "faulty");
	for (i = 0; i < m->nfaulty; i++)
		fprintf(f, " %u", m->faulty[i]);
	fprintf(f, "\n");
	for (v = 0; v < m->n; v++)
		for (id = m->ihead[v]; id != NIL; id = m->inext[id])
			fprintf(f, "%u %u %.17g\n", v, id, m->time[id]);
}

/* ---- event heap: one pending event per healthy node ---- */

static bool ev_less(const struct sim_model *m, u32 a, u32 b)
{
	return m->ev[a] < m->ev[b] || (m->ev[a] == m->ev[b] && a < b);
}

static void heap_place(struct sim_model *m, u32 i, u32 v)
{
	m->heap[i] = v;
	m->hpos[v] = i;
}

static void heap_down(struct sim_model *m, u32 i)
{
	u32 v = m->heap[i];

	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= m->hlen)
			break;
		if (c + 1 < m->hlen && ev_less(m, m->heap[c + 1], m->heap[c]))
			c++;
		if (!ev_less(m, m->heap[c], v))
			break;
		heap_place(m, i, m->heap[c]);
		i = c;
	}
	heap_place(m, i, v);
}

/* Restore the heap after ev[v] changed. */
static void heap_fix(struct sim_model *m, u32 v)
{
	u32 i = m->hpos[v];

	while (i && ev_less(m, v, m->heap[(i - 1) / 2])) {
		heap_place(m, i, m->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_place(m, i, v);
	heap_down(m, i);
}

static void heap_build(struct sim_model *m)
{
	u32 i;

	m->hlen = m->nh;
	for (i = 0; i < m->nh; i++)
		heap_place(m, i, m->healthy[i]);
	for (i = m->nh / 2 + 1; i-- > 0;)
		heap_down(m, i);
}

static void set_event(struct sim_model *m, u32 v, double t)
{
	m->ev[v] = t;
	heap_fix(m, v);
}

/* ---- synchronous rounds ---- */

static int cmp_transfer(const void *a, const void *b)
{
	const struct hcube_transfer *x = a, *y = b;

	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/*
 * mcwa-opt: the optimal flow from the current loads to MCWA's final loads
 * (left by hcube_mincost() in flow_work) as a synchronous plan. An optimal
 * flow has no cycle, so a vertex can send everything it sends in one step,
 * once all it receives has arrived: step = 1 + the longest chain of flow
 * edges that ends at the sender. The replay then never goes negative.
 */
static const struct hcube_plan *flow_plan(struct sim_model *m,
					  const struct hcube_plan *mcwa)
{
	const u32 *flow = hcube_mincost_flow(m->flow_work);
	u32 indeg[HCUBE_MAX_VERTICES], depth[HCUBE_MAX_VERTICES];
	u32 queue[HCUBE_MAX_VERTICES], head = 0, tail = 0;
	struct hcube_plan *fp = &m->fplan;
	u32 v, d;

	for (v = 0; v < m->n; v++) {
		indeg[v] = 0;
		depth[v] = 0;
	}
	for (v = 0; v < m->n; v++)
		for (d = 0; d < m->dim; d++)
			if (flow[v * m->dim + d])
				indeg[v ^ (1U << d)]++;
	for (v = 0; v < m->n; v++)
		if (!indeg[v])
			queue[tail++] = v;
	while (head < tail) {
		u32 u = queue[head++];

		for (d = 0; d < m->dim; d++) {
			u32 x = u ^ (1U << d);

			if (!flow[u * m->dim + d])
				continue;
			if (depth[u] + 1 > depth[x])
				depth[x] = depth[u] + 1;
			if (!--indeg[x])
				queue[tail++] = x;
		}
	}
	if (tail != m->n)
		sim_die("internal: the optimal flow has a cycle");

	fp->policy = HCUBE_POLICY_MCWA;
	fp->ntransfers = 0;
	fp->nsteps = 0;
	for (v = 0; v < m->n; v++) {
		fp->after[v] = mcwa->after[v];
		for (d = 0; d < m->dim; d++) {
			struct hcube_transfer *x;

			if (!flow[v * m->dim + d])
				continue;
			if (fp->ntransfers >= fp->cap)
				sim_die("internal: flow plan overflow");
			x = &fp->transfers[fp->ntransfers++];
			x->step = depth[v] + 1;
			x->from = v;
			x->to = v ^ (1U << d);
			x->reserved = 0;
			x->count = flow[v * m->dim + d];
			if (x->step > fp->nsteps)
				fp->nsteps = x->step;
		}
	}
	qsort(fp->transfers, fp->ntransfers, sizeof(*fp->transfers), cmp_transfer);
	fp->stats = mcwa->stats;
	return fp;
}

/* Time of the plan's migration steps: per step, the busiest node's port. */
static double migration_time(struct sim_model *m, const struct hcube_plan *pl)
{
	double t = 0;
	u32 i = 0, j;

	while (i < pl->ntransfers) {
		u32 step = pl->transfers[i].step, most = 0, end;

		for (end = i; end < pl->ntransfers && pl->transfers[end].step == step; end++) {
			m->sent[pl->transfers[end].from] += pl->transfers[end].count;
			m->recv[pl->transfers[end].to] += pl->transfers[end].count;
		}
		for (j = i; j < end; j++) {
			const struct hcube_transfer *x = &pl->transfers[j];

			if (m->sent[x->from] > most)
				most = m->sent[x->from];
			if (m->p->mig_charge == SIM_CHARGE_BOTH && m->recv[x->to] > most)
				most = m->recv[x->to];
		}
		for (j = i; j < end; j++) {
			m->sent[pl->transfers[j].from] = 0;
			m->recv[pl->transfers[j].to] = 0;
		}
		t += m->p->mig_cost * most;
		i = end;
	}
	return t;
}

/* Tasks each node sends and receives over all the plan's steps. */
static void node_migration_work(struct sim_model *m, const struct hcube_plan *pl)
{
	u32 i;

	for (i = 0; i < pl->ntransfers; i++) {
		m->sent[pl->transfers[i].from] += pl->transfers[i].count;
		m->recv[pl->transfers[i].to] += pl->transfers[i].count;
	}
}

static int core_policy(int pol)
{
	return core_pol[pol];
}

/* The plan of @pol for the current queues, in m->core.plan. */
static void build_plan(struct sim_model *m, int pol)
{
	struct hcube_cube cube = { .dim = m->dim, .state = m->state, .load = m->load };
	int err;

	err = hcube_plan_build(&m->core.plan, core_policy(pol), &cube,
			       m->topo_ok ? &m->core.topo : NULL, m->core.work);
	if (err)
		sim_die("%s plan: %s", sim_pol_name(pol), hcube_strerror(err));
}

static void sync_round(struct sim_model *m, u32 init, double t)
{
	struct hcube_plan *pl = &m->core.plan;
	struct sim_result *res = m->res;
	const struct hcube_plan *mv;
	u32 v, i, nr, total = 0, info_steps;
	double info, lb = 0;
	u64 opt;
	int err;

	for (v = 0; v < m->n; v++) {
		m->load[v] = m->state[v] == HCUBE_V_HEALTHY ? m->qlen[v] : 0;
		total += m->load[v];
	}
	build_plan(m, m->pol);

	if (m->pol == SIM_OPTIMAL && pl->stats.imbalance)
		res->bad |= SIM_BAD_BALANCE;	/* floor/ceil in every component */
	if (m->pol == SIM_MCWA || m->pol == SIM_CWA || m->pol == SIM_MCWAOPT) {
		/* exact balance over the vertices attached to C_b */
		u32 lo = NIL, hi = 0;

		for (v = 0; v < m->n; v++) {
			if (m->state[v] != HCUBE_V_HEALTHY ||
			    m->core.topo.dist[v] == HCUBE_DIST_NONE)
				continue;
			lo = pl->after[v] < lo ? pl->after[v] : lo;
			hi = pl->after[v] > hi ? pl->after[v] : hi;
		}
		if (hi > lo + 1)
			res->bad |= SIM_BAD_BALANCE;
	}
	err = hcube_mincost(m->dim, m->state, m->load, pl->after, &opt,
			    m->flow_work);
	if (err)
		sim_die("mincost: %s", hcube_strerror(err));
	if (opt > pl->stats.migrations)
		res->bad |= SIM_BAD_OPT;
	/*
	 * The plan's load-information steps: its communication steps minus
	 * its migration steps; SBN's routed transfers can take more steps
	 * than its message passes, and then all of those count.
	 */
	info_steps = m->ecc[init] + (pl->stats.comm_steps >= pl->nsteps ?
				     pl->stats.comm_steps - pl->nsteps :
				     pl->stats.comm_steps);
	if (needs_gather(m->pol)) {
		if (!m->aapc_known) {
			struct hcube_aapc_info ai;

			/* more than floor(n/2) faults: no AAPC schedule (0) */
			m->info.aapc_units = sim_aapc_info(m->dim, m->state, &ai) ?
					     0 : ai.units;
			m->aapc_known = true;
		}
		info_steps += m->info.aapc_units ? m->info.aapc_units :
			      2 * m->info.diameter;
	}
	mv = m->pol == SIM_MCWAOPT ? flow_plan(m, pl) : pl;
	err = hcube_plan_routes(mv, m->load, m->routes, m->routes_cap, &nr,
				m->core.work);
	if (err)
		sim_die("routes: %s", hcube_strerror(err));

	info = m->p->msg_cost * info_steps;
	if (m->p->round_cost == SIM_COST_GLOBAL)
		info += migration_time(m, mv);
	else
		node_migration_work(m, mv);
	for (i = 0; i < nr; i++)
		q_move(m, m->routes[i].from, m->routes[i].to, m->routes[i].count);
	for (v = 0; v < m->n; v++) {
		double d = info;

		if (m->state[v] != HCUBE_V_HEALTHY)
			continue;
		if (m->p->round_cost != SIM_COST_GLOBAL) {
			d += m->p->mig_cost * (m->sent[v] +
					       (m->p->mig_charge == SIM_CHARGE_BOTH ? m->recv[v] : 0));
			m->sent[v] = 0;
			m->recv[v] = 0;
		}
		lb += d;
		if (m->qlen[v] != pl->after[v])
			res->bad |= SIM_BAD_TASKS;
		total -= m->qlen[v];
		m->lref[v] = m->qlen[v];
		if (m->ev[v] < INFINITY)
			m->ev[v] += d;
		else if (m->qlen[v])
			m->ev[v] = t + d;	/* idle: starts when its part ends */
	}
	if (total)
		res->bad |= SIM_BAD_TASKS;
	heap_build(m);

	res->rounds++;
	res->lb_time += lb / m->nh;
	res->moved += pl->stats.moved_tasks;
	res->hops += m->pol == SIM_MCWAOPT ? opt : pl->stats.migrations;
	res->opt_hops += opt;
	res->comm_steps += info_steps + mv->nsteps;
	/* the request's broadcast, then the plan's own (MCWA, DEM: one per node per step) */
	res->messages += m->nh - 1 + (u64)pl->stats.messages;
	if (needs_gather(m->pol)) {
		/* one datum per ordered pair of healthy nodes */
		res->messages += (u64)m->nh * (m->nh - 1);
		res->aapc_units += m->info.aapc_units;
	}
}

/* ---- RID ---- */

static void stall(struct sim_model *m, u32 v, double d)
{
	m->stall_sum += d;
	if (m->ev[v] < INFINITY)
		set_event(m, v, m->ev[v] + d);
}

static void rid_request(struct sim_model *m, u32 v, double t, bool idle)
{
	struct sim_result *res = m->res;
	u32 d = m->nnbr[v], li = m->qlen[v], k, got = 0;
	u64 sum = 0;
	double own;

	if (!d) {
		m->lref[v] = li;
		return;
	}
	for (k = 0; k < d; k++)
		sum += m->qlen[m->nbr[v][k]];
	res->rounds++;
	res->comm_steps += 2;
	res->messages += 2 * d;
	/* l_avg - l(i) = (sum - d * l(i)) / (d + 1) */
	for (k = 0; k < d && sum > (u64)d * li; k++) {
		u32 x = m->nbr[v][k], q = m->qlen[x];
		u64 num = (sum - (u64)d * li) * q, den = (u64)(d + 1) * sum;
		u32 phi = (u32)((2 * num + den) / (2 * den));

		if (phi > q)
			phi = q;
		stall(m, x, m->p->msg_cost + m->p->mig_cost * phi);
		if (!phi)
			continue;
		q_move(m, x, v, phi);
		got += phi;
	}
	for (; k < d; k++)
		stall(m, m->nbr[v][k], m->p->msg_cost);
	own = 2 * m->p->msg_cost +
	      (m->p->mig_charge == SIM_CHARGE_BOTH ? m->p->mig_cost * got : 0);
	m->lref[v] = m->qlen[v];
	res->moved += got;
	res->hops += got;
	res->opt_hops += got;
	if (got)
		res->comm_steps++;
	if (idle) {
		m->stall_sum += own;
		if (got)
			set_event(m, v, t + own);
		else
			m->waiting[v] = 1;
	} else {
		stall(m, v, own);
	}
	if (!got)
		return;
	/* v's load grew: idle neighbours that found nothing ask again */
	for (k = 0; k < d; k++) {
		u32 x = m->nbr[v][k];

		if (m->waiting[x]) {
			m->waiting[x] = 0;
			set_event(m, x, t + own);
		}
	}
}

/* ---- the engine ---- */

static void engine_reset(struct sim_model *m)
{
	u32 v, id;

	memset(m->executed, 0, m->ntasks);
	m->done = 0;
	m->stall_sum = 0;
	for (v = 0; v < m->n; v++) {
		m->head[v] = NIL;
		m->tail[v] = NIL;
		m->qlen[v] = 0;
		m->running[v] = 0;
		m->waiting[v] = 0;
		m->sent[v] = 0;
		m->recv[v] = 0;
		m->ev[v] = INFINITY;
		if (m->state[v] != HCUBE_V_HEALTHY)
			continue;
		for (id = m->ihead[v]; id != NIL; id = m->inext[id])
			q_push_back(m, v, id);
		m->lref[v] = m->qlen[v];
		m->ev[v] = 0;
	}
	heap_build(m);
}

static bool is_sync(int pol)
{
	return pol != SIM_NONE && pol != SIM_RID;
}

static void run_policy(struct sim_model *m, int pol, struct sim_result *res)
{
	double makespan = 0;

	memset(res, 0, sizeof(*res));
	res->ran = 1;
	m->pol = pol;
	m->res = res;
	engine_reset(m);
	while (m->hlen && m->ev[m->heap[0]] < INFINITY) {
		u32 v = m->heap[0];
		double t = m->ev[v];

		if (m->running[v]) {
			m->running[v] = 0;
			m->done++;
			makespan = t;
		}
		if (!m->qlen[v]) {
			set_event(m, v, INFINITY);
			if (pol == SIM_RID)
				rid_request(m, v, t, true);
			continue;
		}
		{
			u32 id = q_pop_front(m, v);

			if (m->executed[id])
				res->bad |= SIM_BAD_TASKS;
			m->executed[id] = 1;
			m->running[v] = 1;
			set_event(m, v, t + m->time[id]);
		}
		if (pol == SIM_NONE ||
		    m->qlen[v] >= (m->p->fixed_threshold ? m->p->fixed_threshold :
				   (u32)floor(m->p->alpha * m->lref[v])))
			continue;
		if (is_sync(pol))
			sync_round(m, v, t);
		else
			rid_request(m, v, t, false);
	}
	if (m->done != m->ntasks)
		res->bad |= SIM_BAD_TASKS;
	res->makespan = makespan;
	if (pol == SIM_RID)
		res->lb_time = m->stall_sum / m->nh;
	if (makespan < m->info.work / m->nh * (1 - 1e-12))
		res->bad |= SIM_BAD_IDEAL;
	if (pol == SIM_NONE && makespan != m->info.t_nobal)
		res->bad |= SIM_BAD_NOBAL;
}

void sim_model_run(struct sim_model *m, const struct sim_params *p,
		   const u32 *faulty, u32 pols, struct sim_run_out *out)
{
	int pol;

	if (p->dim != m->dim || p->tasks_per_node != m->tpn)
		sim_die("internal: model built for another dimension");
	m->p = p;
	draw_instance(m, p, faulty);
	out->info = m->info;
	for (pol = 0; pol < SIM_NPOL; pol++) {
		memset(&out->res[pol], 0, sizeof(out->res[pol]));
		if (!(pols & (1U << pol)))
			continue;
		if (pol == SIM_CWA && m->nfaulty)
			continue;
		run_policy(m, pol, &out->res[pol]);
	}
	out->info.aapc_units = m->info.aapc_units;
}
