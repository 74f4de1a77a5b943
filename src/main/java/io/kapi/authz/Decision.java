package io.kapi.authz;

/**
 * An authorizer's answer, as kube's {@code authorizer.Decision}: allow, deny, or no opinion (the next
 * authorizer of the chain decides). The reason is shown to the client after a denial.
 */
public sealed interface Decision {

    String reason();

    record Allow(String reason) implements Decision {
    }

    record Deny(String reason) implements Decision {
    }

    record NoOpinion(String reason) implements Decision {
    }

    static Decision allow() {
        return new Allow("");
    }

    static Decision noOpinion() {
        return new NoOpinion("");
    }
}
