// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: messages. A message is a header, a few 64-bit values and
 * the units the application packed. Sends are non-blocking (MPI_Isend on
 * a buffer the library owns until the send completes), so no protocol can
 * deadlock on a send; receives name their source and tag, except SBN's,
 * which take whatever comes on its tag, forward what is routed through
 * the rank and keep the rest until it is wanted.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hm.h"

static size_t hdr_bytes(u32 nval)
{
	return sizeof(struct hm_hdr) + (size_t)nval * sizeof(s64);
}

static void track(struct hcube_mpi *h, void *buf, MPI_Request req)
{
	if (h->nreq == h->capreq) {
		u32 cap = h->capreq ? 2 * h->capreq : 64;

		h->req = realloc(h->req, cap * sizeof(*h->req));
		h->sbuf = realloc(h->sbuf, cap * sizeof(*h->sbuf));
		if (!h->req || !h->sbuf)
			hm_fatal(h, "out of memory");
		h->capreq = cap;
	}
	h->req[h->nreq] = req;
	h->sbuf[h->nreq++] = buf;
}

void hm_sends_wait(struct hcube_mpi *h)
{
	u32 i;

	MPI_Waitall((int)h->nreq, h->req, MPI_STATUSES_IGNORE);
	for (i = 0; i < h->nreq; i++)
		free(h->sbuf[i]);
	h->nreq = 0;
}

void hm_log(struct hcube_mpi *h, u32 round, u32 hop, u32 step, u32 from,
	    u32 to, u32 count)
{
	struct hm_log *l;

	if (h->nlog == h->caplog) {
		h->caplog = h->caplog ? 2 * h->caplog : 64;
		h->log = realloc(h->log, h->caplog * sizeof(*h->log));
		if (!h->log)
			hm_fatal(h, "out of memory");
	}
	l = &h->log[h->nlog++];
	l->round = round;
	l->hop = hop;
	l->step = step;
	l->from = from;
	l->to = to;
	l->count = count;
}

static void post(struct hcube_mpi *h, u32 to, int tag, void *buf, size_t len,
		 u32 units)
{
	MPI_Request req;

	MPI_Isend(buf, (int)len, MPI_BYTE, (int)to, tag, h->comm, &req);
	track(h, buf, req);
	h->rep.msgs_sent++;
	h->rep.bytes_sent += len;
	if (units) {
		h->rep.unit_msgs_sent++;
		h->rep.units_sent += units;
	}
}

/*
 * Send @units units of the queue to rank @to, with @nval values. The
 * transfer is logged as (round, hop) for SBN (@round > 0), else as step
 * @hop. @dst is the logical destination (the same as @to unless routed).
 */
void hm_send(struct hcube_mpi *h, u32 to, int tag, u32 type, const s64 *val,
	     u32 nval, u32 units, u32 round, u32 hop, u32 dst)
{
	size_t hb = hdr_bytes(nval);
	struct hm_hdr hdr = {
		.type = type, .src = (u32)h->rank, .dst = dst, .round = round,
		.hop = hop, .units = units, .nval = nval,
	};
	ssize_t need = 0, got = 0;
	char *buf;

	if (nval > HM_MAX_VAL)
		hm_fatal(h, "internal: too many values");
	/* first the size (units of size 0 are taken at once), then the units */
	if (units)
		need = h->ops->pack(h->queue, units, NULL, 0);
	if (need < 0)
		hm_fatal(h, "the application's pack() failed for %u units (%zd)",
			 units, need);
	buf = malloc(hb + (size_t)need);
	if (!buf)
		hm_fatal(h, "out of memory");
	if (need) {
		got = h->ops->pack(h->queue, units, buf + hb, (size_t)need);
		if (got != need)
			hm_fatal(h, "the application's pack() wrote %zd bytes for %u units, %zd announced",
				 got, units, need);
	}
	memcpy(buf, &hdr, sizeof(hdr));
	if (nval)
		memcpy(buf + sizeof(hdr), val, nval * sizeof(s64));
	post(h, to, tag, buf, hb + (size_t)got, units);
	if (units && tag != HM_TAG_EVAC)
		hm_log(h, round, round ? hop : 0, round ? 0 : hop, (u32)h->rank,
		       to, units);
}

