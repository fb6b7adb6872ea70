#ifndef C_FUZZER_DRIVER_H
#define C_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (compiler-rt FuzzerDriver.cpp), linked in by -sanitize=fuzzer. SwiftPM links
// every executable with `--defsym main=<Module>_main`, so the fuzzers define `<Module>_main` and
// start libFuzzer through this instead of libFuzzer's own main.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
