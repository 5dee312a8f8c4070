/*
 * A growable, NULL-terminated vector of owned strings (strvec.h):
 * pushing, formatting, splitting, finding, sorting, releasing.
 */
#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "pmbench/strvec.h"

char *pmbench_strvec_empty[1];

void pmbench_strvec_init(struct pmbench_strvec *sv)
{
	sv->v = pmbench_strvec_empty;
	sv->nr = 0;
	sv->alloc = 0;
}

static void push_owned(struct pmbench_strvec *sv, char *s)
{
	if (!sv->alloc)
		sv->v = NULL;
	PMBENCH_ALLOC_GROW(sv->v, sv->nr + 2, sv->alloc);
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

const char *pmbench_strvec_push(struct pmbench_strvec *sv, const char *s)
{
	push_owned(sv, pmbench_xstrdup(s));
	return sv->v[sv->nr - 1];
}

const char *pmbench_strvec_pushf(struct pmbench_strvec *sv, const char *fmt,
				 ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	push_owned(sv, pmbench_buf_detach(&b));
	return sv->v[sv->nr - 1];
}

void pmbench_strvec_pushv(struct pmbench_strvec *sv, const char *const *items)
{
	for (; items && *items; items++)
		pmbench_strvec_push(sv, *items);
}

void pmbench_strvec_pop(struct pmbench_strvec *sv)
{
	if (!sv->nr)
		return;
	free(sv->v[--sv->nr]);
	sv->v[sv->nr] = NULL;
}

long pmbench_strvec_find(const struct pmbench_strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return (long)i;
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void pmbench_strvec_sort(struct pmbench_strvec *sv, size_t from)
{
	if (from < sv->nr)
		qsort(sv->v + from, sv->nr - from, sizeof(*sv->v), cmp_str);
}

size_t pmbench_strvec_missing(const struct pmbench_strvec *a,
			      const struct pmbench_strvec *b,
			      struct pmbench_strvec *out)
{
	size_t n = 0, j = 0;

	for (size_t i = 0; i < a->nr; i++) {
		int c = 1;

		while (j < b->nr && (c = strcmp(b->v[j], a->v[i])) < 0)
			j++;
		if (j >= b->nr || c) {
			if (out)
				pmbench_strvec_push(out, a->v[i]);
			n++;
		}
	}
	return n;
}

void pmbench_strvec_release(struct pmbench_strvec *sv)
{
	if (sv->alloc) {
		for (size_t i = 0; i < sv->nr; i++)
			free(sv->v[i]);
		free(sv->v);
	}
	pmbench_strvec_init(sv);
}

void pmbench_strvec_split(struct pmbench_strvec *sv, const char *s, char sep)
{
	while (s && *s) {
		const char *e = strchr(s, sep);
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n)
			push_owned(sv, pmbench_xstrndup(s, n));
		s = e ? e + 1 : NULL;
	}
}

void pmbench_strvec_join(struct pmbench_buf *out,
			 const struct pmbench_strvec *sv, const char *sep)
{
	for (size_t i = 0; i < sv->nr; i++) {
		if (i)
			pmbench_buf_adds(out, sep);
		pmbench_buf_adds(out, sv->v[i]);
	}
}
