// A C++ program that spends its time in functions whose names perf shows
// demangled: overloads (one name without parameters), a template's member,
// a lambda, a function of internal linkage. Each runs for about the same
// time (a fifth of a second in all at -O1), so that `perf record` samples
// each of them.
volatile long Sink;

namespace app {
__attribute__((noinline)) long work(int N) {
  long S = 0;
  for (int I = 0; I < N; ++I)
    Sink = S += I % 13;
  return S;
}
__attribute__((noinline)) long work(double D) {
  long S = 0;
  for (int I = 0; I < static_cast<int>(D); ++I)
    Sink = S += I % 11;
  return S;
}
template <typename T> struct Box {
  T V;
  __attribute__((noinline)) T spin(int N) const {
    T S = 0;
    for (int I = 0; I < N; ++I)
      Sink = S += V * I % 7;
    return S;
  }
};
} // namespace app

static __attribute__((noinline)) long local(int N) {
  auto Step = [](int I) __attribute__((noinline)) {
    Sink = I;
    return I % 5;
  };
  long S = 0;
  for (int I = 0; I < N; ++I)
    S += Step(I);
  return S;
}

int main(int Argc, char **) {
  const int N = 4000000 * Argc;
  app::Box<long> B{Argc};
  long T = 0;
  for (int K = 0; K < 5; ++K)
    T += app::work(N) + app::work(double(N)) + B.spin(N) + local(N);
  Sink = T;
  return 0; // perf record exits with the program's status
}
