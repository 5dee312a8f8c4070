/*
 * Cache archives, the generic layer: the compressions, and the backends
 * that save and restore (libarchive in process, GNU tar as actions/cache
 * runs it) as a table chosen by --archiver, the way curl's lib/vtls/vtls.c
 * calls its TLS backends through `struct Curl_ssl`. Each backend is a file
 * of its own (src/engine/cache/backend.h).
 */
#include "pmbench/common.h"

#include "pmbench/cachearc.h"

#include "backend.h"

int pmbench_cachearc_parse(struct pmbench_cachearc_compression *out,
			   const char *s)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	uint64_t level = 0;
	int max = 0;

	if (n == 4 && !strncmp(s, "none", 4) && !colon) {
		out->filter = PMBENCH_CACHEARC_NONE;
		out->level = 0;
		return 0;
	}
	if (n == 4 && !strncmp(s, "gzip", 4)) {
		out->filter = PMBENCH_CACHEARC_GZIP;
		max = 9;
		level = 6;
	} else if (n == 4 && !strncmp(s, "zstd", 4)) {
		out->filter = PMBENCH_CACHEARC_ZSTD;
		max = 19;
		level = 3;
	}
	if (!max || (colon && (pmbench_parse_u64(&level, colon + 1) < 0 ||
			       level < 1 || level > (uint64_t)max)))
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"unknown compression '%s'; use none, gzip, gzip:LEVEL "
			"(1-9), zstd or zstd:LEVEL (1-19)",
			s);
	out->level = (int)level;
	return 0;
}

void pmbench_cachearc_name(struct pmbench_buf *out,
			   const struct pmbench_cachearc_compression *c)
{
	switch (c->filter) {
	case PMBENCH_CACHEARC_GZIP:
		pmbench_buf_addf(out, "gzip-%d", c->level ? c->level : 6);
		break;
	case PMBENCH_CACHEARC_ZSTD:
		pmbench_buf_addf(out, "zstd-%d", c->level ? c->level : 3);
		break;
	default:
		pmbench_buf_adds(out, "none");
	}
}

const char *
pmbench_cachearc_suffix(const struct pmbench_cachearc_compression *c)
{
	switch (c->filter) {
	case PMBENCH_CACHEARC_GZIP:
		return ".tar.gz";
	case PMBENCH_CACHEARC_ZSTD:
		return ".tar.zst";
	default:
		return ".tar";
	}
}

/* Every backend, the default first. */
static const struct pmbench_cachearc_backend *const backends[] = {
	&pmbench_cachearc_libarchive_backend,
	&pmbench_cachearc_gnutar_backend,
};

/* The backend of `a`; the default for a value no row has. */
static const struct pmbench_cachearc_backend *
backend_of(enum pmbench_cachearc_archiver a)
{
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(backends); i++)
		if (backends[i]->id == a)
			return backends[i];
	return backends[0];
}

int pmbench_cachearc_parse_archiver(enum pmbench_cachearc_archiver *out,
				    const char *s)
{
	struct pmbench_buf names = PMBENCH_BUF_INIT;
	size_t n = PMBENCH_ARRAY_SIZE(backends);
	int ret;

	for (size_t i = 0; i < n; i++) {
		if (!strcmp(s, backends[i]->name)) {
			*out = backends[i]->id;
			return 0;
		}
	}
	for (size_t i = 0; i < n; i++)
		pmbench_buf_addf(&names, "%s%s",
				 !i	     ? ""
				 : i + 1 < n ? ", "
					     : " or ",
				 backends[i]->name);
	ret = pmbench_error_setc(PMBENCH_EINVALID,
				 "unknown archiver '%s'; use %s", s, names.ptr);
	pmbench_buf_release(&names);
	return ret;
}

const char *pmbench_cachearc_archiver_name(enum pmbench_cachearc_archiver a)
{
	return backend_of(a)->name;
}

int pmbench_cachearc_save(struct pmbench_cachearc_stats *out, uint64_t *ns,
			  const char *archive,
			  const struct pmbench_cachearc_job *job)
{
	return backend_of(job->archiver)->save(out, ns, archive, job);
}

int pmbench_cachearc_restore(struct pmbench_cachearc_stats *out, uint64_t *ns,
			     const char *archive,
			     const struct pmbench_cachearc_job *job)
{
	return backend_of(job->archiver)->restore(out, ns, archive, job);
}

int pmbench_cachearc_checks_first(enum pmbench_cachearc_archiver a)
{
	return !!(backend_of(a)->flags & PMBENCH_CACHEARC_CHECKS_FIRST);
}

int pmbench_cachearc_archiver_version(
	struct pmbench_buf *out, enum pmbench_cachearc_archiver a,
	const struct pmbench_cachearc_compression *cs, size_t nr)
{
	return backend_of(a)->version(out, cs, nr);
}

void pmbench_cachearc_describe(struct pmbench_buf *save,
			       struct pmbench_buf *restore,
			       enum pmbench_cachearc_archiver a,
			       const struct pmbench_cachearc_compression *c)
{
	backend_of(a)->describe(save, restore, c);
}
