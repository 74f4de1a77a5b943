package io.kapi.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A PriorityLevelConfiguration as flow control uses it (v1 field names, API defaults filled in).
 *
 * @param name the object's name
 * @param uid sent back in {@code X-Kubernetes-PF-PriorityLevel-UID}
 * @param exempt whether its requests are never limited ({@code type: Exempt})
 * @param shares {@code nominalConcurrencyShares}: its part of the server's concurrency
 * @param lendablePercent the part of its nominal seats other levels may borrow
 * @param borrowingLimitPercent how much it may borrow, relative to its nominal seats; -1 for no limit
 * @param queues 0 for {@code limitResponse.type: Reject}: what cannot run at once is rejected
 * @param handSize queues a flow's requests may go to (shuffle sharding)
 * @param queueLengthLimit requests one queue may hold
 */
record PriorityLevel(String name, String uid, boolean exempt, int shares, int lendablePercent,
                     int borrowingLimitPercent, int queues, int handSize, int queueLengthLimit) {

    static final String EXEMPT = "exempt";
    static final String CATCH_ALL = "catch-all";

    static PriorityLevel parse(JsonNode object) {
        JsonNode spec = object.path("spec");
        String name = object.path("metadata").path("name").asText();
        String uid = object.path("metadata").path("uid").asText();
        if ("Exempt".equals(spec.path("type").asText())) {
            JsonNode exempt = spec.path("exempt");
            return new PriorityLevel(name, uid, true, exempt.path("nominalConcurrencyShares").asInt(0),
                    exempt.path("lendablePercent").asInt(0), 0, 0, 0, 0);
        }
        JsonNode limited = spec.path("limited");
        JsonNode borrowing = limited.path("borrowingLimitPercent");
        JsonNode limitResponse = limited.path("limitResponse");
        boolean queue = "Queue".equals(limitResponse.path("type").asText("Reject"));
        JsonNode queuing = limitResponse.path("queuing");
        return new PriorityLevel(name, uid, false, limited.path("nominalConcurrencyShares").asInt(30),
                limited.path("lendablePercent").asInt(0), borrowing.isNumber() ? borrowing.asInt() : -1,
                queue ? queuing.path("queues").asInt(64) : 0, queue ? queuing.path("handSize").asInt(8) : 0,
                queue ? queuing.path("queueLengthLimit").asInt(50) : 0);
    }

    /** kube's mandatory {@code exempt} level, used while the object is missing. */
    static PriorityLevel mandatoryExempt() {
        return new PriorityLevel(EXEMPT, "", true, 0, 0, 0, 0, 0, 0);
    }

    /** kube's mandatory {@code catch-all} level, used while the object is missing: 5 shares, rejects. */
    static PriorityLevel mandatoryCatchAll() {
        return new PriorityLevel(CATCH_ALL, "", false, 5, 0, -1, 0, 0, 0);
    }
}
