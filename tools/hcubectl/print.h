/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcubectl: one output path for text and JSON. A command prints each value
 * once, with a key for JSON and a format for text:
 *
 *	print_uint(PRINT_ANY, "moved_tasks", "moved tasks %u", moved);
 *
 * With -j the value goes to the JSON document under its key; without, the
 * format (one conversion) goes to stdout. PRINT_FP prints only the text,
 * PRINT_JSON only the key (where the two layouts differ).
 */
#ifndef HCUBECTL_PRINT_H
#define HCUBECTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>

enum output_type {
	PRINT_FP = 1,		/* text only */
	PRINT_JSON = 2,		/* JSON only */
	PRINT_ANY = 3,		/* both */
	PRINT_OPT = 4,		/* print_attr_*(): nothing at all when absent */
	PRINT_ZERO = 8,		/* print_attr_*(): 0 in text when absent */
};

/*
 * One output document on stdout: a JSON value when -j was given (indented
 * with -p unless @oneline), else text. print_end() ends it and flushes.
 */
void print_begin(bool oneline);
void print_end(void);
bool is_json(void);

/* Objects and arrays, in JSON only; @key NULL inside arrays. */
void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(const char *key);
void close_json_array(void);

/*
 * A NULL @value is JSON null and no text. A NULL @fmt prints no text. The
 * format takes the value's type: %s, %u (print_uint), %llu (print_u64), %d.
 */
void print_string(enum output_type t, const char *key, const char *fmt, const char *value);
void print_uint(enum output_type t, const char *key, const char *fmt, unsigned int value);
void print_u64(enum output_type t, const char *key, const char *fmt, uint64_t value);
void print_int(enum output_type t, const char *key, const char *fmt, int value);
void print_bool(enum output_type t, const char *key, const char *fmt, bool value);
void print_null(enum output_type t, const char *key, const char *fmt);
/* Text only, printf-style. */
void print_fp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The value of an enum: its name, or its number as a string. */
void print_enum(enum output_type t, const char *key, const char *fmt,
		const char *const *names, unsigned int n, uint32_t value);

/*
 * Attributes as the kernel sent them (NULL: it did not): JSON null and no
 * text when absent, nothing at all with PRINT_OPT, null and 0 in text with
 * PRINT_ZERO. Strings are printed as valid UTF-8 without control characters.
 */
struct nlattr;
void print_attr_u32(int t, const char *key, const char *fmt, const struct nlattr *a);
void print_attr_u64(int t, const char *key, const char *fmt, const struct nlattr *a);
void print_attr_str(int t, const char *key, const char *fmt, const struct nlattr *a);
void print_attr_enum(int t, const char *key, const char *fmt,
		     const char *const *names, unsigned int n, const struct nlattr *a);

#endif
