package io.kapi.machinery.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.re2j.Pattern;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("identifier forms: the hand matchers give kube's regular expressions' answers")
class IdentifierFormsTest {

    private static final Map<String, Predicate<String>> FORMS = Map.of(
            Identifiers.DNS1123_LABEL_FMT, IdentifierForms::dns1123Label,
            Identifiers.DNS1123_SUBDOMAIN_FMT, IdentifierForms::dns1123Subdomain,
            Identifiers.DNS1035_LABEL_FMT, IdentifierForms::dns1035Label,
            Identifiers.QUALIFIED_NAME_FMT, IdentifierForms::qualifiedName,
            Identifiers.LABEL_VALUE_FMT, IdentifierForms::labelValue);

    private static final List<String> EDGES = List.of("", "a", "A", "0", "-", ".", "_", "a-", "-a", "a.", ".a", "a..b",
            "a.b", "a-b", "a_b", "A_b", "0a", "a0", "my-name", "123-abc", "example.com", "Example.com", "a.-b", "a-.b",
            "x/y", "é", "aé", "a b", "a\u0000", "MyName", "my.name", "my_value", "12345", "-.", "a.b.", "..", "9.9.9");

    private static void same(String value) {
        FORMS.forEach((regex, matcher) -> assertEquals(Pattern.compile(regex).matcher(value).matches(),
                matcher.test(value), () -> "/" + regex + "/ on \"" + value + "\""));
    }

    @Test
    @DisplayName("edge cases: empty, single characters, dots and dashes at either end, other alphabets")
    void edges() {
        EDGES.forEach(IdentifierFormsTest::same);
    }

    @Test
    @DisplayName("200,000 random strings over the classes' characters and a few others")
    void random() {
        String alphabet = "ab0-._A/Zé ";
        SplittableRandom random = new SplittableRandom(20261207);
        Map<String, Pattern> compiled = Map.of(
                Identifiers.DNS1123_LABEL_FMT, Pattern.compile(Identifiers.DNS1123_LABEL_FMT),
                Identifiers.DNS1123_SUBDOMAIN_FMT, Pattern.compile(Identifiers.DNS1123_SUBDOMAIN_FMT),
                Identifiers.DNS1035_LABEL_FMT, Pattern.compile(Identifiers.DNS1035_LABEL_FMT),
                Identifiers.QUALIFIED_NAME_FMT, Pattern.compile(Identifiers.QUALIFIED_NAME_FMT),
                Identifiers.LABEL_VALUE_FMT, Pattern.compile(Identifiers.LABEL_VALUE_FMT));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            b.setLength(0);
            int length = random.nextInt(9);
            for (int j = 0; j < length; j++) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String value = b.toString();
            FORMS.forEach((regex, matcher) -> {
                if (compiled.get(regex).matcher(value).matches() != matcher.test(value)) {
                    assertEquals(compiled.get(regex).matcher(value).matches(), matcher.test(value),
                            "/" + regex + "/ on \"" + value + "\"");
                }
            });
        }
    }
}
