// libcurl's curl_easy_setopt and curl_easy_getinfo are C variadic functions, which
// Swift cannot call: these typed wrappers are what the integration tests' client and the
// upstream client (UpstreamHTTP) need.
#ifndef SKAN_MOCK_CCURL_SHIM_H
#define SKAN_MOCK_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode skan_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode skan_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode skan_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode skan_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*skan_curl_io_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode skan_curl_setopt_callback(CURL *handle, CURLoption option, skan_curl_io_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode skan_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
