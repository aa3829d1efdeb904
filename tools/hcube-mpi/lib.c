// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: the handle, agreement on arguments and errors, faulty
 * ranks and their evacuation, the dispatch of a balance or a plan, and
 * the report.
 *
 * Every call opens with one MPI_Allreduce (a user operation on a small
 * record): the highest error code any rank found in its own arguments and
 * the lowest rank that found it, a hash of the call and its arguments (so
 * that ranks passing different ones are caught), whether a faulty rank
 * holds units, the totals and maxima of the loads, the least-loaded
 * healthy rank and the load per component of healthy ranks. On an error
 * the rank that found it broadcasts its message, and every rank returns
 * the same code having changed nothing. A call that moved units closes
 * with one MPI_Allreduce of the loads' maxima: the imbalance after.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hcube.h>
#include "hm.h"

#define MAX_RANKS	((int)HCUBE_MAX_VERTICES)

static const char *const errors[HCUBE_MPI_E_NERRORS] = {
	[HCUBE_MPI_OK] = "success",
	[HCUBE_MPI_E_ARG] = "invalid argument",
	[HCUBE_MPI_E_SIZE] = "more than 1024 ranks",
	[HCUBE_MPI_E_RANK] = "rank id out of range or listed twice",
	[HCUBE_MPI_E_POLICY] = "unknown policy",
	[HCUBE_MPI_E_ALL_FAULTY] = "no healthy rank would be left",
	[HCUBE_MPI_E_NEED_MCWA] = "cwa needs every vertex healthy: use mcwa",
	[HCUBE_MPI_E_DISAGREE] = "the ranks passed different arguments",
	[HCUBE_MPI_E_UNITS] = "more than 2147483647 units, or a weight above 2^62, in all",
	[HCUBE_MPI_E_NOMEM] = "out of memory",
	[HCUBE_MPI_E_MPI] = "MPI is not initialized, or already finalized",
	[HCUBE_MPI_E_INTERNAL] = "internal error",
	[HCUBE_MPI_E_COMM] = "an intercommunicator: the library needs an intracommunicator",
};

const char *hcube_mpi_strerror(int err)
{
	if (err < 0 || err >= HCUBE_MPI_E_NERRORS || !errors[err])
		return "unknown error";
	return errors[err];
}

const char *hcube_mpi_errmsg(const struct hcube_mpi *h)
{
	return h ? h->errmsg : "no handle";
}

/* ---- agreement ---- */

struct agree {
	s32 err;		/* the highest error code found */
	s32 err_rank;		/* the lowest rank that found it */
	u64 hash_max, hash_min;	/* of the call and its arguments */
	u32 drain;		/* a faulty rank holds units */
	u32 minrank;		/* the least-loaded healthy rank, lowest first */
	u64 minload;
	u64 units, load;	/* totals over all ranks */
	u64 max_units, max_load, heaviest;
	u32 ncomp, pad;
	u64 comp[];		/* load per component of healthy ranks */
};

#define MAXOF(b, a, f)	((b)->f = (a)->f > (b)->f ? (a)->f : (b)->f)

static void agree_combine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	int size, i;
	u32 j;

	MPI_Type_size(*dt, &size);
	for (i = 0; i < *len; i++) {
		const struct agree *a = (const void *)((char *)in + (size_t)i * size);
		struct agree *b = (void *)((char *)inout + (size_t)i * size);

		if (a->err > b->err || (a->err == b->err && a->err_rank < b->err_rank)) {
			b->err = a->err;
			b->err_rank = a->err_rank;
		}
		MAXOF(b, a, hash_max);
		if (a->hash_min < b->hash_min)
			b->hash_min = a->hash_min;
		b->drain |= a->drain;
		if (a->minload < b->minload ||
		    (a->minload == b->minload && a->minrank < b->minrank)) {
			b->minload = a->minload;
			b->minrank = a->minrank;
		}
		b->units += a->units;
		b->load += a->load;
		MAXOF(b, a, max_units);
		MAXOF(b, a, max_load);
		MAXOF(b, a, heaviest);
		for (j = 0; j < b->ncomp; j++)
			b->comp[j] += a->comp[j];
	}
}

static u64 fnv64(const void *p, size_t n, u64 x)
{
	const unsigned char *c = p;

	while (n--)
		x = (x ^ *c++) * 0x100000001b3ULL;
	return x;
}

