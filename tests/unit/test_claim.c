#include "pmbench/common.h"

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/claim.h"

/* The claim grammar, and verdicts on hand-made samples. */

static int parse(struct pmbench_claim *c, const char *text)
{
	return pmbench_claim_parse(c, text);
}

TEST(parse_faster)
{
	struct pmbench_claim c = PMBENCH_CLAIM_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	CHECK_INT(parse(&c, "bun install is 20x faster than yarn install"), 0);
	CHECK_STR(c.pm_a, "bun");
	CHECK_STR(c.task_a, "install");
	CHECK_STR(c.pm_b, "yarn");
	CHECK_STR(c.task_b, "install");
	CHECK_INT(c.kind, PMBENCH_CLAIM_FASTER);
	CHECK_NEAR(c.factor, 20, 0);
	CHECK_NEAR(pmbench_claim_speedup(&c), 20, 0);
	pmbench_claim_describe(&b, &c);
	CHECK_STR(b.ptr, "bun install is 20x faster than yarn install");
	pmbench_claim_release(&c);
	pmbench_buf_release(&b);
}

TEST(parse_variants)
{
	struct pmbench_claim c = PMBENCH_CLAIM_INIT;

	CHECK_INT(parse(&c, "  Bun is 2.5 times faster than NPM."), 0);
	CHECK_STR(c.pm_a, "bun");
	CHECK_STR(c.task_a, "install");
	CHECK_STR(c.pm_b, "npm");
	CHECK_NEAR(c.factor, 2.5, 0);
	pmbench_claim_release(&c);

	CHECK_INT(parse(&c, "pnpm install is 3 x slower than bun install"), 0);
	CHECK_INT(c.kind, PMBENCH_CLAIM_SLOWER);
	CHECK_NEAR(pmbench_claim_speedup(&c), 1.0 / 3, 1e-15);
	pmbench_claim_release(&c);

	CHECK_INT(parse(&c, "yarn-berry install is 1.5× faster than yarn"), 0);
	CHECK_STR(c.pm_a, "yarn-berry");
	CHECK_NEAR(c.factor, 1.5, 0);
	pmbench_claim_release(&c);

	CHECK_INT(parse(&c, "deno build is as fast as bun build"), 0);
	CHECK_INT(c.kind, PMBENCH_CLAIM_SAME);
	CHECK_STR(c.task_a, "build");
	CHECK_STR(c.task_b, "build");
	CHECK_NEAR(pmbench_claim_speedup(&c), 1, 0);
	pmbench_claim_release(&c);

	/* Different tasks of one PM are a valid comparison. */
	CHECK_INT(parse(&c, "npm run is 4x faster than npm install"), 0);
	pmbench_claim_release(&c);
}

