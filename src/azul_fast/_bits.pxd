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
