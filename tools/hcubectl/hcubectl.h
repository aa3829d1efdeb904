/* SPDX-License-Identifier: GPL-2.0 */
/* hcubectl: shared declarations. */
#ifndef HCUBECTL_H
#define HCUBECTL_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netlink/attr.h>
#include <linux/hcube.h>
#include "extack.h"
#include "json.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Exit status: 0 success, 1 a kernel (or system) error, 2 bad usage. */
#define HC_EXIT_ERROR	1
#define HC_EXIT_USAGE	2

/* Global options, given before the command. */
struct hc_opts {
	bool json;
	bool pretty;
};
extern struct hc_opts hc_opts;

/* ---- util.c ---- */

/* "hcubectl: <fmt>" on stderr, exit 1. */
void hc_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* "hcubectl: <cmd>: <fmt> (try 'hcubectl <cmd> --help')" on stderr, exit 2. */
void hc_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void *hc_malloc(size_t size);
void *hc_realloc(void *p, size_t size);

/*
 * getopt_long() for a command: -h/--help prints @usage on stdout and exits
 * 0; an unknown option or a missing argument is a usage error of @cmd.
 * Call with *first = true for the first call (it resets getopt).
 */
int hc_getopt(int argc, char **argv, const char *cmd, const char *shortopts,
	      const struct option *longopts, void (*usage)(FILE *f), bool *first);

/* Parsers: false when @s is not what is asked for. */
bool hc_parse_u32(const char *s, uint32_t *v);
/* A vertex: decimal, or binary with a 0b prefix. *why says what is wrong. */
bool hc_parse_vertex(const char *s, uint32_t *v, const char **why);
bool hc_parse_cpulist(const char *s, const char **why);
int hc_policy_parse(const char *s);	/* -1 if unknown */
#define HC_POLICY_LIST	"mcwa, dem, cwa, optimal, auto, rid, sid, sbn, sbn-cube, " \
			"sbn-heur, pebble"
int hc_mode_parse(const char *s);

/* Names of the uAPI enums; NULL when out of range. */
const char *hc_mode_name(uint32_t v);
const char *hc_vstate_name(uint32_t v);
const char *hc_policy_name(uint32_t v);
const char *hc_tstate_name(uint32_t v);
const char *hc_reason_name(uint32_t v);
const char *hc_fault_event_name(uint32_t v);	/* added cleared offline online */
/* The name, or the number in @buf. */
const char *hc_name_or_num(const char *name, uint32_t v, char *buf, size_t size);

/*
 * Names of the attribute types at the top level of a request, for
 * missing-attribute errors: HCUBE_A_* (most commands) and HCUBE_R_A_*
 * (HCUBE_CMD_REBALANCE).
 */
extern const char *const hc_attr_names[];
extern const size_t hc_attr_nnames;
extern const char *const hc_report_attr_names[];
extern const size_t hc_report_attr_nnames;

/*
 * A vertex label: @dim binary digits (highest dimension first) when the
 * dimension is known (dim >= 0) and @v fits, "-" for a 0-cube, else the
 * decimal id.
 */
#define HC_LABEL_MAX 40
const char *hc_label(char *buf, int dim, uint32_t v);

/* Replace invalid UTF-8 and control characters by '?', in place. */
void hc_sanitize(char *s);

/* A text table with columns sized to fit. */
struct hc_table {
	int ncols;
	const char *align;	/* 'l' or 'r' per column */
	size_t nrows, cap;
	char **cells;		/* nrows * ncols, row 0 the header */
};
void hc_table_init(struct hc_table *t, int ncols, const char *align,
		   const char *const *header);
void hc_table_row(struct hc_table *t, ...);	/* ncols strings */
void hc_table_print(struct hc_table *t, FILE *f, const char *indent);
void hc_table_free(struct hc_table *t);

