// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: messages. A message is a header, a few 64-bit values and
 * the units the application packed. Sends are non-blocking (MPI_Isend on
 * a buffer the library owns until the send completes), so no protocol can
 * deadlock on a send; receives name their source and tag, except SBN's,
 * which take whatever comes on its tag, forward what is routed through
 * the rank and keep the rest until it is wanted.
 *
 * A message of any size goes to MPI in pieces below INT_MAX bytes, and
 * the bytes are checked at both ends: what pack() announced against what
 * it wrote and took, what the header announced against what arrived, and
 * what unpack() put in the queue. A mismatch aborts the job (it cannot be
 * agreed on in the middle of a protocol); no unit is lost silently.
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
	u32 cap = h->capreq;

	hm_grow(h, (void **)&h->req, &cap, h->nreq + 1, sizeof(*h->req));
	hm_grow(h, (void **)&h->sbuf, &h->capreq, h->nreq + 1, sizeof(*h->sbuf));
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

void hm_log(struct hcube_mpi *h, struct hm_logs *logs, u32 round, u32 hop,
	    u32 step, u32 from, u32 to, u32 count, u64 weight)
{
	hm_grow(h, (void **)&logs->l, &logs->cap, logs->n + 1, sizeof(*logs->l));
	logs->l[logs->n++] = (struct hm_log){
		.round = round, .hop = hop, .step = step, .from = from, .to = to,
		.count = count, .weight = weight,
	};
}

/*
 * Hand @len bytes of @buf (freed once sent) to MPI in pieces of at most
 * HM_CHUNK bytes: MPI counts are ints, a message is not.
 */
static void post(struct hcube_mpi *h, u32 to, int tag, char *buf, size_t len,
		 u32 units, size_t payload)
{
	size_t off = 0;

	do {
		size_t n = len - off < HM_CHUNK ? len - off : HM_CHUNK;
		MPI_Request req;

		MPI_Isend(buf + off, (int)n, MPI_BYTE, (int)to, tag, h->comm, &req);
		off += n;
		track(h, off == len ? buf : NULL, req);
	} while (off < len);
	h->rep.msgs_sent++;
	h->rep.bytes_sent += len;
	h->payload_sent += payload;
	if (units) {
		h->rep.unit_msgs_sent++;
		h->rep.units_sent += units;
	}
}

/*
 * Ask the application for @amount (units, or weight by weight) for rank
 * @to and pack them after @hb bytes of header: the message's buffer, its
 * length in *@len, what it holds in *@units and *@weight. Both calls are
 * checked against each other and against count(): a pack that takes
 * units it did not announce, or writes other bytes than it announced,
 * would lose units.
 */
/*
 * One first call: choose for @p->t (to, weight, bytes_budget set) and say
 * the bytes, nothing taken unless they fit in no room.
 */
static void ask(struct hcube_mpi *h, struct hm_pack *p)
{
	struct hcube_mpi_take *t = &p->t;
	u32 after, to = (u32)t->to;
	u64 amount = t->weight;

	p->before = h->ops->count(h->queue);
	if (!h->by_weight) {
		t->units = amount == HM_ALL ? p->before : (u32)amount;
		if (t->units > p->before)
			hm_fatal(h, "internal: %u units to send, %u in the queue",
				 t->units, p->before);
		t->taken = t->units;
		p->need = h->ops->pack(h->queue, t->units, NULL, 0);
	} else {
		p->need = h->ops->pack_weight(h->queue, t, NULL, 0);
	}
	if (p->need < 0)
		hm_fatal(h, "the application's pack() failed for rank %u (%zd)", to, p->need);
	if (t->units > p->before)
		hm_fatal(h, "the application's pack_weight() chose %u units of the %u in the queue",
			 t->units, p->before);
	/* what fits in no room is taken at once (units of 0 bytes) */
	after = h->ops->count(h->queue);
	if (after != (p->need ? p->before : p->before - t->units))
		hm_fatal(h, "the application's pack() left %u units of %u when asked the size of %u (%zd bytes)",
			 after, p->before, t->units, p->need);
}

/*
 * With a sizer, the bytes @amount of weight costs at the queue's average
 * bytes per weight (at least 1); 0 when bytes do not matter: no sizer, no
 * bytes, or every unit goes.
 */
