/*
 * A growable byte buffer, always NUL-terminated (buf.h): adding
 * bytes, text and formatted text, resetting, detaching.
 */
#include "pmbench/common.h"

#include <ctype.h>

#include "pmbench/buf.h"

char pmbench_buf_empty[1];

void pmbench_buf_init(struct pmbench_buf *b)
{
	b->ptr = pmbench_buf_empty;
	b->len = 0;
	b->alloc = 0;
}

void pmbench_buf_release(struct pmbench_buf *b)
{
	if (b->alloc)
		free(b->ptr);
	pmbench_buf_init(b);
}

void pmbench_buf_grow(struct pmbench_buf *b, size_t extra)
{
	size_t want = pmbench_st_add(pmbench_st_add(b->len, extra), 1);
	int fresh = !b->alloc;

	if (want <= b->alloc)
		return;
	if (fresh)
		b->ptr = NULL;
	PMBENCH_ALLOC_GROW(b->ptr, want, b->alloc);
	if (fresh)
		b->ptr[0] = '\0';
}

void pmbench_buf_setlen(struct pmbench_buf *b, size_t len)
{
	if (len > b->len)
		pmbench_die("pmbench_buf_setlen beyond end");
	b->len = len;
	if (b->alloc)
		b->ptr[len] = '\0';
}

void pmbench_buf_add(struct pmbench_buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	pmbench_buf_grow(b, len);
	memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
}

void pmbench_buf_adds(struct pmbench_buf *b, const char *s)
{
	pmbench_buf_add(b, s, strlen(s));
}

void pmbench_buf_addch(struct pmbench_buf *b, int c)
{
	pmbench_buf_grow(b, 1);
	b->ptr[b->len++] = (char)c;
	b->ptr[b->len] = '\0';
}

void pmbench_buf_vaddf(struct pmbench_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n <= 0)
		return;
	pmbench_buf_grow(b, (size_t)n);
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void pmbench_buf_addf(struct pmbench_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void pmbench_buf_rtrim(struct pmbench_buf *b)
{
	size_t len = b->len;

	while (len && isspace((unsigned char)b->ptr[len - 1]))
		len--;
	pmbench_buf_setlen(b, len);
}

char *pmbench_buf_detach(struct pmbench_buf *b)
{
	char *s;

	if (!b->alloc)
		return pmbench_xstrdup("");
	s = b->ptr;
	pmbench_buf_init(b);
	return s;
}

void pmbench_buf_add_clock(struct pmbench_buf *b, double seconds)
{
	unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;

	if (s >= 3600)
		pmbench_buf_addf(b, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60,
				 s % 60);
	else
		pmbench_buf_addf(b, "%lu:%02lu", s / 60, s % 60);
}

void pmbench_buf_add_clock_unit(struct pmbench_buf *b, double seconds)
{
	pmbench_buf_add_clock(b, seconds);
	pmbench_buf_adds(b, seconds + 0.5 >= 3600 ? " (h:mm:ss)" : " (m:ss)");
}

void pmbench_buf_path(struct pmbench_buf *b, const char *dir, const char *name)
{
	size_t dl = strlen(dir);

	pmbench_buf_add(b, dir, dl);
	if (dl && dir[dl - 1] != '/' && *name != '/')
		pmbench_buf_addch(b, '/');
	if (dl && dir[dl - 1] == '/' && *name == '/')
		name++;
	pmbench_buf_adds(b, name);
}