/* A growing string. */
struct hc_str {
	char *s;
	size_t len, cap;
};
void hc_str_printf(struct hc_str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hc_str_free(struct hc_str *b);

/* ---- nl.c ---- */

struct nl_sock;
struct nl_msg;

struct hc_nl {
	struct nl_sock *sk;
	int family;
};

/* Connect and resolve the family; exits 1 with one line if that fails. */
void hc_nl_open(struct hc_nl *nl);
void hc_nl_close(struct hc_nl *nl);

/* A request under construction: the message and what each attribute means. */
struct hc_req {
	struct nl_msg *msg;
	struct hc_attrmap map;
	const char *what;	/* for error messages: "task add" */
	uint8_t cmd;
	/* names of its top-level attribute types (default: hc_attr_names) */
	const char *const *attr_names;
	size_t nattr_names;
};

void hc_req_init(struct hc_req *r, const struct hc_nl *nl, uint8_t cmd,
		 bool dump, size_t size, const char *what);
void hc_req_free(struct hc_req *r);
/* Each put records the attribute's offset under a printf-style label. */
void hc_req_u32(struct hc_req *r, int type, uint32_t v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void hc_req_u8(struct hc_req *r, int type, uint8_t v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void hc_req_flag(struct hc_req *r, int type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void hc_req_str(struct hc_req *r, int type, const char *v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
struct nlattr *hc_req_nest(struct hc_req *r, int type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void hc_req_nest_end(struct hc_req *r, struct nlattr *nest);

/*
 * Handler of one reply (or notification) message: its genl command and
 * its attributes. Returns 0, or -1 if the message is malformed.
 */
typedef int (*hc_reply_fn)(uint8_t cmd, struct nlattr *attrs, int len, void *arg);

/*
 * Send @r (NLM_F_ACK) and pass every reply to @fn until the ack, the end of
 * the dump or an error. Returns 0, or HC_EXIT_ERROR after printing the
 * error line ("hcubectl: <what>: ...").
 */
int hc_req_run(struct hc_nl *nl, struct hc_req *r, hc_reply_fn fn, void *arg);

/* Build, run and free a request without attributes. */
int hc_simple_get(struct hc_nl *nl, uint8_t cmd, bool dump, const char *what,
		  hc_reply_fn fn, void *arg);

/* Attribute getters: false when absent or too short. */
bool hc_get_u8(const struct nlattr *a, uint8_t *v);
bool hc_get_u32(const struct nlattr *a, uint32_t *v);
bool hc_get_s32(const struct nlattr *a, int32_t *v);
bool hc_get_u64(const struct nlattr *a, uint64_t *v);
/* A malloc'ed, NUL-terminated copy; NULL when absent. */
char *hc_get_str(const struct nlattr *a);
/* tb[0..max] from a stream of attributes (later duplicates win). */
void hc_parse(struct nlattr **tb, int max, struct nlattr *head, int len);
void hc_parse_nested(struct nlattr **tb, int max, const struct nlattr *nest);

/* ---- model.c: what the kernel sends, decoded ---- */

#define HC_HAS(x, bit)	(((x)->has >> (bit)) & 1U)

/* Most pebble clusters a cube has: 2^(10 - 3). */
#define HC_MAX_CLUSTERS	128

/* The cube summary (CUBE_GET, TOPO_NTF). has: bit per HCUBE_A_* type. */
struct hc_cube {
	uint32_t has;
	uint32_t mode, dim, nvertices, nhealthy, nattached, ntasks;
	uint32_t cb_base, cb_mask, tree_depth, generation, reason;
	uint32_t cluster_dim;
	char cb_pattern[64];
	/* HCUBE_A_CONTROLLERS: one per cluster, HCUBE_NO_CONTROLLER for none */
	uint16_t ctrl[HC_MAX_CLUSTERS];
	uint32_t nctrl;
};
void hc_cube_parse(struct hc_cube *c, struct nlattr **tb);
int hc_cube_dim(const struct hc_cube *c);	/* -1 if unknown */

/* One vertex (HCUBE_A_VERTEX). has: bit per HCUBE_V_A_* type. */
struct hc_vertex {
	uint32_t has;
	uint32_t id, state, load, dist, omega;
	int32_t parent;
	bool in_cb, detached, marked, controller;
	char *cpus, *usable, *faulty, *offline;
};
int hc_vertex_parse(struct hc_vertex *v, const struct nlattr *nest);
void hc_vertex_free(struct hc_vertex *v);

/* One task (HCUBE_A_TASK, HCUBE_R_A_FAILURE/CHANGED). has: HCUBE_T_A_*. */
struct hc_task {
	uint32_t has;
	uint32_t pid, tgid, vertex, state, reason;
	int32_t error;
	char comm[64];
	char *cpus, *orig_cpus;
};
int hc_task_parse(struct hc_task *t, const struct nlattr *nest);
void hc_task_free(struct hc_task *t);
/* JSON object of the task's present attributes (key NULL inside arrays). */
void hc_task_json(struct json *j, const char *key, const struct hc_task *t, int dim);
void hc_task_json_members(struct json *j, const struct hc_task *t, int dim);
/* "pid 1234 (comm) tgid 1234 vertex 0101 active cpus 4-5 ..." */
void hc_task_text(struct hc_str *b, const struct hc_task *t, int dim);

struct hc_tasks {
	struct hc_task *v;
	size_t n, cap;
};
struct hc_task *hc_tasks_add(struct hc_tasks *l);
void hc_tasks_free(struct hc_tasks *l);

/*
 * A rebalance report: the top-level attributes (enum hcube_report_attr) of
 * a REBALANCE reply or a REBALANCE_NTF. has: bit per HCUBE_R_A_* type.
 */
struct hc_report {
	uint32_t has;
	uint32_t policy, trigger, ntransfers, steps, comm_steps;
	uint32_t moved, failed, exited, evacuated, tree_depth;
	uint32_t applied, messages, imbalance, contended;
	uint64_t migrations, duration_ns;
	bool dry_run;
	char cb_pattern[64];
	uint32_t *loads[3];	/* before, plan, after */
	uint32_t nloads[3];
	struct hcube_transfer_info *xfers;
	uint32_t nxfers;
	struct hc_tasks failures, changed;
};
/*
 * Parse the attributes of a message; repeated HCUBE_R_A_TRANSFERS are joined
 * in order. Returns 0, or -1 when the message holds no report (no
 * HCUBE_R_A_POLICY).
 */
int hc_report_parse(struct hc_report *r, struct nlattr *attrs, int len);
void hc_report_free(struct hc_report *r);
/* The dimension the report implies, or @dim if it says nothing. */
int hc_report_dim(const struct hc_report *r, int dim);
void hc_report_json(struct json *j, const struct hc_report *r, int dim);
void hc_report_text(FILE *f, const struct hc_report *r, int dim);
/* A one-line summary (monitor). */
void hc_report_line(struct hc_str *b, const struct hc_report *r, int dim);

/* Summary keys of a cube (shared by show and the TOPO_NTF event). */
void hc_cube_json(struct json *j, const struct hc_cube *c);
void hc_cube_line(struct hc_str *b, const struct hc_cube *c);

/* JSON writer set up by the global options, on stdout. */
void hc_json_begin(struct json *j);
/* The value, or null when @has is false. */
void hc_json_u32(struct json *j, const char *key, bool has, uint64_t v);
/* "label": binary digits (a 0-cube: ""); nothing when the dimension is unknown. */
void hc_json_label(struct json *j, int dim, uint32_t v);
/* "{}": the -j output of a command the kernel only acks. */
void hc_json_empty(void);

/* ---- commands ---- */
int cmd_show(int argc, char **argv);
int cmd_fault(int argc, char **argv);
int cmd_task(int argc, char **argv);
int cmd_rebalance(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_topology(int argc, char **argv);
int cmd_monitor(int argc, char **argv);

#endif
