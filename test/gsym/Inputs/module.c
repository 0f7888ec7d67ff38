/* Shaped like a kernel module: init and exit functions, static helpers,
 * calls into code the object does not define. */
#include "program.h"

extern int register_thing(int (*fn)(int));
extern void unregister_thing(int (*fn)(int));

#ifdef ONE_SECTION
#define INIT_TEXT
#define EXIT_TEXT
#else
#define INIT_TEXT __attribute__((section(".init.text")))
#define EXIT_TEXT __attribute__((section(".exit.text")))
#endif

static int counter;

static int handler(int v) {
  counter += mix(v, counter);
  return clamp(counter, 0, 99);
}

__attribute__((noinline)) int module_work(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += square(i) ^ handler(i);
  return s;
}

INIT_TEXT int module_init_fn(void) {
  return register_thing(handler) + module_work(3);
}

EXIT_TEXT void module_exit_fn(void) {
  unregister_thing(handler);
}
