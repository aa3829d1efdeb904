/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer for the hcube tools: it tracks nesting and
 * commas so that callers only say what comes next.
 */
#ifndef HCUBE_JSON_H
#define HCUBE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;
	int depth;
	bool first[JSON_MAX_DEPTH];
	bool pretty;
};

void json_init(struct json *j, FILE *out, bool pretty);
void json_obj_open(struct json *j, const char *key);	/* key NULL inside arrays */
void json_obj_close(struct json *j);
void json_arr_open(struct json *j, const char *key);
void json_arr_close(struct json *j);
void json_str(struct json *j, const char *key, const char *val);	/* NULL: null */
void json_int(struct json *j, const char *key, int64_t val);
void json_uint(struct json *j, const char *key, uint64_t val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
/* Ends the document with a newline. */
void json_end(struct json *j);

#endif
