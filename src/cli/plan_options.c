/*
 * The plan's options: of the rows a command takes, those that change
 * what is measured (every row without OPT_UNMEASURED), with the values
 * given, into a bench result's plan id and its `plan_options`.
 */
#include "pmbench/common.h"

#include "options.h"
#include "pmbench/plan.h"
#include "pmbench/result.h"
#include "pmbench/text.h"

/* Whether `entry` ("name=value") is a value of option `name`. */
static int entry_of(const char *entry, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(entry, name, len) && entry[len] == '=';
}

static void add_row(const struct pmbench_cli_opts *cli,
		    const struct pmbench_option *o,
		    struct pmbench_strvec *hashed, struct pmbench_strvec *shown)
{
	struct pmbench_buf v = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < cli->measured.nr; i++) {
		const char *e = cli->measured.v[i];

		if (!entry_of(e, o->name))
			continue;
		pmbench_strvec_push(hashed, e);
		pmbench_buf_reset(&v);
		if (o->kind == ARG_ENV)
			pmbench_text_env_record(&v, e + strlen(o->name) + 1);
		else
			pmbench_buf_adds(&v, e + strlen(o->name) + 1);
		pmbench_strvec_pushf(shown, "%s=%s", o->name, v.ptr);
	}
	pmbench_buf_release(&v);
}

void pmbench_cli_plan_options(const struct pmbench_cli_opts *cli,
			      struct pmbench_strvec *hashed,
			      struct pmbench_strvec *shown)
{
	for (size_t i = 0; i < pmbench_cli_options_nr(); i++) {
		const struct pmbench_option *o = &pmbench_cli_options()[i];

		if (!(o->flags & OPT_UNMEASURED) &&
		    pmbench_cli_takes(cli->cmd, o))
			add_row(cli, o, hashed, shown);
	}
}

void pmbench_cli_mark_plan(struct pmbench_result *r,
			   const struct pmbench_cli_opts *cli)
{
	struct pmbench_strvec hashed = PMBENCH_STRVEC_INIT;

	pmbench_strvec_release(&r->plan_options);
	pmbench_cli_plan_options(cli, &hashed, &r->plan_options);
	pmbench_plan_set_id(r, &hashed);
	if (r->shards)
		pmbench_plan_host_hash(r);
	pmbench_strvec_release(&hashed);
}
