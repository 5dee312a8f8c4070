/*
 * Versions and ranges as npm's node-semver reads them (semver.h): each
 * comparator of a range becomes at most two plain bounds, tested as it
 * is read, so that no range needs memory.
 */
#include "pmbench/common.h"

#include <ctype.h>

#include "pmbench/semver.h"

enum op { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NONE, OP_TILDE, OP_CARET };

/* Up to three numbers; `nr` counts those before the first x or the end. */
struct partial {
	unsigned long n[3];
	int nr;
	int prerelease;
};

static int is_x(char c)
{
	return c == 'x' || c == 'X' || c == '*';
}

/* One number: digits only, at most 15 of them (no overflow). */
static const char *read_number(const char *p, unsigned long *out)
{
	size_t n = 0;

	*out = 0;
	while (isdigit((unsigned char)p[n]) && n < 16)
		*out = *out * 10 + (unsigned long)(p[n++] - '0');
	return n && n < 16 ? p + n : NULL;
}

/* A prerelease or build tag after the third number: "-rc.1+b2". */
static const char *read_tag(const char *p, struct partial *out)
{
	while (*p == '-' || *p == '+') {
		if (*p == '-')
			out->prerelease = 1;
		p++;
		if (!isalnum((unsigned char)*p))
			return NULL;
		while (isalnum((unsigned char)*p) || *p == '.' || *p == '-')
			p++;
	}
	return p;
}

/* "v20", "20.x", "20.11.1-rc.1", "*": returns its end, or NULL. */
static const char *read_partial(const char *p, struct partial *out)
{
	int x = 0;

	memset(out, 0, sizeof(*out));
	if (*p == 'v' || *p == 'V' || *p == '=')
		p++;
	for (int i = 0; i < 3; i++) {
		if (i && *p != '.')
			return p;
		if (i)
			p++;
		if (is_x(*p)) {
			x = 1;
			p++;
			continue;
		}
		p = read_number(p, &out->n[i]);
		if (!p)
			return NULL;
		if (!x)
			out->nr = i + 1;
	}
	return out->nr == 3 ? read_tag(p, out) : p;
}

static int cmp3(unsigned long a0, unsigned long a1, unsigned long a2,
		const struct pmbench_semver *b)
{
	if (a0 != b->major)
		return a0 < b->major ? -1 : 1;
	if (a1 != b->minor)
		return a1 < b->minor ? -1 : 1;
	if (a2 != b->patch)
		return a2 < b->patch ? -1 : 1;
	return 0;
}

int pmbench_semver_order(const struct pmbench_semver *a,
			 const struct pmbench_semver *b)
{
	int c = cmp3(a->major, a->minor, a->patch, b);

	if (c)
		return c;
	return a->prerelease == b->prerelease ? 0 : a->prerelease ? -1 : 1;
}

/* Whether `v` passes `op` against n0.n1.n2. */
static int test(enum op op, unsigned long n0, unsigned long n1,
		unsigned long n2, const struct pmbench_semver *v)
{
	int c = -cmp3(n0, n1, n2, v);

	switch (op) {
	case OP_LT:
		return c < 0;
	case OP_LE:
		return c <= 0;
	case OP_GT:
		return c > 0;
	case OP_GE:
		return c >= 0;
	default:
		return c == 0;
	}
}

/* The bound just above a partial: 20 -> 21.0.0, 20.1 -> 20.2.0. */
static int below_next(const struct partial *q, const struct pmbench_semver *v)
{
	if (q->nr == 1)
		return test(OP_LT, q->n[0] + 1, 0, 0, v);
	if (q->nr == 2)
		return test(OP_LT, q->n[0], q->n[1] + 1, 0, v);
	return test(OP_LE, q->n[0], q->n[1], q->n[2], v);
}

static int at_least(const struct partial *q, const struct pmbench_semver *v)
{
	return test(OP_GE, q->n[0], q->n[1], q->n[2], v);
}

