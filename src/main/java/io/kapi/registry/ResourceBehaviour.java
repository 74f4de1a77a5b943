package io.kapi.registry;

import io.kapi.machinery.conversion.Converter;
import java.util.Objects;

/**
 * What the server does with the objects of one served resource beyond its schema and its row of the
 * resource table, as the resource's kind is registered: how they are written (the strategy) and how they
 * reach the storage version and back.
 *
 * @param strategy defaults, validation, status handling and the kind's own rules for every write
 * @param converter how objects of this version become those of the storage version and back
 *        ({@link Converter#NONE}: they are kept as served)
 */
public record ResourceBehaviour(Strategy strategy, Converter converter) {

    public ResourceBehaviour {
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(converter, "converter");
    }

    /** Objects written with {@code strategy} and kept as served. */
    public static ResourceBehaviour of(Strategy strategy) {
        return new ResourceBehaviour(strategy, Converter.NONE);
    }
}
