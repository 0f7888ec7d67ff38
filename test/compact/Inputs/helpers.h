/* Inlined helpers from a second file, so line tables switch files. */
static inline int square(int x) { return x * x; }
static inline int sum_squares(int a, int b) {
  int s = square(a);
  s += square(b);
  return s;
}
static inline unsigned mix(unsigned h, unsigned v) {
  h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
  return h;
}
