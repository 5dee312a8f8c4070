/*
 * Online: the dev and hmr tasks on the embedded Vite app's folder (no
 * manifest: the framework table supplies Vite's port and host
 * arguments, its ready line and the file an hmr edit touches), with the
 * real npm and bun of the pinned toolchain and its pinned Node.
 */
#include "pmbench/common.h"

#include <stdlib.h>

#include "check.h"
#include "harness.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

TEST(dev_and_hmr_on_the_vite_app_folder)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	const char *src = getenv("PMBENCH_SOURCE_DIR");
	struct h_run run;
	char out[4200];
	pid_t *pids;

	h_setup();
	h_real_pms();
	pmbench_buf_addf(&dir, "%s/fixtures/apps/vite-react-ts",
			 src ? src : ".");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	h_pmbench(&run,
		  (const char *const[]){ "bench", "--pm", "npm,bun", "--task",
					 "dev,hmr", "--runs", "2", "--warmup",
					 "0", "--edits", "3", "--timeout", "5m",
					 "--out", out, dir.ptr, NULL },
		  NULL);
	fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	for (int i = 0; i < 4; i++) {
		const char *task = i < 2 ? "dev" : "hmr";
		const char *pm = i % 2 ? "bun" : "npm";
		const struct pmbench_cell *c = pmbench_result_find_cell(
			&r, "vite-react-ts", task,
			"cache+lockfile+node_modules", pm);
		double v = 0;

		CHECK(c && c->samples_nr == 2);
		CHECK(c->samples[0].ok && c->samples[1].ok);
		/* Vite's arguments came from the table. */
		CHECK(pmbench_strvec_find(&c->command, "--strictPort") >= 0);
		CHECK(c->runtime && !strncmp(c->runtime, "node v", 6));
		if (i >= 2) {
			CHECK(pmbench_sample_metric_get(&c->samples[0],
							"hmr_edits_count", &v));
			CHECK(v == 3);
		}
	}
	CHECK_INT(pmbench_proc_descendants(&pids), 0);
	free(pids);
	pmbench_result_release(&r);
	pmbench_buf_release(&dir);
	h_run_release(&run);
}

CHECK_MAIN(CASE(dev_and_hmr_on_the_vite_app_folder))