static u64 budget(struct hcube_mpi *h, u64 amount)
{
	uint64_t heaviest;
	u64 w, b;

	if (!h->sizer || !h->by_weight || amount == HM_ALL)
		return 0;
	w = h->ops->weight(h->queue, &heaviest);
	if (!w || amount >= w)
		return 0;
	b = h->sizer(h->queue);
	if (!b)
		return 0;
	b = (u64)((unsigned __int128)b * amount / w);
	return b ? b : 1;
}

static u64 off_by(const struct hm_pack *p, u64 amount)
{
	return p->t.taken > amount ? p->t.taken - amount : amount - p->t.taken;
}

/*
 * The first call of the two: what to send. With a sizer (by weight),
 * pack_weight() chooses twice, with the bytes budget and without; the
 * choice whose weight is nearer @amount goes, of two as near the one of
 * fewer bytes. Units of 0 bytes taken at a choice go as they are.
 */
void hm_pack_size(struct hcube_mpi *h, u32 to, u64 amount, struct hm_pack *p)
{
	u64 b = budget(h, amount);
	struct hm_pack cheap;

	if (b) {
		cheap.t = (struct hcube_mpi_take){
			.to = (int)to, .weight = amount, .bytes_budget = b,
		};
		ask(h, &cheap);
		if (!cheap.need && cheap.t.units) {
			*p = cheap;
			return;
		}
	}
	p->t = (struct hcube_mpi_take){ .to = (int)to, .weight = amount };
	ask(h, p);
	if (!b || (!p->need && p->t.units))
		return;
	if (off_by(&cheap, amount) < off_by(p, amount) ||
	    (off_by(&cheap, amount) == off_by(p, amount) && cheap.need < p->need))
		*p = cheap;
}

/*
 * The second call: take and write what hm_pack_size() chose, after @hb
 * bytes of header: the message's buffer, its length in *@len. Both calls
 * are checked against each other and against count(): a pack that takes
 * units it did not announce, or writes other bytes than it announced,
 * would lose units.
 */
static char *pack_commit(struct hcube_mpi *h, const struct hm_pack *p, size_t hb,
			 size_t *len)
{
	struct hcube_mpi_take t2 = p->t;
	ssize_t need = p->need, got = 0;
	u32 after;
	char *buf;

	buf = malloc(hb + (size_t)need);
	if (!buf)
		hm_fatal(h, "out of memory for a message of %zu bytes", hb + (size_t)need);
	if (need) {
		if (!h->by_weight) {
			got = h->ops->pack(h->queue, p->t.units, buf + hb, (size_t)need);
		} else {
			t2.units = 0;
			t2.taken = 0;
			got = h->ops->pack_weight(h->queue, &t2, buf + hb, (size_t)need);
			if (t2.units != p->t.units || t2.taken != p->t.taken)
				hm_fatal(h, "the application's pack_weight() took %u units of weight %llu, %u of weight %llu announced",
					 t2.units, (unsigned long long)t2.taken, p->t.units,
					 (unsigned long long)p->t.taken);
		}
		after = h->ops->count(h->queue);
		if (got != need || after != p->before - p->t.units)
			hm_fatal(h, "the application's pack() wrote %zd bytes for %u units and left %u of %u, %zd bytes announced",
				 got, p->t.units, after, p->before, need);
	}
	*len = hb + (size_t)need;
	return buf;
}

/* Send the header and what @p chose (NULL: no units); the weight or units sent. */
static u64 send_packed(struct hcube_mpi *h, u32 to, int tag, u32 type, const s64 *val,
		       u32 nval, const struct hm_pack *p, u32 round, u32 hop, u32 dst)
{
	size_t hb = hdr_bytes(nval), len = hb;
	struct hm_hdr hdr = {
		.type = type, .src = (u32)h->rank, .dst = dst, .round = round,
		.hop = hop, .nval = nval,
	};
	char *buf;

	if (nval > HM_MAX_VAL)
		hm_fatal(h, "internal: too many values");
	if (p) {
		buf = pack_commit(h, p, hb, &len);
		hdr.units = p->t.units;
		hdr.weight = p->t.taken;
	} else {
		buf = malloc(hb);
		if (!buf)
			hm_fatal(h, "out of memory");
	}
	hdr.bytes = len;
	memcpy(buf, &hdr, sizeof(hdr));
	if (nval)
		memcpy(buf + sizeof(hdr), val, nval * sizeof(s64));
	post(h, to, tag, buf, len, hdr.units, len - hb);
	if (hdr.units && tag == HM_TAG_EVAC) {
		/* logged apart from the plan's transfers, at step 0 */
		hm_grow(h, (void **)&h->ev, &h->capev, h->nev + 1, sizeof(*h->ev));
		h->ev[h->nev++] = (struct hcube_mpi_xfer){
			0, (u32)h->rank, to, hdr.units, hdr.weight,
		};
		h->rep.evacuated += hdr.units;
	} else if (hdr.units) {
		hm_log(h, &h->sent, round, round ? hop : 0, round ? 0 : hop,
		       (u32)h->rank, to, hdr.units, hdr.weight);
	}
	return h->by_weight ? hdr.weight : hdr.units;
}

