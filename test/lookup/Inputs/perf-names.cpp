// C++ functions whose names perf shows demangled, most without parameters:
// overloads that then share a name, templates (nested, so that `> >` and
// `>>` differ), a const member function, an operator, a constructor, a
// function template with its return type, and a function of internal
// linkage. Nothing is inlined: each is a function of the table.
#include <utility>

volatile long Sink;

namespace app {
__attribute__((noinline)) long work(int N) {
  long S = 0;
  for (int I = 0; I < N; ++I)
    S += I % 13;
  return S;
}
__attribute__((noinline)) long work(double D) {
  long S = 0;
  for (int I = 0; I < static_cast<int>(D); ++I)
    S += I % 11;
  return S;
}

template <typename T> struct Box {
  T V;
  __attribute__((noinline)) explicit Box(T V) : V(V) { Sink = 1; }
  __attribute__((noinline)) T spin(int N) const {
    T S = 0;
    for (int I = 0; I < N; ++I)
      S += V * I % 7;
    return S;
  }
  __attribute__((noinline)) Box operator+(const Box &O) const {
    return Box(V + O.V);
  }
};

template <typename T>
__attribute__((noinline)) std::pair<T, T> both(const Box<Box<T>> &B) {
  Sink = B.V.V;
  return {B.V.V, B.V.V};
}
} // namespace app

static __attribute__((noinline)) long local(long X) {
  Sink = X;
  return X * 3;
}

template <typename T> __attribute__((noinline)) T scaled(T X) {
  auto Scale = [X](int By) __attribute__((noinline)) {
    Sink = By;
    return X * By;
  };
  return Scale(3) + Scale(5);
}

int main(int Argc, char **) {
  app::Box<long> B(Argc);
  app::Box<app::Box<int>> Nested{app::Box<int>(Argc)};
  long T = app::work(Argc) + app::work(double(Argc)) + B.spin(Argc) +
           (B + B).V + app::both(Nested).first + local(Argc) +
           scaled(long(Argc));
  return static_cast<int>(T);
}
