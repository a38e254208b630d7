package io.tributary.checksum;

/**
 * The aggregate of one chunk on one side: its row count, and the XOR and the sum of its rows'
 * CRC32s. Two sides with equal rows have equal sums whatever order the rows are read in.
 */
record ChunkSums(long rows, long xor, long sum) {

}
