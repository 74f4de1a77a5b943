package io.kapi.registry;

/**
 * What a list asks for.
 *
 * @param limit at most this many items; 0 means all
 * @param continueToken the token of the previous page, or null
 * @param labelSelector a parsed label selector ({@link LabelSelector#EVERYTHING} for none)
 * @param fieldName the name a {@code metadata.name=} field selector pins, or null
 */
public record ListOptions(long limit, String continueToken, LabelSelector labelSelector, String fieldName) {

    public static final ListOptions ALL = new ListOptions(0, null, LabelSelector.EVERYTHING, null);
}
