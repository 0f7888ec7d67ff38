#include "helpers.h"

unsigned table_hash(const unsigned *v, int n) {
  unsigned h = 17;
  for (int i = 0; i < n; ++i)
    h = mix(h, v[i]);
  return h;
}

int weighted(int a, int b) { return sum_squares(a, b) - square(a - b); }
