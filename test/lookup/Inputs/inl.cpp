// C++ names (namespaces, templates, member functions) for demangling.
volatile long Sink;

namespace ns {
template <typename T> struct Box {
  T V;
  __attribute__((always_inline)) T get() const {
    Sink = V;
    return static_cast<T>(Sink);
  }
};

template <typename T>
static inline __attribute__((always_inline)) T twice(const Box<T> &B) {
  T R = B.get();
  Sink = R;
  return R + B.get();
}

struct Acc {
  long Total = 0;
  __attribute__((noinline)) long add(int N);
};

long Acc::add(int N) {
  for (int I = 0; I < N; ++I) {
    Box<long> L{I};
    Box<int> S{I + 1};
    Total += twice(L) + twice(S);
  }
  return Total;
}
} // namespace ns

int main(int Argc, char **) {
  ns::Acc A;
  return static_cast<int>(A.add(Argc));
}
