// SPDX-License-Identifier: GPL-2.0
/*
 * A transfer above 2 GiB, from the public header only, on 2 ranks: rank 1
 * holds two units of UNIT bytes (1.1 GB each) and two of 16; rank 0 none.
 * A balance by count moves two units, and pack() picks the big ones: one
 * message of 2.2 GB, which MPI's int counts cannot carry in one piece.
 * The units' bytes are a pattern of their id and offset, written by
 * pack() straight into the library's buffer and checked by unpack() in
 * the library's buffer: nothing else holds them, so the job needs about
 * twice 2.2 GB. Rank 0 must get both units, every byte right; rank 1 must
 * report more than 2^31 bytes sent. Prints TAP from rank 0.
 *
 * usage: big [UNIT_BYTES]   (mpirun -np 2)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hcube_mpi.h>

struct unit {
	uint64_t id, bytes;
};

static struct queue {
	struct unit u[8];
	uint32_t n;
	uint32_t got;		/* units unpacked with every byte right */
	int bad;
} q;

static uint64_t word(uint64_t id, uint64_t i)
{
	return (id << 48) ^ (i * 0x9e3779b97f4a7c15ULL);
}

static uint32_t count(void *p)
{
	return ((struct queue *)p)->n;
}

static int by_size(const void *a, const void *b)
{
	const struct unit *x = a, *y = b;

	return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

/* The n largest units, each as id, size, then its pattern. */
static ssize_t pack(void *p, uint32_t n, void *buf, size_t cap)
{
	struct queue *s = p;
	size_t need = 0;
	uint32_t i;
	char *c = buf;

	qsort(s->u, s->n, sizeof(s->u[0]), by_size);
	for (i = s->n - n; i < s->n; i++)
		need += 16 + s->u[i].bytes;
	if (need > cap)
		return (ssize_t)need;
	for (i = s->n - n; i < s->n; i++) {
		uint64_t *w, k;

		memcpy(c, &s->u[i], 16);
		w = (uint64_t *)(c + 16);
		for (k = 0; k < s->u[i].bytes / 8; k++)
			w[k] = word(s->u[i].id, k);
		c += 16 + s->u[i].bytes;
	}
	s->n -= n;
	return (ssize_t)need;
}

static int unpack(void *p, uint32_t n, const void *buf, size_t len)
{
	struct queue *s = p;
	const char *c = buf, *end = c + len;
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct unit u;
		const uint64_t *w;
		uint64_t k;

		if (end - c < 16 || s->n == 8)
			return -1;
		memcpy(&u, c, 16);
		if ((uint64_t)(end - c) < 16 + u.bytes)
			return -1;
		w = (const uint64_t *)(c + 16);
		for (k = 0; k < u.bytes / 8; k++)
			if (w[k] != word(u.id, k))
				break;
		if (k == u.bytes / 8)
			s->got++;
		else
			s->bad = 1;
		s->u[s->n++] = u;
		c += 16 + u.bytes;
	}
	return c == end ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct hcube_mpi_ops ops = {
		.count = count, .pack = pack, .unpack = unpack,
	};
	uint64_t unit = argc > 1 ? strtoull(argv[1], NULL, 0) : 1100000000ULL;
	struct hcube_mpi_report r = { 0 };
	struct hcube_mpi *h = NULL;
	unsigned long long sent = 0, big = 0;
	int rank, size, err, ok;
	double t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	unit &= ~7ULL;
	if (rank == 1) {
		q.u[0] = (struct unit){ 1, 16 };
		q.u[1] = (struct unit){ 2, unit };
		q.u[2] = (struct unit){ 3, 16 };
		q.u[3] = (struct unit){ 4, unit };
		q.n = 4;
	}
	err = hcube_mpi_open(MPI_COMM_WORLD, &ops, &q, &h);
	t = MPI_Wtime();
	if (!err)
		err = hcube_mpi_balance(h, "dem", &r);
	t = MPI_Wtime() - t;
	if (rank == 1)
		sent = r.bytes_sent;
	MPI_Bcast(&sent, 1, MPI_UNSIGNED_LONG_LONG, 1, MPI_COMM_WORLD);
	if (!rank)
		big = q.got == 2 && !q.bad && q.n == 2 && q.u[0].bytes == unit &&
		      q.u[1].bytes == unit;
	ok = size == 2 && !err && big && sent > (1ULL << 31) && sent >= 2 * unit;
	MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!rank) {
		printf("TAP version 13\n");
		printf("%s 1 - one message of %llu bytes (two units of %llu) from rank 1 to rank 0: %s, both units there, every byte right\n",
		       ok ? "ok" : "not ok", sent, (unsigned long long)unit,
		       hcube_mpi_strerror(err));
		printf("# balance %.1f s; rank 0 holds %u units, %u checked\n1..1\n", t,
		       q.n, q.got);
	}
	hcube_mpi_close(h);
	MPI_Finalize();
	return ok ? 0 : 1;
}
