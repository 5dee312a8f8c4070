#include "pmbench/common.h"

#include <ctype.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/strvec.h"

int check_failures;
const char *check_current;
static int case_failed, case_skipped;
static char sandbox[4096];
/* A check_sandbox_tmp() folder to remove when the case ends, or "". */
static char tmp_sandbox[4096];
/* The test program's name: cases of two programs run in parallel by
 * ctest may share a name, so each program gets a folder of its own. */
static const char *program = "test";
static char pathbuf[4096];

void check_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "FAIL %s (%s:%d): ", check_current, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	case_failed = 1;
}

/*
 * Append "TEST<tab>CASE<tab>" and the rest to the file the environment
 * variable `env` names, if it names one (ci/test.sh reads them at the
 * end); `what` names the line in an error. TEST is ctest's name for the
 * program. One write: the programs ctest runs at once append to one file.
 */
static void note_line(const char *env, const char *what, const char *fmt, ...)
	PMBENCH_PRINTF(3, 4);
static void note_line(const char *env, const char *what, const char *fmt, ...)
{
	const char *path = getenv(env);
	const char *test = getenv("PMBENCH_TEST_NAME");
	char line[1024];
	va_list ap;
	int fd, n, m;

	if (!path || !*path)
		return;
	n = snprintf(line, sizeof(line), "%.200s\t%.200s\t",
		     test && *test ? test : program, check_current);
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n += m;
	if (n >= (int)sizeof(line)) {
		n = (int)sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0 || write(fd, line, (size_t)n) != n)
		fprintf(stderr, "cannot note the %s in '%s': %s\n", what, path,
			strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* Note a skip in the file ci/test.sh lists at the end, if it named one. */
static void note_skip(const char *reason)
{
	note_line("PMBENCH_TEST_SKIPS", "skip", "%s\n", reason);
}

void check_skip(const char *file, int line, const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	for (char *p = reason; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
	fprintf(stderr, "skip %s (%s:%d): %s\n", check_current, file, line,
		reason);
	if (!case_failed && !case_skipped)
		note_skip(reason);
	case_skipped = 1;
}

int check_skipped(void)
{
	return case_skipped;
}

int check_failed(void)
{
	return case_failed;
}

int check_unprivileged(int (*fn)(void))
{
	int status;
	pid_t pid;

	if (geteuid())
		return fn();
	if (chown(check_path(""), 65534, 65534) < 0)
		pmbench_die("chown: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		pmbench_die("fork: %s", strerror(errno));
	if (!pid) {
		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 ||
		    setuid(65534) < 0)
			_exit(CHECK_SKIP_CODE);
		status = fn();
		fflush(NULL);
		_exit(status);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * The test's own cgroup v2 folder into `out`: the first cgroup2 mount and
 * the "0::" line of /proc/self/cgroup (read here, not by the reaper's
 * code under test). NULL, or why not.
 */
static const char *own_cgroup2(char *out, size_t n)
{
	char line[4096], root[1024] = "", mnt[1024] = "", path[2048] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");
	size_t rlen;

	while (f && !mnt[0] && fgets(line, sizeof(line), f))
		if (strstr(line, " - cgroup2 ") &&
		    sscanf(line, "%*s %*s %*s %1023s %1023s", root, mnt) != 2)
			mnt[0] = '\0';
	if (f)
		fclose(f);
	f = fopen("/proc/self/cgroup", "re");
	while (f && !path[0] && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::/", 4))
			snprintf(path, sizeof(path), "%.*s",
				 (int)strcspn(line + 3, "\n"), line + 3);
	if (f)
		fclose(f);
	if (!mnt[0])
		return "no cgroup v2 hierarchy is mounted";
	rlen = strcmp(root, "/") ? strlen(root) : 0;
	if (!path[0] || strncmp(path, root, rlen))
		return "the test's cgroup is not in the mounted hierarchy";
	snprintf(out, n, "%s%s", mnt,
		 strcmp(path + rlen, "/") ? path + rlen : "");
	return NULL;
}

/* Give the cgroup `dir` to nobody; 0, or -1 (errno). */
static int delegate(const char *dir)
{
	static const char *const files[] = { "", "/cgroup.procs",
					     "/cgroup.subtree_control",
					     "/cgroup.threads" };
	char path[4300];

	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		snprintf(path, sizeof(path), "%s%s", dir, files[i]);
		if (chown(path, 65534, 65534) < 0)
			return -1;
	}
	return 0;
}

/* The child of check_delegated(): into `dir`, nobody, then fn. */
PMBENCH_NORETURN static void delegated_child(const char *dir, int (*fn)(void))
{
	char path[4300];
	int fd, status;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "0", 1) != 1) {
		fprintf(stderr, "cannot enter %s: %s\n", dir, strerror(errno));
		_exit(1);
	}
	close(fd);
	if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
		_exit(CHECK_SKIP_CODE);
	status = fn();
	fflush(NULL);
	_exit(status);
}

/* Remove the delegated `dir` once what fn left in it is gone (10 s). */
static int undelegate(const char *dir)
{
	for (int i = 0; i < 1000; i++) {
		if (!rmdir(dir))
			return 0;
		if (errno != EBUSY && errno != ENOTEMPTY)
			break;
		usleep(10000);
	}
	fprintf(stderr, "the delegated cgroup %s is not empty after 10 s: %s\n",
		dir, strerror(errno));
	return -1;
}

/* Not root: fn as is if the user's own cgroup `own` is theirs. */
static int own_delegated(const char *own, int (*fn)(void), char *why,
			 size_t why_size)
{
	char procs[4300];

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", own);
	if (access(own, W_OK) < 0 || access(procs, W_OK) < 0) {
		snprintf(why, why_size,
			 "not root, and the user's cgroup %s is not theirs",
			 own);
		return CHECK_SKIP_CODE;
	}
	return fn();
}

int check_delegated(int (*fn)(void), char *why, size_t why_size)
{
	char own[4096], dir[4200];
	const char *no;
	int status = -1;
	pid_t pid;

	no = own_cgroup2(own, sizeof(own));
	if (no) {
		snprintf(why, why_size, "%s", no);
		return CHECK_SKIP_CODE;
	}
	if (geteuid())
		return own_delegated(own, fn, why, why_size);
	snprintf(dir, sizeof(dir), "%s/pmbench-check-%ld", own, (long)getpid());
	if (mkdir(dir, 0755) < 0 || delegate(dir) < 0) {
		snprintf(why, why_size, "cannot delegate a cgroup in %s: %s",
			 own, strerror(errno));
		rmdir(dir);
		return CHECK_SKIP_CODE;
	}
	if (chown(check_path(""), 65534, 65534) < 0)
		pmbench_die("chown: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		pmbench_die("fork: %s", strerror(errno));
	if (!pid)
		delegated_child(dir, fn);
	if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		status = WEXITSTATUS(status);
	else
		status = -1;
	if (undelegate(dir) < 0 && status == 0)
		status = 1;
	return status;
}

static int rm_entry(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* The tests' own rm -rf and mkdir -p, so that they do not depend on the
 * fs module they test. */
static void reset_dir(const char *path)
{
	char tmp[4096];

	if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 &&
	    errno != ENOENT)
		pmbench_die("cannot remove '%s': %s", path, strerror(errno));
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			pmbench_die("cannot make '%s': %s", tmp,
				    strerror(errno));
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		pmbench_die("cannot make '%s': %s", tmp, strerror(errno));
}

const char *check_sandbox(void)
{
	const char *root = getenv("PMBENCH_TEST_SANDBOX");
	char cwd[4096];

	if (!root) {
		if (!getcwd(cwd, sizeof(cwd)))
			pmbench_die("getcwd failed");
		root = cwd;
	}
	if (snprintf(sandbox, sizeof(sandbox), "%s/sandbox/%s/%s", root,
		     program, check_current) >= (int)sizeof(sandbox))
		pmbench_die("sandbox path too long");
	reset_dir(sandbox);
	return sandbox;
}

/* Remove the case's /tmp sandbox, if it made one; 0 or -1. */
static int remove_tmp_sandbox(void)
{
	int ret = 0;

	if (!tmp_sandbox[0])
		return 0;
	if (nftw(tmp_sandbox, rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0) {
		fprintf(stderr, "cannot remove '%s': %s\n", tmp_sandbox,
			strerror(errno));
		ret = -1;
	}
	tmp_sandbox[0] = '\0';
	return ret;
}

const char *check_sandbox_tmp(void)
{
	char tmpl[] = "/tmp/pmbench-check-XXXXXX";

	if (remove_tmp_sandbox() < 0)
		pmbench_die("cannot remove the previous /tmp sandbox");
	if (!mkdtemp(tmpl))
		pmbench_die("mkdtemp '%s': %s", tmpl, strerror(errno));
	/* mkdtemp makes it 0700: others must enter it. */
	if (chmod(tmpl, 0755) < 0)
		pmbench_die("chmod '%s': %s", tmpl, strerror(errno));
	snprintf(tmp_sandbox, sizeof(tmp_sandbox), "%s", tmpl);
	snprintf(sandbox, sizeof(sandbox), "%s", tmpl);
	return sandbox;
}

const char *check_path(const char *name)
{
	/* Without one, "/name": a test as root wrote into / (unit_proc). */
	if (!sandbox[0])
		pmbench_die("%s: check_path(\"%s\") before check_sandbox()",
			    check_current, name);
	if (snprintf(pathbuf, sizeof(pathbuf), "%s/%s", sandbox, name) >=
	    (int)sizeof(pathbuf))
		pmbench_die("test path too long");
	return pathbuf;
}

const char *check_write(const char *name, const char *text)
{
	const char *p = check_path(name);
	FILE *f;

	f = fopen(p, "w");
	if (!f)
		pmbench_die("cannot write '%s'", p);
	fputs(text, f);
	fclose(f);
	return p;
}

/*
 * Whether the case `name` runs: the arguments name the cases to run (all
 * when none does), and "-NAME" one to leave out (what another ctest test
 * runs, tests/CMakeLists.txt).
 */
static int selected(const char *name, int argc, char **argv)
{
	int some = 0, in = 0;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-') {
			if (!strcmp(argv[i] + 1, name))
				return 0;
			continue;
		}
		some = 1;
		in |= !strcmp(argv[i], name);
	}
	return !some || in;
}

/* Every case the arguments name is one: a typo must not run nothing. */
static int unknown_cases(const struct check_case *cases, size_t n, int argc,
			 char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		const char *want = argv[i] + (argv[i][0] == '-');
		size_t k = 0;

		while (k < n && strcmp(cases[k].name, want))
			k++;
		if (k == n) {
			fprintf(stderr, "no case named '%s'\n", want);
			bad = 1;
		}
	}
	return bad;
}

/*
 * The CPU seconds this program and its waited-for children (pmbench, the
 * PMs, verdaccio: every process the case's tools reaped) have used.
 */
static double cpu_seconds(void)
{
	struct rusage u[2];
	double s = 0;

	if (getrusage(RUSAGE_SELF, &u[0]) || getrusage(RUSAGE_CHILDREN, &u[1]))
		return 0;
	for (int i = 0; i < 2; i++)
		s += (double)u[i].ru_utime.tv_sec +
		     u[i].ru_utime.tv_usec / 1e6 +
		     (double)u[i].ru_stime.tv_sec + u[i].ru_stime.tv_usec / 1e6;
	return s;
}

/*
 * Note a case's wall and CPU time in the file ci/test.sh sums at the end
 * (PMBENCH_TEST_CPU: one "TEST<tab>CASE<tab>wall<tab>CPU" line per case):
 * which tests the suite's CPU goes to.
 */
static void note_cost(double wall, double cpu)
{
	note_line("PMBENCH_TEST_CPU", "case's cost", "%.2f\t%.2f\n", wall, cpu);
}

/* Run one case: its sandbox, its checks, its times. */
static void run_case(const struct check_case *c)
{
	uint64_t t0 = pmbench_now_ns();
	double c0 = cpu_seconds(), wall, cpu;

	check_current = c->name;
	case_failed = case_skipped = 0;
	sandbox[0] = '\0';
	pmbench_error_clear();
	c->fn();
	if (remove_tmp_sandbox() < 0)
		case_failed = 1;
	wall = (double)(pmbench_now_ns() - t0) / 1e9;
	cpu = cpu_seconds() - c0;
	note_cost(wall, cpu);
	/* The times say which case to make faster; never checked. */
	fprintf(stderr, "%s %s (%.2f s, %.2f CPU-s)\n",
		case_failed    ? "not ok"
		: case_skipped ? "skipped"
			       : "ok",
		c->name, wall, cpu);
}

int check_run(const struct check_case *cases, size_t n, int argc, char **argv)
{
	size_t ran = 0, failed = 0, skipped = 0;

	if (argc > 0 && argv[0] && *argv[0]) {
		const char *slash = strrchr(argv[0], '/');

		program = slash ? slash + 1 : argv[0];
	}
	if (unknown_cases(cases, n, argc, argv))
		return 1;
	for (size_t i = 0; i < n; i++) {
		if (!selected(cases[i].name, argc, argv))
			continue;
		run_case(&cases[i]);
		ran++;
		if (case_failed)
			failed++;
		else if (case_skipped)
			skipped++;
	}
	printf("%zu passed, %zu failed, %zu skipped\n", ran - failed - skipped,
	       failed, skipped);
	if (failed || !ran)
		return 1;
	return skipped ? CHECK_SKIP_CODE : 0;
}

/* ---- Readers of what pmbench writes ------------------------------------ */

int check_csv_parse(struct pmbench_strvec **rows, size_t *nr, const char *s)
{
	struct pmbench_buf f = PMBENCH_BUF_INIT;
	struct pmbench_strvec row = PMBENCH_STRVEC_INIT;
	int ret = -1;

	*rows = NULL;
	*nr = 0;
	while (*s) {
		pmbench_buf_reset(&f);
		if (*s == '"') {
			for (s++;; s++) {
				if (!*s)
					goto done;
				if (*s == '"' && s[1] == '"') {
					pmbench_buf_addch(&f, '"');
					s++;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					pmbench_buf_addch(&f, *s);
				}
			}
		} else {
			while (*s && *s != ',' && *s != '\r' && *s != '\n') {
				if (*s == '"')
					goto done;
				pmbench_buf_addch(&f, *s++);
			}
		}
		pmbench_strvec_push(&row, f.ptr);
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\r')
			s++;
		if (*s && *s != '\n')
			goto done;
		if (*s)
			s++;
		*rows = pmbench_xrealloc(*rows, (*nr + 1) * sizeof(**rows));
		(*rows)[(*nr)++] = row;
		pmbench_strvec_init(&row);
	}
	ret = 0;
done:
	pmbench_strvec_release(&row);
	pmbench_buf_release(&f);
	return ret;
}

void check_csv_free(struct pmbench_strvec *rows, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		pmbench_strvec_release(&rows[i]);
	free(rows);
}

struct xml {
	const char *p;
	struct pmbench_buf *text;
	const char *why;
};

static int xml_name(struct xml *x, struct pmbench_buf *name)
{
	const char *start = x->p;

	while (isalnum((unsigned char)*x->p) || strchr("-_:.", *x->p))
		x->p++;
	if (x->p == start) {
		x->why = "expected a name";
		return -1;
	}
	if (name) {
		pmbench_buf_reset(name);
		pmbench_buf_add(name, start, (size_t)(x->p - start));
	}
	return 0;
}

static void xml_space(struct xml *x)
{
	while (*x->p == ' ' || *x->p == '\n' || *x->p == '\t' || *x->p == '\r')
		x->p++;
}

/* Text up to '<' or the quote `end`, entities decoded into `out`. */
static int xml_chars(struct xml *x, char end, struct pmbench_buf *out)
{
	static const char *const ents[][2] = { { "&amp;", "&" },
					       { "&lt;", "<" },
					       { "&gt;", ">" },
					       { "&quot;", "\"" },
					       { "&#39;", "'" } };

	while (*x->p && *x->p != '<' && *x->p != end) {
		size_t k;

		if (*x->p != '&') {
			if (out)
				pmbench_buf_addch(out, *x->p);
			x->p++;
			continue;
		}
		for (k = 0; k < PMBENCH_ARRAY_SIZE(ents); k++)
			if (!strncmp(x->p, ents[k][0], strlen(ents[k][0])))
				break;
		if (k < PMBENCH_ARRAY_SIZE(ents)) {
			if (out)
				pmbench_buf_adds(out, ents[k][1]);
			x->p += strlen(ents[k][0]);
		} else if (x->p[1] == '#' && isdigit((unsigned char)x->p[2])) {
			x->p += 2;
			while (isdigit((unsigned char)*x->p))
				x->p++;
			if (*x->p++ != ';') {
				x->why = "bad character reference";
				return -1;
			}
		} else {
			x->why = "a bare '&'";
			return -1;
		}
	}
	if (end && *x->p == '<') {
		x->why = "'<' in an attribute value";
		return -1;
	}
	return 0;
}

static int xml_element(struct xml *x, struct pmbench_buf *root, int depth)
{
	struct pmbench_buf name = PMBENCH_BUF_INIT, close = PMBENCH_BUF_INIT;
	int ret = -1;

	if (depth > 64 || *x->p != '<') {
		x->why = depth > 64 ? "nested too deep" : "expected '<'";
		goto done;
	}
	x->p++;
	if (xml_name(x, &name) < 0)
		goto done;
	if (root)
		pmbench_buf_add(root, name.ptr, name.len);
	for (;;) {
		xml_space(x);
		if (*x->p == '/' || *x->p == '>')
			break;
		if (xml_name(x, NULL) < 0)
			goto done;
		xml_space(x);
		if (*x->p != '=') {
			x->why = "an attribute without '='";
			goto done;
		}
		x->p++;
		xml_space(x);
		if (*x->p != '"') {
			x->why = "an attribute without a quoted value";
			goto done;
		}
		x->p++;
		if (xml_chars(x, '"', NULL) < 0)
			goto done;
		if (*x->p++ != '"') {
			x->why = "an unterminated attribute value";
			goto done;
		}
	}
	if (*x->p == '/') {
		if (x->p[1] != '>') {
			x->why = "expected '/>'";
			goto done;
		}
		x->p += 2;
		ret = 0;
		goto done;
	}
	x->p++;
	for (;;) {
		size_t before = x->text->len;

		if (xml_chars(x, 0, x->text) < 0)
			goto done;
		if (x->text->len > before)
			pmbench_buf_addch(x->text, '\n');
		if (!*x->p) {
			x->why = "an element is not closed";
			goto done;
		}
		if (x->p[1] == '/')
			break;
		if (xml_element(x, NULL, depth + 1) < 0)
			goto done;
	}
	x->p += 2;
	if (xml_name(x, &close) < 0)
		goto done;
	if (strcmp(close.ptr, name.ptr) || *x->p++ != '>') {
		x->why = "a closing tag does not match";
		goto done;
	}
	ret = 0;
done:
	pmbench_buf_release(&name);
	pmbench_buf_release(&close);
	return ret;
}

int check_xml_parse(struct pmbench_buf *root, struct pmbench_buf *text,
		    const char *s)
{
	struct xml x = { s, text, NULL };

	if (!strncmp(x.p, "<?xml", 5)) {
		x.p = strstr(x.p, "?>");
		if (!x.p) {
			pmbench_buf_adds(text, "an unterminated declaration");
			return -1;
		}
		x.p += 2;
	}
	xml_space(&x);
	if (xml_element(&x, root, 0) < 0) {
		pmbench_buf_addf(text, "%s at byte %zu", x.why,
				 (size_t)(x.p - s));
		return -1;
	}
	xml_space(&x);
	if (*x.p) {
		pmbench_buf_addf(text, "more than one root element (byte %zu)",
				 (size_t)(x.p - s));
		return -1;
	}
	return 0;
}
