/*
 * A child's environment and program (proc.h): deltas applied to a base
 * environment, a variable looked up in deltas, a program found on a
 * PATH.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "pmbench/proc.h"

void pmbench_env_apply(struct pmbench_strvec *out, char *const *base,
		       const struct pmbench_strvec *delta)
{
	for (; base && *base; base++) {
		const char *eq = strchr(*base, '=');
		size_t klen = eq ? (size_t)(eq - *base) : strlen(*base);
		int overridden = 0;

		for (size_t i = 0; i < delta->nr; i++) {
			const char *d = delta->v[i];
			size_t dlen = strcspn(d, "=");

			if (dlen == klen && !strncmp(d, *base, klen)) {
				overridden = 1;
				break;
			}
		}
		if (!overridden)
			pmbench_strvec_push(out, *base);
	}
	for (size_t i = 0; i < delta->nr; i++) {
		const char *d = delta->v[i];
		size_t dlen = strcspn(d, "=");
		int later = 0;

		if (!d[dlen])
			continue; /* an unset */
		/* The last delta for a key wins. */
		for (size_t j = i + 1; j < delta->nr; j++) {
			if (strcspn(delta->v[j], "=") == dlen &&
			    !strncmp(delta->v[j], d, dlen))
				later = 1;
		}
		if (!later)
			pmbench_strvec_push(out, d);
	}
}

const char *pmbench_env_get(const struct pmbench_strvec *env, const char *key)
{
	size_t klen = strlen(key);

	for (size_t i = env->nr; i-- > 0;) {
		const char *e = env->v[i];

		if (!strncmp(e, key, klen) && e[klen] == '=')
			return e + klen + 1;
	}
	return NULL;
}

int pmbench_proc_which(struct pmbench_buf *out, const char *name,
		       const char *path)
{
	struct pmbench_buf cand = PMBENCH_BUF_INIT;
	const char *p;
	int ret = PMBENCH_ENOTFOUND;

	if (strchr(name, '/')) {
		if (access(name, X_OK) < 0)
			goto done;
		pmbench_buf_reset(out);
		pmbench_buf_adds(out, name);
		ret = 0;
		goto done;
	}
	p = path ? path : "/usr/bin:/bin";
	while (*p) {
		size_t n = strcspn(p, ":");
		struct stat st;

		pmbench_buf_reset(&cand);
		if (n)
			pmbench_buf_add(&cand, p, n);
		else
			pmbench_buf_addch(&cand, '.');
		pmbench_buf_addch(&cand, '/');
		pmbench_buf_adds(&cand, name);
		if (!stat(cand.ptr, &st) && S_ISREG(st.st_mode) &&
		    !access(cand.ptr, X_OK)) {
			pmbench_buf_reset(out);
			pmbench_buf_add(out, cand.ptr, cand.len);
			ret = 0;
			goto done;
		}
		p += n;
		if (*p == ':')
			p++;
	}
done:
	pmbench_buf_release(&cand);
	return ret;
}
