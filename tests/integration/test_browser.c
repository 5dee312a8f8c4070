/*
 * The HTML report opened in headless Chromium (Debian's chromium, no
 * network, no sandbox): it loads with no console message at all, its DOM
 * holds the charts, and its screenshot is far from blank. The screenshot
 * is kept as an artifact in the build tree:
 * tests/artifacts/report-screenshot.png.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"

static const char *chromium(void)
{
	const char *c = getenv("PMBENCH_CHROMIUM");

	return c && *c ? c : "/usr/bin/chromium";
}

/*
 * Run Chromium on `url` with the extra arguments; its output (stdout and
 * stderr, with the console log) goes to `out`. Returns the exit code.
 */
static int browse(struct pmbench_buf *out, const char *url, const char *extra1,
		  const char *extra2)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf profile = PMBENCH_BUF_INIT;
	int code = -1;

	pmbench_buf_addf(&profile, "--user-data-dir=%s/chromium-profile",
			 check_path("."));
	pmbench_strvec_push(&c.args, chromium());
	pmbench_strvec_pushv(
		&c.args,
		(const char *const[]){
			"--headless", "--no-sandbox", "--disable-gpu",
			"--no-first-run", "--no-default-browser-check",
			"--disable-background-networking",
			"--disable-component-update", "--disable-sync",
			"--disable-extensions", "--enable-logging=stderr",
			"--v=0", "--window-size=1200,900", NULL });
	pmbench_strvec_push(&c.args, profile.ptr);
	if (extra1)
		pmbench_strvec_push(&c.args, extra1);
	if (extra2)
		pmbench_strvec_push(&c.args, extra2);
	pmbench_strvec_push(&c.args, url);
	/*
	 * Not the harness's TMPDIR (the honeypot for pmbench's PMs): in the
	 * deep sandbox, Chromium's singleton socket path would pass the
	 * 108 bytes a Unix socket name may have, and Chromium aborts.
	 */
	pmbench_strvec_push(&c.env, "TMPDIR");
	c.tail_max = 8u << 20;
	c.timeout_ns = 120ull * 1000000000ull;
	if (pmbench_child_run(&c) == 0)
		code = c.result.exit_code;
	pmbench_buf_add(out, c.tail.ptr, c.tail.len);
	pmbench_child_release(&c);
	pmbench_buf_release(&profile);
	return code;
}

/* How many times `needle` is in `hay`. */
static size_t h_count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Lines of Chromium's log that carry a console message of the page. */
static size_t console_lines(const char *log)
{
	size_t n = 0;

	for (const char *p = strstr(log, ":CONSOLE"); p;
	     p = strstr(p + 1, ":CONSOLE"))
		n++;
	return n;
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_size;
}

static int is_png(const char *path)
{
	static const unsigned char sig[8] = { 0x89, 'P',  'N',	'G',
					      '\r', '\n', 0x1a, '\n' };
	unsigned char head[8];
	FILE *f = fopen(path, "rb");
	int ok;

	if (!f)
		return 0;
	ok = fread(head, 1, 8, f) == 8 && !memcmp(head, sig, 8);
	fclose(f);
	return ok;
}

