#include "pmbench/common.h"
#include "check.h"
TEST(placeholder) { CHECK(1); }
CHECK_MAIN(CASE(placeholder))
