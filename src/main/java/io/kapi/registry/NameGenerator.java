package io.kapi.registry;

import java.util.concurrent.ThreadLocalRandom;

/** {@code generateName}: the prefix (cut to fit 63 characters) plus five random characters. */
final class NameGenerator {

    /** The alphabet of {@code utilrand.String}: no vowels (no words), no look-alike characters. */
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int RANDOM_LENGTH = 5;
    private static final int MAX_PREFIX = 63 - RANDOM_LENGTH;

    private NameGenerator() {
    }

    static String generate(String prefix) {
        String base = prefix.length() > MAX_PREFIX ? prefix.substring(0, MAX_PREFIX) : prefix;
        StringBuilder b = new StringBuilder(base);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < RANDOM_LENGTH; i++) {
            b.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }
}
