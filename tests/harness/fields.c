#include "pmbench/common.h"

#include "fields.h"
#include "pmbench/result.h"

const char *h_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

double h_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

int h_flag(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

double h_metric(const struct pmbench_sample *s, const char *name)
{
	double v = -1;

	if (!s || !pmbench_sample_metric_get(s, name, &v))
		return -1;
	return v;
}

int h_data_result(struct pmbench_result *r, const char *name)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, rel = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	int ret;

	pmbench_buf_addf(&rel, "tests/data/%s", name);
	pmbench_buf_path(&path, root ? root : ".", rel.ptr);
	ret = pmbench_result_read(r, path.ptr);
	pmbench_buf_release(&path);
	pmbench_buf_release(&rel);
	return ret;
}

const char *h_cell_env(const struct pmbench_cell *c, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; c && i < c->env.nr; i++)
		if (!strncmp(c->env.v[i], name, n) && c->env.v[i][n] == '=')
			return c->env.v[i] + n + 1;
	return NULL;
}

const struct pmbench_result_pm *h_found_pm(const struct pmbench_result *r,
					   const char *name)
{
	for (size_t i = 0; i < r->found_nr; i++)
		if (!strcmp(r->found[i].name, name))
			return &r->found[i];
	return NULL;
}