void hm_send_step(struct hcube_mpi *h, u32 to, int tag, const s64 *val,
		  u32 nval, u32 units, u32 step)
{
	hm_send(h, to, tag, 0, val, nval, units, 0, step, to);
}

static void parse(struct hcube_mpi *h, struct hm_msg *m)
{
	if (m->len < sizeof(m->hdr))
		hm_fatal(h, "internal: short message from rank %d", m->source);
	memcpy(&m->hdr, m->buf, sizeof(m->hdr));
	if (m->hdr.nval > HM_MAX_VAL || m->len < hdr_bytes(m->hdr.nval))
		hm_fatal(h, "internal: malformed message from rank %d", m->source);
	memcpy(m->val, (char *)m->buf + sizeof(m->hdr), m->hdr.nval * sizeof(s64));
	m->payload = hdr_bytes(m->hdr.nval);
	m->taken = false;
}

static void recv_status(struct hcube_mpi *h, MPI_Status *st, struct hm_msg *m)
{
	int len;

	MPI_Get_count(st, MPI_BYTE, &len);
	m->len = (size_t)len;
	m->source = st->MPI_SOURCE;
	m->buf = malloc(m->len ? m->len : 1);
	if (!m->buf)
		hm_fatal(h, "out of memory");
	MPI_Recv(m->buf, len, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, h->comm,
		 MPI_STATUS_IGNORE);
	h->rep.msgs_recv++;
	parse(h, m);
}

void hm_recv(struct hcube_mpi *h, u32 from, int tag, struct hm_msg *m)
{
	MPI_Status st;

	MPI_Probe((int)from, tag, h->comm, &st);
	recv_status(h, &st, m);
}

/* Hand the message's units to the application. */
void hm_take(struct hcube_mpi *h, struct hm_msg *m)
{
	int err;

	if (m->taken || !m->hdr.units)
		return;
	err = h->ops->unpack(h->queue, m->hdr.units, (char *)m->buf + m->payload,
			     m->len - m->payload);
	if (err < 0)
		hm_fatal(h, "the application's unpack() failed for %u units (%d)",
			 m->hdr.units, err);
	h->rep.units_recv += m->hdr.units;
	m->taken = true;
}

void hm_msg_free(struct hm_msg *m)
{
	free(m->buf);
	m->buf = NULL;
}

/* ---- routes (SBN): the core's rule, hop by hop ---- */

/* Distances over healthy labels to @to, by breadth-first search. */
static void bfs(struct hcube_mpi *h, u32 to)
{
	u32 head = 0, tail = 0, v, d;

	if (h->bfs_to == to)
		return;
	for (v = 0; v < h->nv; v++)
		h->bfs_dist[v] = 0xffff;
	h->bfs_dist[to] = 0;
	h->bfs_queue[tail++] = (u16)to;
	while (head < tail) {
		u32 u = h->bfs_queue[head++];

		for (d = 0; d < h->dim; d++) {
			u32 x = u ^ (1U << d);

			if (hm_healthy(h, x) && h->bfs_dist[x] == 0xffff) {
				h->bfs_dist[x] = h->bfs_dist[u] + 1;
				h->bfs_queue[tail++] = (u16)x;
			}
		}
	}
	h->bfs_to = to;
}

/* Across two dimensions: the lower one first if that vertex is healthy. */
static u32 two_hop_via(const struct hcube_mpi *h, u32 u, u32 x)
{
	u32 low = x & (~x + 1);

	if (hm_healthy(h, u ^ low))
		return u ^ low;
	if (hm_healthy(h, u ^ x ^ low))
		return u ^ x ^ low;
	return HCUBE_VERTEX_NONE;
}

u32 hm_route_len(struct hcube_mpi *h, u32 from, u32 to)
{
	u32 x = from ^ to;

	if (hweight32(x) <= 1)
		return hweight32(x);
	if (hweight32(x) == 2 && two_hop_via(h, from, x) != HCUBE_VERTEX_NONE)
		return 2;
	bfs(h, to);
	if (h->bfs_dist[from] == 0xffff)
		hm_fatal(h, "internal: no healthy route from %u to %u", from, to);
	return h->bfs_dist[from];
}

/*
 * The next hop from @cur towards @to: the neighbour itself; across two
 * dimensions the lower one first; else the lowest dimension that gets one
 * step closer. A relay in the middle of a longer route makes the same
 * choice the sender's whole route made, so a hop needs only (cur, to).
 */
