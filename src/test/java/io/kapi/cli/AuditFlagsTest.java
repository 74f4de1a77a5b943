package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The --audit-* flags: acted on, checked as kube-apiserver checks them, a bad policy stopping the start. */
@DisplayName("audit flags")
final class AuditFlagsTest {

    @TempDir
    Path dir;

    @Test
    @DisplayName("a policy that is not valid stops the start with kube-apiserver's words, before anything is made")
    void invalidPolicyStopsStart() throws IOException {
        Path policy = Files.writeString(dir.resolve("policy.yaml"),
                "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(List.of("--audit-policy-file=" + policy, "--data-dir=" + dir.resolve("data"),
                "--storage-backend=memory"), System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, code);
        assertEquals("Error: loaded illegal policy with 1 rules from file " + policy + ": rules[0].level: Unsupported "
                + "value: \"Loud\": supported values: \"None\", \"Metadata\", \"Request\", \"RequestResponse\"\n",
                err.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(dir.resolve("data")));
    }

    @Test
    @DisplayName("modes and formats are checked as kube-apiserver's Validate words them; the flags are implemented")
    void validation() throws Exception {
        String errors = org.junit.jupiter.api.Assertions.assertThrows(FlagParser.FlagException.class, () ->
                FlagParser.parse(List.of("--audit-log-mode=fast", "--audit-log-format=xml",
                        "--audit-webhook-mode=blocking", "--audit-log-maxage=-1"))).getMessage();
        assertTrue(errors.contains("invalid audit log mode fast, allowed modes are \"batch,blocking,blocking-strict\""), errors.toString());
        assertTrue(errors.contains("invalid audit log format xml, allowed formats are \"legacy,json\""), errors.toString());
        assertTrue(errors.contains("--audit-log-maxage -1 can't be a negative number"), errors.toString());
        assertTrue(Flags.ALL.stream().filter(f -> f.name().startsWith("audit-")).allMatch(Flag::implemented));
    }
}