u64 hm_send(struct hcube_mpi *h, u32 to, int tag, u32 type, const s64 *val,
	    u32 nval, u64 amount, u32 round, u32 hop, u32 dst)
{
	struct hm_pack p;

	if (!amount)
		return send_packed(h, to, tag, type, val, nval, NULL, round, hop, dst);
	hm_pack_size(h, to, amount, &p);
	return send_packed(h, to, tag, type, val, nval, &p, round, hop, dst);
}

u64 hm_send_chosen(struct hcube_mpi *h, const struct hm_pack *p, int tag, u32 step)
{
	u32 to = (u32)p->t.to;

	return send_packed(h, to, tag, 0, NULL, 0, p, 0, step, to);
}

/*
 * Send @m, received from rank @to and not taken, back to it unchanged: the
 * units never entered this rank's queue. Logged as received and sent.
 */
void hm_bounce(struct hcube_mpi *h, struct hm_msg *m, u32 step)
{
	u32 to = (u32)m->source;

	if (m->taken)
		hm_fatal(h, "internal: a message bounced after it was taken");
	h->rep.units_recv += m->hdr.units;
	hm_log(h, &h->recvd, 0, 0, m->hdr.hop, to, (u32)h->rank, m->hdr.units,
	       m->hdr.weight);
	post(h, to, m->tag, m->buf, m->len, m->hdr.units, m->len - m->payload);
	hm_log(h, &h->sent, 0, 0, step, (u32)h->rank, to, m->hdr.units, m->hdr.weight);
	m->buf = NULL;
	m->taken = true;
}

u64 hm_send_step(struct hcube_mpi *h, u32 to, int tag, const s64 *val,
		 u32 nval, u64 amount, u32 step)
{
	return hm_send(h, to, tag, 0, val, nval, amount, 0, step, to);
}

u64 hm_give(struct hcube_mpi *h, u32 to, int tag, const s64 *val, u32 nval,
	    u64 planned, u32 step)
{
	s64 ask = (s64)planned;
	u64 got;

	if (h->by_weight && planned)
		ask = h->carry + (s64)planned > 0 ? h->carry + (s64)planned : 0;
	got = hm_send_step(h, to, tag, val, nval, (u64)ask, step);
	if (h->by_weight)
		h->carry += (s64)planned - (s64)got;
	return got;
}

/*
 * A message's first piece holds the header, which says how many bytes
 * follow; each piece must be as long as the sender cut it.
 */
static void recv_status(struct hcube_mpi *h, MPI_Status *st, struct hm_msg *m)
{
	size_t first, off;
	int len;
	char *buf;

	MPI_Get_count(st, MPI_BYTE, &len);
	m->source = st->MPI_SOURCE;
	m->tag = st->MPI_TAG;
	buf = malloc(len > 0 ? (size_t)len : 1);
	if (!buf)
		hm_fatal(h, "out of memory");
	MPI_Recv(buf, len, MPI_BYTE, m->source, m->tag, h->comm, MPI_STATUS_IGNORE);
	if ((size_t)len < sizeof(m->hdr))
		hm_fatal(h, "internal: a message of %d bytes from rank %d", len, m->source);
	memcpy(&m->hdr, buf, sizeof(m->hdr));
	first = m->hdr.bytes < HM_CHUNK ? m->hdr.bytes : HM_CHUNK;
	if ((size_t)len != first)
		hm_fatal(h, "a message from rank %d announced %llu bytes and its first piece has %d",
			 m->source, (unsigned long long)m->hdr.bytes, len);
	if (m->hdr.bytes > first) {
		char *all = realloc(buf, m->hdr.bytes);

		if (!all)
			hm_fatal(h, "out of memory for a message of %llu bytes",
				 (unsigned long long)m->hdr.bytes);
		buf = all;
	}
	for (off = first; off < m->hdr.bytes;) {
		size_t n = m->hdr.bytes - off < HM_CHUNK ? m->hdr.bytes - off : HM_CHUNK;
		MPI_Status s;
		int got;

		MPI_Recv(buf + off, (int)n, MPI_BYTE, m->source, m->tag, h->comm, &s);
		MPI_Get_count(&s, MPI_BYTE, &got);
		if ((size_t)got != n)
			hm_fatal(h, "a message from rank %d: %d bytes where %zu were due at byte %zu of %llu",
				 m->source, got, n, off, (unsigned long long)m->hdr.bytes);
		off += n;
	}
	m->buf = buf;
	m->len = m->hdr.bytes;
	if (m->hdr.nval > HM_MAX_VAL || m->len < hdr_bytes(m->hdr.nval))
		hm_fatal(h, "internal: malformed message from rank %d", m->source);
	memcpy(m->val, buf + sizeof(m->hdr), m->hdr.nval * sizeof(s64));
	m->payload = hdr_bytes(m->hdr.nval);
	m->taken = false;
	h->rep.msgs_recv++;
}

