#include "pmbench/common.h"

#include <time.h>

#include "pmbench/buf.h"
#include "pmbench/text.h"

/*
 * The last error message, one per thread, as libgit2 keeps
 * git_error_last(): the registry front and the link relay run in threads
 * of pmbench (mirror.h, link.h), and an error one of them sets or clears
 * must not change, or race with, what the main thread is reporting.
 */
static _Thread_local char error_msg[2048];
static _Thread_local int error_isset;

static void error_vset(const char *fmt, va_list ap) PMBENCH_PRINTF(1, 0);

/*
 * Store `msg` as the message, made fit to print: messages quote user data
 * (names from manifests, URLs, paths, a PM's output), so credentials are
 * redacted and terminal controls escaped here, once for every caller. A
 * long message is cut at a character's start.
 */
static void error_store(const char *msg)
{
	struct pmbench_buf clean = PMBENCH_BUF_INIT;
	size_t len;

	pmbench_text_clean(&clean, msg, 0);
	len = clean.len;
	if (len >= sizeof(error_msg)) {
		len = sizeof(error_msg) - 1;
		while (len && ((unsigned char)clean.ptr[len] & 0xc0) == 0x80)
			len--;
	}
	memcpy(error_msg, clean.ptr, len);
	error_msg[len] = '\0';
	error_isset = 1;
	pmbench_buf_release(&clean);
}

static void error_vset(const char *fmt, va_list ap)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_vaddf(&b, fmt, ap);
	error_store(b.ptr);
	pmbench_buf_release(&b);
}

int pmbench_error_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(fmt, ap);
	va_end(ap);
	return PMBENCH_ERROR;
}

int pmbench_error_setc(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(fmt, ap);
	va_end(ap);
	return code;
}

void pmbench_error_prefix(const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	/* The old message is clean already; cleaning twice is once. */
	pmbench_buf_addf(&b, ": %s", pmbench_error_last());
	error_store(b.ptr);
	pmbench_buf_release(&b);
}

const char *pmbench_error_last(void)
{
	return error_isset ? error_msg : "unknown error";
}

void pmbench_error_clear(void)
{
	error_isset = 0;
	error_msg[0] = '\0';
}

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

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	/* One write per message, so lines from two sources never interleave. */
	pmbench_buf_adds(&b, "pmbench: ");
	pmbench_buf_adds(&b, prefix);
	pmbench_buf_vaddf(&b, fmt, ap);
	pmbench_buf_addch(&b, '\n');
	fflush(stdout);
	fputs(b.ptr, stderr);
	fflush(stderr);
	pmbench_buf_release(&b);
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
