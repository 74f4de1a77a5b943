package io.kapi.apis.services;

/**
 * The node port range, e.g. {@code 30000-32767} (inclusive), with kube's lower band for statically
 * requested ports: {@code offset} = size/32 clamped to [16, 128], none for ranges under 16 ports.
 */
record PortRange(int base, int size) {

    static final PortRange DEFAULT = new PortRange(30000, 2768);

    /** @throws IllegalArgumentException if {@code text} is not {@code low-high} or {@code low+count} */
    static PortRange parse(String text) {
        String t = text.trim();
        try {
            int dash = t.indexOf('-');
            int plus = t.indexOf('+');
            if (dash > 0) {
                int low = Integer.parseInt(t.substring(0, dash));
                int high = Integer.parseInt(t.substring(dash + 1));
                if (low >= 1 && high <= 65535 && low <= high) {
                    return new PortRange(low, high - low + 1);
                }
            } else if (plus > 0) {
                int low = Integer.parseInt(t.substring(0, plus));
                int count = Integer.parseInt(t.substring(plus + 1));
                if (low >= 1 && count >= 1 && low + count - 1 <= 65535) {
                    return new PortRange(low, count);
                }
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("invalid port range: " + text);
    }

    boolean contains(int port) {
        return port >= base && port < base + size;
    }

    int offset() {
        if (size < 16) {
            return 0;
        }
        return Math.clamp(size / 32, 16, 128);
    }

    @Override
    public String toString() {
        return base + "-" + (base + size - 1);
    }
}
