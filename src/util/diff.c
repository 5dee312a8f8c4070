/*
 * Unified diffs: the lines of both texts, the common head and tail cut
 * off, the longest common subsequence of the middle (a table of lengths,
 * bounded), then git's hunks with three lines of context.
 */
#include "pmbench/common.h"

#include <stdint.h>

#include "pmbench/diff.h"
#include "pmbench/text.h"

#define CONTEXT 3

struct line {
	const char *p;
	size_t len; /* without the newline */
	int nl;	    /* ends in a newline */
};

struct lines {
	struct line *v;
	size_t nr, alloc;
};

/* One line of the edit script: ' ' kept, '-' removed, '+' added. */
struct op {
	char kind;
	const struct line *l;
};

struct script {
	struct op *v;
	size_t nr, alloc;
};

static void split(struct lines *out, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		struct line *l;

		PMBENCH_ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		l = &out->v[out->nr++];
		l->p = p;
		l->len = nl ? (size_t)(nl - p) : strlen(p);
		l->nl = nl != NULL;
		p = nl ? nl + 1 : p + l->len;
	}
}

static int same(const struct line *a, const struct line *b)
{
	return a->len == b->len && a->nl == b->nl &&
	       !memcmp(a->p, b->p, a->len);
}

static void push(struct script *s, char kind, const struct line *l)
{
	PMBENCH_ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	s->v[s->nr].kind = kind;
	s->v[s->nr].l = l;
	s->nr++;
}

/*
 * The middle a[0..n) against b[0..m): the LCS by a table of suffix
 * lengths, walked from the top; too large a table: all of a removed,
 * then all of b added.
 */
static void middle(struct script *s, const struct line *a, size_t n,
		   const struct line *b, size_t m)
{
	uint32_t *t;
	size_t w = m + 1, i = 0, j = 0;

	if (n && m && (n + 1) * w > PMBENCH_DIFF_MAX_CELLS) {
		for (; i < n; i++)
			push(s, '-', &a[i]);
		for (; j < m; j++)
			push(s, '+', &b[j]);
		return;
	}
	t = pmbench_xcalloc((n + 1) * w, sizeof(*t));
	for (size_t x = n; x-- > 0;)
		for (size_t y = m; y-- > 0;)
			t[x * w + y] = same(&a[x], &b[y])
					       ? t[(x + 1) * w + y + 1] + 1
				       : t[(x + 1) * w + y] > t[x * w + y + 1]
					       ? t[(x + 1) * w + y]
					       : t[x * w + y + 1];
	while (i < n || j < m) {
		if (i < n && j < m && same(&a[i], &b[j])) {
			push(s, ' ', &a[i++]);
			j++;
		} else if (i < n &&
			   (j == m || t[(i + 1) * w + j] >= t[i * w + j + 1])) {
			push(s, '-', &a[i++]);
		} else {
			push(s, '+', &b[j++]);
		}
	}
	free(t);
}

static void build(struct script *s, const struct lines *a,
		  const struct lines *b)
{
	size_t head = 0, tail = 0;

	while (head < a->nr && head < b->nr && same(&a->v[head], &b->v[head]))
		head++;
	while (tail < a->nr - head && tail < b->nr - head &&
	       same(&a->v[a->nr - 1 - tail], &b->v[b->nr - 1 - tail]))
		tail++;
	for (size_t i = 0; i < head; i++)
		push(s, ' ', &a->v[i]);
	middle(s, a->v + head, a->nr - head - tail, b->v + head,
	       b->nr - head - tail);
	for (size_t i = a->nr - tail; i < a->nr; i++)
		push(s, ' ', &a->v[i]);
}

/* git's "-l,n": the count left out when 1, the line before when 0. */
static void range(struct pmbench_buf *out, char sign, size_t first,
		  size_t count)
{
	pmbench_buf_addf(out, "%c%zu", sign, count ? first + 1 : first);
	if (count != 1)
		pmbench_buf_addf(out, ",%zu", count);
}

/* Does line `l` hold a credential (pmbench_text_redact() changes it)? */
static int secret_line(const struct line *l)
{
	char *text = pmbench_xstrndup(l->p, l->len);
	int ret = pmbench_text_has_secret(text);

	free(text);
	return ret;
}

