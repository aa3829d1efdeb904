/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcubectl apply, shared by its files: what the file asks for (struct
 * want), what the module has (struct state), the changes between them,
 * and what each file gives the others.
 *
 *   cmd_apply.c    the command: sending the changes, the report
 *   apply_diff.c   the module's state, and the changes that make it the file's
 *   apply_parse.c  the file's lines, checked, into a struct want
 *
 * cmd_apply.c calls the other two, apply_diff.c calls apply_parse.c.
 */
#ifndef HCUBECTL_APPLY_H
#define HCUBECTL_APPLY_H

#include <stdbool.h>
#include <stdint.h>
#include "hcubectl.h"

/* CPU numbers apply knows: NR_CPUS of Debian's kernels. */
#define AP_MAX_CPUS	8192
#define AP_SET_BYTES	(AP_MAX_CPUS / 8)

/* Is CPU @i in @set (AP_SET_BYTES bytes)? */
static inline bool ap_bit(const uint8_t *set, uint32_t i)
{
	return i < AP_MAX_CPUS && (set[i / 8] >> (i % 8)) & 1;
}

struct fault {
	bool cpu;		/* else a vertex */
	uint32_t id;
	unsigned int line;	/* 0: not in the file */
};

/* What the file asks for. The settings (hc_settings[]) are applied in their order. */
struct want {
	const char *name;	/* the file, as messages name it */
	bool has_mode, mode_auto;
	int mode;
	unsigned int mode_line;
	uint32_t ngroups;
	uint8_t (*groups)[AP_SET_BYTES];
	char **group_str;
	bool has[HC_NSETTINGS];
	uint32_t val[HC_NSETTINGS];
	unsigned int line[HC_NSETTINGS];
	struct fault *faults;
	size_t nfaults;
	int nbad;
};

/* What the module has. */
struct vtx {
	bool absent, marked;
	uint8_t cpus[AP_SET_BYTES];
	char *cpulist;
};

struct state {
	int mode;		/* -1: not said */
	int dim;
	uint32_t nv;
	struct vtx *v;		/* by id */
	uint8_t faulty[AP_SET_BYTES];
	uint8_t mce[AP_SET_BYTES];	/* of those, marked by machine checks */
	uint8_t cube[AP_SET_BYTES];	/* the CPUs of the vertices */
	bool has[HC_NSETTINGS];
	uint32_t val[HC_NSETTINGS];
};

/* A change's status, in the report */
enum { ST_PLANNED, ST_APPLIED, ST_FAILED, ST_SKIPPED };

struct change {
	enum { C_MODE, C_SET, C_FAULT } kind;
	int key;		/* C_SET */
	bool add;		/* C_FAULT */
	struct fault f;		/* C_FAULT */
	uint32_t old, new;	/* C_SET, C_MODE (mode) */
	bool has_old;
	char *old_text;		/* C_MODE: the old mode (and groups), as read before */
	unsigned int line;
	int status;
	char *error;
};

struct apply {
	struct hc_ctx *c;
	struct want w;
	struct state s;
	struct change *ch;
	size_t nch;
	bool dry_run;
};

/* ---- apply_parse.c ---- */

/* Read and check the whole file: 0, or HC_EXIT_USAGE after naming each bad line. */
int ap_parse_file(struct want *w, const char *file);
void ap_want_free(struct want *w);
/* "hcubectl: apply: FILE:LINE: <fmt>" on stderr: the line is bad. */
void ap_bad(struct want *w, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* After a check of the whole file: the count of its bad lines, if any. */
int ap_bad_lines(const struct want *w);

/* ---- apply_diff.c ---- */

/* The module's state: its topology, its vertices, its settings. */
int ap_read_state(struct hc_ctx *c, struct state *s);
void ap_state_free(struct state *s);
/*
 * The changes that make the module's state @a->s that of the file, in
 * @a->ch: 0, or HC_EXIT_USAGE when the faults do not fit the cube the file
 * leads to (nothing changed).
 */
int ap_plan(struct apply *a);
/*
 * The fault marks to clear and to add, from the state @s: clearing first,
 * so that no step leaves fewer healthy vertices than the end.
 * @marks_cleared: a new topology clears the vertex marks.
 */
void ap_fault_changes(struct apply *a, const struct state *s, bool marks_cleared);
/* The text of a change's value @v: the old one or the @new one. */
void ap_value_str(const struct apply *a, const struct change *ch, uint32_t v, bool new,
		  struct hc_str *b);

#endif