#define FNV_START	0xcbf29ce484222325ULL

/* Components of healthy labels, numbered in order of their lowest label. */
static void components(struct hcube_mpi *h)
{
	u16 queue[HCUBE_MAX_VERTICES];
	u32 v, d;

	h->ncomp = 0;
	for (v = 0; v < h->nv; v++)
		h->comp[v] = 0xffff;
	for (v = 0; v < h->nv; v++) {
		u32 head = 0, tail = 0;

		if (!hm_healthy(h, v) || h->comp[v] != 0xffff)
			continue;
		h->comp[v] = (u16)h->ncomp;
		queue[tail++] = (u16)v;
		while (head < tail) {
			u32 u = queue[head++];

			for (d = 0; d < h->dim; d++) {
				u32 x = u ^ (1U << d);

				if (hm_healthy(h, x) && h->comp[x] == 0xffff) {
					h->comp[x] = (u16)h->ncomp;
					queue[tail++] = (u16)x;
				}
			}
		}
		h->ncomp++;
	}
}

/*
 * The opening all-reduce. @err and h->errmsg: this rank's findings;
 * @drain: this rank is (or is about to be) faulty and holds units;
 * @healthy: the healthy ranks the call works with. On return *@out
 * (malloc'ed) holds the agreed record and the report its "before"
 * fields; the result is the agreed error, with h->errmsg the same on
 * every rank.
 */
static int agree(struct hcube_mpi *h, int err, u64 hash, bool drain,
		 u32 healthy, struct agree **out)
{
	size_t bytes = sizeof(struct agree) + h->ncomp * sizeof(u64);
	struct agree *mine = hm_alloc(h, bytes), *all = hm_alloc(h, bytes);
	u32 me = (u32)h->rank;
	MPI_Datatype type;

	mine->units = h->ops->count(h->queue);
	mine->load = hm_load(h, &mine->heaviest);
	if (!err && mine->load > HM_MAX_WEIGHT)
		err = hm_fail(h, HCUBE_MPI_E_UNITS,
			      "rank %d holds a weight of %llu, more than 2^62",
			      h->rank, (unsigned long long)mine->load);
	if (!err && mine->heaviest > mine->load)
		err = hm_fail(h, HCUBE_MPI_E_ARG,
			      "rank %d: weight() says %llu in all and %llu for the heaviest unit",
			      h->rank, (unsigned long long)mine->load,
			      (unsigned long long)mine->heaviest);
	mine->err = err;
	mine->err_rank = err ? h->rank : h->size;
	mine->hash_max = hash;
	mine->hash_min = hash;
	mine->drain = drain;
	mine->minload = hm_healthy(h, me) ? mine->load : ~0ULL;
	mine->minrank = me;
	mine->max_units = mine->units;
	mine->max_load = mine->load;
	mine->ncomp = h->ncomp;
	if (hm_healthy(h, me))
		mine->comp[h->comp[me]] = mine->load;
	h->rep.before = (u32)mine->units;
	h->rep.weight_before = mine->load;

	MPI_Type_contiguous((int)bytes, MPI_BYTE, &type);
	MPI_Type_commit(&type);
	MPI_Allreduce(mine, all, 1, type, h->agree_op, h->comm);
	MPI_Type_free(&type);
	h->rep.collectives++;
	free(mine);
	*out = all;

	h->rep.healthy = healthy;
	h->rep.total = all->units;
	h->rep.total_weight = all->load;
	h->rep.heaviest = all->heaviest;
	h->rep.imbalance_before = hm_ratio(all->max_units, all->units, healthy);
	h->rep.weight_imbalance_before = hm_ratio(all->max_load, all->load, healthy);
	if (all->err) {
		MPI_Bcast(h->errmsg, sizeof(h->errmsg), MPI_CHAR, all->err_rank,
			  h->comm);
		h->rep.collectives++;
		return all->err;
	}
	if (all->hash_max != all->hash_min)
		return hm_fail(h, HCUBE_MPI_E_DISAGREE,
			       "the ranks passed different arguments to the same call");
	if (!h->by_weight && all->units > HCUBE_MAX_TOTAL_LOAD)
		return hm_fail(h, HCUBE_MPI_E_UNITS,
			       "%llu units in all, more than the 2147483647 the core handles",
			       (unsigned long long)all->units);
	if (all->load > HM_MAX_WEIGHT)
		return hm_fail(h, HCUBE_MPI_E_UNITS,
			       "a weight of %llu in all, more than 2^62",
			       (unsigned long long)all->load);
	return HCUBE_MPI_OK;
}

