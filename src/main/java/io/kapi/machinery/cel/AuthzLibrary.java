package io.kapi.machinery.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/** kube's authorization library: {@code path}, {@code group}, {@code resource}, {@code check}, decisions. */
final class AuthzLibrary implements CelLibrary {

    static final CelType AUTHORIZER = OpaqueType.create("kubernetes.authorization.Authorizer");
    static final CelType PATH_CHECK = OpaqueType.create("kubernetes.authorization.PathCheck");
    static final CelType GROUP_CHECK = OpaqueType.create("kubernetes.authorization.GroupCheck");
    static final CelType RESOURCE_CHECK = OpaqueType.create("kubernetes.authorization.ResourceCheck");
    static final CelType DECISION = OpaqueType.create("kubernetes.authorization.Decision");

    record PathCheck(CelAuthorizer authorizer, String path) {
    }

    record GroupCheck(CelAuthorizer authorizer, String group) {
    }

    record ResourceCheck(CelAuthorizer authorizer, String group, String resource, String subresource,
                         String namespace, String name) {
        ResourceCheck with(String subresource, String namespace, String name) {
            return new ResourceCheck(authorizer, group, resource, subresource, namespace, name);
        }
    }

    @Override
    public List<CelFunctionDecl> declarations() {
        CelType s = SimpleType.STRING;
        return List.of(
                newFunctionDeclaration("path", newMemberOverload("authorizer_path", PATH_CHECK, AUTHORIZER, s)),
                newFunctionDeclaration("group", newMemberOverload("authorizer_group", GROUP_CHECK, AUTHORIZER, s)),
                newFunctionDeclaration("serviceAccount",
                        newMemberOverload("authorizer_serviceaccount", AUTHORIZER, AUTHORIZER, s, s)),
                newFunctionDeclaration("resource",
                        newMemberOverload("groupcheck_resource", RESOURCE_CHECK, GROUP_CHECK, s)),
                newFunctionDeclaration("subresource",
                        newMemberOverload("resourcecheck_subresource", RESOURCE_CHECK, RESOURCE_CHECK, s)),
                newFunctionDeclaration("namespace",
                        newMemberOverload("resourcecheck_namespace", RESOURCE_CHECK, RESOURCE_CHECK, s)),
                newFunctionDeclaration("name", newMemberOverload("resourcecheck_name", RESOURCE_CHECK, RESOURCE_CHECK, s)),
                newFunctionDeclaration("check", newMemberOverload("pathcheck_check", DECISION, PATH_CHECK, s),
                        newMemberOverload("resourcecheck_check", DECISION, RESOURCE_CHECK, s)),
                newFunctionDeclaration("allowed", newMemberOverload("decision_allowed", SimpleType.BOOL, DECISION)),
                newFunctionDeclaration("reason", newMemberOverload("decision_reason", s, DECISION)),
                newFunctionDeclaration("errored", newMemberOverload("decision_errored", SimpleType.BOOL, DECISION)),
                newFunctionDeclaration("error", newMemberOverload("decision_error", s, DECISION)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("authorizer_path", CelAuthorizer.class, String.class, PathCheck::new),
                CelFunctionBinding.from("authorizer_group", CelAuthorizer.class, String.class, GroupCheck::new),
                CelFunctionBinding.from("authorizer_serviceaccount", List.of(CelAuthorizer.class, String.class,
                        String.class), a -> ((CelAuthorizer) a[0]).forServiceAccount((String) a[1], (String) a[2])),
                CelFunctionBinding.from("groupcheck_resource", GroupCheck.class, String.class,
                        (g, r) -> new ResourceCheck(g.authorizer(), g.group(), r, "", "", "")),
                CelFunctionBinding.from("resourcecheck_subresource", ResourceCheck.class, String.class,
                        (c, v) -> c.with(v, c.namespace(), c.name())),
                CelFunctionBinding.from("resourcecheck_namespace", ResourceCheck.class, String.class,
                        (c, v) -> c.with(c.subresource(), v, c.name())),
                CelFunctionBinding.from("resourcecheck_name", ResourceCheck.class, String.class,
                        (c, v) -> c.with(c.subresource(), c.namespace(), v)),
                CelFunctionBinding.from("pathcheck_check", PathCheck.class, String.class,
                        (p, verb) -> p.authorizer().authorize(new CelAuthorizer.Check(p.path(), "", "", "", "", "", verb))),
                CelFunctionBinding.from("resourcecheck_check", ResourceCheck.class, String.class,
                        (c, verb) -> c.authorizer().authorize(new CelAuthorizer.Check(null, c.group(), c.resource(),
                                c.subresource(), c.namespace(), c.name(), verb))),
                CelFunctionBinding.from("decision_allowed", CelAuthorizer.Decision.class, CelAuthorizer.Decision::allowed),
                CelFunctionBinding.from("decision_reason", CelAuthorizer.Decision.class, CelAuthorizer.Decision::reason),
                CelFunctionBinding.from("decision_errored", CelAuthorizer.Decision.class, d -> !d.error().isEmpty()),
                CelFunctionBinding.from("decision_error", CelAuthorizer.Decision.class, CelAuthorizer.Decision::error));
    }
}
