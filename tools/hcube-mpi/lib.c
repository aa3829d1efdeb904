// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: the handle, agreement on arguments and errors, faulty
 * ranks and their evacuation, and the dispatch of a balance.
 *
 * Every call opens with one MPI_Allreduce (a user operation on a small
 * record): the highest error code any rank found in its own arguments and
 * the lowest rank that found it, a hash of the arguments (so that ranks
 * passing different ones are caught), whether a faulty rank holds units,
 * the least-loaded healthy rank and the units per component of healthy
 * ranks. On an error the rank that found it broadcasts its message, and
 * every rank returns the same code having changed nothing.
 */
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
	[HCUBE_MPI_E_UNITS] = "more than 2147483647 units in all",
	[HCUBE_MPI_E_NOMEM] = "out of memory",
	[HCUBE_MPI_E_INTERNAL] = "internal error",
};

const char *hcube_mpi_strerror(int err)
{
	if (err < 0 || err >= HCUBE_MPI_E_NERRORS)
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
	u64 hash_max, hash_min;	/* of the arguments */
	u32 drain;		/* a faulty rank holds units */
	u32 minload, minrank;	/* the least-loaded healthy rank, lowest first */
	u32 ncomp;
	u64 total;		/* units on all ranks */
	u64 comp[];		/* units per component of healthy ranks */
};

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
		if (a->hash_max > b->hash_max)
			b->hash_max = a->hash_max;
		if (a->hash_min < b->hash_min)
			b->hash_min = a->hash_min;
		b->drain |= a->drain;
		if (a->minload < b->minload ||
		    (a->minload == b->minload && a->minrank < b->minrank)) {
			b->minload = a->minload;
			b->minrank = a->minrank;
		}
		b->total += a->total;
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
 * @drain: this rank is (or is about to be) faulty and holds units. On
 * return *@out (malloc'ed) holds the agreed record; the result is the
 * agreed error, with h->errmsg the same on every rank.
 */
static int agree(struct hcube_mpi *h, int err, u64 hash, bool drain,
		 struct agree **out)
{
	size_t bytes = sizeof(struct agree) + h->ncomp * sizeof(u64);
	struct agree *mine = hm_alloc(h, bytes), *all = hm_alloc(h, bytes);
	u32 me = (u32)h->rank, load = h->ops ? h->ops->count(h->queue) : 0;
	MPI_Datatype type;

	mine->err = err;
	mine->err_rank = err ? h->rank : h->size;
	mine->hash_max = hash;
	mine->hash_min = hash;
	mine->drain = drain;
	mine->minload = hm_healthy(h, me) ? load : ~0U;
	mine->minrank = me;
	mine->ncomp = h->ncomp;
	mine->total = load;
	if (hm_healthy(h, me))
		mine->comp[h->comp[me]] = load;

	MPI_Type_contiguous((int)bytes, MPI_BYTE, &type);
	MPI_Type_commit(&type);
	MPI_Allreduce(mine, all, 1, type, h->agree_op, h->comm);
	MPI_Type_free(&type);
	h->rep.collectives++;
	free(mine);
	*out = all;

	if (all->err) {
		MPI_Bcast(h->errmsg, sizeof(h->errmsg), MPI_CHAR, all->err_rank,
			  h->comm);
		h->rep.collectives++;
		return all->err;
	}
	if (all->hash_max != all->hash_min)
		return hm_fail(h, HCUBE_MPI_E_DISAGREE,
			       "the ranks passed different arguments to the same call");
	if (all->total > HCUBE_MAX_TOTAL_LOAD)
		return hm_fail(h, HCUBE_MPI_E_UNITS,
			       "%llu units in all, more than the 2147483647 the core handles",
			       (unsigned long long)all->total);
	return HCUBE_MPI_OK;
}

/* ---- the handle ---- */

static void begin(struct hcube_mpi *h)
{
	memset(&h->rep, 0, sizeof(h->rep));
	h->rep.policy = -1;
	h->rep.applied = -1;
	h->rep.seconds = MPI_Wtime();
	h->nlog = 0;
	h->nev = 0;
	h->max_len = 0;
	h->errmsg[0] = '\0';
}

/* Fill @r: this rank's queue, the logs as transfers, the time. */
static int finish(struct hcube_mpi *h, struct hcube_mpi_report *r, u32 max_len,
		  int err)
{
	u32 i;

	hm_sends_wait(h);
	if (h->nlog > h->capxf) {
		free(h->xf);
		h->capxf = h->nlog;
		h->xf = hm_alloc(h, h->capxf * sizeof(*h->xf));
	}
	for (i = 0; i < h->nlog; i++) {
		const struct hm_log *l = &h->log[i];

		h->xf[i].step = l->round ? (l->round - 1) * max_len + l->hop + 1 : l->step;
		h->xf[i].from = l->from;
		h->xf[i].to = l->to;
		h->xf[i].count = l->count;
	}
	h->rep.xfers = h->xf;
	h->rep.nxfers = h->nlog;
	h->rep.evacs = h->ev;
	h->rep.nevacs = h->nev;
	h->rep.after = h->ops->count(h->queue);
	h->rep.seconds = MPI_Wtime() - h->rep.seconds;
	if (r)
		*r = h->rep;
	return err;
}

static int topology(struct hcube_mpi *h)
{
	int err = hcube_topo_build(&h->topo, h->dim, h->state, h->work);

	components(h);
	h->bfs_to = HCUBE_VERTEX_NONE;
	return err;
}

int hcube_mpi_open(MPI_Comm comm, const struct hcube_mpi_ops *ops, void *queue,
		   struct hcube_mpi **out)
{
	struct hcube_mpi *h;
	int size, rank, bad, any_bad;
	u32 v;

	if (out)
		*out = NULL;
	MPI_Comm_size(comm, &size);
	MPI_Comm_rank(comm, &rank);
	bad = !out || !ops || !ops->count || !ops->pack || !ops->unpack;
	MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, comm);
	if (any_bad)
		return HCUBE_MPI_E_ARG;
	if (size > MAX_RANKS)
		return HCUBE_MPI_E_SIZE;

	h = calloc(1, sizeof(*h));
	bad = !h;
	MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, comm);
	if (any_bad) {
		free(h);
		return HCUBE_MPI_E_NOMEM;
	}
	MPI_Comm_dup(comm, &h->comm);
	/* a lost message cannot be recovered from: MPI errors abort */
	MPI_Comm_set_errhandler(h->comm, MPI_ERRORS_ARE_FATAL);
	h->rank = rank;
	h->size = size;
	while ((1U << h->dim) < (u32)size)
		h->dim++;
	h->nv = 1U << h->dim;
	h->ops = ops;
	h->queue = queue;
	for (v = 0; v < h->nv; v++)
		h->state[v] = v < (u32)size ? HCUBE_V_HEALTHY : HCUBE_V_ABSENT;
	h->topo_mem = hm_alloc(h, hcube_topo_memsize(h->dim));
	h->plan_mem = hm_alloc(h, hcube_plan_memsize(h->dim));
	h->work = hm_alloc(h, hcube_work_memsize(h->dim));
	if (hcube_topo_init(&h->topo, h->dim, h->topo_mem) ||
	    hcube_plan_init(&h->plan, h->dim, h->plan_mem) || topology(h))
		hm_fatal(h, "internal: the core refused a %u-cube", h->dim);
	MPI_Op_create(agree_combine, 1, &h->agree_op);
	*out = h;
	return HCUBE_MPI_OK;
}