/* ---- the report ---- */

static void begin(struct hcube_mpi *h)
{
	memset(&h->rep, 0, sizeof(h->rep));
	h->payload_sent = 0;
	h->rep.policy = -1;
	h->rep.applied = -1;
	h->rep.member = h->comm != MPI_COMM_NULL;
	h->rep.by_weight = h->by_weight;
	h->rep.imbalance_before = 1.0;
	h->rep.weight_imbalance_before = 1.0;
	h->rep.seconds = MPI_Wtime();
	h->sent.n = 0;
	h->recvd.n = 0;
	h->nev = 0;
	h->max_len = 0;
	h->carry = 0;
	h->planned = false;
	h->errmsg[0] = '\0';
}

/* The logged transfers as the report's, SBN's hops numbered as the core's. */
static struct hcube_mpi_xfer *xfers(struct hcube_mpi *h, const struct hm_logs *logs,
				    struct hcube_mpi_xfer **xf, u32 *cap, u32 max_len)
{
	u32 i;

	hm_grow(h, (void **)xf, cap, logs->n, sizeof(**xf));
	for (i = 0; i < logs->n; i++) {
		const struct hm_log *l = &logs->l[i];

		(*xf)[i] = (struct hcube_mpi_xfer){
			.step = l->round ? (l->round - 1) * max_len + l->hop + 1 : l->step,
			.from = l->from, .to = l->to, .count = l->count, .weight = l->weight,
		};
	}
	return *xf;
}

/*
 * Fill @r: this rank's queue, the transfers, the time; after a call that
 * moved units (@moved), the closing all-reduce of the loads' maxima.
 */
static int finish(struct hcube_mpi *h, struct hcube_mpi_report *r, u32 max_len,
		  int err, bool moved)
{
	struct hcube_mpi_report *p = &h->rep;

	hm_sends_wait(h);
	p->xfers = xfers(h, &h->sent, &h->xf, &h->capxf, max_len);
	p->nxfers = h->sent.n;
	p->imports = xfers(h, &h->recvd, &h->im, &h->capim, max_len);
	p->nimports = h->recvd.n;
	p->evacs = h->ev;
	p->nevacs = h->nev;
	p->after = h->ops->count(h->queue);
	p->weight_after = p->after;
	if (moved) {
		u64 mine[3], max[3];

		p->weight_after = hm_load(h, &mine[2]);
		mine[0] = p->after;
		mine[1] = p->weight_after;
		MPI_Allreduce(mine, max, 3, MPI_UINT64_T, MPI_MAX, h->comm);
		p->collectives++;
		p->imbalance_after = hm_ratio(max[0], p->total, p->healthy);
		p->weight_imbalance_after = hm_ratio(max[1], p->total_weight, p->healthy);
		p->heaviest = max[2];
	} else if (h->planned) {
		p->after = h->plan_after;
		p->weight_after = h->by_weight ? h->plan_weight_after : h->plan_after;
		if (!p->imbalance_after)
			p->imbalance_after = p->imbalance_before;
	} else {
		p->weight_after = p->weight_before;
		if (!p->imbalance_after)
			p->imbalance_after = p->imbalance_before;
		if (!p->weight_imbalance_after)
			p->weight_imbalance_after = p->weight_imbalance_before;
	}
	p->seconds = MPI_Wtime() - p->seconds;
	if (r)
		*r = *p;
	return err;
}

/* A rank outside the communicator (MPI_COMM_NULL): nothing to do. */
static int outside(struct hcube_mpi *h, struct hcube_mpi_report *r)
{
	begin(h);
	h->rep.imbalance_after = 1.0;
	h->rep.weight_imbalance_after = 1.0;
	h->rep.seconds = 0;
	if (r)
		*r = h->rep;
	return HCUBE_MPI_OK;
}

/* ---- the handle ---- */

/*
 * After MPI_Finalize() no MPI call is allowed (Open MPI aborts the job):
 * every call on a handle then returns HCUBE_MPI_E_MPI, the same on every
 * rank since every rank has finalized, and close frees what needs no MPI.
 */
static bool finalized(struct hcube_mpi *h)
{
	int fin = 0;

	MPI_Finalized(&fin);
	if (fin && h)
		hm_fail(h, HCUBE_MPI_E_MPI, "MPI_Finalize() was called: the handle can only be closed");
	return fin;
}

