# The C-level random number generator: splitmix64, and the seed derivation of
# docs/engine-spec.md, section 2. Tiny and inline, so a draw in the game loop costs one add,
# two multiplies and a few shifts; the reference engine mirrors it bit for bit in Python.
from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    """
    #define AZUL_BAG_SALT    0x243F6A8885A308D3ULL  /* separates the tile-bag stream ... */
    #define AZUL_POLICY_SALT 0x13198A2E03707344ULL  /* ... from the policy stream of one seed */
    #define AZUL_ROOT_SALT   0xA4093822299F31D0ULL
    #define AZUL_INDEX_SALT  0x082EFA98EC4E6C89ULL

    static inline uint64_t azul_mix64(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    static inline uint64_t azul_next64(uint64_t *state) {
        *state += 0x9E3779B97F4A7C15ULL;
        return azul_mix64(*state);
    }
    /* An integer in 0..n-1 by one multiply-shift (bias below 2**-25 for n < 128). */
    static inline uint32_t azul_below(uint64_t *state, uint32_t n) {
        return (uint32_t)(((azul_next64(state) >> 32) * (uint64_t)n) >> 32);
    }
    /* Game i of a run: a hash of (root, i), never root + i, so runs never overlap. */
    static inline uint64_t azul_game_seed(uint64_t root, uint64_t index) {
        return azul_mix64(azul_mix64(root ^ AZUL_ROOT_SALT) + azul_mix64(index ^ AZUL_INDEX_SALT));
    }
    """
    uint64_t BAG_SALT "AZUL_BAG_SALT"
    uint64_t POLICY_SALT "AZUL_POLICY_SALT"
    uint64_t mix64 "azul_mix64"(uint64_t z) noexcept nogil
    uint64_t next64 "azul_next64"(uint64_t *state) noexcept nogil
    uint32_t below "azul_below"(uint64_t *state, uint32_t n) noexcept nogil
    uint64_t game_seed "azul_game_seed"(uint64_t root, uint64_t index) noexcept nogil
