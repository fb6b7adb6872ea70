#ifndef C_SYSTEM_ATOMICS_H
#define C_SYSTEM_ATOMICS_H
// One 64-bit word, loaded and changed atomically with the compiler's builtins (clang on Linux and
// Darwin alike): what Synchronization.Atomic gives, without its macOS 15 / iOS 18 floor.
// The orderings are the C11 ones (__ATOMIC_RELAXED ... __ATOMIC_SEQ_CST), passed through.
#include <stdint.h>
#include <stdbool.h>

static inline int64_t CSystemAtomics_load(int64_t *word, int order) {
    return __atomic_load_n(word, order);
}

static inline void CSystemAtomics_store(int64_t *word, int64_t value, int order) {
    __atomic_store_n(word, value, order);
}

static inline int64_t CSystemAtomics_exchange(int64_t *word, int64_t value, int order) {
    return __atomic_exchange_n(word, value, order);
}

/// Returns the value before the addition.
static inline int64_t CSystemAtomics_add(int64_t *word, int64_t delta, int order) {
    return __atomic_fetch_add(word, delta, order);
}

static inline bool CSystemAtomics_compare_exchange(int64_t *word, int64_t *expected, int64_t desired, int order) {
    return __atomic_compare_exchange_n(word, expected, desired, false, order, __ATOMIC_RELAXED);
}
#endif
