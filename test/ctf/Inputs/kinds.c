/* Every C type kind dwarfpack ctf maps; also the gdb ptype oracle input. */
#include <stddef.h>

struct node {
  struct node *next;
  unsigned a : 3, b : 5;
  signed int s : 7;
  int c;
  union {
    int u1;
    float u2;
  };
  struct {
    short x, y;
  } pt;
};
typedef struct node node_t;
union value {
  long l;
  double d;
  char bytes[8];
};
enum color { RED = -1, GREEN = 5, BIG = 0x7fffffff };
enum big64 { SMALL = 1, HUGE64 = 0x100000000LL };
enum ucolor { U_LOW = 1, U_HIGH = 0xffffffffu };
struct fl {
  int n;
  char data[];
};
struct opaque;
typedef int (*callback_t)(int, ...);
typedef void (*knr_t)();
typedef const char *cstr;

int arr[3][4];
char cube[2][3][4];
struct fl *flp;
const volatile int *restrict rp;
float f;
double d;
long double ld;
_Complex float cf;
_Complex double cd;
_Complex long double cld;
_Bool bb;
__int128 i128;
unsigned __int128 u128;
signed char sc;
unsigned char uc;
char ch;
short sh;
unsigned long long ull;
node_t gnode;
union value gval;
enum color gc;
enum big64 gbig;
enum ucolor gu;
void *vp;
callback_t cb;
knr_t knr;
cstr name;
struct opaque *op;
int (*fp)(int, char *);
struct node *nodes[4];

int vla_user(int n) {
  int vla[n];
  vla[0] = n;
  return vla[0];
}
int func(int x, char *y) { return x + (y != NULL); }
int main(void) { return func(vla_user(1), 0); }
