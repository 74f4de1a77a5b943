package io.kapi.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code String} field or parameter of a {@link KapiTest} class that receives the test's
 * namespace: its own one with {@link KapiTest#namespacePerTest()}, else {@code default}.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface KapiNamespace {
}