TEST(html_report_renders_in_chromium)
{
	struct pmbench_buf log = PMBENCH_BUF_INIT, arg = PMBENCH_BUF_INIT;
	struct pmbench_buf url = PMBENCH_BUF_INIT;
	struct h_run run;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	const char *sandbox_dir = getenv("PMBENCH_TEST_SANDBOX");
	char sample[4200], html[4200], blank[4200], bad[4200];
	char shot[4200], blank_shot[4200], artifact[4200];
	long long shot_size, blank_size;

	if (access(chromium(), X_OK)) {
		check_fail(
			__FILE__, __LINE__,
			"'%s' not found: install Debian's chromium (ci/setup "
			"does) or set PMBENCH_CHROMIUM",
			chromium());
		return;
	}
	h_setup();
	snprintf(sample, sizeof(sample), "%s/tests/data/sample-result.json",
		 root ? root : ".");
	snprintf(html, sizeof(html), "%s", h_write("report.html", ""));
	snprintf(blank, sizeof(blank), "%s",
		 h_write("blank.html", "<!DOCTYPE html>\n<html><head><meta "
				       "charset=\"utf-8\"><title>blank</title>"
				       "</head><body></body></html>\n"));
	snprintf(bad, sizeof(bad), "%s",
		 h_write("bad.html", "<!DOCTYPE html>\n<html><body><p>x</p>"
				     "<script>undefinedFunction();</script>"
				     "</body></html>\n"));
	snprintf(shot, sizeof(shot), "%s", h_write("report.png", ""));
	snprintf(blank_shot, sizeof(blank_shot), "%s",
		 h_write("blank.png", ""));
	{
		const char *args[] = { "report", sample, "--format", "html",
				       "--out",	 html,	 NULL };

		h_pmbench(&run, args, NULL);
		CHECK_INT(run.exit_code, 0);
		h_run_release(&run);
	}

	/* The detector works: a page with a script error is caught. */
	pmbench_buf_addf(&url, "file://%s", bad);
	CHECK_INT(browse(&log, url.ptr, "--dump-dom", NULL), 0);
	CHECK(console_lines(log.ptr) >= 1);
	CHECK_CONTAINS(log.ptr, "undefinedFunction");

	/* The report: no console message, and the charts in the DOM. */
	pmbench_buf_reset(&log);
	pmbench_buf_reset(&url);
	pmbench_buf_addf(&url, "file://%s", html);
	CHECK_INT(browse(&log, url.ptr, "--dump-dom", NULL), 0);
	if (console_lines(log.ptr)) {
		check_fail(__FILE__, __LINE__, "console messages:\n%s",
			   log.ptr);
		return;
	}
	CHECK_CONTAINS(log.ptr, "<svg class=\"chart time\"");
	CHECK_CONTAINS(log.ptr,
		       "bun is 4.68x (4.30x–4.75x, paired over 5 rounds) "
		       "faster than npm");

	/* Screenshots of the report and of a blank page, the same way. */
	pmbench_buf_reset(&log);
	pmbench_buf_addf(&arg, "--screenshot=%s", shot);
	CHECK_INT(browse(&log, url.ptr, arg.ptr, NULL), 0);
	CHECK_INT(console_lines(log.ptr), 0);
	pmbench_buf_reset(&log);
	pmbench_buf_reset(&arg);
	pmbench_buf_reset(&url);
	pmbench_buf_addf(&arg, "--screenshot=%s", blank_shot);
	pmbench_buf_addf(&url, "file://%s", blank);
	CHECK_INT(browse(&log, url.ptr, arg.ptr, NULL), 0);
	CHECK(is_png(shot));
	CHECK(is_png(blank_shot));
	shot_size = file_size(shot);
	blank_size = file_size(blank_shot);
	fprintf(stderr, "screenshot %lld bytes, blank page %lld bytes\n",
		shot_size, blank_size);
	/*
	 * A compressed PNG grows with what it shows: a white page is a few
	 * KiB, the report's text, charts and colours many times that.
	 */
	CHECK(blank_size > 0);
	CHECK(shot_size > 10 * blank_size);

	/* Keep the screenshot where CI can pick it up. */
	snprintf(artifact, sizeof(artifact), "%s/artifacts",
		 sandbox_dir ? sandbox_dir : ".");
	CHECK_INT(pmbench_fs_mkdirp(artifact, 0755), 0);
	snprintf(artifact, sizeof(artifact),
		 "%s/artifacts/report-screenshot.png",
		 sandbox_dir ? sandbox_dir : ".");
	CHECK_INT(pmbench_fs_copyfile(shot, artifact), 0);
	pmbench_buf_release(&log);
	pmbench_buf_release(&arg);
	pmbench_buf_release(&url);
}

/*
 * Where the time went (tests/data/timeline-result.json, a real bench of
 * npm, pnpm and bun on todo-api, two scenarios): the phases' stacked
 * bars and the request waterfalls render, each scenario's overview on
 * its own axis, nothing on the console; the page's screenshot (its top:
 * the overview) is far from blank, and kept as
 * tests/artifacts/timeline-screenshot.png. The charts have anchors
 * (#waterfall), which docs/screenshots.sh photographs on their own.
 */
