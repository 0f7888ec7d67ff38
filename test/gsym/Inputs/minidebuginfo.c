#include <stdio.h>
static __attribute__((noinline)) int helper_one(int x) { return x * 3 + 1; }
static __attribute__((noinline)) int helper_two(int x) {
  return helper_one(x) ^ 0x55;
}
__attribute__((noinline)) int exported_work(int x) {
  return helper_two(x) + helper_one(x);
}
int main(int argc, char **argv) {
  printf("%d\n", exported_work(argc));
  return 0;
}
