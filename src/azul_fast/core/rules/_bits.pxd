# Bit tricks on small masks (wall rows, line and source masks). popcount is a table lookup:
# without -mpopcnt (which a portable build cannot assume) __builtin_popcount is a library call.
cdef extern from *:
    """
    static unsigned char azul_popcount_table[1024];
    static int azul_popcount_ready = 0;
    static inline void azul_init_popcount(void) {
        if (azul_popcount_ready) return;
        for (int i = 1; i < 1024; i++)
            azul_popcount_table[i] = (unsigned char)(azul_popcount_table[i >> 1] + (i & 1));
        azul_popcount_ready = 1;
    }
    #define azul_popcount10(x) (azul_popcount_table[(x) & 1023])
    #define azul_ctz(x) __builtin_ctz(x)
    #define azul_clz(x) __builtin_clz(x)
    """
    void init_popcount "azul_init_popcount"() noexcept nogil   # call once at module import
    int popcount10 "azul_popcount10"(unsigned int x) noexcept nogil   # masks of at most 10 bits
    int ctz "azul_ctz"(unsigned int x) noexcept nogil    # undefined for 0: callers check
    int clz "azul_clz"(unsigned int x) noexcept nogil    # undefined for 0: callers check


cdef inline int popcount25(unsigned int x) noexcept nogil:
    """Set bits of a 25-bit mask (a wall)."""
    return popcount10(x & 1023) + popcount10((x >> 10) & 1023) + popcount10(x >> 20)


cdef inline int nth_bit(unsigned int mask, int i) noexcept nogil:
    """The index of the i-th lowest set bit of `mask` (i counts from 0; mask has more than i bits)."""
    while i:
        mask &= mask - 1
        i -= 1
    return ctz(mask)
