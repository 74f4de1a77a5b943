package io.kapi.flowcontrol;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The {@code Retry-After} of a rejected request, per priority level, as kube's dropped-requests tracker:
 * it starts at 1 s; when a level rejected at least 3 × its current value in the last that-many seconds
 * (and did not grow in that time) it doubles, up to 32 s; when it rejected fewer than its current value
 * it shrinks by one. So clients back off while a level is overloaded and come back soon after.
 */
final class RetryAfter {

    static final int MAX = 32;

    private final LongSupplier nowSeconds;
    private final Map<String, Stats> levels = new ConcurrentHashMap<>();

    RetryAfter(LongSupplier nowSeconds) {
        this.nowSeconds = nowSeconds;
    }

    /** Notes a rejection at {@code level}. */
    void rejected(String level) {
        levels.computeIfAbsent(level, l -> new Stats()).record(nowSeconds.getAsLong());
    }

    /** The seconds a client rejected at {@code level} should wait. */
    int seconds(String level) {
        Stats stats = levels.get(level);
        return stats == null ? 1 : stats.retryAfter;
    }

    private static final class Stats {
        private final ArrayDeque<long[]> history = new ArrayDeque<>(); // {second, rejections}
        private long currentSecond = -1;
        private long currentCount;
        private long lastGrowth;
        private volatile int retryAfter = 1;

        synchronized void record(long second) {
            if (second == currentSecond) {
                currentCount++;
                return;
            }
            if (currentSecond >= 0) {
                history.addLast(new long[] {currentSecond, currentCount});
                while (!history.isEmpty() && currentSecond - history.peekFirst()[0] > MAX) {
                    history.removeFirst();
                }
            }
            currentSecond = second;
            currentCount = 1;
            update(second);
        }

        private void update(long now) {
            long rejected = 0;
            for (long[] s : history) {
                if (now - s[0] <= retryAfter && s[0] < now) {
                    rejected += s[1];
                }
            }
            if (now - lastGrowth >= retryAfter && rejected >= 3L * retryAfter) {
                retryAfter = Math.min(MAX, retryAfter * 2);
                lastGrowth = now;
            } else if (rejected < retryAfter && retryAfter > 1) {
                retryAfter--;
            }
        }
    }
}