int hcube_mpi_close(struct hcube_mpi *h)
{
	u32 i;

	if (!h)
		return HCUBE_MPI_E_ARG;
	hm_sends_wait(h);
	MPI_Op_free(&h->agree_op);
	MPI_Comm_free(&h->comm);
	for (i = 0; i < h->nstash; i++)
		free(h->stash[i].buf);
	free(h->stash);
	free(h->req);
	free(h->sbuf);
	free(h->log);
	free(h->xf);
	free(h->ev);
	free(h->topo_mem);
	free(h->plan_mem);
	free(h->work);
	free(h);
	return HCUBE_MPI_OK;
}

int hcube_mpi_is_faulty(const struct hcube_mpi *h, int rank)
{
	return h && rank >= 0 && rank < h->size && !hcube_usable(h->state[rank]);
}

/* ---- evacuation ---- */

static void log_evac(struct hcube_mpi *h, u32 to, u32 count)
{
	if (h->nev == h->capev) {
		h->capev = h->capev ? 2 * h->capev : 16;
		h->ev = realloc(h->ev, h->capev * sizeof(*h->ev));
		if (!h->ev)
			hm_fatal(h, "out of memory");
	}
	h->ev[h->nev].step = 0;
	h->ev[h->nev].from = (u32)h->rank;
	h->ev[h->nev].to = to;
	h->ev[h->nev].count = count;
	h->nev++;
}

/*
 * Move every unit off the faulty ranks, as the module does: each faulty
 * rank in label order spreads its units over the healthy ranks nearest to
 * it, least loaded first (hcube_evacuate()), and the next one sees the
 * loads that left. Every rank needs every load for that: one all-gather
 * (an administrative drain, not a balancing algorithm). Leaves the healthy
 * loads after it in @lh.
 */
