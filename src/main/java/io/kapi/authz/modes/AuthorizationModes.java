package io.kapi.authz.modes;

import io.kapi.admission.ObjectLookup;
import io.kapi.authz.AbacAuthorizer;
import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.AuthorizationConfig;
import io.kapi.authz.AuthorizationConfiguration;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.authz.PolicyRule;
import io.kapi.authz.RuleResolver;
import io.kapi.authz.WebhookAuthorizer;
import io.kapi.authz.WebhookOptions;
import io.kapi.authz.node.NodeAuthorizer;
import io.kapi.authz.rbac.RbacAuthorizer;
import io.kapi.informers.SharedInformers;
import io.kapi.user.SystemUsers;
import io.kapi.user.UserInfo;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The authorizer chain {@code --authorization-mode} names, in order, as kube-apiserver builds it:
 * first, always, members of {@code system:masters} are allowed everything; then each mode in turn.
 * Adding a mode is one class and one line in {@link #MODES}. Modes kube-apiserver has and Kapi does
 * not yet are accepted, logged at start, and have no opinion, so the rest of the chain decides;
 * a name kube-apiserver does not know stops the start with its error.
 */
public final class AuthorizationModes {

    private static final System.Logger LOG = System.getLogger(AuthorizationModes.class.getName());

    /** kube-apiserver's mode names; a null factory is a mode Kapi does not implement yet. */
    private static final Map<String, Function<Context, Mode>> MODES = modes();

    /**
     * The chain built.
     *
     * @param authorizer decides requests
     * @param rules lists a user's rules for {@code SelfSubjectRulesReview}
     * @param resources what to close when the server stops (watches of RBAC objects)
     * @param rbac the RBAC authorizer of the chain, or null when RBAC is not among the modes
     */
    public record Chain(Authorizer authorizer, RuleResolver rules, AutoCloseable resources, RbacAuthorizer rbac) {
    }

    /**
     * What modes are built from.
     */
    private record Context(Sources sources, AuthorizationConfig config) {
    }

    /**
     * What the RBAC and Node modes read: the server's shared informers, storage for the reads that must
     * be current, and the rules of the bootstrap {@code system:node} role (kube's
     * {@code bootstrappolicy.NodeRules()}), read only when the Node mode is built. Null for a chain of
     * modes that read nothing (tests of the filters).
     */
    public record Sources(SharedInformers informers, ObjectLookup storage, Supplier<List<PolicyRule>> nodeRules,
                          Decisions decisions) {

        public Sources(SharedInformers informers, ObjectLookup storage, Supplier<List<PolicyRule>> nodeRules) {
            this(informers, storage, nodeRules, Decisions.NONE);
        }
    }

    /** Told each terminal decision of a configured authorizer ({@code apiserver_authorization_decisions_total}). */
    @FunctionalInterface
    public interface Decisions {
        Decisions NONE = (type, name, decision) -> { };

        /** {@code decision} is {@code allowed} or {@code denied}. */
        void decided(String type, String name, String decision);
    }

    /** One authorizer of the chain; {@code underlying} is the one {@code authorizer} wraps (itself when none). */
    private record Mode(Authorizer authorizer, RuleResolver rules, AutoCloseable resources, Authorizer underlying) {

        Mode(Authorizer authorizer, RuleResolver rules, AutoCloseable resources) {
            this(authorizer, rules, resources, authorizer);
        }
    }

    private AuthorizationModes() {
    }

    private static Map<String, Function<Context, Mode>> modes() {
        Map<String, Function<Context, Mode>> m = new LinkedHashMap<>();
        PolicyRule everything = new PolicyRule(List.of("*"), List.of("*"), List.of("*"), List.of(), List.of());
        PolicyRule everyPath = new PolicyRule(List.of("*"), List.of(), List.of(), List.of(), List.of("*"));
        m.put("AlwaysAllow", context -> new Mode(attributes -> Decision.allow(),
                (user, ns) -> new RuleResolver.Rules(List.of(everything, everyPath), false), () -> { }));
        m.put("AlwaysDeny", context -> new Mode(attributes -> new Decision.Deny(""),
                (user, ns) -> new RuleResolver.Rules(List.of(), false), () -> { }));
        m.put("ABAC", context -> {
            if (context.config().policyFile() == null) {
                throw new IllegalArgumentException("authorization-mode ABAC's authorization policy file not passed");
            }
            AbacAuthorizer abac = AbacAuthorizer.read(context.config().policyFile());
            return new Mode(abac, abac, () -> { });
        });
        m.put("Webhook", context -> {
            AuthorizationConfig c = context.config();
            if (c.webhookConfigFile() == null) {
                throw new IllegalArgumentException("authorization-mode Webhook's authorization config file not passed");
            }
            return webhook(WebhookOptions.legacy(c.webhookConfigFile(), c.webhookAuthorizedTtl(),
                    c.webhookUnauthorizedTtl(), c.webhookVersion()));
        });
        m.put("RBAC", context -> {
            Sources sources = context.sources();
            if (sources == null) {
                throw new IllegalArgumentException("authorization-mode RBAC needs the API's registry");
            }
            RbacAuthorizer rbac = RbacAuthorizer.start(sources.informers(), sources.storage());
            return new Mode(rbac, rbac, rbac);
        });
        m.put("Node", context -> {
            Sources sources = context.sources();
            if (sources == null) {
                throw new IllegalArgumentException("authorization-mode Node needs the API's registry");
            }
            NodeAuthorizer node = NodeAuthorizer.start(sources.informers(), sources.nodeRules().get());
            return new Mode(node, node, node);
        });
        return m;
    }

    private static Mode webhook(WebhookOptions options) {
        if (options.kubeConfigFile() == null) {
            throw new IllegalArgumentException("unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
                    + "KUBERNETES_SERVICE_PORT must be defined");
        }
        WebhookAuthorizer webhook = new WebhookAuthorizer(io.kapi.webhook.KubeconfigWebhook.fromKubeconfig(
                options.kubeConfigFile(), options.timeout()), options, java.time.Clock.systemUTC());
        return new Mode(webhook, (user, ns) -> new RuleResolver.Rules(List.of(), true), () -> { });
    }

    /** The modes in force: those of {@code --authorization-config}'s authorizers when it is given. */
    public static List<String> effective(List<String> modes, AuthorizationConfig config) {
        if (config.configFile() == null) {
            return modes;
        }
        return AuthorizationConfiguration.read(config.configFile()).authorizers().stream()
                .map(AuthorizationConfiguration.Entry::type).toList();
    }

    /** The chain of {@code modes} that need no stored objects (tests of the filters). */
    public static Authorizer chain(List<String> modes) {
        return build(modes, null, AuthorizationConfig.DEFAULT).authorizer();
    }

    /**
     * Every name known and none twice, checked before any mode starts (RBAC starts watches).
     *
     * @throws IllegalArgumentException for an unknown or repeated mode, with kube-apiserver's wording
     */
    public static void validate(List<String> modes) {
        List<String> seen = new ArrayList<>();
        for (String mode : modes) {
            if (!MODES.containsKey(mode)) {
                throw new IllegalArgumentException("authorization-mode \"%s\" is not a valid mode".formatted(mode));
            }
            if (seen.contains(mode)) {
                throw new IllegalArgumentException("authorization-mode %s has mode specified more than once"
                        .formatted(String.join(",", modes)));
            }
            seen.add(mode);
        }
    }

    /**
     * The chain of {@code modes}, RBAC and Node reading {@code sources}, the others' files named by
     * {@code config}.
     *
     * @throws IllegalArgumentException for an unknown or repeated mode, with kube-apiserver's wording
     */
    public static Chain build(List<String> modes, Sources sources, AuthorizationConfig config) {
        Context context = new Context(sources, config);
        if (config.configFile() != null) {
            return structured(AuthorizationConfiguration.read(config.configFile()), context);
        }
        validate(modes);
        List<Mode> built = new ArrayList<>();
        built.add(privileged(context));
        List<String> missing = new ArrayList<>();
        for (String mode : modes) {
            Function<Context, Mode> factory = MODES.get(mode);
            if (factory == null) {
                missing.add(mode);
            } else {
                built.add(instrumented(factory.apply(context), mode, mode.toLowerCase(java.util.Locale.ROOT), context));
            }
        }
        if (!missing.isEmpty()) {
            LOG.log(Level.WARNING, "Authorization modes {0} are not implemented by Kapi yet; they have no opinion",
                    String.join(",", missing));
            if (built.size() == 1) {
                LOG.log(Level.WARNING, "No implemented authorization mode: every authenticated request is allowed");
                built.add(MODES.get("AlwaysAllow").apply(context));
            }
        }
        return assemble(built, !missing.isEmpty());
    }

    /**
     * The chain {@code --authorization-config} describes: its authorizers in order, each webhook with its
     * own options (privileged users first, as always).
     */
    private static Chain structured(AuthorizationConfiguration configuration, Context context) {
        List<Mode> built = new ArrayList<>();
        built.add(privileged(context));
        for (AuthorizationConfiguration.Entry e : configuration.authorizers()) {
            if (e.webhook() != null) {
                built.add(instrumented(webhook(e.webhook()), e.type(), e.name(), context));
            } else {
                Function<Context, Mode> factory = MODES.get(e.type());
                if (factory == null) { // AuthorizationConfiguration admits only the types MODES builds
                    throw new IllegalStateException("no authorizer is built for the validated type " + e.type());
                }
                built.add(instrumented(factory.apply(context), e.type(), e.name(), context));
            }
        }
        return assemble(built, false);
    }

    /** {@code mode} with its allows and denials told to the sources' {@link Decisions}, as kube's instrumented authorizers. */
    private static Mode instrumented(Mode mode, String type, String name, Context context) {
        Decisions decisions = context.sources() == null ? Decisions.NONE : context.sources().decisions();
        if (decisions == Decisions.NONE) {
            return mode;
        }
        Authorizer inner = mode.authorizer();
        Authorizer counted = attributes -> {
            Decision decision = inner.authorize(attributes);
            if (decision instanceof Decision.Allow) {
                decisions.decided(type, name, "allowed");
            } else if (decision instanceof Decision.Deny) {
                decisions.decided(type, name, "denied");
            }
            return decision;
        };
        return new Mode(counted, mode.rules(), mode.resources(), mode.underlying());
    }

    private static Mode privileged(Context context) {
        return new Mode(AuthorizationModes::privileged, (user, ns) -> user.groups().contains(SystemUsers.MASTERS)
                ? MODES.get("AlwaysAllow").apply(context).rules().rulesFor(user, ns)
                : new RuleResolver.Rules(List.of(), false), () -> { });
    }

    private static Chain assemble(List<Mode> built, boolean incomplete) {
        List<Authorizer> authorizers = built.stream().map(Mode::authorizer).toList();
        List<RuleResolver> resolvers = built.stream().map(Mode::rules).toList();
        RuleResolver rules = (user, ns) -> {
            List<PolicyRule> all = new ArrayList<>();
            boolean partial = incomplete;
            for (RuleResolver r : resolvers) {
                RuleResolver.Rules part = r.rulesFor(user, ns);
                all.addAll(part.rules());
                partial |= part.incomplete();
            }
            return new RuleResolver.Rules(all, partial);
        };
        List<AutoCloseable> resources = built.stream().map(Mode::resources).toList();
        RbacAuthorizer rbac = built.stream().map(Mode::underlying).filter(RbacAuthorizer.class::isInstance)
                .map(RbacAuthorizer.class::cast).findFirst().orElse(null);
        return new Chain(Authorizer.chain(authorizers), rules, () -> {
            for (AutoCloseable c : resources) {
                c.close();
            }
        }, rbac);
    }

    /** kube's privileged-groups authorizer: {@code system:masters} may do anything. */
    private static Decision privileged(AuthorizationAttributes a) {
        UserInfo user = a.user();
        return user != null && user.groups().contains(SystemUsers.MASTERS) ? Decision.allow() : Decision.noOpinion();
    }
}
