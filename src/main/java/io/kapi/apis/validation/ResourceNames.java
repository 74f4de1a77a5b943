package io.kapi.apis.validation;

import io.kapi.machinery.quantity.Quantity;
import io.kapi.machinery.validation.Identifiers;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Set;

/**
 * Resource names and quantities as kube's core validation checks them: {@code validateResourceName},
 * {@code validateContainerResourceName}, {@code ValidateResourceQuantityValue} and the hugepage value rule,
 * with the name sets of {@code pkg/apis/core/helper}.
 */
final class ResourceNames {

    private static final Set<String> STANDARD = Set.of("cpu", "memory", "ephemeral-storage", "requests.cpu",
            "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory",
            "limits.ephemeral-storage", "pods", "resourcequotas", "services", "replicationcontrollers", "secrets",
            "configmaps", "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports",
            "services.loadbalancers");
    private static final Set<String> CONTAINER = Set.of("cpu", "memory", "ephemeral-storage");
    private static final Set<String> INTEGER = Set.of("pods", "resourcequotas", "services", "replicationcontrollers",
            "secrets", "configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers");
    private static final String HUGE_PAGES = "hugepages-";
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private ResourceNames() {
    }

    /** {@code validateResourceName}: a qualified name, and a standard one when it has no domain. */
    static void resource(String name, String path, Errs e) {
        List<String> msgs = Identifiers.qualifiedName(name);
        if (!msgs.isEmpty()) {
            e.each(path, name, msgs);
            return;
        }
        if (!name.contains("/") && !STANDARD.contains(name) && !name.startsWith(HUGE_PAGES)
                && !name.startsWith("requests." + HUGE_PAGES)) {
            e.invalidString(path, name, "must be a standard resource type or fully qualified");
        }
    }

    /** {@code validateContainerResourceName}: {@link #resource}, then a container resource or an extended one. */
    static void container(String name, String path, Errs e) {
        resource(name, path, e);
        if (!name.contains("/")) {
            if (!CONTAINER.contains(name) && !name.startsWith(HUGE_PAGES)) {
                e.invalidString(path, name, "must be a standard resource for containers");
            }
        } else if (!isNative(name) && !isExtended(name)) {
            e.invalidString(path, name, "doesn't follow extended resource name standard");
        }
    }

    /** {@code IsNativeResource}: no domain, or a kubernetes.io one. */
    static boolean isNative(String name) {
        return !name.contains("/") || name.contains("kubernetes.io/");
    }

    static boolean isHugePages(String name) {
        return name.startsWith(HUGE_PAGES);
    }

    /** {@code IsOvercommitAllowed}: native and not hugepages. */
    static boolean overcommitAllowed(String name) {
        return isNative(name) && !isHugePages(name);
    }

    private static boolean isExtended(String name) {
        return !isNative(name) && !name.startsWith("requests.")
                && Identifiers.qualifiedName("requests." + name).isEmpty();
    }

    /** {@code ValidateResourceQuantityValue}: not negative; whole for integer resources. */
    static void quantityValue(String name, Quantity q, String path, Errs e) {
        if (q.signum() < 0) {
            e.invalidString(path, q.toString(), Errs.NEGATIVE);
        }
        if ((INTEGER.contains(name) || isExtended(name)) && milli(q) % 1000 != 0) {
            e.invalid(path, q.toString(), "must be an integer");
        }
    }

    /** {@code validateResourceQuantityHugePageValue} without indivisible values allowed. */
    static void hugePageValue(String name, Quantity q, String path, Errs e) {
        if (!isHugePages(name)) {
            return;
        }
        Quantity size = Quantity.parseOrNull(name.substring(HUGE_PAGES.length()));
        boolean divisible = size != null && size.signum() > 0 && milli(size) % 1000 == 0
                && value(q) % value(size) == 0;
        if (!divisible) {
            e.invalidString(path, q.toString(), q + " is not positive integer multiple of " + name);
        }
    }

    /** {@code Quantity.Value()}: rounded up to a whole number, saturating at the int64 range. */
    static long value(Quantity q) {
        return saturated(q.value().setScale(0, RoundingMode.UP));
    }

    /** {@code Quantity.MilliValue()}. */
    static long milli(Quantity q) {
        return saturated(q.value().multiply(THOUSAND).setScale(0, RoundingMode.UP));
    }

    private static long saturated(BigDecimal whole) {
        if (whole.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            return Long.MAX_VALUE;
        }
        if (whole.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
            return Long.MIN_VALUE;
        }
        return whole.longValueExact();
    }
}