static u32 next_hop(struct hcube_mpi *h, u32 cur, u32 to)
{
	u32 x = cur ^ to, d, via;

	if (hweight32(x) == 1)
		return to;
	if (hweight32(x) == 2) {
		via = two_hop_via(h, cur, x);
		if (via != HCUBE_VERTEX_NONE)
			return via;
	}
	bfs(h, to);
	for (d = 0; d < h->dim; d++) {
		u32 y = cur ^ (1U << d);

		if (hm_healthy(h, y) && h->bfs_dist[y] + 1U == h->bfs_dist[cur])
			return y;
	}
	hm_fatal(h, "internal: no next hop from %u to %u", cur, to);
}

/*
 * SBN: a message to logical neighbour @to. Without units it goes straight
 * there (MPI joins every pair of ranks); with units it goes hop by hop
 * along the core's route, the units staying in the message.
 */
void hm_send_routed(struct hcube_mpi *h, u32 to, u32 type, const s64 *val,
		    u32 nval, u32 units, u32 round)
{
	u32 first = to;

	if (units) {
		u32 len = hm_route_len(h, (u32)h->rank, to);

		if (len > h->max_len)
			h->max_len = len;
		first = next_hop(h, (u32)h->rank, to);
	}
	hm_send(h, first, HM_TAG_SBN, type, val, nval, units, round, 0, to);
}

/* Pass a routed message on, untouched but for its hop count. */
static void relay(struct hcube_mpi *h, struct hm_msg *m)
{
	u32 next = next_hop(h, (u32)h->rank, m->hdr.dst);
	struct hm_hdr *hdr = m->buf;

	hdr->hop++;
	h->rep.units_recv += m->hdr.units;
	post(h, next, HM_TAG_SBN, m->buf, m->len, m->hdr.units);
	h->rep.relayed++;
	hm_log(h, m->hdr.round, m->hdr.hop + 1, 0, (u32)h->rank, next,
	       m->hdr.units);
	m->buf = NULL;		/* owned by the send now */
}

static void stash_put(struct hcube_mpi *h, struct hm_msg *m)
{
	if (h->nstash == h->capstash) {
		h->capstash = h->capstash ? 2 * h->capstash : 16;
		h->stash = realloc(h->stash, h->capstash * sizeof(*h->stash));
		if (!h->stash)
			hm_fatal(h, "out of memory");
	}
	h->stash[h->nstash++] = *m;
}

/* Wait for the first SBN message @match accepts; relay others' on the way. */
void hm_wait(struct hcube_mpi *h, hm_match_fn match, const void *arg,
	     struct hm_msg *m)
{
	u32 i;

	for (i = 0; i < h->nstash; i++) {
		if (match(&h->stash[i], arg)) {
			*m = h->stash[i];
			h->stash[i] = h->stash[--h->nstash];
			return;
		}
	}
	for (;;) {
		MPI_Status st;

		MPI_Probe(MPI_ANY_SOURCE, HM_TAG_SBN, h->comm, &st);
		recv_status(h, &st, m);
		if (m->hdr.dst != (u32)h->rank) {
			relay(h, m);
			continue;
		}
		if (match(m, arg))
			return;
		stash_put(h, m);
	}
}

/*
 * SBN's end: a rank may still have to relay after its own part is done,
 * until every rank is done; the all-reduce that tells the longest route
 * completes only then.
 */
void hm_finish_relays(struct hcube_mpi *h, u32 *max_len)
{
	MPI_Request req;
	int done = 0;

	MPI_Iallreduce(&h->max_len, max_len, 1, MPI_UINT32_T, MPI_MAX, h->comm,
		       &req);
	h->rep.collectives++;
	for (;;) {
		MPI_Status st;
		int flag;

		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		MPI_Iprobe(MPI_ANY_SOURCE, HM_TAG_SBN, h->comm, &flag, &st);
		if (flag) {
			struct hm_msg m;

			recv_status(h, &st, &m);
			if (m.hdr.dst == (u32)h->rank)
				hm_fatal(h, "internal: unexpected SBN message %u from %u",
					 m.hdr.type, m.hdr.src);
			relay(h, &m);
		} else {
			/* oversubscribed ranks share cores: let the others run */
			sched_yield();
		}
	}
	if (h->nstash)
		hm_fatal(h, "internal: %u SBN messages never used", h->nstash);
}
