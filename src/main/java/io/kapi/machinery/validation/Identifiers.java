package io.kapi.machinery.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * The identifier checks of {@code k8s.io/apimachinery/pkg/util/validation}, returning kube-apiserver's exact
 * messages (empty list when valid). Messages name no field: callers wrap them in {@code FieldError}s.
 * The forms are matched by {@link IdentifierForms}; the regular expressions here are kube's, for its messages.
 */
public final class Identifiers {

    static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";


    private static final String DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case "
            + "alphanumeric characters or '-', and must start and end with an alphanumeric character";
    private static final String DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower "
            + "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final String DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric "
            + "characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    private static final String QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', "
            + "and must start and end with an alphanumeric character";
    private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist of "
            + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

    public static final int DNS1123_LABEL_MAX = 63;
    public static final int DNS1123_SUBDOMAIN_MAX = 253;
    public static final int DNS1035_LABEL_MAX = 63;
    public static final int QUALIFIED_NAME_MAX = 63;
    public static final int LABEL_VALUE_MAX = 63;

    private Identifiers() {
    }

    public static List<String> dns1123Label(String value) {
        List<String> errs = new ArrayList<>(0);
        if (value.length() > DNS1123_LABEL_MAX) {
            errs.add(maxLen(DNS1123_LABEL_MAX));
        }
        if (!IdentifierForms.dns1123Label(value)) {
            errs.add(IdentifierForms.dns1123Subdomain(value) ? "must not contain dots"
                    : regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
        }
        return errs;
    }

    public static List<String> dns1123Subdomain(String value) {
        List<String> errs = new ArrayList<>(0);
        if (value.length() > DNS1123_SUBDOMAIN_MAX) {
            errs.add(maxLen(DNS1123_SUBDOMAIN_MAX));
        }
        if (!IdentifierForms.dns1123Subdomain(value)) {
            errs.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errs;
    }

    public static List<String> dns1035Label(String value) {
        List<String> errs = new ArrayList<>(0);
        if (value.length() > DNS1035_LABEL_MAX) {
            errs.add(maxLen(DNS1035_LABEL_MAX));
        }
        if (!IdentifierForms.dns1035Label(value)) {
            errs.add(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
        }
        return errs;
    }

    /** A path segment: not {@code .} or {@code ..}, no {@code /} or {@code %}; a prefix only the latter. */
    public static List<String> pathSegment(String value, boolean prefix) {
        if (!prefix && (value.equals(".") || value.equals(".."))) {
            return List.of("may not be '" + value + "'");
        }
        List<String> errs = new ArrayList<>(0);
        if (value.contains("/")) {
            errs.add("may not contain '/'");
        }
        if (value.contains("%")) {
            errs.add("may not contain '%'");
        }
        return errs;
    }

    /** A qualified name: {@code [prefix/]name}, as label keys, annotation keys and finalizers are. */
    public static List<String> qualifiedName(String value) {
        List<String> errs = new ArrayList<>(0);
        String[] parts = value.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errs.add("prefix part must be non-empty");
                } else {
                    dns1123Subdomain(prefix).forEach(m -> errs.add("prefix part " + m));
                }
            }
            default -> {
                errs.add("a qualified name " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT,
                        "MyName", "my.name", "123-abc")
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return errs;
            }
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (name.length() > QUALIFIED_NAME_MAX) {
            errs.add("name part " + maxLen(QUALIFIED_NAME_MAX));
        }
        if (!IdentifierForms.qualifiedName(name)) {
            errs.add("name part " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }

    public static List<String> labelValue(String value) {
        List<String> errs = new ArrayList<>(0);
        if (value.length() > LABEL_VALUE_MAX) {
            errs.add(maxLen(LABEL_VALUE_MAX));
        }
        if (!IdentifierForms.labelValue(value)) {
            errs.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errs;
    }

    static String maxLen(int n) {
        return "must be no more than " + n + " characters";
    }

    /** apimachinery's {@code RegexError}, double space after the first example included. */
    static String regexError(String msg, String fmt, String... examples) {
        StringBuilder b = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                b.append(" or ");
            }
            b.append('\'').append(examples[i]).append("', ");
        }
        return b.append("regex used for validation is '").append(fmt).append("')").toString();
    }
}
