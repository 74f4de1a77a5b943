package io.kapi.e2e.fuzz;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** What one {@link Family} sent: its request count, the histogram of answers, and the answers kube would not give. */
final class Tally {

    private final String family;
    private final Map<String, Integer> histogram = new TreeMap<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final List<String> slow = new CopyOnWriteArrayList<>();
    private int requests;

    Tally(String family) {
        this.family = family;
    }

    /** Slower than this, an answer is also counted as slow (as the campaign counts them). */
    private static final long SLOW_MILLIS = 5_000;

    /** Counts one answer; a 5xx or a hang is also a failure. */
    void count(Target.Answer answer, String request) {
        count(answer.outcome(), answer.millis(), request);
    }

    /** Counts one answer and fails it unless its status is {@code expected}. */
    void expect(String expected, Target.Answer answer, String request) {
        expect(expected, answer.outcome(), answer.millis(), request);
    }

    /** Counts one answer (a status code, or {@code hang}, {@code closed}, ...); a 5xx or a hang is also a failure. */
    synchronized void count(String outcome, long millis, String request) {
        requests++;
        histogram.merge(outcome, 1, Integer::sum);
        if (millis > SLOW_MILLIS && !outcome.equals("hang")) {
            histogram.merge("slower-than-5s", 1, Integer::sum);
            slow.add(millis + " ms: " + request);
        }
        if (outcome.matches("5\\d\\d") || outcome.equals("hang")) {
            failures.add(outcome + ": " + request);
        }
    }

    /** Counts one answer and fails it unless it is {@code expected}. */
    void expect(String expected, String outcome, long millis, String request) {
        count(outcome, millis, request);
        if (!outcome.equals(expected) && !outcome.matches("5\\d\\d") && !outcome.equals("hang")) {
            failures.add(outcome + " where kube answers " + expected + ": " + request);
        }
    }

    /** A failure that is not one answer's (e.g. a privilege gained, seen by a later check). */
    void fail(String what) {
        failures.add(what);
    }

    /** The answers slower than 5 s (not failures: CI's two cores are shared), for the report. */
    List<String> slow() {
        return List.copyOf(slow);
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    synchronized int requests() {
        return requests;
    }

    @Override
    public synchronized String toString() {
        return "fuzz family %s: %d requests, %d failures; statuses %s".formatted(family, requests, failures.size(),
                histogram);
    }
}
