package io.kapi.machinery.cel;

/**
 * A CEL expression that does not compile, fails while it runs, or runs out of cost budget. The message is
 * what kube-apiserver says (compile errors with their {@code ERROR: <input>:line:column:} lines).
 */
public final class CelError extends RuntimeException {

    /** What went wrong. */
    public enum Kind {
        /** Syntax or type errors, found when the expression was compiled. */
        COMPILE,
        /** An error while evaluating: no such key, a bad conversion, an overflow. */
        EVALUATION,
        /** The per-call limit or the budget was exceeded. */
        COST
    }

    private final Kind kind;

    public CelError(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
