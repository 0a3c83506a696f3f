#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/err.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <openssl/core_names.h>

/* SHA-256 by OpenSSL's low-level functions. OpenSSL 3's one-shot SHA256() fetches the digest
   through its providers, which the first time reads openssl.cnf and builds the method store:
   about 5 million instructions, 2 ms, at the start of every command that looks up its session
   by the token's hash. The low-level functions run the same block code without that. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static inline void vital_sha256(const unsigned char *data, size_t count, unsigned char *digest) {
  SHA256_CTX context;
  SHA256_Init(&context);
  SHA256_Update(&context, data, count);
  SHA256_Final(digest, &context);
}
#pragma GCC diagnostic pop