/* A changed line, its credentials replaced (the hunk then cannot apply). */
static void add_line(struct pmbench_buf *out, const struct line *l, int secret)
{
	char *text;

	if (!secret) {
		pmbench_buf_add(out, l->p, l->len);
		return;
	}
	text = pmbench_xstrndup(l->p, l->len);
	pmbench_text_redact(out, text);
	free(text);
}

/* One hunk: the script's lines [from, to), a before and b before it. */
static void hunk(struct pmbench_buf *out, const struct script *s, size_t from,
		 size_t to, size_t a_at, size_t b_at)
{
	size_t an = 0, bn = 0;

	for (size_t k = from; k < to; k++) {
		an += s->v[k].kind != '+';
		bn += s->v[k].kind != '-';
	}
	pmbench_buf_adds(out, "@@ ");
	range(out, '-', a_at, an);
	pmbench_buf_adds(out, " ");
	range(out, '+', b_at, bn);
	pmbench_buf_adds(out, " @@\n");
	for (size_t k = from; k < to; k++) {
		const struct line *l = s->v[k].l;

		pmbench_buf_addch(out, s->v[k].kind);
		add_line(out, l, s->v[k].kind != ' ' && secret_line(l));
		pmbench_buf_addch(out, '\n');
		if (!l->nl)
			pmbench_buf_adds(out, "\\ No newline at end of file\n");
	}
}

/*
 * Which kept lines of `s` hold a credential: a hunk never shows them as
 * context, it stops before them (its change is applied all the same,
 * git apply matching the context it is given).
 */
static char *hidden_lines(const struct script *s)
{
	char *hide = pmbench_xcalloc(s->nr + 1, 1);

	for (size_t k = 0; k < s->nr; k++)
		hide[k] = s->v[k].kind == ' ' && secret_line(s->v[k].l);
	return hide;
}

/*
 * The last change of the hunk whose first change is `first`: changes
 * closer than twice the context share a hunk, unless a hidden line lies
 * between them.
 */
static size_t hunk_last(const struct script *s, const char *hide, size_t first)
{
	size_t last = first;

	for (size_t x = first; x < s->nr && x <= last + 2 * CONTEXT; x++) {
		if (hide[x])
			break;
		if (s->v[x].kind != ' ')
			last = x;
	}
	return last;
}

/* The hunks of `s`; returns how many lines changed. */
static size_t hunks(struct pmbench_buf *out, const struct script *s)
{
	char *hide = hidden_lines(s);
	size_t changed = 0, a_at = 0, b_at = 0, k = 0;

	while (k < s->nr) {
		size_t first, last, from, to;

		while (k < s->nr && s->v[k].kind == ' ')
			k++;
		if (k == s->nr)
			break;
		first = k;
		last = hunk_last(s, hide, first);
		for (from = first;
		     from + CONTEXT > first && from > 0 && !hide[from - 1];
		     from--)
			;
		for (to = last + 1;
		     to < last + 1 + CONTEXT && to < s->nr && !hide[to]; to++)
			;
		/* Where the hunk starts in a and in b. */
		for (size_t x = 0; x < from; x++) {
			a_at += s->v[x].kind != '+';
			b_at += s->v[x].kind != '-';
		}
		hunk(out, s, from, to, a_at, b_at);
		for (size_t x = from; x < to; x++)
			changed += s->v[x].kind != ' ';
		a_at = b_at = 0;
		k = to;
	}
	free(hide);
	return changed;
}

size_t pmbench_diff_unified(struct pmbench_buf *out, const char *path,
			    const char *before, const char *after)
{
	struct lines a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	struct script s = { NULL, 0, 0 };
	struct pmbench_buf body = PMBENCH_BUF_INIT;
	size_t changed;

	split(&a, before);
	split(&b, after ? after : "");
	build(&s, &a, &b);
	changed = hunks(&body, &s);
	if (changed) {
		if (before)
			pmbench_buf_addf(out, "--- a/%s\n", path);
		else
			pmbench_buf_adds(out, "--- /dev/null\n");
		pmbench_buf_addf(out, "+++ b/%s\n", path);
		pmbench_buf_add(out, body.ptr, body.len);
	}
	free(a.v);
	free(b.v);
	free(s.v);
	pmbench_buf_release(&body);
	return changed;
}
