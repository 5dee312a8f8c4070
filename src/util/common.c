/*
 * What every layer shares (common.h): allocation that never fails, the
 * overflow-checked sizes, the fatal error, the clock and the parsers of
 * whole numbers and durations. The last error is error.c's.
 */
#include "pmbench/common.h"

#include <time.h>

PMBENCH_NORETURN static void die_oom(size_t n)
{
	fprintf(stderr, "pmbench: out of memory allocating %zu bytes\n", n);
	abort();
}

void *pmbench_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die_oom(n);
	return p;
}

void *pmbench_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die_oom(pmbench_st_mult(nmemb, size));
	return p;
}

void *pmbench_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die_oom(n);
	return q;
}

char *pmbench_xstrdup(const char *s)
{
	return pmbench_xstrndup(s, strlen(s));
}

char *pmbench_xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = pmbench_xmalloc(pmbench_st_add(len, 1));

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

size_t pmbench_st_mult(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b)
		pmbench_die("size overflow: %zu * %zu", a, b);
	return a * b;
}

size_t pmbench_st_add(size_t a, size_t b)
{
	if (a > SIZE_MAX - b)
		pmbench_die("size overflow: %zu + %zu", a, b);
	return a + b;
}

static void vlog(const char *prefix, const char *fmt, va_list ap)
	PMBENCH_PRINTF(2, 0);

/*
 * "pmbench: <prefix><message>" on stderr in one write, so lines from two
 * sources never interleave. Formatted with the C library alone: buf.c
 * dies through here.
 */
static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	static const char head[] = "pmbench: ";
	size_t at = sizeof(head) - 1 + strlen(prefix);
	va_list again;
	char *line;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	line = malloc(at + (n > 0 ? (size_t)n : 0) + 2);
	fflush(stdout);
	if (!line || n < 0) {
		fprintf(stderr, "%s%s%s\n", head, prefix, fmt);
	} else {
		snprintf(line, at + 1, "%s%s", head, prefix);
		vsnprintf(line + at, (size_t)n + 1, fmt, ap);
		memcpy(line + at + n, "\n", 2);
		fputs(line, stderr);
	}
	fflush(stderr);
	free(line);
}

void pmbench_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("fatal: ", fmt, ap);
	va_end(ap);
	exit(1);
}

uint64_t pmbench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pmbench_sleep_ns(uint64_t ns)
{
	struct timespec req, rem;

	req.tv_sec = (time_t)(ns / 1000000000u);
	req.tv_nsec = (long)(ns % 1000000000u);
	while (nanosleep(&req, &rem) < 0 && errno == EINTR)
		req = rem;
}

int pmbench_parse_u64(uint64_t *out, const char *s)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return PMBENCH_EINVALID;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return PMBENCH_EINVALID;
	*out = v;
	return 0;
}

int pmbench_parse_duration(uint64_t *out_ns, const char *s)
{
	char *end;
	double v, mult = 1e9;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return PMBENCH_EINVALID;
	errno = 0;
	v = strtod(s, &end);
	/* Written so that "nan" fails too: converting NaN is undefined. */
	if (errno || end == s || !(v >= 0))
		return PMBENCH_EINVALID;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		mult = 1e9;
	else if (!strcmp(end, "ms"))
		mult = 1e6;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		mult = 60e9;
	else if (!strcmp(end, "h"))
		mult = 3600e9;
	else
		return PMBENCH_EINVALID;
	if (v * mult > 1e18)
		return PMBENCH_EINVALID;
	*out_ns = (uint64_t)(v * mult + 0.5);
	return 0;
}