static int topology(struct hcube_mpi *h)
{
	int err = hcube_topo_build(&h->topo, h->dim, h->state, h->work);

	components(h);
	h->bfs_to = HCUBE_VERTEX_NONE;
	return err;
}

static void free_handle(struct hcube_mpi *h)
{
	u32 i;

	for (i = 0; i < h->nstash; i++)
		free(h->stash[i].buf);
	free(h->stash);
	free(h->req);
	free(h->sbuf);
	free(h->sent.l);
	free(h->recvd.l);
	free(h->xf);
	free(h->ev);
	free(h->im);
	free(h->topo_mem);
	free(h->plan_mem);
	free(h->work);
	free(h);
}

/* The handle's memory and topology; false if some part is missing. */
static bool setup(struct hcube_mpi *h)
{
	u32 v;

	while ((1U << h->dim) < (u32)h->size)
		h->dim++;
	h->nv = 1U << h->dim;
	for (v = 0; v < h->nv; v++)
		h->state[v] = v < (u32)h->size ? HCUBE_V_HEALTHY : HCUBE_V_ABSENT;
	h->topo_mem = malloc(hcube_topo_memsize(h->dim));
	h->plan_mem = malloc(hcube_plan_memsize(h->dim));
	h->work = malloc(hcube_work_memsize(h->dim));
	return h->topo_mem && h->plan_mem && h->work;
}

int hcube_mpi_open(MPI_Comm comm, const struct hcube_mpi_ops *ops, void *queue,
		   struct hcube_mpi **out)
{
	struct hcube_mpi *h;
	int init = 0, fin = 0, inter = 0, size, rank, mine[3], any[3];

	if (out)
		*out = NULL;
	MPI_Initialized(&init);
	MPI_Finalized(&fin);
	if (!init || fin)
		return HCUBE_MPI_E_MPI;
	mine[0] = !out || !ops || !ops->count || !ops->pack || !ops->unpack ||
		  !ops->weight != !ops->pack_weight;
	mine[1] = ops && ops->weight;
	mine[2] = !mine[1];
	if (comm == MPI_COMM_NULL) {
		if (mine[0])
			return HCUBE_MPI_E_ARG;
		h = calloc(1, sizeof(*h));
		if (!h)
			return HCUBE_MPI_E_NOMEM;
		h->comm = MPI_COMM_NULL;
		h->ops = ops;
		h->queue = queue;
		h->by_weight = mine[1];
		*out = h;
		return HCUBE_MPI_OK;
	}
	/* a property of the communicator: the same answer on every rank */
	MPI_Comm_test_inter(comm, &inter);
	if (inter)
		return HCUBE_MPI_E_COMM;
	MPI_Comm_size(comm, &size);
	MPI_Comm_rank(comm, &rank);
	MPI_Allreduce(mine, any, 3, MPI_INT, MPI_MAX, comm);
	if (any[0])
		return HCUBE_MPI_E_ARG;
	if (any[1] && any[2])
		return HCUBE_MPI_E_DISAGREE;
	if (size > MAX_RANKS)
		return HCUBE_MPI_E_SIZE;

	h = calloc(1, sizeof(*h));
	if (h) {
		h->rank = rank;
		h->size = size;
	}
	mine[0] = !h || !setup(h);
	MPI_Allreduce(mine, any, 1, MPI_INT, MPI_MAX, comm);
	if (any[0]) {
		if (h)
			free_handle(h);
		return HCUBE_MPI_E_NOMEM;
	}
	h->ops = ops;
	h->queue = queue;
	h->by_weight = mine[1];
	/* the same dimension everywhere: a refusal is agreed on */
	if (hcube_topo_init(&h->topo, h->dim, h->topo_mem) ||
	    hcube_plan_init(&h->plan, h->dim, h->plan_mem) || topology(h)) {
		free_handle(h);
		return HCUBE_MPI_E_INTERNAL;
	}
	MPI_Comm_dup(comm, &h->comm);
	/* a lost message cannot be recovered from: MPI errors abort */
	MPI_Comm_set_errhandler(h->comm, MPI_ERRORS_ARE_FATAL);
	MPI_Op_create(agree_combine, 1, &h->agree_op);
	*out = h;
	return HCUBE_MPI_OK;
}

