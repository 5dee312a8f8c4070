/*
 * The dev-server table (include/pmbench/framework.h): how each dev
 * server is recognised, put on pmbench's port and host, and edited for
 * hmr. The arguments and ready lines are those the servers' own
 * documentation gives (`vite --port --strictPort --host`, `next dev -p
 * -H`, `astro dev --port --host`, `webpack serve --port --host`,
 * `vue-cli-service serve --port --host`); --strictPort makes Vite fail
 * instead of moving to the next port when pmbench's is taken.
 */
#include "pmbench/common.h"

#include <cjson/cJSON.h>

#include "pmbench/framework.h"
#include "pmbench/fs.h"

#define L(...)		 ((const char *const[]){ __VA_ARGS__, NULL })
#define PACKAGE_JSON_MAX (16u << 20)

const struct pmbench_framework pmbench_frameworks[] = {
	{
		.name = "sveltekit",
		.title = "SvelteKit (Vite)",
		.commands = L("svelte-kit"),
		/* Its dev script is `vite dev`: the dependency tells. */
		.via = "vite",
		.deps = L("@sveltejs/kit"),
		.args = "--port {port} --strictPort --host 127.0.0.1",
		.ready = "ready in",
		.hmr_files = L("src/routes/+page.svelte"),
		.hmr_path = "",
	},
	{
		.name = "astro",
		.title = "Astro",
		.commands = L("astro"),
		.deps = L("astro"),
		.args = "--port {port} --host 127.0.0.1",
		.ready = "ready in",
		/* The page is rendered per request: its HTML shows the edit. */
		.hmr_files = L("src/pages/index.astro"),
		.hmr_path = "/",
	},
	{
		.name = "next",
		.title = "Next.js",
		.commands = L("next"),
		.deps = L("next"),
		.args = "-p {port} -H 127.0.0.1",
		.ready = "Ready in",
		.hmr_files = L("app/page.tsx", "app/page.jsx", "app/page.js",
			       "src/app/page.tsx", "pages/index.tsx",
			       "pages/index.jsx", "pages/index.js"),
		.hmr_path = "/",
	},
	{
		.name = "vue-cli",
		.title = "Vue CLI",
		.commands = L("vue-cli-service"),
		.deps = L("@vue/cli-service"),
		.args = "--port {port} --host 127.0.0.1",
		.ready = "App running at",
		/* webpack's in-memory bundle holds every module. */
		.hmr_files = L("src/App.vue", "src/main.js", "src/main.ts"),
		.hmr_path = "/js/app.js",
	},
	{
		.name = "webpack-dev-server",
		.title = "webpack-dev-server",
		.commands = L("webpack-dev-server", "webpack"),
		.deps = L("webpack-dev-server"),
		.args = "--port {port} --host 127.0.0.1",
		.ready = "compiled successfully",
		.hmr_files = L("src/index.js", "src/index.jsx", "src/index.ts",
			       "src/index.tsx", "src/main.js"),
		.hmr_path = "/main.js",
	},
	{
		.name = "vite",
		.title = "Vite",
		.commands = L("vite"),
		.deps = L("vite"),
		.args = "--port {port} --strictPort --host 127.0.0.1",
		.ready = "ready in",
		/* Vite serves each module at its own path. */
		.hmr_files = L("src/App.tsx", "src/App.jsx", "src/App.vue",
			       "src/App.svelte", "src/App.ts", "src/App.js",
			       "src/main.tsx", "src/main.ts", "src/main.js"),
		.hmr_path = "",
	},
};

const size_t pmbench_frameworks_nr = PMBENCH_ARRAY_SIZE(pmbench_frameworks);

const struct pmbench_framework *pmbench_framework_get(const char *name)
{
	for (size_t i = 0; name && i < pmbench_frameworks_nr; i++)
		if (!strcmp(pmbench_frameworks[i].name, name))
			return &pmbench_frameworks[i];
	return NULL;
}

/*
 * Whether `word` is a word of `cmd`: bounded by the start, the end, a
 * blank, a shell operator or a path separator (node_modules/.bin/vite).
 */
static int has_word(const char *cmd, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(cmd, word); p; p = strstr(p + 1, word)) {
		int left = p == cmd || strchr(" \t/;&|(\"'", p[-1]);
		int right = !p[n] || strchr(" \t;&|)\"'", p[n]);

		if (left && right)
			return 1;
	}
	return 0;
}

static int has_dep(const cJSON *root, const char *name)
{
	static const char *const sections[] = { "dependencies",
						"devDependencies" };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(sections); i++) {
		const cJSON *d =
			cJSON_GetObjectItemCaseSensitive(root, sections[i]);

		if (cJSON_IsObject(d) &&
		    cJSON_GetObjectItemCaseSensitive(d, name))
			return 1;
	}
	return 0;
}

static int matches(const struct pmbench_framework *fw, const char *cmd,
		   const cJSON *root, int pass)
{
	const struct pmbench_framework *via = pmbench_framework_get(fw->via);
	int by_cmd = 0, by_via = 0, by_dep = 0;

	for (const char *const *c = fw->commands; !by_cmd && *c; c++)
		by_cmd = has_word(cmd, *c);
	for (const char *const *c = via ? via->commands : NULL;
	     !by_via && c && *c; c++)
		by_via = has_word(cmd, *c);
	for (const char *const *d = fw->deps; !by_dep && *d; d++)
		by_dep = has_dep(root, *d);
	if (pass == 0)
		return (by_cmd || by_via) && by_dep;
	return pass == 1 ? by_cmd : by_dep;
}

const struct pmbench_framework *pmbench_framework_detect(const char *project,
							 const char *script)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	const struct pmbench_framework *fw = NULL;
	const cJSON *cmd;
	cJSON *root = NULL;

	if (!project || !script)
		return NULL;
	pmbench_buf_path(&path, project, "package.json");
	if (pmbench_fs_read_text(&text, path.ptr, PACKAGE_JSON_MAX) < 0) {
		pmbench_error_clear();
		goto done;
	}
	root = cJSON_Parse(text.ptr);
	cmd = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "scripts"), script);
	if (!cJSON_IsString(cmd))
		goto done;
	/* Command and dependency, then the command, then the dependency. */
	for (int pass = 0; !fw && pass < 3; pass++)
		for (size_t i = 0; !fw && i < pmbench_frameworks_nr; i++)
			if (matches(&pmbench_frameworks[i], cmd->valuestring,
				    root, pass))
				fw = &pmbench_frameworks[i];
done:
	cJSON_Delete(root);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return fw;
}

int pmbench_framework_hmr_target(struct pmbench_buf *file,
				 struct pmbench_buf *path,
				 const struct pmbench_framework *fw,
				 const char *project)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret = PMBENCH_ENOTFOUND;

	for (const char *const *f = fw ? fw->hmr_files : NULL; f && *f; f++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, *f);
		if (!pmbench_fs_isfile(p.ptr))
			continue;
		pmbench_buf_adds(file, *f);
		if (fw->hmr_path[0])
			pmbench_buf_adds(path, fw->hmr_path);
		else
			pmbench_buf_addf(path, "/%s", *f);
		ret = 0;
		break;
	}
	pmbench_buf_release(&p);
	return ret;
}