static void evacuate(struct hcube_mpi *h, u32 *lh)
{
	u32 *loads = hm_alloc(h, h->nv * sizeof(u32));
	u32 *out = hm_alloc(h, h->nv * sizeof(u32));
	u32 me = (u32)h->rank, mine = h->ops->count(h->queue), f, w;

	MPI_Allgather(&mine, 1, MPI_UINT32_T, loads, 1, MPI_UINT32_T, h->comm);
	h->rep.collectives++;
	for (w = 0; w < h->nv; w++)
		lh[w] = hm_healthy(h, w) ? loads[w] : 0;
	for (f = 0; f < (u32)h->size; f++) {
		if (hm_healthy(h, f) || !loads[f])
			continue;
		memset(out, 0, h->nv * sizeof(u32));
		if (hcube_evacuate(h->dim, h->state, lh, f, loads[f], out))
			hm_fatal(h, "internal: no healthy rank to evacuate %u to", f);
		for (w = 0; w < h->nv; w++) {
			if (!out[w])
				continue;
			if (me == f) {
				/* logged apart from the plan's transfers */
				hm_send(h, w, HM_TAG_EVAC, 0, NULL, 0, out[w], 0, 0, w);
				log_evac(h, w, out[w]);
				h->rep.evacuated += out[w];
			} else if (me == w) {
				struct hm_msg m;

				hm_recv(h, f, HM_TAG_EVAC, &m);
				if (m.hdr.units != out[w])
					hm_fatal(h, "internal: evacuation of %u units, %u expected",
						 m.hdr.units, out[w]);
				hm_take(h, &m);
				hm_msg_free(&m);
			}
			lh[w] += out[w];
		}
	}
	free(loads);
	free(out);
}

/* ---- marking ---- */

int hcube_mpi_mark(struct hcube_mpi *h, const int *ranks, int n, int as,
		   struct hcube_mpi_report *r)
{
	u8 state[HCUBE_MAX_VERTICES], seen[HCUBE_MAX_VERTICES] = { 0 };
	struct agree *all = NULL;
	u32 v, healthy = 0, *lh;
	int i, err = HCUBE_MPI_OK;

	if (!h)
		return HCUBE_MPI_E_ARG;
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
	for (v = 0; v < (u32)h->size; v++)
		healthy += hcube_usable(state[v]);
	if (!err && !healthy)
		err = hm_fail(h, HCUBE_MPI_E_ALL_FAULTY,
			      "marking these ranks faulty would leave none of the %d ranks healthy",
			      h->size);
	err = agree(h, err, fnv64(state, h->nv, 0xcbf29ce484222325ULL),
		    !hcube_usable(state[h->rank]) && h->ops->count(h->queue), &all);
	if (err) {
		free(all);
		return finish(h, r, 0, err);
	}

	memcpy(h->state, state, h->nv);
	if (topology(h))
		hm_fatal(h, "internal: no topology for the new states");
	/* a newly faulty rank sends its units away at once */
	if (all->drain) {
		lh = hm_alloc(h, h->nv * sizeof(u32));
		evacuate(h, lh);
		free(lh);
	}
	free(all);
	h->rep.healthy = healthy;
	return finish(h, r, 0, err);
}

/* ---- balancing ---- */

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

int hcube_mpi_balance(struct hcube_mpi *h, const char *policy,
		      struct hcube_mpi_report *r)
{
	struct agree *all = NULL;
	u32 pol = 0, v, healthy = 0, max_len = 0;
	int p = -1, err = HCUBE_MPI_OK;

	if (!h)
		return HCUBE_MPI_E_ARG;
	begin(h);
	h->rep.before = h->ops->count(h->queue);
	for (v = 0; v < (u32)h->size; v++)
		healthy += hcube_usable(h->state[v]);
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
	pol = p < 0 ? 0 : (u32)p;
	err = agree(h, err, (u64)pol + 1,
		    !hm_healthy(h, (u32)h->rank) && h->rep.before, &all);
	if (err) {
		free(all);
		return finish(h, r, 0, err);
	}

	h->rep.policy = (int)pol;
	h->rep.applied = (int)pol;
	h->rep.healthy = healthy;
	h->rep.total = all->total;
	h->rep.distributed = distributed(pol);
	if (all->drain) {
		u32 *lh = hm_alloc(h, h->nv * sizeof(u32));

		evacuate(h, lh);
		/* the loads are all known now: the agreed minimum and sums again */
		all->minload = ~0U;
		for (v = 0; v < all->ncomp; v++)
			all->comp[v] = 0;
		for (v = 0; v < (u32)h->size; v++) {
			if (!hm_healthy(h, v))
				continue;
			all->comp[h->comp[v]] += lh[v];
			if (lh[v] < all->minload) {
				all->minload = lh[v];
				all->minrank = v;
			}
		}
		free(lh);
	}

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
	free(all);
	return finish(h, r, max_len, err);
}
