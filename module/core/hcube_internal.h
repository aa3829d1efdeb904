/* SPDX-License-Identifier: GPL-2.0 */
/* hcube core: helpers shared by the core's files, not part of its API. */
#ifndef HCUBE_INTERNAL_H
#define HCUBE_INTERNAL_H

#include "hcube_core.h"

/* Hands out consecutive 8-byte-aligned pieces of a caller's buffer. */
struct hcube_carver {
	void *pos;
};

static inline size_t hcube_align(size_t bytes)
{
	return (bytes + 7) & ~(size_t)7;
}

static inline void *hcube_carve(struct hcube_carver *c, size_t bytes)
{
	void *p = c->pos;

	c->pos = (char *)c->pos + hcube_align(bytes);
	return p;
}

size_t hcube_topo_work_memsize(u32 dim);
size_t hcube_route_work_memsize(u32 dim);

#endif
