// Static initializers (code clang describes by the compiled file itself)
// and an inlined function, for lookups of files named by absolute paths.
#include <cstdlib>

static inline int twice(int X) { return X * 2 + std::rand(); }

static int Seed = std::rand();
int Total = twice(Seed) + 1;

int main(int argc, char **) { return twice(argc) + Total; }
