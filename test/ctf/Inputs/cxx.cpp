// C++ constructs CTF cannot represent exactly (docs/CTF.md).
struct node {
  node *next;
  unsigned a : 3, b : 5;
  int s : 7;
  int c;
};
enum color { RED = -1, GREEN = 5 };
struct base {
  int b;
};
struct derived : base {
  virtual ~derived() {}
  int d;
  static int counter;
  int method() { return d; }
};
template <typename T> struct box {
  T value;
};
node gnode;
color gc;
derived gd;
box<int> gbox;
int &gref = gnode.c;
int node::*gpm = &node::c;
int derived::counter = 0;
