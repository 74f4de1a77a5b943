package io.kapi.registry;

import io.kapi.machinery.labels.LabelSelector;

/**
 * What a list or watch asks for, as kube-apiserver's {@code metav1.ListOptions}.
 *
 * @param limit at most this many items; 0 means all
 * @param continueToken the token of the previous page, or null
 * @param labelSelector a parsed label selector ({@link LabelSelector#EVERYTHING} for none)
 * @param fieldSelector a parsed field selector ({@link FieldSelector#EVERYTHING} for none)
 * @param resourceVersion the {@code resourceVersion} parameter; "" when not given
 * @param resourceVersionMatch {@code NotOlderThan}, {@code Exact}, or "" when not given
 * @param sendInitialEvents the {@code sendInitialEvents} parameter of a watch; null when not given
 * @param allowWatchBookmarks whether a watch may send BOOKMARK events
 */
public record ListOptions(long limit, String continueToken, LabelSelector labelSelector, FieldSelector fieldSelector,
                          String resourceVersion, String resourceVersionMatch, Boolean sendInitialEvents,
                          boolean allowWatchBookmarks) {

    public static final ListOptions ALL = new ListOptions(0, null, LabelSelector.EVERYTHING, FieldSelector.EVERYTHING);

    public ListOptions {
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
        resourceVersionMatch = resourceVersionMatch == null ? "" : resourceVersionMatch;
    }

    /** Options without resourceVersion rules: a consistent list (or a watch from now). */
    public ListOptions(long limit, String continueToken, LabelSelector labelSelector, FieldSelector fieldSelector) {
        this(limit, continueToken, labelSelector, fieldSelector, "", "", null, false);
    }

    /** The same options without paging. */
    public ListOptions unpaged() {
        return new ListOptions(0, null, labelSelector, fieldSelector, resourceVersion, resourceVersionMatch,
                sendInitialEvents, allowWatchBookmarks);
    }

    /** The same options with {@code resourceVersion} and {@code resourceVersionMatch}. */
    public ListOptions atResourceVersion(String version, String match) {
        return new ListOptions(limit, continueToken, labelSelector, fieldSelector, version, match,
                sendInitialEvents, allowWatchBookmarks);
    }

    /** The same options with the watch parameters. */
    public ListOptions forWatch(Boolean initialEvents, boolean bookmarks) {
        return new ListOptions(limit, continueToken, labelSelector, fieldSelector, resourceVersion,
                resourceVersionMatch, initialEvents, bookmarks);
    }

    /** The same options with another field selector. */
    public ListOptions withFieldSelector(FieldSelector selector) {
        return new ListOptions(limit, continueToken, labelSelector, selector, resourceVersion, resourceVersionMatch,
                sendInitialEvents, allowWatchBookmarks);
    }
}
