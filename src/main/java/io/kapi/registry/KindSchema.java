package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.apply.FieldManager;
import io.kapi.machinery.validation.FieldValidation;
import io.kapi.machinery.validation.ValidationResult;
import java.util.List;

/**
 * The schema of a kind the server's built-in schemas do not describe (a custom resource's, from its
 * CRD): what the write pipeline's decode stage and field tracking use for it instead.
 */
public interface KindSchema {

    /**
     * The decoding checks of a written object of the served version, in place: unknown fields pruned
     * (and warned about or refused as {@code mode} says, together with the decoder's duplicate fields),
     * metadata coerced.
     *
     * @throws io.kapi.machinery.ApiException 400 BadRequest for a malformed object, or for unknown or
     *         duplicate fields in Strict mode
     */
    ValidationResult decode(ObjectNode object, FieldValidation mode, List<String> duplicateFields);

    /** The field manager of the kind's served version (managed fields, server-side apply). */
    FieldManager fieldManager();
}
