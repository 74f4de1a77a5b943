package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.resource.ApiResource;
import java.util.List;

/** Validates the metadata every kind shares (name rules per resource, labels, annotations). */
@FunctionalInterface
public interface MetadataValidation {

    List<FieldError> validate(ApiResource resource, ObjectNode object);
}
