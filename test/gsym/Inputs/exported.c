/* A shared library whose symbols survive stripping only in .dynsym. */
__attribute__((visibility("default"))) int exported_add(int a, int b) {
  return a + b;
}
__attribute__((visibility("default"))) int exported_mul(int a, int b) {
  return a * b + exported_add(a, b);
}
