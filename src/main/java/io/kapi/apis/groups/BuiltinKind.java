package io.kapi.apis.groups;

import io.kapi.apis.validation.SpecStatusStrategy;
import io.kapi.apis.validation.StatusPolicy;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Lazy;
import io.kapi.machinery.conversion.Converter;
import io.kapi.registry.Defaulter;
import io.kapi.registry.KindValidator;
import io.kapi.registry.PodTemplatePath;
import io.kapi.registry.Strategy;
import io.kapi.registry.table.KindPrinter;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One built-in kind in one group version, as its group's registration declares it (the only place that
 * does): what Kapi does with its objects beyond its schema and its row of the resource table (both data).
 * Made with {@link #of} and the with-style methods below, each returning a changed copy:
 *
 * <pre>{@code
 * BuiltinKind.of(APPS_V1, "Deployment")
 *         .defaults(WorkloadDefaults::deployment)
 *         .validation(Workloads.DEPLOYMENT)
 *         .status(StatusPolicy.EMPTY)
 *         .printer(AppsPrinters::deployments)
 *         .podTemplate("spec", "template")
 * }</pre>
 *
 * <p>A kind served in several versions is registered once per version: defaults and conversion belong to
 * the version; validation runs on the object as stored but is the served version's; the status split and the
 * printer are the stored kind's (see {@link BuiltinBehaviours}). A kind without a resource of its own (the
 * Scale of the {@code scale} subresources) is registered for what it has (its printer).
 *
 * @param gvk the kind, e.g. {@code apps/v1 Deployment}
 * @param defaults kube's {@code SetObjectDefaults_<Kind>} of this version; {@link Defaulter#NONE} for none
 * @param validation kube's {@code Validate<Kind>} and {@code Validate<Kind>Update}, on the object as stored;
 *        {@link KindValidator#NONE} for none
 * @param status the status a new object starts with, when the kind's strategy splits spec and status (the
 *        main resource keeps the stored status, {@code /status} changes it); null when it does not
 * @param strategy what the kind's strategy adds to the generic one, or null for nothing
 * @param conversion this version's conversion to the storage version; {@link Converter#NONE} when objects are
 *        kept as served
 * @param printer its table columns (kube's {@code printers.go}), made once on first use; null for kube's default
 *        NAME / CREATED AT table
 * @param podTemplate where its objects hold a pod template (the workloads), null when they hold none
 * @param atRest how its stored objects are written at rest when kube-apiserver keeps them in another version
 *        than the one Kapi's write pipeline stores (CustomResourceDefinitions: {@code v1beta1});
 *        {@link Converter#NONE} when they are written as stored
 */
public record BuiltinKind(GroupVersionKind gvk, Defaulter defaults, KindValidator validation, StatusPolicy status,
                          KindStrategy strategy, Converter conversion, Supplier<KindPrinter> printer,
                          PodTemplatePath podTemplate, Converter atRest) {

    public BuiltinKind {
        Objects.requireNonNull(gvk, "gvk");
        Objects.requireNonNull(defaults, "defaults");
        Objects.requireNonNull(validation, "validation");
        Objects.requireNonNull(conversion, "conversion");
        Objects.requireNonNull(atRest, "atRest");
    }

    /**
     * The strategy of a kind whose Kubernetes strategy does more than the generic one (graceful deletion,
     * status conditions, allocation, ...).
     */
    @FunctionalInterface
    public interface KindStrategy {

        /**
         * @param base the generic strategy with the kind's defaults and validation (and status split)
         * @param server what the running server gives the few kinds that need it
         */
        Strategy of(Strategy base, ServerHooks server);
    }

    /** {@code kind} of {@code groupVersion}, with no behaviour beyond its schema yet. */
    public static BuiltinKind of(GroupVersion groupVersion, String kind) {
        return of(new GroupVersionKind(groupVersion.group(), groupVersion.version(), kind));
    }

    /** {@code gvk} with no behaviour beyond its schema. */
    public static BuiltinKind of(GroupVersionKind gvk) {
        return new BuiltinKind(gvk, Defaulter.NONE, KindValidator.NONE, null, null, Converter.NONE, null, null,
                Converter.NONE);
    }

    public BuiltinKind defaults(Defaulter d) {
        return new BuiltinKind(gvk, d, validation, status, strategy, conversion, printer, podTemplate, atRest);
    }

    public BuiltinKind validation(KindValidator v) {
        return new BuiltinKind(gvk, defaults, v, status, strategy, conversion, printer, podTemplate, atRest);
    }

    /** This kind with kube's spec/status split, new objects starting with the status {@code initial} makes. */
    public BuiltinKind status(StatusPolicy initial) {
        return new BuiltinKind(gvk, defaults, validation, initial, strategy, conversion, printer, podTemplate, atRest);
    }

    public BuiltinKind strategy(KindStrategy s) {
        return new BuiltinKind(gvk, defaults, validation, status, s, conversion, printer, podTemplate, atRest);
    }

    public BuiltinKind conversion(Converter c) {
        return new BuiltinKind(gvk, defaults, validation, status, strategy, c, printer, podTemplate, atRest);
    }

    /** This kind written at rest in the form {@code c} makes of its stored objects (and read back through it). */
    public BuiltinKind atRest(Converter c) {
        return new BuiltinKind(gvk, defaults, validation, status, strategy, conversion, printer, podTemplate, c);
    }

    /** This kind printing with the columns {@code make} makes, the first time a table of it is asked for. */
    public BuiltinKind printer(Supplier<KindPrinter> make) {
        return new BuiltinKind(gvk, defaults, validation, status, strategy, conversion, Lazy.of(make), podTemplate,
                atRest);
    }

    /** This kind holding a pod template at {@code fields} (e.g. {@code spec}, {@code template}). */
    public BuiltinKind podTemplate(String... fields) {
        return new BuiltinKind(gvk, defaults, validation, status, strategy, conversion, printer,
                PodTemplatePath.of(fields), atRest);
    }

    /** {@code base} with this kind's spec/status split, or itself when the kind has none. */
    public Strategy withStatusSplit(Strategy base) {
        return status == null ? base : new SpecStatusStrategy(base, status);
    }
}
