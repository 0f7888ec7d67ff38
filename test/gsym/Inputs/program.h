/* Helpers that the compiler inlines into their callers. */
static inline int square(int x) { return x * x; }

static inline int clamp(int v, int lo, int hi) {
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}

static inline int mix(int a, int b) {
  return clamp(square(a) - square(b), -1000, 1000);
}