int hcube_mpi_close(struct hcube_mpi *h)
{
	u32 i;

	if (!h)
		return HCUBE_MPI_E_ARG;
	if (finalized(h)) {
		/* MPI freed its own objects; the sends' buffers are ours */
		for (i = 0; i < h->nreq; i++)
			free(h->sbuf[i]);
		free_handle(h);
		return HCUBE_MPI_E_MPI;
	}
	if (h->comm != MPI_COMM_NULL) {
		hm_sends_wait(h);
		MPI_Op_free(&h->agree_op);
		MPI_Comm_free(&h->comm);
	}
	free_handle(h);
	return HCUBE_MPI_OK;
}

int hcube_mpi_is_faulty(const struct hcube_mpi *h, int rank)
{
	if (!h)
		return -HCUBE_MPI_E_ARG;
	if (finalized(NULL))
		return -HCUBE_MPI_E_MPI;
	if (rank < 0 || rank >= h->size)
		return -HCUBE_MPI_E_RANK;
	return !hcube_usable(h->state[rank]);
}

int hcube_mpi_set_tolerance(struct hcube_mpi *h, double tolerance)
{
	if (!h)
		return HCUBE_MPI_E_ARG;
	if (finalized(h))
		return HCUBE_MPI_E_MPI;
	if (tolerance != 0 && !(isfinite(tolerance) && tolerance >= 1))
		return hm_fail(h, HCUBE_MPI_E_ARG,
			       "tolerance %g: 0 (always balance) or a max/avg of at least 1",
			       tolerance);
	h->tolerance = tolerance;
	return HCUBE_MPI_OK;
}

int hcube_mpi_set_sizer(struct hcube_mpi *h, uint64_t (*bytes)(void *queue))
{
	if (!h)
		return HCUBE_MPI_E_ARG;
	if (finalized(h))
		return HCUBE_MPI_E_MPI;
	if (bytes && !h->by_weight)
		return hm_fail(h, HCUBE_MPI_E_ARG,
			       "a sizer needs the weight callbacks: by count pack() chooses the units");
	h->sizer = bytes;
	return HCUBE_MPI_OK;
}

uint64_t hcube_mpi_payload_sent(const struct hcube_mpi *h)
{
	return h ? h->payload_sent : 0;
}

/* ---- evacuation ---- */

/* One move of the evacuation: the faulty rank sends, the target receives. */
static void evac_move(struct hcube_mpi *h, u32 from, u32 to, u64 amount, bool last)
{
	struct hm_msg m;

	if (from == (u32)h->rank) {
		/* by weight the last move takes whatever is left */
		hm_send(h, to, HM_TAG_EVAC, 0, NULL, 0,
			h->by_weight && last ? HM_ALL : amount, 0, 0, to);
	} else if (to == (u32)h->rank) {
		hm_recv(h, from, HM_TAG_EVAC, &m);
		if (!h->by_weight && m.hdr.units != amount)
			hm_fatal(h, "internal: evacuation of %u units, %llu expected",
				 m.hdr.units, (unsigned long long)amount);
		hm_take(h, &m);
		hm_msg_free(&m);
	}
}

/*
 * Move every unit off the faulty ranks, as the module does (plan.c's
 * hm_evac_plan(), on one all-gather of the loads: an administrative
 * drain, not a balancing algorithm).
 */
static void evacuate(struct hcube_mpi *h)
{
	struct hm_view v;
	u32 left;

	hm_view_gather(h, &v);
	hm_evac_plan(h, &v, evac_move);
	hm_view_free(&v);
	left = h->ops->count(h->queue);
	if (!hm_healthy(h, (u32)h->rank) && left)
		hm_fatal(h, "the application's pack_weight() left %u of its units on faulty rank %d when asked for all",
			 left, h->rank);
}

/* ---- marking ---- */

static u32 count_healthy(const struct hcube_mpi *h, const u8 *state)
{
	u32 v, n = 0;

	for (v = 0; v < (u32)h->size; v++)
		n += hcube_usable(state[v]);
	return n;
}

int hcube_mpi_mark(struct hcube_mpi *h, const int *ranks, int n, int as,
		   struct hcube_mpi_report *r)
{
	u8 state[HCUBE_MAX_VERTICES], seen[HCUBE_MAX_VERTICES] = { 0 };
	struct agree *all = NULL;
	int i, err = HCUBE_MPI_OK;
	u32 healthy;

