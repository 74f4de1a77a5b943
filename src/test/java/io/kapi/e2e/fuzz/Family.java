package io.kapi.e2e.fuzz;

import java.util.Random;

/**
 * One family of hostile requests, each aimed at a kind of defect the general campaign's mutations do not reach
 * (issue 29): escalation through RBAC objects, tokens that outlive what they were issued for, forged tokens,
 * protobuf bodies, WebSocket upgrades, watch parameters at their limits, pathological regular expressions and
 * CEL. A family knows what kube-apiserver answers each request: an answer other than that is a failure of its
 * {@link Tally}, as is any 5xx or a hang. {@link FuzzIT} names each and says how many requests it sends.
 */
@FunctionalInterface
interface Family {

    /** Sends about {@code count} requests to {@code target}, drawn from {@code random}, into {@code tally}. */
    void run(Target target, Random random, int count, Tally tally) throws Exception;
}
