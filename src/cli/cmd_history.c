#include "pmbench/common.h"
#include "cli.h"
int cmd_history(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 1;
}
