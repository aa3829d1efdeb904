// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include "json.h"

void json_init(struct json *j, FILE *out, bool pretty)
{
	j->out = out;
	j->depth = 0;
	j->first[0] = true;
	j->pretty = pretty;
}

static void indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Comma, newline and key before a value. */
static void member(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->out);
		indent(j);
	}
	j->first[j->depth] = false;
	if (key) {
		put_string(j->out, key);
		fputs(j->pretty ? ": " : ":", j->out);
	}
}

static void nest_open(struct json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->out);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void nest_close(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->out);
}

void json_obj_open(struct json *j, const char *key)
{
	nest_open(j, key, '{');
}

void json_obj_close(struct json *j)
{
	nest_close(j, '}');
}

void json_arr_open(struct json *j, const char *key)
{
	nest_open(j, key, '[');
}

void json_arr_close(struct json *j)
{
	nest_close(j, ']');
}

void json_str(struct json *j, const char *key, const char *val)
{
	member(j, key);
	if (val)
		put_string(j->out, val);
	else
		fputs("null", j->out);
}

void json_int(struct json *j, const char *key, int64_t val)
{
	member(j, key);
	fprintf(j->out, "%lld", (long long)val);
}

void json_uint(struct json *j, const char *key, uint64_t val)
{
	member(j, key);
	fprintf(j->out, "%llu", (unsigned long long)val);
}

void json_double(struct json *j, const char *key, double val)
{
	member(j, key);
	if (isfinite(val))
		fprintf(j->out, "%.6g", val);
	else
		fputs("null", j->out);
}

void json_bool(struct json *j, const char *key, bool val)
{
	member(j, key);
	fputs(val ? "true" : "false", j->out);
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	fputs("null", j->out);
}

void json_end(struct json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
}
