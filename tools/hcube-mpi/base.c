// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: what every part of the library uses, below the messages
 * and the algorithms: errors, allocation, a rank's health and load.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "hm.h"

/* Record this rank's error and its text (agreed on later). */
int hm_fail(struct hcube_mpi *h, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->errmsg, sizeof(h->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

/*
 * A failure in the middle of a protocol (the application's pack() or
 * unpack(), memory, a broken invariant) leaves other ranks waiting for
 * messages that will not come: the job is aborted, as MPI itself does on
 * a communication error.
 */
void hm_fatal(struct hcube_mpi *h, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "libhcube-mpi: rank %d: ", h->rank);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	MPI_Abort(h->comm, 70);
	abort();
}

void *hm_alloc(struct hcube_mpi *h, size_t bytes)
{
	void *p = calloc(1, bytes ? bytes : 1);

	if (!p)
		hm_fatal(h, "out of memory");
	return p;
}

/* Room for @need elements of @elem bytes in *@p (*@cap of them now). */
void hm_grow(struct hcube_mpi *h, void **p, u32 *cap, u32 need, size_t elem)
{
	u32 c = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	n = realloc(*p, (size_t)c * elem);
	if (!n)
		hm_fatal(h, "out of memory");
	*p = n;
	*cap = c;
}

bool hm_healthy(const struct hcube_mpi *h, u32 v)
{
	return v < h->nv && hcube_usable(h->state[v]);
}

u64 hm_load(struct hcube_mpi *h, u64 *heaviest)
{
	uint64_t w, top = 0;

	if (!h->by_weight) {
		w = h->ops->count(h->queue);
		top = w ? 1 : 0;
	} else {
		w = h->ops->weight(h->queue, &top);
	}
	if (heaviest)
		*heaviest = top;
	return w;
}

double hm_ratio(u64 max, u64 total, u32 healthy)
{
	return total && healthy ? (double)max * healthy / (double)total : 1.0;
}

double hm_imbalance(const struct hcube_mpi *h, const u64 *load, u32 stride)
{
	u64 max = 0, total = 0;
	u32 r, healthy = 0;

	for (r = 0; r < (u32)h->size; r++) {
		total += load[r * stride];
		if (load[r * stride] > max)
			max = load[r * stride];
		healthy += hm_healthy(h, r);
	}
	return hm_ratio(max, total, healthy);
}
