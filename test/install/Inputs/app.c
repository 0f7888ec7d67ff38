// The program the post-link tests build: nested inlined calls (volatile
// accesses keep each level's code apart at -O2) and a struct for GDB's
// ptype from the embedded CTF.
struct point {
  int x;
  int y;
  const char *name;
  struct point *next;
};

struct point origin = {0, 0, "origin", 0};
volatile int sink;

static inline __attribute__((always_inline)) int leaf(int v) {
  sink = v;
  return sink * 3;
}

static inline __attribute__((always_inline)) int middle(int v) {
  int r = leaf(v);
  sink = r;
  return r + leaf(v + 1);
}

__attribute__((noinline)) int compute(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += middle(i);
  return s;
}

int main(int argc, char **argv) {
  (void)argv;
  return compute(argc) == 7 ? origin.x : 0;
}