	if (!h)
		return HCUBE_MPI_E_ARG;
	if (finalized(h))
		return HCUBE_MPI_E_MPI;
	if (h->comm == MPI_COMM_NULL)
		return outside(h, r);
	begin(h);
	memcpy(state, h->state, h->nv);
	if (n < 0 || (n && !ranks) || (as != HCUBE_MPI_HEALTHY && as != HCUBE_MPI_FAULTY))
		err = hm_fail(h, HCUBE_MPI_E_ARG,
			      "rank %d: hcube_mpi_mark() needs a list of n >= 0 ranks and HCUBE_MPI_FAULTY or HCUBE_MPI_HEALTHY",
			      h->rank);
	for (i = 0; !err && i < n; i++) {
		if (ranks[i] < 0 || ranks[i] >= h->size)
			err = hm_fail(h, HCUBE_MPI_E_RANK,
				      "rank %d is out of range (0..%d)", ranks[i],
				      h->size - 1);
		else if (seen[ranks[i]]++)
			err = hm_fail(h, HCUBE_MPI_E_RANK, "rank %d is listed twice",
				      ranks[i]);
		else
			state[ranks[i]] = as == HCUBE_MPI_FAULTY ? HCUBE_V_FAULTY :
				HCUBE_V_HEALTHY;
	}
	healthy = count_healthy(h, state);
	if (!err && !healthy)
		err = hm_fail(h, HCUBE_MPI_E_ALL_FAULTY,
			      "marking these ranks faulty would leave none of the %d ranks healthy",
			      h->size);
	err = agree(h, err, fnv64(state, h->nv, FNV_START + 1),
		    !hcube_usable(state[h->rank]) && h->ops->count(h->queue),
		    healthy, &all);
	if (err) {
		free(all);
		return finish(h, r, 0, err, false);
	}

	memcpy(h->state, state, h->nv);
	if (topology(h))
		hm_fatal(h, "internal: no topology for the new states");
	/* a newly faulty rank sends its units away at once */
	if (all->drain)
		evacuate(h);
	free(all);
	return finish(h, r, 0, err, true);
}

/* ---- balancing and planning ---- */

static bool distributed(u32 policy)
{
	return policy == HCUBE_POLICY_MCWA || policy == HCUBE_POLICY_CWA ||
	       policy == HCUBE_POLICY_DEM || policy == HCUBE_POLICY_SBN;
}

static void policy_list(char *buf, size_t len)
{
	u32 i;

	buf[0] = '\0';
	for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
		strncat(buf, hcube_policy_name(i), len - strlen(buf) - 1);
		if (i + 1 < __HCUBE_POLICY_MAX)
			strncat(buf, ", ", len - strlen(buf) - 1);
	}
}

/*
 * The loads after an evacuation: SBN's initiator, its component's total,
 * the most units a rank holds (what an SBN operation must not raise).
 */
static void recount(struct hcube_mpi *h, struct agree *all)
{
	struct hm_view v;
	u32 r;

	hm_view_gather(h, &v);
	all->minload = ~0ULL;
	all->max_units = 0;
	memset(all->comp, 0, all->ncomp * sizeof(u64));
	for (r = 0; r < (u32)h->size; r++) {
		if (v.count[r] > all->max_units)
			all->max_units = v.count[r];
		if (!hm_healthy(h, r))
			continue;
		all->comp[h->comp[r]] += v.load[r];
		if (v.load[r] < all->minload) {
			all->minload = v.load[r];
			all->minrank = r;
		}
	}
	hm_view_free(&v);
}

/*
 * By count, did the policy leave a rank more units than the most any rank
 * held before it (@before, after the evacuation)? The gathered policies never do (the core
 * stops their plans short), nor do CWA, MCWA and DEM; Das et al.'s SBN
 * operation may, and its protocol is run whole (one all-reduce).
 */
static bool raised(struct hcube_mpi *h, u64 before)
{
	u64 mine = h->ops->count(h->queue), max;

	MPI_Allreduce(&mine, &max, 1, MPI_UINT64_T, MPI_MAX, h->comm);
	h->rep.collectives++;
	return max > before;
}

enum call { CALL_BALANCE = 2, CALL_PLAN = 3 };

/*
 * The opening of a balance or a plan: the policy, the agreement, the
 * tolerance. Returns the agreed error; *@all is set either way, *@pol
 * and *@skip on success.
 */
