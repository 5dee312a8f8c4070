#ifndef PMBENCH_ENGINE_RESULT_FIELDS_H
#define PMBENCH_ENGINE_RESULT_FIELDS_H

/*
 * The field tables of a result (include/pmbench/result.h), private to the
 * engine. Each JSON object with fixed fields is described once, in order,
 * in result.c; the writer and the reader (result_json.c) both walk the
 * same table, so that the two cannot drift apart, and
 * pmbench_result_release() frees what the tables name.
 */
#include <stddef.h>

/*
 * Times are written as seconds. A count below 10^15 ns has at most 15
 * significant digits, which cJSON's first "%1.15g" attempt prints exactly;
 * see docs/result-schema.md for the limits.
 */
#define NS_PER_S 1e9

enum pmbench_result_field_type {
	F_STR,	   /* char *, null when NULL */
	F_OPTSTR,  /* char *, left out when NULL (fields added later) */
	F_BOOL,	   /* int, true or false */
	F_FLAG,	   /* int, written (as true) only when set */
	F_INT,	   /* int */
	F_UINT,	   /* unsigned */
	F_U64,	   /* uint64_t */
	F_OPTU64,  /* uint64_t, written only when not 0 */
	F_SECS,	   /* uint64_t nanoseconds, written as seconds */
	F_STARTED, /* double Unix time, written to the microsecond */
	F_DOUBLE,  /* double, written as it is */
	F_STRVEC,  /* struct pmbench_strvec, an array of strings */
	/* struct pmbench_strvec, left out when empty (fields added later) */
	F_OPTSTRVEC,
	F_OPTUINT, /* unsigned, left out when 0 (fields added later) */
	/*
	 * An enum (int-sized), written as its name in `names` and left out
	 * when 0 (its first name); read back from the name.
	 */
	F_OPTNAME
};

/* One field of a table; a table ends with a field whose key is NULL. */
struct pmbench_result_field {
	const char *key;
	enum pmbench_result_field_type type;
	size_t offset;
	int required;
	/* Left out when the int at this offset is set (NO_UNLESS: never). */
	size_t unless;
	/* F_OPTNAME: the name of each value, ending with NULL. */
	const char *const *names;
};

#define NO_UNLESS ((size_t)-1)

/* The member a field describes, in the struct at `base`. */
#define RESULT_MEMBER(base, f, type) \
	((type *)(void *)((char *)(base) + (f)->offset))
#define RESULT_CMEMBER(base, f, type) \
	((const type *)(const void *)((const char *)(base) + (f)->offset))

/* A field of `struct s` (`req`: required), read and written as `t`. */
#define FIELD(s, k, t, member, req)                                            \
	{                                                                      \
		.key = (k), .type = (t), .offset = offsetof(struct s, member), \
		.required = (req), .unless = NO_UNLESS                         \
	}
#define FIELD_UNLESS(s, k, t, member, flag)                                    \
	{                                                                      \
		.key = (k), .type = (t), .offset = offsetof(struct s, member), \
		.unless = offsetof(struct s, flag)                             \
	}
#define FIELD_NAMES(s, k, member, n)                                       \
	{                                                                  \
		.key = (k), .type = F_OPTNAME,                             \
		.offset = offsetof(struct s, member), .unless = NO_UNLESS, \
		.names = (n)                                               \
	}
#define FIELD_END           \
	{                   \
		.key = NULL \
	}

/* The top level after "schema" and "version" (struct pmbench_result). */
extern const struct pmbench_result_field pmbench_result_root_fields[];
/* A shard's or a merge's fields at the top level, after "created". */
extern const struct pmbench_result_field pmbench_result_shard_fields[];
/* A live claim's "claim" (struct pmbench_result's claim and tolerance). */
extern const struct pmbench_result_field pmbench_result_claim_fields[];
/* "options" (struct pmbench_result). */
extern const struct pmbench_result_field pmbench_result_option_fields[];
/* "package_managers" (struct pmbench_result_pm). */
extern const struct pmbench_result_field pmbench_result_pm_fields[];
/* "fixtures" (struct pmbench_result_fixture). */
extern const struct pmbench_result_field pmbench_result_fixture_fields[];
/* "machines" (struct pmbench_result_machine). */
extern const struct pmbench_result_field pmbench_result_machine_fields[];
/* "cells" (struct pmbench_cell); "samples" follows them. */
extern const struct pmbench_result_field pmbench_result_cell_fields[];
/* "samples" (struct pmbench_sample); "metrics" follows them. */
extern const struct pmbench_result_field pmbench_result_sample_fields[];
/* A sample's "phases" (struct pmbench_phases); "scripts" follows them. */
extern const struct pmbench_result_field pmbench_result_phases_fields[];
/* "phases.scripts" (struct pmbench_phase_script). */
extern const struct pmbench_result_field pmbench_result_script_fields[];

#endif
