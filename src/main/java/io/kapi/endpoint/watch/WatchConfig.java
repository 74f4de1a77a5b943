package io.kapi.endpoint.watch;

import java.time.Duration;

/**
 * Timing of watch responses.
 *
 * @param minRequestTimeout a watch without {@code timeoutSeconds} ends after a random time between this
 *        and twice this (kube-apiserver's {@code --min-request-timeout}, 1800 s by default), so that
 *        watches spread over the servers of a cluster
 * @param bookmarkInterval how often a watch that allows bookmarks gets one (kube-apiserver: a minute);
 *        one is also sent 2 s before the watch times out
 */
public record WatchConfig(Duration minRequestTimeout, Duration bookmarkInterval) {

    public static final WatchConfig DEFAULT = new WatchConfig(Duration.ofSeconds(1800), Duration.ofMinutes(1));
}
