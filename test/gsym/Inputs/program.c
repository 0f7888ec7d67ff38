#include <stdio.h>
#include <stdlib.h>
#include "program.h"

int table[64];

__attribute__((noinline)) int compute(int a, int b) {
  int s = 0;
  for (int i = 0; i < a; ++i)
    s += mix(i, b) + table[i & 63];
  return s;
}

__attribute__((noinline)) static int walk(int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 0)
      acc += compute(i, n);
    else
      acc -= clamp(i * 7, 0, 50);
  }
  return acc;
}

__attribute__((noinline, cold)) void fail(const char *why) {
  fprintf(stderr, "error: %s\n", why);
  exit(2);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  if (n < 0)
    fail("negative");
  for (int i = 0; i < 64; ++i)
    table[i] = square(i) % 17;
  printf("%d\n", walk(n) + compute(n, 3));
  return 0;
}
