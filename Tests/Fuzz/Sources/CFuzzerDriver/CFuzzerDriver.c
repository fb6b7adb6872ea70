// Declarations only; see include/CFuzzerDriver.h.
