// OpenSSL 3 for SKANTLS. Many of its "functions" are macros over SSL_CTX_ctrl / BIO_ctrl, and some
// take C variadic arguments: Swift can import neither, so these typed wrappers stand in for them.
#ifndef SKAN_MOCK_COPENSSL_SHIM_H
#define SKAN_MOCK_COPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/bn.h>

static inline int skan_ssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

static inline int skan_ssl_ctx_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}

static inline int skan_ssl_ctx_add1_chain_cert(SSL_CTX *ctx, X509 *cert) {
    return (int)SSL_CTX_add1_chain_cert(ctx, cert);
}

/// No renegotiation (a TLS 1.2 client could otherwise restart the handshake mid-connection), the
/// server's cipher order, no compression.
static inline void skan_ssl_ctx_set_server_options(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_COMPRESSION);
}

static inline int skan_ssl_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline long skan_bio_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

/// EVP_EC_gen is a macro over the variadic EVP_PKEY_Q_keygen.
static inline EVP_PKEY *skan_generate_p256_key(void) {
    return EVP_EC_gen("P-256");
}

static inline EVP_PKEY *skan_generate_rsa_key(unsigned int bits) {
    return EVP_RSA_gen(bits);
}

static inline int skan_mbstring_asc(void) {
    return MBSTRING_ASC;
}

/// Adds one X509v3 extension written in OpenSSL's configuration syntax ("critical,CA:TRUE",
/// "DNS:localhost,IP:127.0.0.1"); X509V3_CTX is a stack struct set up by a macro.
static inline int skan_x509_add_conf_extension(X509 *cert, X509 *issuer, int nid, const char *value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    if (extension == NULL) return 0;
    int added = X509_add_ext(cert, extension, -1);
    X509_EXTENSION_free(extension);
    return added;
}

#endif