static int open_call(struct hcube_mpi *h, enum call call, const char *policy,
		     u32 *pol, bool *skip, struct agree **all)
{
	u32 healthy = count_healthy(h, h->state);
	int p = -1, err = HCUBE_MPI_OK;
	u64 hash = FNV_START + call;
	double imb;

	if (policy)
		p = hcube_policy_parse(policy);
	if (p < 0) {
		char list[160];

		policy_list(list, sizeof(list));
		err = hm_fail(h, HCUBE_MPI_E_POLICY, "unknown policy '%.40s' (%s)",
			      policy ? policy : "(null)", list);
	} else if (p == HCUBE_POLICY_CWA && healthy != h->nv) {
		err = hm_fail(h, HCUBE_MPI_E_NEED_MCWA,
			      "cwa needs every vertex healthy (%d ranks, %u healthy, %u labels): use mcwa",
			      h->size, healthy, h->nv);
	}
	*pol = p < 0 ? 0 : (u32)p;
	hash = fnv64(pol, sizeof(*pol), hash);
	hash = fnv64(&h->tolerance, sizeof(h->tolerance), hash);
	err = agree(h, err, hash,
		    !hm_healthy(h, (u32)h->rank) && h->ops->count(h->queue),
		    healthy, all);
	if (err)
		return err;
	h->rep.policy = (int)*pol;
	h->rep.applied = (int)*pol;
	h->rep.distributed = distributed(*pol);
	imb = h->by_weight ? h->rep.weight_imbalance_before : h->rep.imbalance_before;
	*skip = h->tolerance && !(*all)->drain && imb <= h->tolerance;
	h->rep.skipped = *skip;
	return HCUBE_MPI_OK;
}

/*
 * A balance's or a plan's start; true when the call ends there (no handle,
 * outside the communicator, an error, within the tolerance), with *@ret
 * its result.
 */
static bool started(struct hcube_mpi *h, enum call call, const char *policy,
		    struct hcube_mpi_report *r, u32 *pol, struct agree **all,
		    int *ret)
{
	bool skip = false;
	int err;

	*all = NULL;
	if (!h) {
		*ret = HCUBE_MPI_E_ARG;
		return true;
	}
	if (finalized(h)) {
		*ret = HCUBE_MPI_E_MPI;
		return true;
	}
	if (h->comm == MPI_COMM_NULL) {
		*ret = outside(h, r);
		return true;
	}
	begin(h);
	err = open_call(h, call, policy, pol, &skip, all);
	if (!err && !skip)
		return false;
	free(*all);
	*ret = finish(h, r, 0, err, false);
	return true;
}

int hcube_mpi_balance(struct hcube_mpi *h, const char *policy,
		      struct hcube_mpi_report *r)
{
	u32 pol, max_len = 0, first;
	struct agree *all;
	int err = HCUBE_MPI_OK;

	if (started(h, CALL_BALANCE, policy, r, &pol, &all, &err))
		return err;
	if (all->drain) {
		evacuate(h);
		recount(h, all);
	}
	h->carry = 0;
	switch (pol) {
	case HCUBE_POLICY_MCWA:
	case HCUBE_POLICY_CWA:
		hm_cwa(h);
		break;
	case HCUBE_POLICY_DEM:
		hm_dem(h);
		break;
	case HCUBE_POLICY_SBN:
		hm_sbn(h, all->minrank, all->comp);
		hm_finish_relays(h, &max_len);
		break;
	default:
		err = hm_gathered(h, pol);
		break;
	}
	/* after every step of the policy (SBN's hops: max_len each) */
	first = pol == HCUBE_POLICY_SBN ? h->rep.steps * (max_len ? max_len : 1) :
					  h->rep.steps;
	if (!err && h->by_weight)
		hm_settle(h, first);
	else if (!err && pol == HCUBE_POLICY_SBN && raised(h, all->max_units))
		hm_settle(h, first);
	free(all);
	return finish(h, r, max_len, err, true);
}

int hcube_mpi_plan(struct hcube_mpi *h, const char *policy,
		   struct hcube_mpi_report *r)
{
	struct agree *all;
	struct hm_view v;
	u32 pol;
	int err;

	if (started(h, CALL_PLAN, policy, r, &pol, &all, &err))
		return err;
	free(all);
	hm_view_gather(h, &v);
	err = hm_plan_only(h, pol, &v);
	hm_view_free(&v);
	return finish(h, r, 0, err, false);
}