static int caret(const struct partial *q, const struct pmbench_semver *v)
{
	if (!at_least(q, v))
		return 0;
	if (q->n[0] || q->nr == 1)
		return test(OP_LT, q->n[0] + 1, 0, 0, v);
	if (q->n[1] || q->nr == 2)
		return test(OP_LT, 0, q->n[1] + 1, 0, v);
	return test(OP_LT, 0, 0, q->n[2] + 1, v);
}

/* One comparator: `op` and its partial, against `v`. */
static int comparator(enum op op, const struct partial *q,
		      const struct pmbench_semver *v)
{
	if (!q->nr)
		return op != OP_LT && op != OP_GT;
	switch (op) {
	case OP_NONE:
	case OP_EQ:
		return at_least(q, v) && below_next(q, v);
	case OP_GE:
		return at_least(q, v);
	case OP_LT:
		return test(OP_LT, q->n[0], q->n[1], q->n[2], v);
	case OP_LE:
		return below_next(q, v);
	case OP_GT:
		return !below_next(q, v);
	case OP_TILDE:
		return at_least(q, v) &&
		       (q->nr == 1 ? test(OP_LT, q->n[0] + 1, 0, 0, v)
				   : test(OP_LT, q->n[0], q->n[1] + 1, 0, v));
	default:
		return caret(q, v);
	}
}

static const char *read_op(const char *p, enum op *op)
{
	static const struct {
		const char *text;
		enum op op;
	} ops[] = { { ">=", OP_GE },   { "<=", OP_LE },	 { ">", OP_GT },
		    { "<", OP_LT },    { "=", OP_EQ },	 { "~>", OP_TILDE },
		    { "~", OP_TILDE }, { "^", OP_CARET } };

	*op = OP_NONE;
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i].text);

		if (!strncmp(p, ops[i].text, n)) {
			*op = ops[i].op;
			p += n;
			break;
		}
	}
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * One alternative, from `p` to `end` (a "||" or the end): 1 when `v`
 * passes every comparator, 0 when not, -1 when it cannot be read.
 */
static int alternative(const char *p, const char *end,
		       const struct pmbench_semver *v)
{
	int ok = 1;

	for (p = skip_space(p); p < end; p = skip_space(p)) {
		struct partial q, hi;
		enum op op;
		const char *after;

		p = read_op(p, &op);
		if (p >= end || !(p = read_partial(p, &q)) || p > end)
			return -1;
		after = skip_space(p);
		if (op == OP_NONE && after[0] == '-' && after[1] == ' ') {
			p = read_partial(skip_space(after + 1), &hi);
			if (!p || p > end)
				return -1;
			ok &= at_least(&q, v) && (!hi.nr || below_next(&hi, v));
			continue;
		}
		if (p < end && *p != ' ' && *p != '\t')
			return -1;
		ok &= comparator(op, &q, v);
	}
	return ok;
}

int pmbench_semver_satisfies(const char *range, const struct pmbench_semver *v)
{
	int any = 0;

	if (!strcmp(skip_space(range), "latest"))
		range = "*";
	for (;;) {
		const char *bar = strstr(range, "||");
		const char *end = bar ? bar : range + strlen(range);
		int r = alternative(range, end, v);

		if (r < 0)
			return -1;
		any |= r && !v->prerelease;
		if (!bar)
			return any;
		range = bar + 2;
	}
}

int pmbench_semver_parse(struct pmbench_semver *out, const char *text)
{
	struct partial q;
	const char *end = read_partial(skip_space(text), &q);

	if (!end || q.nr != 3 || *skip_space(end))
		return -1;
	out->major = q.n[0];
	out->minor = q.n[1];
	out->patch = q.n[2];
	out->prerelease = q.prerelease;
	return 0;
}

long pmbench_semver_max_satisfying(const char *const *versions, size_t nr,
				   const char *range)
{
	struct pmbench_semver best = { .major = 0 }, v;
	long found = -1;

	for (size_t i = 0; i < nr; i++) {
		if (pmbench_semver_parse(&v, versions[i]) < 0)
			continue;
		switch (pmbench_semver_satisfies(range, &v)) {
		case -1:
			return -1;
		case 1:
			if (found < 0 || pmbench_semver_order(&v, &best) > 0) {
				best = v;
				found = (long)i;
			}
			break;
		default:
			break;
		}
	}
	return found;
}
