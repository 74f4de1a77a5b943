package io.kapi.certs;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;

/**
 * The public point {@code d·G} of an EC private key, for key files that carry no public key (PKCS#8,
 * a SEC1 key without its optional public point), as Go derives it on reading them. Affine
 * double-and-add over the curve's prime field: this reads a key file at start, once, so it needs to
 * be neither fast nor constant-time.
 */
final class EcPoints {

    private static final BigInteger THREE = BigInteger.valueOf(3);

    private EcPoints() {
    }

    static ECPublicKeySpec publicKeySpec(ECPrivateKey key) throws GeneralSecurityException {
        ECParameterSpec params = key.getParams();
        if (!(params.getCurve().getField() instanceof ECFieldFp field)) {
            throw new GeneralSecurityException("EC keys over binary fields are not supported");
        }
        BigInteger p = field.getP();
        BigInteger a = params.getCurve().getA();
        ECPoint result = ECPoint.POINT_INFINITY;
        BigInteger d = key.getS();
        for (int i = d.bitLength() - 1; i >= 0; i--) {
            result = twice(result, a, p);
            if (d.testBit(i)) {
                result = add(result, params.getGenerator(), a, p);
            }
        }
        if (result.equals(ECPoint.POINT_INFINITY)) {
            throw new GeneralSecurityException("the EC private key is not a valid scalar");
        }
        return new ECPublicKeySpec(result, params);
    }

    private static ECPoint add(ECPoint s, ECPoint t, BigInteger a, BigInteger p) {
        if (s.equals(ECPoint.POINT_INFINITY)) {
            return t;
        }
        if (t.equals(ECPoint.POINT_INFINITY)) {
            return s;
        }
        if (s.getAffineX().equals(t.getAffineX())) {
            return s.getAffineY().add(t.getAffineY()).mod(p).signum() == 0 ? ECPoint.POINT_INFINITY : twice(s, a, p);
        }
        BigInteger slope = t.getAffineY().subtract(s.getAffineY())
                .multiply(t.getAffineX().subtract(s.getAffineX()).modInverse(p)).mod(p);
        return line(slope, s, t.getAffineX(), p);
    }

    private static ECPoint twice(ECPoint s, BigInteger a, BigInteger p) {
        if (s.equals(ECPoint.POINT_INFINITY) || s.getAffineY().signum() == 0) {
            return ECPoint.POINT_INFINITY;
        }
        BigInteger x = s.getAffineX();
        BigInteger slope = x.multiply(x).multiply(THREE).add(a)
                .multiply(s.getAffineY().shiftLeft(1).modInverse(p)).mod(p);
        return line(slope, s, x, p);
    }

    /** The third point on the line of {@code slope} through {@code s} and a point at {@code otherX}, reflected. */
    private static ECPoint line(BigInteger slope, ECPoint s, BigInteger otherX, BigInteger p) {
        BigInteger x = slope.multiply(slope).subtract(s.getAffineX()).subtract(otherX).mod(p);
        BigInteger y = slope.multiply(s.getAffineX().subtract(x)).subtract(s.getAffineY()).mod(p);
        return new ECPoint(x, y);
    }
}
