// What llvm-symbolizer prints beyond function, file and line: columns,
// discriminators (gcc gives the blocks of one-line loops their own),
// declarations, and the bare DW_AT_name of functions without a linkage name
// (gcc: an anonymous namespace's functions, lambdas). The tests strip
// tally's symbol: its frames are then named from DWARF alone.
volatile int Sink;

namespace {
__attribute__((noinline)) int label(int X) {
  for (int I = 0; I < X; ++I) if (I & 1) Sink = I; else Sink = -I;
  return Sink;
}

__attribute__((noinline)) int tally(int X) {
  int S = 0;
  while (X > 0) S += X-- & 3 ? label(X) : 1;
  return S;
}
} // namespace

namespace app {
static inline __attribute__((always_inline)) int square(int X) {
  Sink = X;
  return Sink * Sink;
}

template <typename T> struct Acc {
  T Total = 0;
  __attribute__((always_inline)) void add(T V) { Total += square(V) + V; }
};

__attribute__((noinline)) int run(int N) {
  Acc<int> A;
  auto Step = [&](int I) __attribute__((always_inline)) { A.add(I); };
  for (int I = 0; I < N; ++I) if (I % 3) Step(I); else A.add(square(I));
  return A.Total + tally(N);
}
} // namespace app

int main(int Argc, char **) { return app::run(Argc * 7); }