TEST(timeline_renders_in_chromium)
{
	struct pmbench_buf log = PMBENCH_BUF_INIT, url = PMBENCH_BUF_INIT;
	struct pmbench_buf arg = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	const char *sandbox_dir = getenv("PMBENCH_TEST_SANDBOX");
	char data[4200], html[4200], shot[4200], artifact[4200];
	struct h_run run;

	if (access(chromium(), X_OK)) {
		check_fail(__FILE__, __LINE__, "'%s' not found", chromium());
		return;
	}
	h_setup();
	snprintf(data, sizeof(data), "%s/tests/data/timeline-result.json",
		 root ? root : ".");
	snprintf(html, sizeof(html), "%s", h_write("timeline.html", ""));
	snprintf(shot, sizeof(shot), "%s", h_write("timeline.png", ""));
	{
		const char *args[] = { "report", data, "--format", "html",
				       "--out",	 html, NULL };

		h_pmbench(&run, args, NULL);
		CHECK_INT(run.exit_code, 0);
		h_run_release(&run);
	}
	pmbench_buf_addf(&url, "file://%s", html);
	CHECK_INT(browse(&log, url.ptr, "--dump-dom", NULL), 0);
	if (console_lines(log.ptr)) {
		check_fail(__FILE__, __LINE__, "console messages:\n%s",
			   log.ptr);
		return;
	}
	CHECK_INT(h_count(log.ptr, "<svg class=\"chart overview\""), 2);
	CHECK_INT(h_count(log.ptr, "<svg class=\"chart phases\""), 2);
	CHECK_INT(h_count(log.ptr, "<svg class=\"chart waterfall\""), 2);
	CHECK_CONTAINS(log.ptr, "<a id=\"waterfall\"></a>");
	CHECK_CONTAINS(log.ptr, "abbreviated packument");
	CHECK_CONTAINS(log.ptr, "npm: 1.68 s of 3.79 s in 202 registry "
				"requests with an empty cache");
	pmbench_buf_reset(&log);
	pmbench_buf_addf(&arg, "--screenshot=%s", shot);
	CHECK_INT(browse(&log, url.ptr, arg.ptr, NULL), 0);
	CHECK_INT(console_lines(log.ptr), 0);
	CHECK(is_png(shot));
	/* A blank page's screenshot is about 5 KiB (the test above). */
	CHECK(file_size(shot) > 40000);
	snprintf(artifact, sizeof(artifact), "%s/artifacts",
		 sandbox_dir ? sandbox_dir : ".");
	CHECK_INT(pmbench_fs_mkdirp(artifact, 0755), 0);
	snprintf(artifact, sizeof(artifact),
		 "%s/artifacts/timeline-screenshot.png",
		 sandbox_dir ? sandbox_dir : ".");
	CHECK_INT(pmbench_fs_copyfile(shot, artifact), 0);
	pmbench_buf_release(&log);
	pmbench_buf_release(&url);
	pmbench_buf_release(&arg);
}

/*
 * The history of tests/data/history (four dated results of the fake npm
 * and bun, npm 11.1.0 slower from the third): its trend charts render,
 * the change ringed, and nothing on the console.
 */
TEST(history_renders_in_chromium)
{
	struct pmbench_buf log = PMBENCH_BUF_INIT, url = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	char dir[4200], html[4200];
	struct h_run run;

	if (access(chromium(), X_OK)) {
		check_fail(__FILE__, __LINE__, "'%s' not found", chromium());
		return;
	}
	h_setup();
	snprintf(dir, sizeof(dir), "%s/tests/data/history", root ? root : ".");
	snprintf(html, sizeof(html), "%s", h_write("history.html", ""));
	{
		const char *args[] = { "history", dir, "--out", html, NULL };

		h_pmbench(&run, args, NULL);
		CHECK_INT(run.exit_code, 0);
		h_run_release(&run);
	}
	pmbench_buf_addf(&url, "file://%s", html);
	CHECK_INT(browse(&log, url.ptr, "--dump-dom", NULL), 0);
	if (console_lines(log.ptr)) {
		check_fail(__FILE__, __LINE__, "console messages:\n%s",
			   log.ptr);
		return;
	}
	CHECK_CONTAINS(log.ptr, "<svg class=\"chart trend\"");
	CHECK_CONTAINS(log.ptr, "class=\"change\"");
	CHECK_CONTAINS(log.ptr, "11.0.0 → 11.1.0; slower");
	pmbench_buf_release(&log);
	pmbench_buf_release(&url);
}

CHECK_MAIN(CASE(html_report_renders_in_chromium),
	   CASE(timeline_renders_in_chromium),
	   CASE(history_renders_in_chromium))
