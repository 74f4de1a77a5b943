package io.kapi.apis.validation;

import io.kapi.machinery.net.Cidr;
import io.kapi.machinery.net.IpAddress;
import io.kapi.machinery.validation.Identifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Identifier checks of {@code k8s.io/apimachinery/pkg/util/validation} not in machinery's Identifiers. */
final class Names {

    private static final Pattern PORT_NAME_CHARSET = Pattern.compile("[-a-z0-9]+");
    private static final Pattern ONE_LETTER = Pattern.compile(".*[a-z].*");
    private static final String CONFIG_KEY_FMT = "[-._a-zA-Z0-9]+";
    private static final Pattern CONFIG_KEY = Pattern.compile(CONFIG_KEY_FMT);

    static final String PORT_RANGE = "must be between 1 and 65535, inclusive";

    private Names() {
    }

    /** {@code IsValidPortName}: an IANA_SVC_NAME. */
    static List<String> portName(String port) {
        List<String> errs = new ArrayList<>(0);
        if (port.length() > 15) {
            errs.add("must be no more than 15 characters");
        }
        if (!PORT_NAME_CHARSET.matcher(port).matches()) {
            errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        }
        if (!ONE_LETTER.matcher(port).matches()) {
            errs.add("must contain at least one letter (a-z)");
        }
        if (port.contains("--")) {
            errs.add("must not contain consecutive hyphens");
        }
        if (!port.isEmpty() && (port.charAt(0) == '-' || port.charAt(port.length() - 1) == '-')) {
            errs.add("must not begin or end with a hyphen");
        }
        return errs;
    }

    static boolean validPort(long port) {
        return port >= 1 && port <= 65535;
    }

    /** {@code IsConfigMapKey}. */
    static List<String> configMapKey(String key) {
        List<String> errs = new ArrayList<>(0);
        if (key.length() > 253) {
            errs.add("must be no more than 253 characters");
        }
        if (!CONFIG_KEY.matcher(key).matches()) {
            errs.add(Go.regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                    CONFIG_KEY_FMT, "key.name", "KEY_NAME", "key-name"));
        }
        if (key.equals(".")) {
            errs.add("must not be '.'");
        } else if (key.equals("..")) {
            errs.add("must not be '..'");
        } else if (key.startsWith("..")) {
            errs.add("must not start with '..'");
        }
        return errs;
    }

    /** {@code IsRelaxedEnvVarName} (RelaxedEnvironmentVariableValidation is on in 1.34). */
    static List<String> envVarName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 32 || c > 126 || c == '=') {
                return List.of("a valid environment variable name must consist only of printable ASCII "
                        + "characters other than '='");
            }
        }
        return List.of();
    }

    /** Whether {@code s} is an IPv4 or IPv6 literal (Go's netip rules: no leading zeros, no zone). */
    static boolean isIp(String s) {
        return IpAddress.parseOrNull(s) != null;
    }

    static boolean isIpv6(String s) {
        return s.indexOf(':') >= 0;
    }

    /** {@code IsValidIP}'s message pair. */
    static void ip(String path, String value, Errs e) {
        if (!isIp(value)) {
            e.invalidString(path, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
        }
    }

    /** {@code IsValidIP} as 1.34 has it: the address as {@code netutils.ParseIPSloppy} reads it (leading zeros allowed). */
    static void ipSloppy(String path, String value, Errs e) {
        if (SpecialIps.sloppy(value) == null) {
            e.invalidString(path, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
        }
    }

    /** {@code IsValidIPv4Address}: a sloppy address that Go's {@code To4} takes (IPv4-mapped IPv6 too). */
    static void ipv4Address(String path, String value, Errs e) {
        IpAddress ip = SpecialIps.sloppy(value);
        if (ip == null || SpecialIps.ipv4(ip) < 0) {
            e.invalidString(path, value, "must be a valid IPv4 address");
        }
    }

    /** {@code IsValidIPv6Address}: a sloppy address that Go's {@code To4} refuses. */
    static void ipv6Address(String path, String value, Errs e) {
        IpAddress ip = SpecialIps.sloppy(value);
        if (ip == null || SpecialIps.ipv4(ip) >= 0) {
            e.invalidString(path, value, "must be a valid IPv6 address");
        }
    }

    /**
     * {@code IsFullyQualifiedDomainName}: one trailing dot allowed, then a DNS-1123 subdomain of at least two
     * labels; only the first problem is reported, with the messages joined by commas.
     */
    static void fullyQualifiedDomainName(String path, String value, Errs e) {
        if (value.isEmpty()) {
            e.required(path, "");
            return;
        }
        String name = value.endsWith(".") ? value.substring(0, value.length() - 1) : value;
        List<String> errs = Identifiers.dns1123Subdomain(name);
        if (!errs.isEmpty()) {
            e.invalidString(path, name, String.join(",", errs));
            return;
        }
        String[] labels = name.split("\\.", -1);
        if (labels.length < 2) {
            e.invalidString(path, name, "should be a domain with at least two segments separated by dots");
            return;
        }
        for (String label : labels) {
            List<String> labelErrs = Identifiers.dns1123Label(label);
            if (!labelErrs.isEmpty()) {
                e.invalidString(path, label, String.join(",", labelErrs));
                return;
            }
        }
    }

    /** {@code IsValidCIDR}: an address as {@link #isIp} takes it, {@code /} and a prefix it can have. */
    static void cidr(String path, String value, Errs e) {
        try {
            Cidr.parse(value);
        } catch (IllegalArgumentException ex) {
            e.invalidString(path, value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)");
        }
    }
}
