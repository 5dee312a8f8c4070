/*
 * SHA-512 as FIPS 180-4 states it, and base64, for checking the
 * integrity of the packages pmbench downloads (sha512.h).
 */
#include "pmbench/common.h"

#include "pmbench/sha512.h"

static const uint64_t K[80] = {
	0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full,
	0xe9b5dba58189dbbcull, 0x3956c25bf348b538ull, 0x59f111f1b605d019ull,
	0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull, 0xd807aa98a3030242ull,
	0x12835b0145706fbeull, 0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,
	0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull,
	0xc19bf174cf692694ull, 0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull,
	0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull, 0x2de92c6f592b0275ull,
	0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,
	0x983e5152ee66dfabull, 0xa831c66d2db43210ull, 0xb00327c898fb213full,
	0xbf597fc7beef0ee4ull, 0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull,
	0x06ca6351e003826full, 0x142929670a0e6e70ull, 0x27b70a8546d22ffcull,
	0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,
	0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull,
	0x92722c851482353bull, 0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull,
	0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull, 0xd192e819d6ef5218ull,
	0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull,
	0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull, 0x2748774cdf8eeb99ull,
	0x34b0bcb5e19b48a8ull, 0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull,
	0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull, 0x748f82ee5defb2fcull,
	0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
	0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull,
	0xc67178f2e372532bull, 0xca273eceea26619cull, 0xd186b8c721c0c207ull,
	0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull, 0x06f067aa72176fbaull,
	0x0a637dc5a2c898a6ull, 0x113f9804bef90daeull, 0x1b710b35131c471bull,
	0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull,
	0x431d67c49c100d4cull, 0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull,
	0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull,
};

static uint64_t ror(uint64_t x, unsigned n)
{
	return (x >> n) | (x << (64 - n));
}

static void compress(uint64_t h[8], const unsigned char *p)
{
	uint64_t w[80], v[8];

	for (int i = 0; i < 16; i++) {
		w[i] = 0;
		for (int k = 0; k < 8; k++)
			w[i] = (w[i] << 8) | p[i * 8 + k];
	}
	for (int i = 16; i < 80; i++) {
		uint64_t s0 = ror(w[i - 15], 1) ^ ror(w[i - 15], 8) ^
			      (w[i - 15] >> 7);
		uint64_t s1 = ror(w[i - 2], 19) ^ ror(w[i - 2], 61) ^
			      (w[i - 2] >> 6);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(v, h, sizeof(v));
	for (int i = 0; i < 80; i++) {
		uint64_t s1 = ror(v[4], 14) ^ ror(v[4], 18) ^ ror(v[4], 41);
		uint64_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
		uint64_t t1 = v[7] + s1 + ch + K[i] + w[i];
		uint64_t s0 = ror(v[0], 28) ^ ror(v[0], 34) ^ ror(v[0], 39);
		uint64_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);

		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + s0 + maj;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

void pmbench_sha512_init(struct pmbench_sha512 *s)
{
	static const uint64_t iv[8] = {
		0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull,
		0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
		0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
		0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->bytes = 0;
	s->used = 0;
}

void pmbench_sha512_update(struct pmbench_sha512 *s, const void *data,
			   size_t len)
{
	const unsigned char *p = data;

	s->bytes += len;
	while (len) {
		size_t n = sizeof(s->block) - s->used;

		if (n > len)
			n = len;
		memcpy(s->block + s->used, p, n);
		s->used += n;
		p += n;
		len -= n;
		if (s->used == sizeof(s->block)) {
			compress(s->h, s->block);
			s->used = 0;
		}
	}
}

void pmbench_sha512_final(struct pmbench_sha512 *s, unsigned char out[64])
{
	uint64_t bits = s->bytes * 8;

	s->block[s->used++] = 0x80;
	if (s->used > 112) {
		memset(s->block + s->used, 0, sizeof(s->block) - s->used);
		compress(s->h, s->block);
		s->used = 0;
	}
	/* The length in 128 bits; the upper 64 are 0 below 2 EiB. */
	memset(s->block + s->used, 0, 120 - s->used);
	for (int i = 0; i < 8; i++)
		s->block[120 + i] = (unsigned char)(bits >> (56 - 8 * i));
	compress(s->h, s->block);
	for (int i = 0; i < 64; i++)
		out[i] = (unsigned char)(s->h[i / 8] >> (56 - 8 * (i % 8)));
}

void pmbench_base64(struct pmbench_buf *out, const unsigned char *data,
		    size_t len)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuv"
		"wxyz0123456789+/";

	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)data[i] << 16;

		if (i + 1 < len)
			v |= (unsigned)data[i + 1] << 8;
		if (i + 2 < len)
			v |= data[i + 2];
		pmbench_buf_addch(out, abc[(v >> 18) & 63]);
		pmbench_buf_addch(out, abc[(v >> 12) & 63]);
		pmbench_buf_addch(out, i + 1 < len ? abc[(v >> 6) & 63] : '=');
		pmbench_buf_addch(out, i + 2 < len ? abc[v & 63] : '=');
	}
}
