/*
 * The plan of a sharded benchmark: `--shard K/N`, the canonical text of
 * what is measured, its hash, and the machine's hashed name.
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <unistd.h>

#include "pmbench/plan.h"
#include "pmbench/result.h"

/* Shards beyond this are a typing error, not a CI matrix. */
#define MAX_SHARDS 1000

int pmbench_plan_parse_shard(unsigned *k, unsigned *n, const char *arg)
{
	unsigned long a, b;
	char *end;

	errno = 0;
	if (!arg || !isdigit((unsigned char)*arg))
		goto bad;
	a = strtoul(arg, &end, 10);
	if (errno || *end != '/' || !isdigit((unsigned char)end[1]))
		goto bad;
	b = strtoul(end + 1, &end, 10);
	if (errno || *end || !a || !b || a > b || b > MAX_SHARDS)
		goto bad;
	*k = (unsigned)a;
	*n = (unsigned)b;
	return 0;
bad:
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "invalid --shard '%s': expected K/N with "
				  "1 <= K <= N <= %d, e.g. 2/3",
				  arg ? arg : "", MAX_SHARDS);
}

int pmbench_plan_round_owner(const struct pmbench_result *r, unsigned round)
{
	unsigned timed;

	if (round < r->warmup)
		return PMBENCH_PLAN_WARMUP;
	timed = round - r->warmup;
	if (timed >= r->runs)
		return PMBENCH_PLAN_BEYOND;
	return r->shards ? (int)(timed % r->shards) + 1 : 0;
}

static void add_list(struct pmbench_buf *out, const char *key,
		     const struct pmbench_strvec *v)
{
	pmbench_buf_addf(out, "%s=", key);
	for (size_t i = 0; i < v->nr; i++)
		pmbench_buf_addf(out, "%s%s", i ? "," : "", v->v[i]);
	pmbench_buf_addch(out, '\n');
}

static const char *or_none(const char *s)
{
	return s ? s : "-";
}

void pmbench_plan_text(struct pmbench_buf *out, const struct pmbench_result *r,
		       const struct pmbench_strvec *extra)
{
	for (size_t i = 0; i < r->fixtures_nr; i++) {
		const struct pmbench_result_fixture *f = &r->fixtures[i];

		pmbench_buf_addf(out, "fixture=%s %s %s %s\n", or_none(f->name),
				 or_none(f->repo), or_none(f->commit),
				 or_none(f->subdir));
	}
	add_list(out, "pms", &r->pms);
	add_list(out, "scenarios", &r->scenarios);
	add_list(out, "tasks", &r->tasks);
	pmbench_buf_addf(out, "runs=%u\nwarmup=%u\ntimeout_ns=%llu\n", r->runs,
			 r->warmup, (unsigned long long)r->timeout_ns);
	pmbench_buf_addf(out, "runs_auto=%d\nshards=%u\n", r->runs_auto,
			 r->shards);
	for (size_t i = 0; extra && i < extra->nr; i++)
		pmbench_buf_addf(out, "%s\n", extra->v[i]);
}

void pmbench_plan_hash(struct pmbench_buf *out, const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= s[i];
		h *= 0x100000001b3ull;
	}
	pmbench_buf_addf(out, "%016llx", (unsigned long long)h);
}

void pmbench_plan_set_id(struct pmbench_result *r,
			 const struct pmbench_strvec *extra)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, id = PMBENCH_BUF_INIT;

	pmbench_plan_text(&text, r, extra);
	pmbench_plan_hash(&id, text.ptr, text.len);
	free(r->plan_id);
	r->plan_id = pmbench_buf_detach(&id);
	pmbench_buf_release(&text);
}

void pmbench_plan_host_hash(struct pmbench_result *r)
{
	struct pmbench_buf id = PMBENCH_BUF_INIT;
	char name[256];

	if (gethostname(name, sizeof(name)) < 0)
		return;
	name[sizeof(name) - 1] = '\0';
	pmbench_plan_hash(&id, name, strlen(name));
	pmbench_result_env_set(r, "host_hash", id.ptr);
	pmbench_buf_release(&id);
}
