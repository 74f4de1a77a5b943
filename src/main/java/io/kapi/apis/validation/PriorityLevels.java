package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import java.util.List;

/**
 * The rules of flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfigurations, as kube 1.34's
 * {@code ValidatePriorityLevelConfiguration} (an update is the same check): the type and its matching member,
 * the limited member's shares, percentages, limit response and queuing (with shuffle sharding's entropy bound),
 * the fixed specs of the mandatory {@code exempt} and {@code catch-all} levels, the status condition types.
 */
final class PriorityLevels {

    private static final List<String> TYPES = List.of("Exempt", "Limited");
    private static final List<String> RESPONSES = List.of("Queue", "Reject");
    private static final long MAX_QUEUES = 10_000_000;
    /** {@code shufflesharding.MaxHashBits}. */
    private static final int MAX_HASH_BITS = 60;
    private static final String NON_NEGATIVE = "must be a non-negative integer";
    private static final String PERCENT = "must be between 0 and 100, inclusive";

    private PriorityLevels() {
    }

    static void check(ObjectNode pl, Errs e) {
        String name = pl.path("metadata").path("name").asText("");
        JsonNode spec = pl.path("spec");
        spec(name, spec, e);
        if (MandatoryFlowControl.priorityLevelDiffers(name, spec)) {
            String detail = name.equals("exempt") ? "spec of 'exempt' except the 'spec.exempt' field must equal the fixed value"
                    : "spec of '" + name + "' must equal the fixed value";
            e.invalid("spec", "flowcontrol.PriorityLevelConfigurationSpec{...}", detail);
        }
        FlowControl.conditions(pl.path("status"), e);
    }

    /** {@code ValidatePriorityLevelConfigurationSpec}. */
    private static void spec(String name, JsonNode spec, Errs e) {
        String type = spec.path("type").asText("");
        if (name.equals("exempt") != type.equals("Exempt")) {
            e.invalidString("spec.type", type, "type must be 'Exempt' if and only if name is 'exempt'");
        }
        switch (type) {
            case "Exempt" -> {
                if (FlowControl.present(spec.get("limited"))) {
                    e.forbidden("spec.limited", "must be nil if the type is not Limited");
                }
                if (FlowControl.present(spec.get("exempt"))) {
                    exempt(spec.get("exempt"), e);
                }
            }
            case "Limited" -> {
                if (FlowControl.present(spec.get("exempt"))) {
                    e.forbidden("spec.exempt", "must be nil if the type is Limited");
                }
                if (FlowControl.present(spec.get("limited"))) {
                    limited(spec.get("limited"), e);
                } else {
                    e.required("spec.limited", "must not be empty when type is Limited");
                }
            }
            default -> e.notSupported("spec.type", GoStrings.quote(type), TYPES);
        }
    }

    private static void exempt(JsonNode exempt, Errs e) {
        negative(exempt, "nominalConcurrencyShares", "spec.exempt.", NON_NEGATIVE, e);
        percent(exempt, "spec.exempt.", e);
    }

    /** {@code ValidateLimitedPriorityLevelConfiguration}. */
    private static void limited(JsonNode limited, Errs e) {
        negative(limited, "nominalConcurrencyShares", "spec.limited.", NON_NEGATIVE, e);
        limitResponse(limited.path("limitResponse"), e);
        percent(limited, "spec.limited.", e);
        negative(limited, "borrowingLimitPercent", "spec.limited.", "if specified, must be a non-negative integer", e);
    }

    private static void negative(JsonNode parent, String field, String prefix, String detail, Errs e) {
        JsonNode v = parent.get(field);
        if (v != null && v.isNumber() && v.asLong() < 0) {
            e.invalid(prefix + field, v.asText(), detail);
        }
    }

    private static void percent(JsonNode parent, String prefix, Errs e) {
        JsonNode v = parent.get("lendablePercent");
        if (v != null && v.isNumber() && (v.asLong() < 0 || v.asLong() > 100)) {
            e.invalid(prefix + "lendablePercent", v.asText(), PERCENT);
        }
    }

    /** {@code ValidateLimitResponse}. */
    private static void limitResponse(JsonNode response, Errs e) {
        String path = "spec.limited.limitResponse.";
        String type = response.path("type").asText("");
        JsonNode queuing = response.get("queuing");
        switch (type) {
            case "Reject" -> {
                if (FlowControl.present(queuing)) {
                    e.forbidden(path + "queuing", "must be nil if limited.limitResponse.type is not Limited");
                }
            }
            case "Queue" -> {
                if (FlowControl.present(queuing)) {
                    queuing(queuing, path + "queuing.", e);
                } else {
                    e.required(path + "queuing", "must not be empty if limited.limitResponse.type is Limited");
                }
            }
            default -> e.notSupported(path + "type", GoStrings.quote(type), RESPONSES);
        }
    }

    /** {@code ValidatePriorityLevelQueuingConfiguration}. */
    private static void queuing(JsonNode q, String path, Errs e) {
        long limit = q.path("queueLengthLimit").asLong(0);
        long queues = q.path("queues").asLong(0);
        long hand = q.path("handSize").asLong(0);
        if (limit <= 0) {
            e.invalid(path + "queueLengthLimit", Long.toString(limit), "must be positive");
        }
        if (queues <= 0) {
            e.invalid(path + "queues", Long.toString(queues), "must be positive");
        } else if (queues > MAX_QUEUES) {
            e.invalid(path + "queues", Long.toString(queues), "must not be greater than " + MAX_QUEUES);
        }
        if (hand <= 0) {
            e.invalid(path + "handSize", Long.toString(hand), "must be positive");
        } else if (hand > queues) {
            e.invalid(path + "handSize", Long.toString(hand), "should not be greater than queues (" + queues + ")");
        } else if (entropyBits(queues, hand) > MAX_HASH_BITS) {
            e.invalid(path + "handSize", Long.toString(hand), "required entropy bits of deckSize " + queues
                    + " and handSize " + hand + " should not be greater than " + MAX_HASH_BITS);
        }
    }

    /** {@code shufflesharding.RequiredEntropyBits}: {@code ceil(log2(deckSize) * handSize)}. */
    static long entropyBits(long deckSize, long handSize) {
        return (long) Math.ceil(log2(deckSize) * handSize);
    }

    /** Go's {@code math.Log2}, exact for powers of two. */
    private static double log2(double x) {
        int exp = Math.getExponent(x) + 1;
        double frac = x / Math.scalb(1.0, exp);
        if (frac == 0.5) {
            return exp - 1;
        }
        return Math.log(frac) * (1 / Math.log(2)) + exp;
    }
}
