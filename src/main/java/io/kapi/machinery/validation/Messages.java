package io.kapi.machinery.validation;

import io.kapi.machinery.GoJson;

/** Go's renderings of values in messages. */
final class Messages {

    private Messages() {
    }

    /** Go's {@code %q} of a string: double quotes, with {@code "}, {@code \} and control characters escaped. */
    static String quote(String s) {
        return GoJson.quote(s);
    }
}
