package io.kapi.machinery.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.kapi.machinery.regex.GoRegexp;
import java.util.ArrayList;
import java.util.List;

/**
 * Regular expressions in CEL, all Go's RE2 ({@link GoRegexp}): the standard {@code matches} (in place of
 * cel-java's, which lacks Go's limits on a pattern) and kube's regex library, {@code "abc".find("[a-z]")} and
 * {@code findAll(re[, n])}. A pattern that does not compile fails the evaluation with Go's error, after
 * {@code Illegal regex: } for kube's functions.
 */
final class RegexLibrary implements CelLibrary {

    @Override
    public List<CelFunctionDecl> declarations() {
        return List.of(
                newFunctionDeclaration("find", newMemberOverload("string_find_string", SimpleType.STRING,
                        SimpleType.STRING, SimpleType.STRING)),
                newFunctionDeclaration("findAll",
                        newMemberOverload("string_find_all_string", ListType.create(SimpleType.STRING),
                                SimpleType.STRING, SimpleType.STRING),
                        newMemberOverload("string_find_all_string_int", ListType.create(SimpleType.STRING),
                                SimpleType.STRING, SimpleType.STRING, SimpleType.INT)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("matches", String.class, String.class, RegexLibrary::matches),
                CelFunctionBinding.from("matches_string", String.class, String.class, RegexLibrary::matches),
                CelFunctionBinding.from("string_find_string", String.class, String.class, (s, re) -> {
                    Matcher m = compile(re, "Illegal regex: ").matcher(s);
                    return m.find() ? m.group() : "";
                }),
                CelFunctionBinding.from("string_find_all_string", String.class, String.class,
                        (s, re) -> findAll(s, re, -1)),
                CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
                        args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
    }

    private static List<String> findAll(String s, String re, long limit) throws CelEvaluationException {
        List<String> found = new ArrayList<>();
        Matcher m = compile(re, "Illegal regex: ").matcher(s);
        while ((limit < 0 || found.size() < limit) && m.find()) {
            found.add(m.group());
        }
        return found;
    }

    /** cel-go's {@code matches}: whether the pattern matches anywhere in the string (RE2, unanchored). */
    private static boolean matches(String s, String re) throws CelEvaluationException {
        return compile(re, "").matcher(s).find();
    }

    private static Pattern compile(String re, String prefix) throws CelEvaluationException {
        try {
            return GoRegexp.compile(re);
        } catch (GoRegexp.SyntaxError e) {
            throw new CelEvaluationException(prefix + e.getMessage());
        }
    }
}