/* Versions: "bun 1.1" is the PM bun@1.1, installed and timed as such. */
TEST(parse_versions)
{
	struct pmbench_claim c = PMBENCH_CLAIM_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	CHECK_INT(parse(&c, "bun 1.1 install is 10x faster than npm 10 "
			    "install"),
		  0);
	CHECK_STR(c.pm_a, "bun@1.1");
	CHECK_STR(c.task_a, "install");
	CHECK_STR(c.pm_b, "npm@10");
	CHECK_STR(c.task_b, "install");
	pmbench_claim_describe(&b, &c);
	CHECK_STR(b.ptr, "bun@1.1 install is 10x faster than npm@10 install");
	pmbench_claim_release(&c);
	/* At the end, as a range, with a variant, or spelled with '@'. */
	CHECK_INT(parse(&c, "pnpm:hoisted ^9 is 2x slower than pnpm 10.1"), 0);
	CHECK_STR(c.pm_a, "pnpm@^9:hoisted");
	CHECK_STR(c.task_a, "install");
	CHECK_STR(c.pm_b, "pnpm@10.1");
	pmbench_claim_release(&c);
	CHECK_INT(parse(&c, "pnpm@9 is as fast as pnpm 12"), 0);
	CHECK_STR(c.pm_a, "pnpm@9");
	CHECK_STR(c.pm_b, "pnpm@12");
	pmbench_claim_release(&c);
	/* Two versions of one PM are two sides; one version twice is not. */
	CHECK_INT(parse(&c, "pnpm 9 is as fast as pnpm 9"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "the same package manager");
	/* yarn 2+ is yarn-berry, said in the claim's one line. */
	CHECK_INT(parse(&c, "yarn 3 is 2x faster than npm"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "cannot read the claim 'yarn 3 "
					     "is 2x faster than npm': ");
	CHECK_CONTAINS(pmbench_error_last(), "yarn-berry@3");
	CHECK(!c.pm_a && !c.pm_b);
	pmbench_buf_release(&b);
}

TEST(parse_errors)
{
	struct pmbench_claim c = PMBENCH_CLAIM_INIT;

	CHECK_INT(parse(&c, "cargo is 2x faster than npm"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "'cargo' is not a package");
	CHECK_INT(parse(&c, "bun deploy is 2x faster than npm"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "'deploy' is not a task");
	CHECK_INT(parse(&c, "bun is fast"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "a factor such as");
	CHECK_INT(parse(&c, "bun is 20 faster than npm"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "needs 'x' or 'times'");
	CHECK_INT(parse(&c, "bun is 20x better than npm"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "'faster than' or 'slower than'");
	CHECK_INT(parse(&c, "bun is 0x faster than npm"), PMBENCH_EINVALID);
	CHECK_INT(parse(&c, "bun is -2x faster than npm"), PMBENCH_EINVALID);
	CHECK_INT(parse(&c, "bun is 2x faster than npm today"),
		  PMBENCH_EINVALID);
	CHECK_INT(parse(&c, "bun is 2x faster than"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "package manager is missing");
	CHECK_INT(parse(&c, "bun is as fast as bun install"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "the same package manager");
	CHECK_INT(parse(&c, ""), PMBENCH_EINVALID);
	CHECK(!c.pm_a && !c.pm_b);
}

/* `base` scaled by `k`, into `out`. */
static void scaled(double *out, const double *base, size_t n, double k)
{
	for (size_t i = 0; i < n; i++)
		out[i] = base[i] * k;
}

static const double base[] = { 1.00, 1.02, 0.98, 1.01, 0.99, 1.00, 1.03, 0.97 };

TEST(judge_reproduced_and_not)
{
	struct pmbench_claim c = PMBENCH_CLAIM_INIT;
	struct pmbench_claim_judgement j;
	double a[8], b[8];

	/* a takes 1 s, b takes 4 s: a is 4x faster. */
	scaled(a, base, 8, 1);
	scaled(b, base, 8, 4);
	CHECK_INT(parse(&c, "bun is 4x faster than npm"), 0);
	CHECK_INT(pmbench_claim_judge(&j, &c, a, 8, b, 8, 0.10, 1), 0);
	CHECK_NEAR(j.speedup.point, 4, 1e-12);
	CHECK(j.speedup.lo <= 4 && 4 <= j.speedup.hi);
	CHECK_NEAR(j.band_lo, 4 / 1.1, 1e-12);
	CHECK_NEAR(j.band_hi, 4.4, 1e-12);
	CHECK_INT(j.verdict, PMBENCH_CLAIM_REPRODUCED);
	CHECK(j.p < 0.001);
	pmbench_claim_release(&c);

	/* Not 20x: the interval lies far below the band. */
	CHECK_INT(parse(&c, "bun is 20x faster than npm"), 0);
	CHECK_INT(pmbench_claim_judge(&j, &c, a, 8, b, 8, 0.10, 1), 0);
	CHECK_INT(j.verdict, PMBENCH_CLAIM_SHORT);
	CHECK(j.speedup.hi < j.band_lo);
	pmbench_claim_release(&c);

	/* Not 2x either: far above, more than claimed. */
	CHECK_INT(parse(&c, "bun is 2x faster than npm"), 0);
	CHECK_INT(pmbench_claim_judge(&j, &c, a, 8, b, 8, 0.10, 1), 0);
	CHECK_INT(j.verdict, PMBENCH_CLAIM_EXCEEDED);
	pmbench_claim_release(&c);

	/* "npm is 2x slower": it is 4x slower, more than claimed ... */
	CHECK_INT(parse(&c, "npm is 2x slower than bun"), 0);
	CHECK_INT(pmbench_claim_judge(&j, &c, b, 8, a, 8, 0.10, 1), 0);
	CHECK_INT(j.verdict, PMBENCH_CLAIM_EXCEEDED);
	pmbench_claim_release(&c);
	/* ... and "npm is 10x slower" falls short. */
	CHECK_INT(parse(&c, "npm is 10x slower than bun"), 0);
	CHECK_INT(pmbench_claim_judge(&j, &c, b, 8, a, 8, 0.10, 1), 0);
	CHECK_INT(j.verdict, PMBENCH_CLAIM_SHORT);
	pmbench_claim_release(&c);

	/* The same data as "npm is 4x slower than bun". */
	CHECK_INT(parse(&c, "npm is 4 times slower than bun"), 0);
	CHECK_INT(pmbench_claim_judge(&j, &c, b, 8, a, 8, 0.10, 1), 0);
	CHECK_NEAR(j.speedup.point, 0.25, 1e-12);
	CHECK_INT(j.verdict, PMBENCH_CLAIM_REPRODUCED);
	pmbench_claim_release(&c);

	/* "as fast as" against itself scaled by 1: reproduced. */
	CHECK_INT(parse(&c, "bun is as fast as npm"), 0);
	CHECK_INT(pmbench_claim_judge(&j, &c, a, 8, a, 8, 0.10, 1), 0);
	CHECK_INT(j.verdict, PMBENCH_CLAIM_REPRODUCED);
	/* ... and against 4x slower: bun is faster, more than claimed. */
	CHECK_INT(pmbench_claim_judge(&j, &c, a, 8, b, 8, 0.10, 1), 0);
	CHECK_INT(j.verdict, PMBENCH_CLAIM_EXCEEDED);
	pmbench_claim_release(&c);
}

TEST(judge_inconclusive)
{
	struct pmbench_claim c = PMBENCH_CLAIM_INIT;
	struct pmbench_claim_judgement j, again;
	/* Very noisy: the medians are 1.0 and 2.0, the spread huge. */
	double a[] = { 0.4, 1.0, 2.2, 0.6, 1.6 };
	double b[] = { 0.9, 2.0, 4.1, 1.2, 3.0 };

	CHECK_INT(parse(&c, "bun is 2x faster than npm"), 0);
	CHECK_INT(pmbench_claim_judge(&j, &c, a, 5, b, 5, 0.10, 7), 0);
	CHECK_NEAR(j.speedup.point, 2, 1e-12);
	CHECK_INT(j.verdict, PMBENCH_CLAIM_INCONCLUSIVE);
	CHECK(j.speedup.lo < j.band_lo && j.speedup.hi > j.band_hi);
	/* Far more runs than the five it had. */
	CHECK(j.runs_needed > 5);
	/* Deterministic from the seed. */
	CHECK_INT(pmbench_claim_judge(&again, &c, a, 5, b, 5, 0.10, 7), 0);
	CHECK(again.speedup.lo == j.speedup.lo);
	CHECK(again.speedup.hi == j.speedup.hi);
	CHECK_INT(again.runs_needed, j.runs_needed);
	/* Empty samples are an error, not a verdict. */
	CHECK_INT(pmbench_claim_judge(&j, &c, a, 0, b, 5, 0.10, 7), -1);
	pmbench_claim_release(&c);
	CHECK_STR(pmbench_claim_verdict_name(PMBENCH_CLAIM_REPRODUCED),
		  "reproduced");
	CHECK_STR(pmbench_claim_verdict_name(PMBENCH_CLAIM_SHORT), "short");
	CHECK_STR(pmbench_claim_verdict_name(PMBENCH_CLAIM_EXCEEDED),
		  "exceeded");
	CHECK_STR(pmbench_claim_verdict_name(PMBENCH_CLAIM_INCONCLUSIVE),
		  "inconclusive");
}

CHECK_MAIN(CASE(parse_faster), CASE(parse_variants), CASE(parse_versions),
	   CASE(parse_errors), CASE(judge_reproduced_and_not),
	   CASE(judge_inconclusive))
