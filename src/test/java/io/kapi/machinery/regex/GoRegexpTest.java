package io.kapi.machinery.regex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("users' regular expressions are Go's RE2")
class GoRegexpTest {

    @Test
    @DisplayName("^(a|a)+$ against 100,000 characters matches in linear time, on a small stack")
    void noBacktracking() throws Exception {
        String input = "a".repeat(100_000);
        AtomicReference<Object> out = new AtomicReference<>();
        Thread small = new Thread(null, () -> {
            try {
                out.set(GoRegexp.compile("^(a|a)+$").matcher(input).find()
                        && !GoRegexp.compile("^(a|a)+$").matcher(input + "b").find());
            } catch (Throwable t) {
                out.set(t);
            }
        }, "small-stack", 128 * 1024);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            small.start();
            small.join();
        });
        assertEquals(true, out.get());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"(?P<name>a)", "(?<name>a)", "[[:alpha:]]+", "\\pL\\p{Greek}", "(?i)abc", "(?s).", "(?U)a*",
            "\\Qa.b\\E", "a\\z", "x{2,5}", "(a{10}){100}", "a{1000}", "[a-z]{0,1000}"})
    @DisplayName("Go's syntax compiles")
    void goSyntax(String pattern) {
        assertEquals(Optional.empty(), GoRegexp.error(pattern));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            a(?=b)              | invalid or unsupported Perl syntax: `(?=`
            a(?!b)              | invalid or unsupported Perl syntax: `(?!`
            (?<=a)b             | invalid named capture: `(?<=a)b`
            (?<!a)b             | invalid named capture: `(?<!a)b`
            (a)\\1              | invalid escape sequence: `\\1`
            a++                 | invalid nested repetition operator: `++`
            a*+                 | invalid nested repetition operator: `*+`
            \\p{javaLowerCase}  | invalid character class range: `\\p{javaLowerCase}`
            a\\Z                | invalid escape sequence: `\\Z`
            (?>a)               | invalid or unsupported Perl syntax: `(?>`
            (a                  | missing closing ): `(a`
            a)                  | unexpected ): `a)`
            (a))b               | unexpected ): `(a))b`
            a{1001}             | invalid repeat count: `{1001}`
            (a{1000}){1000}     | invalid repeat count: `{1000}`
            ((a{10}){10}){11}   | invalid repeat count: `{11}`
            """)
    @DisplayName("what Go refuses is refused, with Go's words")
    void goErrors(String pattern, String error) {
        assertEquals(Optional.of("error parsing regexp: " + error), GoRegexp.error(pattern));
    }

    @Test
    @DisplayName("a pattern past Go's height (1000) or size (128 MiB of instructions) is refused as Go refuses it")
    void limits() {
        String deep = "(".repeat(5000) + "a" + ")".repeat(5000);
        assertEquals(Optional.of("error parsing regexp: expression nests too deeply: `" + deep + "`"), GoRegexp.error(deep));
        String starred = "(?:".repeat(5000) + "a" + ")*".repeat(5000);
        assertTrue(GoRegexp.error(starred).orElseThrow().startsWith("error parsing regexp: expression nests too deeply"));
        assertEquals(Optional.empty(), GoRegexp.error("(".repeat(400) + "a" + ")".repeat(400)));
        assertEquals(Optional.empty(), GoRegexp.error("(?:".repeat(20_000) + "a" + ")".repeat(20_000)),
                "non-capturing groups make no node");
        String large = "a{1000}".repeat(4000);
        assertEquals(Optional.of("error parsing regexp: expression too large: `" + large + "`"), GoRegexp.error(large));
        assertEquals(Optional.empty(), GoRegexp.error("a{1000}".repeat(3000)));
    }

    @Test
    @DisplayName("find is unanchored, as Go's MatchString")
    void unanchored() {
        assertTrue(GoRegexp.compile("b").matcher("abc").find());
        assertTrue(!GoRegexp.compile("^b").matcher("abc").find());
    }
}
