package io.kapi.registry;

import io.kapi.machinery.conversion.Converter;
import io.kapi.registry.table.KindPrinter;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the server does with the objects of one served resource beyond its schema and its row of the
 * resource table, as the resource's kind is registered: how they are written (the strategy), how they
 * reach the storage version and back, how they print as a table, and where they hold a pod template.
 *
 * @param strategy defaults, validation, status handling and the kind's own rules for every write
 * @param converter how objects of this version become those of the storage version and back
 *        ({@link Converter#NONE}: they are kept as served)
 * @param printer the table columns its objects print with, made on first use: for a resource that converts,
 *        those of its stored kind, read off the stored form (kube-apiserver prints its internal object,
 *        whatever version is asked for); null for kube's default NAME / CREATED AT table
 * @param podTemplate where its objects hold a pod template (workloads), which admission checks as a pod's; null
 *        when they hold none
 * @param atRest how stored objects are written at rest and read back, where kube-apiserver keeps them in another
 *        version than the storage version Kapi's pipeline works in (CRDs: {@code v1beta1}); {@link Converter#NONE}
 *        when they are written as stored
 */
public record ResourceBehaviour(Strategy strategy, Converter converter, Supplier<KindPrinter> printer,
                                PodTemplatePath podTemplate, Converter atRest) {

    public ResourceBehaviour {
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(converter, "converter");
        Objects.requireNonNull(atRest, "atRest");
    }

    /** Objects written with {@code strategy}, kept as served, printed with the default table, without pod template. */
    public static ResourceBehaviour of(Strategy strategy) {
        return new ResourceBehaviour(strategy, Converter.NONE, null, null, Converter.NONE);
    }
}
