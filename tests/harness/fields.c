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
