package io.kapi.machinery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The 422 Invalid status: its message as Go's ErrorList.ToAggregate words it, its causes in full. */
class InvalidStatusTest {

    private static final GroupVersionKind QUOTA = new GroupVersionKind("", "v1", "ResourceQuota");

    @Test
    @DisplayName("an error reported twice is listed once in the message, as the only one without brackets")
    void repeatedOnce() {
        FieldError scope = FieldError.invalid("spec.scopes", "x", "unsupported scope applied to resource");
        ApiException e = ApiException.invalid(QUOTA, "q", List.of(scope, scope));
        assertEquals("ResourceQuota \"q\" is invalid: spec.scopes: Invalid value: x: unsupported scope applied to resource",
                e.getMessage());
        assertEquals(2, e.details().causes().size(), "the causes keep every error, as kube's NewInvalid");
    }

    @Test
    @DisplayName("several distinct errors are listed in brackets, in order")
    void several() {
        ApiException e = ApiException.invalid(QUOTA, "q", List.of(FieldError.required("spec.a", ""),
                FieldError.required("spec.b", ""), FieldError.required("spec.a", "")));
        assertEquals("ResourceQuota \"q\" is invalid: [spec.a: Required value, spec.b: Required value]", e.getMessage());
    }
}
