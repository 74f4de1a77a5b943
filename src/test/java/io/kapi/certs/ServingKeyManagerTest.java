package io.kapi.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The serving key manager offers its key for the key types SunX509's would, and no client key. */
class ServingKeyManagerTest {

    @Test
    void servesTheKeysAlgorithmAndAChainSignedAsAsked() throws Exception {
        TestCertificates.Cert ca = TestCertificates.ca("ca");
        TestCertificates.Cert leaf = TestCertificates.client(ca, "server", List.of());
        String algorithm = leaf.key().getAlgorithm();
        ServingKeyManager keys = new ServingKeyManager(leaf.key(), List.of(leaf.certificate(), ca.certificate()));
        String signer = ca.certificate().getPublicKey().getAlgorithm();

        assertTrue(keys.serves(algorithm));
        assertTrue(keys.serves(algorithm + "_" + signer));
        assertFalse(keys.serves(algorithm + "_DSA"));
        assertFalse(keys.serves("RSASSA-PSS".equals(algorithm) ? "RSA" : "RSASSA-PSS"));
        assertFalse(keys.serves(null));
        assertEquals(ServingKeyManager.ALIAS, keys.chooseServerAlias(algorithm, null, null));
        assertEquals(ServingKeyManager.ALIAS, keys.chooseEngineServerAlias(algorithm, null, null));
        assertArrayEquals(new String[] {ServingKeyManager.ALIAS}, keys.getServerAliases(algorithm, null));
        assertNull(keys.chooseServerAlias("Ed25519", null, null));
        assertArrayEquals(new Object[] {leaf.certificate(), ca.certificate()}, keys.getCertificateChain(ServingKeyManager.ALIAS));
        assertEquals(leaf.key(), keys.getPrivateKey(ServingKeyManager.ALIAS));
        assertNull(keys.getPrivateKey("other"));
        assertNull(keys.getCertificateChain("other"));
        assertNull(keys.chooseClientAlias(new String[] {algorithm}, null, null));
        assertNull(keys.getClientAliases(algorithm, null));
    }

    @Test
    void aSelfSignedChainIsMatchedByItsSignatureAlgorithm() throws Exception {
        TestCertificates.Cert self = TestCertificates.ca("self");
        String algorithm = self.key().getAlgorithm();
        ServingKeyManager keys = new ServingKeyManager(self.key(), List.of(self.certificate()));
        String signer = algorithm.equals("EC") ? "ECDSA" : algorithm;

        assertTrue(keys.serves(algorithm + "_" + signer), self.certificate().getSigAlgName());
        assertFalse(keys.serves(algorithm + "_DSA"));
    }
}