void hm_recv(struct hcube_mpi *h, u32 from, int tag, struct hm_msg *m)
{
	MPI_Status st;

	MPI_Probe((int)from, tag, h->comm, &st);
	recv_status(h, &st, m);
}

u64 hm_take(struct hcube_mpi *h, struct hm_msg *m)
{
	u32 before, after;
	int err;

	if (m->taken || !m->hdr.units)
		return 0;
	before = h->ops->count(h->queue);
	err = h->ops->unpack(h->queue, m->hdr.units, (char *)m->buf + m->payload,
			     m->len - m->payload);
	if (err < 0)
		hm_fatal(h, "the application's unpack() failed for %u units from rank %d (%d)",
			 m->hdr.units, m->source, err);
	after = h->ops->count(h->queue);
	if (after != before + m->hdr.units)
		hm_fatal(h, "the application's unpack() of %u units left %u in the queue, %u before",
			 m->hdr.units, after, before);
	h->rep.units_recv += m->hdr.units;
	hm_log(h, &h->recvd, m->hdr.round, m->hdr.round ? m->hdr.hop : 0,
	       m->hdr.round ? 0 : m->hdr.hop, (u32)m->source, (u32)h->rank,
	       m->hdr.units, m->hdr.weight);
	m->taken = true;
	return h->by_weight ? m->hdr.weight : m->hdr.units;
}

u64 hm_accept(struct hcube_mpi *h, struct hm_msg *m, u64 planned)
{
	u64 got;

	if (!h->by_weight && m->hdr.units != planned)
		hm_fatal(h, "internal: %u units from rank %d, %llu planned",
			 m->hdr.units, m->source, (unsigned long long)planned);
	got = hm_take(h, m);
	if (h->by_weight)
		h->carry += (s64)got - (s64)planned;
	return got;
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
u64 hm_send_routed(struct hcube_mpi *h, u32 to, u32 type, const s64 *val,
		   u32 nval, u64 amount, u32 round)
{
	u32 first = to;

	if (amount) {
		u32 len = hm_route_len(h, (u32)h->rank, to);

		if (len > h->max_len)
			h->max_len = len;
		first = next_hop(h, (u32)h->rank, to);
	}
	return hm_send(h, first, HM_TAG_SBN, type, val, nval, amount, round, 0, to);
}

/* Pass a routed message on, untouched but for its hop count. */
static void relay(struct hcube_mpi *h, struct hm_msg *m)
{
	u32 next = next_hop(h, (u32)h->rank, m->hdr.dst);
	struct hm_hdr *hdr = m->buf;

	hdr->hop++;
	h->rep.units_recv += m->hdr.units;
	post(h, next, HM_TAG_SBN, m->buf, m->len, m->hdr.units, m->len - m->payload);
	h->rep.relayed++;
	if (m->hdr.units) {
		hm_log(h, &h->recvd, m->hdr.round, m->hdr.hop, 0, (u32)m->source,
		       (u32)h->rank, m->hdr.units, m->hdr.weight);
		hm_log(h, &h->sent, m->hdr.round, m->hdr.hop + 1, 0, (u32)h->rank,
		       next, m->hdr.units, m->hdr.weight);
	}
	m->buf = NULL;		/* owned by the send now */
}

static void stash_put(struct hcube_mpi *h, struct hm_msg *m)
{
	hm_grow(h, (void **)&h->stash, &h->capstash, h->nstash + 1, sizeof(*h->stash));
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
