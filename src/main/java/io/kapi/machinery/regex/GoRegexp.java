package io.kapi.machinery.regex;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.kapi.machinery.FreshStack;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Regular expressions from users (a CRD schema's {@code pattern}, CEL's {@code matches}, {@code find} and
 * {@code findAll}) as kube-apiserver reads them: Go's {@code regexp}, RE2. Matching takes time linear in the
 * input and no recursion (RE2/J, a port of Go's engine), so no pattern can make validation slow or overflow
 * a stack, and the syntax is Go's: what RE2 refuses (look-around, back references) is refused, with Go's
 * words ({@code error parsing regexp: missing closing ): `(a`}). Go's limits on a pattern's shape, which
 * RE2/J lacks, are checked first ({@link RegexShape}); the compiler then runs on a stack of its own. Never
 * {@code java.util.regex} for a user's pattern: its syntax differs and its backtracking can take exponential
 * time or overflow the stack.
 *
 * <p>Compiled patterns of ordinary length are kept (a rule's pattern is compiled on each evaluation).
 * Thread-safe.
 */
public final class GoRegexp {

    private static final int CACHED_PATTERNS = 512;
    private static final int CACHED_LENGTH = 4096;
    private static final ConcurrentHashMap<String, Object> CACHE = new ConcurrentHashMap<>();

    private GoRegexp() {
    }

    /** A pattern Go's {@code regexp.Compile} refuses; the message is Go's error text. */
    public static final class SyntaxError extends IllegalArgumentException {
        SyntaxError(String message) {
            super(message, null);
        }
    }

    /**
     * {@code pattern} compiled with Go's syntax and limits.
     *
     * @throws SyntaxError with Go's {@code error parsing regexp: ...} message
     */
    public static Pattern compile(String pattern) {
        Object cached = CACHE.get(pattern);
        if (cached == null) {
            cached = compileUncached(pattern);
            if (pattern.length() <= CACHED_LENGTH) {
                if (CACHE.size() >= CACHED_PATTERNS) {
                    CACHE.clear();
                }
                CACHE.put(pattern, cached);
            }
        }
        if (cached instanceof SyntaxError e) {
            throw new SyntaxError(e.getMessage());
        }
        return (Pattern) cached;
    }

    /** Go's {@code regexp.Compile} error for {@code pattern}, or empty when it compiles. */
    public static Optional<String> error(String pattern) {
        try {
            compile(pattern);
            return Optional.empty();
        } catch (SyntaxError e) {
            return Optional.of(e.getMessage());
        }
    }

    private static Object compileUncached(String pattern) {
        Optional<String> limit = RegexShape.limitError(pattern);
        if (limit.isPresent()) {
            return new SyntaxError("error parsing regexp: " + limit.get());
        }
        try {
            return FreshStack.call(() -> Pattern.compile(pattern));
        } catch (PatternSyntaxException e) {
            if (e.getMessage().endsWith("internal error: `stack underflow`")) {
                // RE2/J keeps the error of the Go it was ported from for a ')' that closes nothing
                return new SyntaxError("error parsing regexp: unexpected ): `" + pattern + "`");
            }
            return new SyntaxError(e.getMessage());
        } catch (StackOverflowError e) {
            return new SyntaxError("error parsing regexp: expression nests too deeply: `" + pattern + "`");
        }
    }
}
