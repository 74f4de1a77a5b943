package io.kapi.machinery.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * kube's JSON patch library of mutating admission policies: {@code jsonpatch.escapeKey(k)} escapes a
 * key for a JSON pointer ({@code ~} as {@code ~0}, {@code /} as {@code ~1}).
 */
final class JsonPatchLibrary implements CelLibrary {

    @Override
    public List<CelFunctionDecl> declarations() {
        return List.of(newFunctionDeclaration("jsonpatch.escapeKey",
                newGlobalOverload("jsonpatch_escapeKey_string", SimpleType.STRING, SimpleType.STRING)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(CelFunctionBinding.from("jsonpatch_escapeKey_string", String.class,
                k -> k.replace("~", "~0").replace("/", "~1")));
    }
}
