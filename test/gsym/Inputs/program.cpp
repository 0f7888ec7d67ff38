#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace geo {
struct Point {
  int X, Y;
  int norm() const { return X * X + Y * Y; }
};

template <typename T> T largest(const std::vector<T> &V) {
  T Best = V.front();
  for (const T &E : V)
    if (Best < E)
      Best = E;
  return Best;
}

class Shape {
public:
  explicit Shape(int N) {
    for (int I = 0; I < N; ++I)
      Pts.push_back({I, N - I});
  }
  __attribute__((noinline)) int spread() const;

private:
  std::vector<Point> Pts;
};

int Shape::spread() const {
  std::vector<int> Norms;
  for (const Point &P : Pts)
    Norms.push_back(P.norm());
  return largest(Norms);
}
} // namespace geo

namespace {
__attribute__((noinline)) std::string label(int N) {
  std::map<int, std::string> Names{{1, "one"}, {2, "two"}};
  auto It = Names.find(N);
  return It == Names.end() ? std::to_string(N) : It->second;
}
} // namespace

int main(int argc, char **argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 5;
  geo::Shape S(N);
  auto Twice = [&](int V) { return 2 * V + N; };
  std::printf("%d %s\n", Twice(S.spread()), label(N).c_str());
  return 0;
}
