#include "pmbench/common.h"
