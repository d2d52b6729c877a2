// Counts heap allocations for Scripts/alloc-check.sh: preloaded, it counts every call to the C
// allocator (Swift's allocations go through it) and prints the total when the process exits.
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_long allocations;

void *malloc(size_t size) { allocations++; return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { allocations++; return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { allocations++; return __libc_realloc(pointer, size); }
void *aligned_alloc(size_t alignment, size_t size) { allocations++; return __libc_memalign(alignment, size); }
int posix_memalign(void **pointer, size_t alignment, size_t size) {
  allocations++;
  *pointer = __libc_memalign(alignment, size);
  return *pointer ? 0 : 12;  // ENOMEM
}

__attribute__((destructor)) static void report(void) { fprintf(stderr, "total heap allocations: %ld\n", (long)allocations); }
