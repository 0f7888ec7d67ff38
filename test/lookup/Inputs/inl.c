// Nested inlining that survives -O2 in clang and gcc: volatile accesses keep
// every level's code apart. No headers, so it also builds freestanding for
// big-endian targets.
volatile int Sink;

static inline __attribute__((always_inline)) int leaf(int X) {
  Sink = X;
  return Sink * 3;
}

static inline __attribute__((always_inline)) int middle(int X) {
  int R = leaf(X);
  Sink = R;
  return R + leaf(X + 1);
}

static inline __attribute__((always_inline)) int outer(int X) {
  int R = middle(X);
  Sink = R;
  return middle(R) + 2;
}

__attribute__((noinline)) int compute(int A) {
  int S = 0;
  for (int I = 0; I < A; I++)
    S += outer(I);
  return S;
}

__attribute__((noinline)) int other(int A) { return leaf(A) + middle(A); }

int main(int Argc, char **Argv) { return compute(Argc) + other(Argc); }
