package io.kapi.apis.subresources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.kapi.certs.Pem;
import io.kapi.harness.InMemoryApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceAccountTokenTest {

    @InMemoryApi
    private static Api api;

    @BeforeAll
    static void setUp() {
        api.create("/api/v1/namespaces/default/serviceaccounts", """
                {"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"robot"}}""");
    }

    private static Api.Reply request(String name, String spec) {
        return api.post("/api/v1/namespaces/default/serviceaccounts/" + name + "/token", """
                {"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":%s}""".formatted(spec));
    }

    @Test
    @DisplayName("a token request answers 201 with a signed JWT carrying kube-apiserver's claims")
    void issues() throws Exception {
        Api.Reply reply = request("robot", "{}");
        assertEquals(201, reply.code(), reply.text());
        JsonNode body = reply.body();
        assertEquals("TokenRequest", body.path("kind").asText());
        assertEquals(3600, body.path("spec").path("expirationSeconds").asLong());
        assertEquals(ServiceAccountToken.DEFAULT_ISSUER, body.path("spec").path("audiences").path(0).asText());
        assertTrue(!body.path("status").path("expirationTimestamp").asText().isEmpty());
        SignedJWT jwt = SignedJWT.parse(body.path("status").path("token").asText());
        JWTClaimsSet claims = jwt.getJWTClaimsSet();
        assertEquals(ServiceAccountToken.DEFAULT_ISSUER, claims.getIssuer());
        assertEquals("system:serviceaccount:default:robot", claims.getSubject());
        assertEquals(List.of(ServiceAccountToken.DEFAULT_ISSUER), claims.getAudience());
        assertEquals(3600, (claims.getExpirationTime().getTime() - claims.getIssueTime().getTime()) / 1000);
        assertTrue(claims.getJWTID() != null && claims.getNotBeforeTime() != null);
        Map<String, Object> kubernetes = claims.getJSONObjectClaim("kubernetes.io");
        assertEquals("default", kubernetes.get("namespace"));
        assertEquals("robot", ((Map<?, ?>) kubernetes.get("serviceaccount")).get("name"));
        assertTrue(jwt.getHeader().getKeyID() != null);
        assertTrue(jwt.getPayload().toString().contains("\"aud\":[\""), "aud is an array even with one audience");
    }

    @Test
    @DisplayName("\"spec\": null is the zero spec, as Go decodes it: a default token, not a 500 (fuzzer seed 1796282398251)")
    void nullSpec() throws Exception {
        for (String spec : List.of("null", "{\"audiences\":null,\"expirationSeconds\":null,\"boundObjectRef\":null}")) {
            Api.Reply reply = request("robot", spec);
            assertEquals(201, reply.code(), reply.text());
            assertEquals(3600, reply.body().path("spec").path("expirationSeconds").asLong(), reply.text());
            assertEquals(ServiceAccountToken.DEFAULT_ISSUER, reply.body().path("spec").path("audiences").path(0).asText());
            assertEquals(List.of(ServiceAccountToken.DEFAULT_ISSUER),
                    SignedJWT.parse(reply.body().path("status").path("token").asText()).getJWTClaimsSet().getAudience());
        }
        Api.Reply wrongType = request("robot", "5");
        assertEquals(400, wrongType.code(), wrongType.text());
    }

    @Test
    @DisplayName("audiences, expiration and a bound pod are honoured")
    void boundToPod() throws Exception {
        api.create("/api/v1/namespaces/default/pods", podOf("tokpod", "robot"));
        Api.Reply reply = request("robot", """
                {"audiences":["vault"],"expirationSeconds":7200,
                 "boundObjectRef":{"apiVersion":"v1","kind":"Pod","name":"tokpod"}}""");
        assertEquals(201, reply.code(), reply.text());
        JWTClaimsSet claims = SignedJWT.parse(reply.body().path("status").path("token").asText()).getJWTClaimsSet();
        assertEquals(List.of("vault"), claims.getAudience());
        assertEquals(7200, (claims.getExpirationTime().getTime() - claims.getIssueTime().getTime()) / 1000);
        assertEquals("tokpod", ((Map<?, ?>) claims.getJSONObjectClaim("kubernetes.io").get("pod")).get("name"));
    }

    private static String podOf(String name, String account) {
        return """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},
                 "spec":{"serviceAccountName":"%s","containers":[{"name":"c","image":"nginx"}]}}"""
                .formatted(name, account);
    }

    @Test
    @DisplayName("a pod of another account is 400, a wrong uid 409 and an unknown kind 400, worded as kube-apiserver")
    void boundRefused() {
        api.create("/api/v1/namespaces/default/pods", podOf("other-pod", "default"));
        Api.Reply other = request("robot", """
                {"boundObjectRef":{"apiVersion":"v1","kind":"Pod","name":"other-pod"}}""");
        assertEquals(400, other.code(), other.text());
        assertEquals("cannot bind token for serviceaccount \"robot\" to pod running with different serviceaccount "
                + "name.", other.body().path("message").asText());
        api.create("/api/v1/namespaces/default/pods", podOf("uid-pod", "robot"));
        Api.Reply uid = request("robot", """
                {"boundObjectRef":{"apiVersion":"v1","kind":"Pod","name":"uid-pod","uid":"not-its-uid"}}""");
        assertEquals(409, uid.code(), uid.text());
        assertTrue(uid.body().path("message").asText().contains("the UID in the bound object reference (not-its-uid) "
                + "does not match the UID in record"), uid.text());
        Api.Reply kind = request("robot", """
                {"boundObjectRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"}}""");
        assertEquals(400, kind.code(), kind.text());
        assertEquals("cannot bind token to object of type apps/v1, Kind=Deployment", kind.body().path("message").asText());
    }

    @Test
    @DisplayName("a missing service account is 404 and a short expiration 422, worded as kube-apiserver")
    void refused() {
        Api.Reply missing = request("nobody", "{}");
        assertEquals(404, missing.code());
        assertEquals("serviceaccounts \"nobody\" not found", missing.body().path("message").asText());
        Api.Reply shortLived = request("robot", "{\"expirationSeconds\":60}");
        assertEquals(422, shortLived.code());
        assertEquals("TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: Invalid value: 60: "
                + "may not specify a duration less than 10 minutes", shortLived.body().path("message").asText());
    }

    @Test
    @DisplayName("the signing key is generated once into the data directory and verifies what it signed")
    void keyPersists(@TempDir Path dir) throws Exception {
        ServiceAccountKeys first = ServiceAccountKeys.inDirectory(dir);
        ServiceAccountKeys again = ServiceAccountKeys.inDirectory(dir);
        assertEquals(first.keyId(), again.keyId());
        assertTrue(Files.exists(dir.resolve(ServiceAccountKeys.PUBLIC_FILE)));
        assertTrue(first.publicJwks().contains(first.keyId()));
        SignedJWT jwt = new SignedJWT(new com.nimbusds.jose.JWSHeader(first.algorithm()),
                new JWTClaimsSet.Builder().subject("x").build());
        jwt.sign(first.signer());
        assertEquals(com.nimbusds.jose.JWSAlgorithm.ES256, again.algorithm());
        assertTrue(jwt.verify(new com.nimbusds.jose.crypto.ECDSAVerifier(
                (java.security.interfaces.ECPublicKey) again.publicKey())));
        assertEquals(again.publicKey(), Pem.publicKeys(Files.readString(dir.resolve(ServiceAccountKeys.PUBLIC_FILE)))
                .getFirst());
        // the file is also what --service-account-signing-key-file reads, the public half derived from it
        assertEquals(first.keyId(), ServiceAccountKeys.fromFile(dir.resolve(ServiceAccountKeys.PRIVATE_FILE)).keyId());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"secp384r1, ES384, P-384", "secp521r1, ES512, P-521"})
    @DisplayName("a P-384 or P-521 --service-account-signing-key-file signs with its curve's algorithm, which its JWK names")
    void largerCurves(String curve, String algorithm, String crv, @TempDir Path dir) throws Exception {
        var generator = java.security.KeyPairGenerator.getInstance("EC");
        generator.initialize(new java.security.spec.ECGenParameterSpec(curve));
        var pair = generator.generateKeyPair();
        Path file = dir.resolve("sa.key");
        Files.writeString(file, "-----BEGIN PRIVATE KEY-----\n"
                + java.util.Base64.getMimeEncoder().encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        ServiceAccountKeys keys = ServiceAccountKeys.fromFile(file);
        assertEquals(algorithm, keys.algorithm().getName());
        assertEquals(pair.getPublic(), keys.publicKey());
        SignedJWT jwt = SignedJWT.parse(keys.sign(io.kapi.machinery.Json.object().put("sub", "x")));
        assertEquals(algorithm, jwt.getHeader().getAlgorithm().getName());
        assertTrue(jwt.verify(new com.nimbusds.jose.crypto.ECDSAVerifier(
                (java.security.interfaces.ECPublicKey) pair.getPublic())));
        JsonNode jwk = io.kapi.machinery.Json.MAPPER.readTree(keys.publicJwks()).path("keys").path(0);
        assertEquals(crv, jwk.path("crv").asText());
        assertEquals(algorithm, jwk.path("alg").asText());
    }

    @Test
    @DisplayName("an EC signing key on a curve tokens are not signed with is refused when it is read")
    void otherCurveRefused(@TempDir Path dir) throws Exception {
        var generator = java.security.KeyPairGenerator.getInstance("EC",
                new org.bouncycastle.jce.provider.BouncyCastleProvider());
        generator.initialize(new java.security.spec.ECGenParameterSpec("secp256k1"));
        Path file = dir.resolve("sa.key");
        Files.writeString(file, "-----BEGIN PRIVATE KEY-----\n"
                + java.util.Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ServiceAccountKeys.fromFile(file));
        assertTrue(e.getMessage().contains("an EC key must be on P-256, P-384 or P-521"), e.getMessage());
    }

    @Test
    @DisplayName("an RSA signing key an earlier Kapi wrote into the data directory is kept and signs RS256")
    void earlierRsaKeyIsKept(@TempDir Path dir) throws Exception {
        var generator = java.security.KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        var pair = generator.generateKeyPair();
        Files.writeString(dir.resolve(ServiceAccountKeys.PRIVATE_FILE), "-----BEGIN PRIVATE KEY-----\n"
                + java.util.Base64.getMimeEncoder().encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        ServiceAccountKeys keys = ServiceAccountKeys.inDirectory(dir);
        assertEquals(com.nimbusds.jose.JWSAlgorithm.RS256, keys.algorithm());
        assertEquals(pair.getPublic(), keys.publicKey());
        SignedJWT jwt = new SignedJWT(new com.nimbusds.jose.JWSHeader(keys.algorithm()),
                new JWTClaimsSet.Builder().subject("x").build());
        jwt.sign(keys.signer());
        assertTrue(jwt.verify(new RSASSAVerifier((java.security.interfaces.RSAPublicKey) pair.getPublic())));
    }
}
