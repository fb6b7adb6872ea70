// libqrencode for the phone set-up page's QR codes.
#ifndef SKAN_MOCK_CQRENCODE_SHIM_H
#define SKAN_MOCK_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
