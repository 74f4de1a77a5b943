package io.kapi.flowcontrol;

/**
 * Deals a hand of distinct queues out of a deck from a flow's hash, as kube's {@code shufflesharding.Dealer}:
 * the hash is read as mixed-radix digits (deck, deck-1, ...), each digit picks among the cards not yet
 * dealt. Two flows share all their queues only if their hands collide, which for 64 queues and hands of 8
 * is about one in 4 billion; a flow that floods fills at most its own hand.
 */
final class ShuffleSharding {

    private ShuffleSharding() {
    }

    /** The hand of {@code handSize} distinct cards in {@code [0, deckSize)} for {@code hash}, in deal order. */
    static int[] deal(long hash, int deckSize, int handSize) {
        if (handSize < 1 || handSize > deckSize) {
            throw new IllegalArgumentException("hand of " + handSize + " from a deck of " + deckSize);
        }
        int[] remainders = new int[handSize];
        long value = hash;
        for (int i = 0; i < handSize; i++) {
            long radix = deckSize - i;
            remainders[i] = (int) Long.remainderUnsigned(value, radix);
            value = Long.divideUnsigned(value, radix);
        }
        int[] hand = new int[handSize];
        for (int i = 0; i < handSize; i++) {
            int card = remainders[i];
            for (int j = i; j > 0; j--) {
                if (card >= remainders[j - 1]) {
                    card++;
                }
            }
            hand[i] = card;
        }
        return hand;
    }

    /** A 64-bit hash of a flow (its schema and distinguisher). */
    static long flowHash(String schema, String distinguisher) {
        long h = 0xcbf29ce484222325L;
        for (String part : new String[] {schema, "\u0000", distinguisher}) {
            for (int i = 0; i < part.length(); i++) {
                h ^= part.charAt(i);
                h *= 0x100000001b3L;
            }
        }
        // FNV-1a spreads the low bits poorly for short strings; finish with a 64-bit mixer
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }
}
