#include "helpers.h"
#include <map>
#include <string>
#include <vector>

namespace shapes {
template <typename T> struct Accumulator {
  std::vector<T> Values;
  void add(T V) { Values.push_back(V * V); }
  T total() const {
    T S = 0;
    for (T V : Values)
      S += V;
    return S;
  }
};
} // namespace shapes

__attribute__((noinline)) long run(int N) {
  shapes::Accumulator<long> A;
  std::map<std::string, int> Counts;
  for (int I = 0; I < N; ++I) {
    A.add(sum_squares(I, N));
    Counts[std::to_string(I % 5)] += square(I);
  }
  return A.total() + long(Counts.size());
}

int main(int argc, char **) { return int(run(argc * 100) & 0x7f); }
