package io.kapi.registry;

/**
 * What a list asks for.
 *
 * @param limit at most this many items; 0 means all
 * @param continueToken the token of the previous page, or null
 * @param labelSelector a parsed label selector ({@link LabelSelector#EVERYTHING} for none)
 * @param fieldSelector a parsed field selector ({@link FieldSelector#EVERYTHING} for none)
 */
public record ListOptions(long limit, String continueToken, LabelSelector labelSelector, FieldSelector fieldSelector) {

    public static final ListOptions ALL = new ListOptions(0, null, LabelSelector.EVERYTHING, FieldSelector.EVERYTHING);

    /** The same options without paging. */
    public ListOptions unpaged() {
        return new ListOptions(0, null, labelSelector, fieldSelector);
    }
}
