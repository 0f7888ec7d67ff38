#include "helpers.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct item {
  const char *name;
  unsigned weight;
};

__attribute__((noinline)) unsigned hash_name(const char *s) {
  unsigned h = 0;
  while (*s)
    h = mix(h, (unsigned char)*s++);
  return h;
}

__attribute__((noinline)) int compute(int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 0)
      total += sum_squares(i, n);
    else
      total -= square(i);
  }
  return total;
}

static int compare_items(const void *a, const void *b) {
  const struct item *x = a, *y = b;
  if (x->weight != y->weight)
    return x->weight < y->weight ? -1 : 1;
  return strcmp(x->name, y->name);
}

int main(int argc, char **argv) {
  struct item items[4] = {{"a", 3}, {"bb", 1}, {"ccc", 2}, {"d", 1}};
  int n = argc > 1 ? atoi(argv[1]) : 10;
  for (int i = 0; i < 4; ++i)
    items[i].weight += hash_name(items[i].name) % 7;
  qsort(items, 4, sizeof(items[0]), compare_items);
  printf("%d %s\n", compute(n), items[0].name);
  return 0;
}
